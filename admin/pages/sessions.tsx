import { useEffect, useRef, useState } from "react";
import { api } from "../api";
import type * as wire from "../api.gen";
import { ActiveSessions } from "../active-sessions";
import { useSession } from "../use-session";
import { cleanCode, Enrol, errText, RecoveryCodes } from "../twofactor";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, PageHeader } from "../ui";
import { useResource } from "../use-resource";

/** Sessions is every signed-in person's own screen: where they
 * are signed in (everyone's sessions for the PIN and admins), and for an
 * account its second factor. */
export default function Sessions(_: AdminPageProps) {
  const { session } = useSession();
  return (
    <>
      <PageHeader title="Sessions" description={session.kind === "pin"
        ? "Signed in with the admin PIN. Everyone signed in to the admin area is listed below."
        : `Signed in as ${session.name ? `${session.name} (${session.email})` : session.email}.`} />
      {session.kind === "account" && <TwoFactorCard />}
      {session.kind === "account" && session.twoFactor && <RecoveryCodesCard />}
      <ActiveSessions />
    </>
  );
}

/** TwoFactorCard shows whether the account has an authenticator and sets
 * one up (staff may; admins did at their first sign-in and may replace it). */
function TwoFactorCard() {
  const { session, update } = useSession();
  const toast = useToast();
  const [mode, setMode] = useState<{ kind: "idle" } | { kind: "confirm" } | { kind: "enrol"; current?: string } | { kind: "codes"; codes: string[] }>({ kind: "idle" });
  const [current, setCurrent] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (mode.kind !== "idle") { heading.current?.focus(); moved.current = true; }
    else if (moved.current) opener.current?.focus();
  }, [mode.kind]);
  const on = session.twoFactor;
  return (
    <Card title={<>Two-factor authentication <Badge tone={on ? "good" : "neutral"}>{on ? "On" : "Off"}</Badge></>}
      description={on ? "You sign in with your password and a 6-digit code from your authenticator app."
        : "Add a second step to your sign-in: a 6-digit code from an authenticator app on your phone. A stolen password alone then cannot open the admin."}>
      {mode.kind === "idle" ? (
        <button ref={opener} type="button" className={"a-btn " + (on ? "a-btn--outline" : "a-btn--primary")} onClick={() => { setCurrent(""); setMode(on ? { kind: "confirm" } : { kind: "enrol" }); }}>
          {on ? "Set up a new authenticator" : "Set up two-factor authentication"}
        </button>
      ) : mode.kind === "confirm" ? (
        <form onSubmit={(e) => { e.preventDefault(); if (/^\d{6}$/.test(current.replace(/\s/g, ""))) setMode({ kind: "enrol", current: current.replace(/\s/g, "") }); }}>
          <h3 ref={heading} tabIndex={-1} className="a-h3">Confirm with your current app</h3>
          <p className="a-muted">To move two-factor authentication to a new phone, enter a code from the app you use now. Lost the phone? Ask an admin to reset your two-factor authentication.</p>
          <label htmlFor="acct-current-code" className="a-label">Current 6-digit code</label>
          <input id="acct-current-code" className="a-input" inputMode="numeric" autoComplete="one-time-code" maxLength={7}
            value={current} onChange={(e) => setCurrent(e.target.value)} required />
          <div className="a-row">
            <button type="submit" className="a-btn a-btn--primary">Continue</button>
            <Button variant="ghost" onClick={() => setMode({ kind: "idle" })}>Cancel</Button>
          </div>
        </form>
      ) : mode.kind === "enrol" ? (
        <>
          <h3 ref={heading} tabIndex={-1} className="a-h3">Set up your authenticator</h3>
          {on && <p className="a-muted">Your current app and recovery codes keep working until the new app's code is confirmed.</p>}
          <Enrol idPrefix="acct-enrol" currentCode={mode.current} onEnrolled={(s, codes) => { update(s); setMode({ kind: "codes", codes }); }} />
          <Button variant="ghost" onClick={() => setMode({ kind: "idle" })}>Cancel</Button>
        </>
      ) : (
        <>
          <h3 ref={heading} tabIndex={-1} className="a-h3">Save your recovery codes</h3>
          <RecoveryCodes codes={mode.codes} email={session.email} doneLabel="Done" onDone={() => {
            setMode({ kind: "idle" });
            toast({ title: "Two-factor authentication on", description: "From now on you sign in with a code from your app." });
          }} />
        </>
      )}
    </Card>
  );
}

