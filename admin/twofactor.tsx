// The second factor in the browser: setting up an authenticator
// (the server's QR code and the secret as text, one code to confirm) and
// the ten recovery codes, shown once. The gate uses both for an admin's
// first sign-in; the Sessions screen uses them for staff who choose to
// enrol and for anyone replacing a lost phone.
import "../styles/admin-signin.css";
import { useEffect, useId, useRef, useState } from "react";
import { api, ApiError } from "./api";
import type * as wire from "./api.gen";
import type { Session } from "./session";
import { useToast } from "./toast";
import { Button } from "./ui";

/** Enrolment is POST /api/admin/2fa/start's answer. */
type Enrolment = wire.Enrolment;

/** ConfirmResult is POST /api/admin/2fa/confirm's answer: a LoginResult
 * at the full stage, with the new recovery codes. */
type ConfirmResult = wire.LoginResult;

/** cleanCode keeps the digits of what was typed or pasted ("123 456"). */
export const cleanCode = (v: string) => v.replace(/[\s-]/g, "");

/** errText is the server's message, or a connection hint. */
export const errText = (err: unknown, fallback: string) =>
  err instanceof ApiError && err.status !== 0 && err.message ? err.message : err instanceof ApiError && err.status === 0 ? err.message : fallback;

/** groups shows a base32 secret in groups of four, as apps ask for it. */
const groups = (s: string) => s.replace(/(.{4})/g, "$1 ").trim();

/** copyText puts text on the clipboard; false when the browser refused. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Enrol asks the server for a new authenticator secret, shows its QR code
 * and the secret as text, and confirms one code before the server turns
 * the second factor on. A first authenticator needs the account's
 * password again (the server checks it, counted like a sign-in's): the
 * gate passes the one just typed; otherwise Enrol asks for it. */
export function Enrol({ onEnrolled, idPrefix = "enrol", currentCode, password }: {
  onEnrolled: (s: Session, codes: string[]) => void; idPrefix?: string;
  /** currentCode: a code of the authenticator being replaced (the server asks for it). */
  currentCode?: string;
  /** password: the password the person signed in with a moment ago (the gate's). */
  password?: string;
}) {
  const toast = useToast();
  const [data, setData] = useState<Enrolment | null>(null);
  const [loadError, setLoadError] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const started = useRef(false);
  // askPassword: a first authenticator, and no password at hand.
  const [askPassword, setAskPassword] = useState(!currentCode && !password);
  const [pw, setPw] = useState("");
  const [pwError, setPwError] = useState("");
  const pwInput = useRef<HTMLInputElement>(null);

  const start = async (pass = password) => {
    setLoadError("");
    try {
      const body = currentCode ? { code: currentCode } : { password: pass };
      setData(await api<Enrolment>("/api/admin/2fa/start", { method: "POST", body: JSON.stringify(body) }));
      setAskPassword(false);
    } catch (err) {
      if (!currentCode && err instanceof ApiError && (err.status === 401 || err.status === 429)) {
        // A wrong password (or too many): ask for it here.
        setAskPassword(true);
        setPwError(errText(err, "That password is not right."));
        setPw("");
        setTimeout(() => pwInput.current?.focus());
        return;
      }
      setLoadError(errText(err, "The set-up could not be started."));
    }
  };
  useEffect(() => {
    if (started.current || askPassword) return;
    started.current = true;
    start();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once

  const submitPassword = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!pw) {
      setPwError("Enter your password.");
      pwInput.current?.focus();
      return;
    }
    setBusy(true);
    setPwError("");
    await start(pw);
    setBusy(false);
  };

  if (askPassword && !data) {
    return (
      <form className="a-2fa" onSubmit={submitPassword} noValidate aria-label="Confirm your password">
        <p className="a-2fa__step">First, confirm it is you: enter the password you sign in with.</p>
        <label htmlFor={idPrefix + "-password"} className="a-label">Your password</label>
        <input ref={pwInput} id={idPrefix + "-password"} type="password" className="a-input" autoComplete="current-password" value={pw}
          onChange={(e) => setPw(e.target.value)} maxLength={1024} required data-autofocus
          aria-invalid={!!pwError} aria-describedby={pwError ? idPrefix + "-password-error" : undefined} />
        {pwError && <p id={idPrefix + "-password-error"} className="a-error" role="alert">{pwError}</p>}
        <button type="submit" className="a-btn a-btn--primary a-btn--block" disabled={busy}>{busy ? "Checking..." : "Continue"}</button>
      </form>
    );
  }

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const c = cleanCode(code);
    if (!/^\d{6}$/.test(c)) {
      setError("Enter the 6-digit code your app shows.");
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError("");
    try {
      const res = await api<ConfirmResult>("/api/admin/2fa/confirm", { method: "POST", body: JSON.stringify({ code: c }) });
      onEnrolled(res.session, res.recoveryCodes || []);
    } catch (err) {
      setError(errText(err, "That code is not valid. Try the newest code from your app."));
      setCode("");
      setBusy(false);
      input.current?.focus();
    }
  };

  const copySecret = async () => {
    if (!data) return;
    const ok = await copyText(data.secret);
    toast(ok ? { title: "Key copied", description: "Paste it into your authenticator app." }
      : { title: "Copy failed", description: "Select the key and copy it yourself.", variant: "destructive" });
  };

  if (loadError) {
    return (
      <div className="a-2fa">
        <p className="a-error" role="alert">{loadError}</p>
        <Button variant="outline" onClick={() => start()}>Try again</Button>
      </div>
    );
  }
  if (!data) return <p className="a-2fa" role="status">Preparing your authenticator set-up...</p>;
  return (
    <div className="a-2fa">
      <ol className="a-2fa__steps">
        <li>
          <p className="a-2fa__step">Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password or similar).</p>
          {/* The server draws the QR code (SVG); an <img> shows it without
              putting its markup into the page. */}
          <img className="a-2fa__qr" src={"data:image/svg+xml;utf8," + encodeURIComponent(data.qrSvg)} width={200} height={200}
            alt="QR code for your authenticator app" />
          <p className="a-2fa__step">Cannot scan it? Enter this key in the app instead:</p>
          <div className="a-2fa__secret">
            <code id={idPrefix + "-secret"}>{groups(data.secret)}</code>
            <Button variant="outline" className="a-btn a-btn--outline a-2fa__copy" onClick={copySecret} aria-describedby={idPrefix + "-secret"}>Copy key</Button>
          </div>
          {data.uri && <p className="a-muted a-2fa__small">On this phone? <a href={data.uri}>Open it in your authenticator app</a>.</p>}
        </li>
        <li>
          <form onSubmit={submit} noValidate aria-label="Confirm your authenticator">
            <label htmlFor={idPrefix + "-code"} className="a-label a-2fa__step">Enter the 6-digit code the app shows</label>
            <input ref={input} id={idPrefix + "-code"} name="code" className="a-input a-2fa__code" value={code} onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code" inputMode="numeric" pattern="[0-9 ]*" maxLength={7} spellCheck={false}
              aria-invalid={!!error} aria-describedby={error ? idPrefix + "-error" : undefined} required />
            {error && <p id={idPrefix + "-error"} className="a-error" role="alert">{error}</p>}
            <button type="submit" className="a-btn a-btn--primary a-btn--block" disabled={busy}>{busy ? "Checking..." : "Turn on two-factor"}</button>
          </form>
        </li>
      </ol>
    </div>
  );
}

