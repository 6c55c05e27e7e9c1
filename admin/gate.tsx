import "../styles/admin-signin.css";
import { useEffect, useRef, useState } from "react";
import { Icon } from "../components/icons";
import { api, ApiError, beginSession, endSession } from "./api";
import type { Session } from "./session";
import { useToast } from "./toast";
import { cleanCode, Enrol, errText, RecoveryCodes } from "./twofactor";
import type * as wire from "./api.gen";

/** LoginResult is POST /api/admin/login's (and /login/totp's) answer. */
type LoginResult = wire.LoginResult;

type Step =
  | { kind: "choose" }
  | { kind: "totp"; session: Session }
  | { kind: "enrol"; session: Session }
  | { kind: "codes"; session: Session; codes: string[] };

/** stepFor is where a half-signed-in account resumes (a reload between
 * the password and the code). */
const stepFor = (s: Session | null | undefined): Step =>
  s && s.kind === "account" && s.stage === "totp" ? { kind: "totp", session: s } : s && s.kind === "account" && s.stage === "enrol" ? { kind: "enrol", session: s } : { kind: "choose" };

/** Gate is the way in (spec 2.4, ADR 030): the PIN form exactly as the
 * spec has it, and below it 'Sign in with your account' (email and
 * password, then the code from an authenticator app, or setting one up).
 * The server checks everything; the gate only walks through its steps.
 *
 * resume: a session between its password and its code (after a reload).
 * focusAccount: start in the account form (a screen only an account opens).
 * accountHint: why the account sign-in is needed, shown above its form.
 * checking: the app is still asking whether a session is already live. */
export function Gate({ onSignedIn, resume, focusAccount, accountHint, checking }: {
  onSignedIn: (s: Session) => void; resume?: Session | null; focusAccount?: boolean; accountHint?: string; checking?: boolean;
}) {
  const [step, setStep] = useState<Step>(() => stepFor(resume));
  // signInPassword: the password just typed, kept in memory only until a
  // first authenticator is set up (the server asks for it again).
  const signInPassword = useRef("");
  useEffect(() => { if (resume) setStep(stepFor(resume)); }, [resume]);
  const toast = useToast();
  const welcome = (s: Session) => {
    beginSession(null);
    toast({ title: "Signed in", description: `Welcome, ${s.name || s.email}.` });
    onSignedIn(s);
  };
  const restart = () => {
    signInPassword.current = "";
    endSession();
    setStep({ kind: "choose" });
  };
  return (
    <main className={"a-gate" + (checking ? " a-gate--checking" : "")} aria-busy={checking || undefined}>
      {step.kind === "choose" ? (
        <Choose onSignedIn={onSignedIn} focusAccount={focusAccount} accountHint={accountHint}
          onAccount={(r, pw) => { signInPassword.current = r.stage === "enrol" ? pw : ""; if (r.stage === "full") welcome(r.session); else setStep(stepFor(r.session)); }} />
      ) : step.kind === "totp" ? (
        <CodeStep session={step.session} onDone={(r) => (r.stage === "full" ? welcome(r.session) : setStep(stepFor(r.session)))} onCancel={restart} />
      ) : step.kind === "enrol" ? (
        <StepCard title="Set up two-factor authentication" wide onCancel={restart}>
          <p className="a-gate__text">Admin accounts sign in with a second step: a 6-digit code from an authenticator app on your phone. Set it up once now.</p>
          <Enrol idPrefix="gate-enrol" password={signInPassword.current || undefined}
            onEnrolled={(s, codes) => { signInPassword.current = ""; setStep({ kind: "codes", session: s, codes }); }} />
        </StepCard>
      ) : (
        <StepCard title="Save your recovery codes" wide>
          <RecoveryCodes codes={step.codes} email={step.session.email} onDone={() => welcome(step.session)} doneLabel="Continue to the admin" />
        </StepCard>
      )}
    </main>
  );
}

/** StepCard is one step after the password: its heading takes the focus
 * so a screen reader starts there. */
function StepCard({ title, wide, onCancel, children }: { title: string; wide?: boolean; onCancel?: () => void; children: React.ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => { heading.current?.focus(); }, [title]);
  return (
    <section className={"a-gate__card" + (wide ? " a-gate__card--wide" : "")} aria-labelledby="gate-step-title">
      <div className="a-gate__icon"><Icon name="shield" size={40} /></div>
      <h1 id="gate-step-title" ref={heading} tabIndex={-1} className="a-gate__title">{title}</h1>
      {children}
      {onCancel && <p className="a-gate__back"><button type="button" className="a-linkbtn" onClick={onCancel}>Use a different account</button></p>}
    </section>
  );
}