/** FEW_CODES: at or below this many recovery codes left, the card warns. */
const FEW_CODES = 2;

/** RecoveryCodesCard shows how many recovery codes the account has left
 * (the server counts them) and makes a new set after a current code from
 * the authenticator app: the old codes stop working at once and the new
 * ones are shown once. */
function RecoveryCodesCard() {
  const { session } = useSession();
  const toast = useToast();
  const codesLeft = useResource(() => api<wire.RecoveryCodesInfo>("/api/admin/2fa/recovery-codes").then((r) => r.left), []);
  const left = codesLeft.data;
  const loadError = codesLeft.error ? errText(codesLeft.error, "The recovery codes could not be counted.") : "";
  const [mode, setMode] = useState<{ kind: "idle" } | { kind: "code" } | { kind: "codes"; codes: string[] }>({ kind: "idle" });
  const [code, setCode] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (mode.kind !== "idle") { heading.current?.focus(); moved.current = true; }
    else if (moved.current) opener.current?.focus();
  }, [mode.kind]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const c = cleanCode(code);
    if (!/^\d{6}$/.test(c)) {
      setError("Enter the 6-digit code your app shows now.");
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError("");
    try {
      const res = await api<wire.LoginResult>("/api/admin/2fa/recovery-codes", { method: "POST", body: JSON.stringify({ code: c }) });
      setMode({ kind: "codes", codes: res.recoveryCodes || [] });
      codesLeft.refresh();
    } catch (err) {
      setError(errText(err, "That code is not valid. Try the newest code from your app."));
      setCode("");
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  };
  const few = left !== null && left <= FEW_CODES;
  return (
    <Card title={<>Recovery codes {left !== null && <Badge tone={few ? "bad" : "good"}>{left} left</Badge>}</>}
      description="Each recovery code signs you in once when your phone is not at hand.">
      {loadError && <p className="a-error" role="alert">{loadError}</p>}
      {left !== null && mode.kind === "idle" && (
        <p className={few ? "a-error" : "a-muted"} data-testid="recovery-left">
          {left === 0 ? "You have no recovery codes left. Make a new set now, or a lost phone locks you out until an admin resets your two-factor authentication."
            : few ? `Only ${left} recovery ${left === 1 ? "code is" : "codes are"} left. Make a new set soon, so a lost phone does not lock you out.`
            : `You have ${left} unused recovery codes.`}
        </p>
      )}
      {mode.kind === "idle" ? (
        <button ref={opener} type="button" className={"a-btn " + (few ? "a-btn--primary" : "a-btn--outline")} onClick={() => { setCode(""); setError(""); setMode({ kind: "code" }); }}>
          Make new recovery codes
        </button>
      ) : mode.kind === "code" ? (
        <form onSubmit={submit} noValidate aria-label="Make new recovery codes">
          <h3 ref={heading} tabIndex={-1} className="a-h3">Confirm with your authenticator app</h3>
          <p className="a-muted">Your current recovery codes stop working as soon as the new ones are made. The new codes are shown once.</p>
          <label htmlFor="acct-renew-code" className="a-label">Current 6-digit code</label>
          <input ref={input} id="acct-renew-code" className="a-input" inputMode="numeric" autoComplete="one-time-code" maxLength={7} spellCheck={false}
            value={code} onChange={(e) => setCode(e.target.value)} required aria-invalid={!!error} aria-describedby={error ? "acct-renew-error" : undefined} />
          {error && <p id="acct-renew-error" className="a-error" role="alert">{error}</p>}
          <div className="a-row">
            <button type="submit" className="a-btn a-btn--primary" disabled={busy}>{busy ? "Checking..." : "Make new codes"}</button>
            <Button variant="ghost" onClick={() => setMode({ kind: "idle" })} disabled={busy}>Cancel</Button>
          </div>
        </form>
      ) : (
        <>
          <h3 ref={heading} tabIndex={-1} className="a-h3">Save your new recovery codes</h3>
          <p className="a-muted">Your old recovery codes no longer work.</p>
          <RecoveryCodes codes={mode.codes} email={session.email} doneLabel="Done" onDone={() => {
            setMode({ kind: "idle" });
            toast({ title: "New recovery codes", description: "Your old recovery codes no longer work." });
          }} />
        </>
      )}
    </Card>
  );
}