/** RecoveryCodes shows the ten recovery codes once, with Copy and Download,
 * and lets the person go on only after saying they saved them. Leaving the
 * page before that asks first: the codes cannot be shown again. */
export function RecoveryCodes({ codes, email, onDone, doneLabel = "Continue" }: { codes: string[]; email: string; onDone: () => void; doneLabel?: string }) {
  const toast = useToast();
  const ids = useId();
  const [saved, setSaved] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (saved) return;
    const warn = (e: BeforeUnloadEvent) => { e.preventDefault(); e.returnValue = ""; };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [saved]);
  const text = `Recovery codes for the website admin${email ? ` (${email})` : ""}.\nEach code works once, in place of the code from your authenticator app.\n\n${codes.join("\n")}\n`;
  const copy = async () => {
    if (await copyText(text)) {
      toast({ title: "Codes copied", description: "Paste them somewhere safe, such as your password manager." });
      return;
    }
    const sel = window.getSelection();
    if (sel && list.current) { sel.removeAllRanges(); const r = document.createRange(); r.selectNodeContents(list.current); sel.addRange(r); }
    toast({ title: "Copy failed", description: "The codes are selected: copy them yourself.", variant: "destructive" });
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "admin-recovery-codes.txt";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <div className="a-2fa">
      <p>If you lose your phone, each of these codes lets you sign in once instead of the code from the app. <strong>They are shown only this once.</strong></p>
      <ol ref={list} className="a-2fa__codes" aria-label="Recovery codes">
        {codes.map((c) => <li key={c}><code>{c}</code></li>)}
      </ol>
      <div className="a-row a-2fa__actions">
        <Button variant="outline" onClick={copy}>Copy codes</Button>
        <Button variant="outline" onClick={download}>Download codes</Button>
      </div>
      <label className="a-switch a-2fa__saved" htmlFor={ids + "saved"}>
        <input id={ids + "saved"} type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        <span>I have saved these codes</span>
      </label>
      <button type="button" className="a-btn a-btn--primary a-btn--block" disabled={!saved} onClick={onDone}>{doneLabel}</button>
    </div>
  );
}