/** Choose is the first screen: the PIN (spec 2.4, unchanged) and the
 * account sign-in. */
function Choose({ onSignedIn, onAccount, focusAccount, accountHint }: {
  onSignedIn: (s: Session) => void; onAccount: (r: LoginResult, password: string) => void; focusAccount?: boolean; accountHint?: string;
}) {
  const [pin, setPin] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const toast = useToast();
  useEffect(() => { (focusAccount ? emailRef : input).current?.focus(); }, [focusAccount]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError("");
    let session: Session;
    let unlocked = false;
    try {
      const res = await api<wire.UnlockResult>("/api/admin/unlock", { method: "POST", body: JSON.stringify({ pin }) });
      beginSession(res.token);
      unlocked = true;
      session = await api<Session>("/api/admin/session");
    } catch (err) {
      // Unlocked but the session could not be read: end it rather than
      // leave a live token behind a locked screen.
      if (unlocked) endSession();
      const msg = err instanceof ApiError && err.status === 429 ? err.message : err instanceof ApiError && err.status === 401 ? "Incorrect PIN entered." : (err as Error).message;
      setError(msg);
      setPin("");
      toast({ title: "Access denied", description: msg, variant: "destructive" });
      setBusy(false);
      input.current?.focus();
      return;
    }
    sessionStorage.setItem("admin_authenticated", "true");
    toast({ title: "Access granted", description: "Welcome to the admin panel." });
    onSignedIn(session);
  };
  return (
    <div className="a-gate__card">
      <form onSubmit={submit} aria-labelledby="gate-title">
        <div className="a-gate__icon"><Icon name="shield" size={40} /></div>
        <h1 id="gate-title" className="a-gate__title">Admin Access Required</h1>
        <p className="a-gate__text">Enter your PIN to access the admin panel</p>
        <label htmlFor="admin-pin" className="a-label">PIN</label>
        <input ref={input} id="admin-pin" name="pin" type="password" inputMode="numeric" autoComplete="current-password"
          className="a-input" value={pin} onChange={(e) => setPin(e.target.value)} aria-invalid={!!error}
          aria-describedby={error ? "gate-error" : undefined} maxLength={64} required />
        {error && <p id="gate-error" className="a-error" role="alert">{error}</p>}
        <button type="submit" className="a-btn a-btn--primary a-btn--block" disabled={busy || pin === ""}>{busy ? "Checking..." : "Unlock"}</button>
        <noscript><p className="a-error">The admin area needs JavaScript.</p></noscript>
      </form>
      <p className="a-gate__or"><span>or</span></p>
      <AccountForm emailRef={emailRef} onResult={onAccount} hint={accountHint} />
      <p className="a-gate__back"><a href="/">Back to the website</a></p>
    </div>
  );
}

/** AccountForm asks for the account's email and password. Errors are the
 * server's ('Invalid email or password', the lockout message). */
function AccountForm({ emailRef, onResult, hint }: { emailRef: React.RefObject<HTMLInputElement>; onResult: (r: LoginResult, password: string) => void; hint?: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const passRef = useRef<HTMLInputElement>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!email.trim() || !password) {
      setError("Enter your email and password.");
      (email.trim() ? passRef : emailRef).current?.focus();
      return;
    }
    setBusy(true);
    setError("");
    try {
      const res = await api<LoginResult>("/api/admin/login", { method: "POST", body: JSON.stringify({ email: email.trim(), password }) });
      setPassword("");
      onResult(res, password);
    } catch (err) {
      setError(errText(err, "Sign-in failed. Check your connection and try again."));
      setPassword("");
      setBusy(false);
      passRef.current?.focus();
    }
  };
  return (
    <section className="a-gate__account" aria-labelledby="account-signin-title">
      <h2 id="account-signin-title" className="a-gate__subtitle">Sign in with your account</h2>
      <p className="a-gate__text">Staff and admins: your email and password, then the code from your authenticator app if your account has one.</p>
      {hint && <p className="a-gate__hint" id="account-signin-hint">{hint}</p>}
      <form onSubmit={submit} noValidate aria-labelledby="account-signin-title" aria-describedby={hint ? "account-signin-hint" : undefined}>
        <div className="a-field">
          <label htmlFor="account-email" className="a-label">Email</label>
          <input ref={emailRef} id="account-email" name="email" type="email" autoComplete="username" className="a-input" value={email}
            onChange={(e) => setEmail(e.target.value)} maxLength={254} required aria-invalid={!!error} aria-describedby={error ? "account-signin-error" : undefined} />
        </div>
        <div className="a-field">
          <label htmlFor="account-password" className="a-label">Password</label>
          <input ref={passRef} id="account-password" name="password" type="password" autoComplete="current-password" className="a-input" value={password}
            onChange={(e) => setPassword(e.target.value)} maxLength={1024} required aria-invalid={!!error} aria-describedby={error ? "account-signin-error" : undefined} />
        </div>
        {error && <p id="account-signin-error" className="a-error" role="alert">{error}</p>}
        <button type="submit" className="a-btn a-btn--primary a-btn--block" disabled={busy}>{busy ? "Signing in..." : "Sign in"}</button>
      </form>
    </section>
  );
}

