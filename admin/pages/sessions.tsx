import { useEffect, useRef, useState } from "react";
import { ActiveSessions } from "../sessions";
import { useSession } from "../session";
import { Enrol, RecoveryCodes } from "../twofactor";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, PageHeader } from "../ui";

/** Sessions is every signed-in person's own screen (issue 21): where they
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