/** CodeStep asks for the 6-digit code from the authenticator app, or a
 * recovery code instead. */
function CodeStep({ session, onDone, onCancel }: { session: Session; onDone: (r: LoginResult) => void; onCancel: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const toast = useToast();
  // The field takes the focus (after StepCard gave it to the heading, as
  // child effects run first), and again when switching to a recovery code.
  useEffect(() => { input.current?.focus(); }, [recovery]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const v = recovery ? value.trim() : cleanCode(value);
    if (recovery ? v === "" : !/^\d{6}$/.test(v)) {
      setError(recovery ? "Enter one of your recovery codes." : "Enter the 6-digit code your app shows.");
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError("");
    try {
      const res = await api<LoginResult>("/api/admin/login/totp", { method: "POST", body: JSON.stringify(recovery ? { recoveryCode: v } : { code: v }) });
      if (recovery && typeof res.recoveryCodesLeft === "number") {
        const n = res.recoveryCodesLeft;
        toast({ title: "Recovery code used", description: `${n} recovery ${n === 1 ? "code" : "codes"} left. Set up your authenticator again from Sessions if you lost it.`, variant: n <= 2 ? "destructive" : "default" });
      }
      onDone(res);
    } catch (err) {
      setError(errText(err, "That code could not be checked. Try again."));
      setValue("");
      setBusy(false);
      input.current?.focus();
    }
  };
  const id = recovery ? "gate-recovery" : "gate-code";
  return (
    <StepCard title="Enter your authentication code" onCancel={onCancel}>
      <p className="a-gate__text">
        {recovery ? "Enter one of the recovery codes you saved when you set up two-factor authentication. Each works once."
          : <>Open your authenticator app and enter the 6-digit code for {session.email || "your account"}.</>}
      </p>
      <form onSubmit={submit} noValidate aria-labelledby="gate-step-title">
        <label htmlFor={id} className="a-label">{recovery ? "Recovery code" : "6-digit code"}</label>
        {recovery ? (
          <input ref={input} key="recovery" id={id} name="recoveryCode" className="a-input a-2fa__code" value={value} onChange={(e) => setValue(e.target.value)}
            autoComplete="off" autoCapitalize="none" spellCheck={false} maxLength={32}
            aria-invalid={!!error} aria-describedby={error ? "gate-code-error" : undefined} required />
        ) : (
          <input ref={input} key="code" id={id} name="code" className="a-input a-2fa__code" value={value} onChange={(e) => setValue(e.target.value)}
            autoComplete="one-time-code" inputMode="numeric" pattern="[0-9 ]*" maxLength={7} spellCheck={false}
            aria-invalid={!!error} aria-describedby={error ? "gate-code-error" : undefined} required />
        )}
        {error && <p id="gate-code-error" className="a-error" role="alert">{error}</p>}
        <button type="submit" className="a-btn a-btn--primary a-btn--block" disabled={busy}>{busy ? "Checking..." : "Verify"}</button>
      </form>
      <p className="a-gate__back">
        <button type="button" className="a-linkbtn" onClick={() => { setRecovery((r) => !r); setValue(""); setError(""); }}>
          {recovery ? "Use the code from your app instead" : "Use a recovery code instead"}
        </button>
      </p>
    </StepCard>
  );
}
