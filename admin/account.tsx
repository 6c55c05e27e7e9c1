import "../styles/admin-leads.css";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { accountApi, ApiError, hasAccountToken, onAccountSignedOut, signIn, signOutAccount } from "./api";
import { useToast } from "./toast";
import { Badge, Button, Card, PageHeader } from "./ui";

export type Role = "admin" | "staff";

/** Me is GET /api/admin/me (docs/leads-api.md). */
export interface Me { id: string; email: string; name: string; roles: string[]; role: string }

/** Account is what a screen behind the account sign-in receives. */
export interface Account { me: Me; role: Role; signOut: () => void }

/** resolveRole is spec 6's role choice: admin wins, then staff; an empty
 * list and a list with neither are told apart for their messages. */
export function resolveRole(roles: string[] | null | undefined): Role | "empty" | "none" {
  if (!roles || roles.length === 0) return "empty";
  if (roles.includes("admin")) return "admin";
  if (roles.includes("staff")) return "staff";
  return "none";
}

/** AccessMessages are the descriptions a screen shows for each outcome.
 * The defaults are spec 6's, for the Secure Leads Manager. */
export interface AccessMessages {
  /** no account signed in ('Authentication Required') */
  auth: string;
  /** empty role list ('Access Denied') */
  empty: string;
  /** roles without admin or staff ('Access Denied') */
  none: string;
  /** a staff account on an admin-only screen ('Access Denied') */
  staff?: string;
}

export const LEADS_MESSAGES: AccessMessages = {
  auth: "Please log in to access lead data",
  empty: "Insufficient permissions to view leads",
  none: "Staff privileges required to view leads",
};

type Phase = { kind: "signed-out" } | { kind: "checking" } | { kind: "denied"; reason: string; retry?: boolean } | { kind: "ok"; me: Me; role: Role };

/** useAccountAccess runs spec 6's flow: no account token means
 * 'Authentication Required' and the sign-in form; otherwise GET
 * /api/admin/me decides (the server decides, the browser displays). */
function useAccountAccess(need: Role, msgs: AccessMessages) {
  const [phase, setPhase] = useState<Phase>(hasAccountToken() ? { kind: "checking" } : { kind: "signed-out" });
  const toast = useToast();
  const voluntary = useRef(false);
  const alive = useRef(true);

  const check = useCallback(async () => {
    setPhase({ kind: "checking" });
    let me: Me;
    try {
      me = await accountApi<Me>("/api/admin/me");
    } catch (err) {
      if (!alive.current || (err instanceof ApiError && err.status === 401)) return; // the sign-out listener took over
      toast({ title: "Security Error", description: "Failed to verify permissions", variant: "destructive" });
      setPhase({ kind: "denied", reason: msgs.empty, retry: true });
      return;
    }
    if (!alive.current) return;
    const r = resolveRole(me.roles);
    if (r === "empty" || r === "none") {
      const reason = r === "empty" ? msgs.empty : msgs.none;
      toast({ title: "Access Denied", description: reason, variant: "destructive" });
      setPhase({ kind: "denied", reason });
      return;
    }
    if (need === "admin" && r !== "admin") {
      const reason = msgs.staff || msgs.none;
      toast({ title: "Access Denied", description: reason, variant: "destructive" });
      setPhase({ kind: "denied", reason });
      return;
    }
    setPhase({ kind: "ok", me, role: r });
  }, [need, msgs, toast]);

  useEffect(() => {
    alive.current = true;
    if (hasAccountToken()) check();
    else toast({ title: "Authentication Required", description: msgs.auth, variant: "destructive" });
    const off = onAccountSignedOut(() => {
      if (!alive.current) return;
      if (!voluntary.current) toast({ title: "Authentication Required", description: msgs.auth, variant: "destructive" });
      voluntary.current = false;
      setPhase({ kind: "signed-out" });
    });
    return () => { alive.current = false; off(); };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once per screen

  const signOut = useCallback(() => {
    voluntary.current = true;
    signOutAccount();
    setPhase({ kind: "signed-out" });
  }, []);
  return { phase, check, signOut };
}

/** SignInForm asks for the account's email and password. Errors are the
 * server's ('Invalid email or password', the lockout message). */
function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const emailRef = useRef<HTMLInputElement>(null);
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
      await signIn(email.trim(), password);
      setPassword("");
      onSignedIn();
    } catch (err) {
      setError(err instanceof ApiError && err.status !== 0 && err.message ? err.message : "Sign-in failed. Check your connection and try again.");
      setPassword("");
      setBusy(false);
      passRef.current?.focus();
    }
  };
  return (
    <Card title={<span id="account-signin-title">Sign in</span>} description="Use your staff or admin account. The admin PIN alone does not give access to lead data.">
      <form className="al-signin" onSubmit={submit} aria-labelledby="account-signin-title" noValidate>
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
        <button type="submit" className="a-btn a-btn--primary" disabled={busy}>{busy ? "Signing in..." : "Sign in"}</button>
      </form>
    </Card>
  );
}

/** AccountGate puts a screen behind the account sign-in (after the PIN
 * gate). Until the role check resolves it shows the Access Denied message
 * (spec 4); once resolved it renders children with the account. */
export function AccountGate({ title, description, need = "staff", messages = LEADS_MESSAGES, children }: {
  title: string; description?: string; need?: Role; messages?: AccessMessages; children: (acc: Account) => ReactNode;
}) {
  const { phase, check, signOut } = useAccountAccess(need, messages);
  const content = useRef<HTMLDivElement>(null);
  const focusAfter = useRef(false);
  useEffect(() => {
    if (phase.kind === "ok" && focusAfter.current) {
      focusAfter.current = false;
      content.current?.focus();
    }
  }, [phase]);
  const onSignedIn = () => { focusAfter.current = true; check(); };
  const ok = phase.kind === "ok" ? phase : null;
  return (
    <>
      <PageHeader title={title} description={description} actions={ok ? (
        <div className="al-who">
          <Badge tone={ok.role === "admin" ? "info" : "good"}>{ok.role === "admin" ? "Admin Access" : "Staff Access"}</Badge>
          <span className="a-muted al-who__name">{ok.me.name || ok.me.email}</span>
          <Button variant="outline" onClick={signOut}>Sign out</Button>
        </div>
      ) : phase.kind === "denied" ? <Button variant="outline" onClick={signOut}>Sign out</Button> : undefined} />
      {ok ? (
        <div ref={content} tabIndex={-1} className="al-content" aria-label={title}>
          {children({ me: ok.me, role: ok.role, signOut })}
        </div>
      ) : (
        <>
          <Card title={<>Access Denied <Badge tone="bad">{phase.kind === "signed-out" ? "Not signed in" : phase.kind === "checking" ? "Checking" : "No access"}</Badge></>}>
            {phase.kind === "checking" ? (
              <p role="status">Checking your permissions...</p>
            ) : phase.kind === "denied" ? (
              <>
                <p>{phase.reason}.</p>
                {phase.retry && <Button variant="outline" onClick={check}>Try again</Button>}
              </>
            ) : (
              <p>{messages.auth}.</p>
            )}
            <p className="a-muted">Lead details are personal data: they are shown only to signed-in staff (masked) and admins (full). The admin PIN does not grant access to them.</p>
          </Card>
          {phase.kind === "signed-out" && <SignInForm onSignedIn={onSignedIn} />}
        </>
      )}
    </>
  );
}

/** Pager is the Previous / Next control with 'Page X of Y'. */
export function Pager({ page, pages, onPage, label }: { page: number; pages: number; onPage: (p: number) => void; label: string }) {
  return (
    <nav className="al-pager" aria-label={label}>
      <Button variant="outline" onClick={() => onPage(page - 1)} disabled={page <= 1}>Previous</Button>
      <span aria-live="polite">Page {page} of {pages}</span>
      <Button variant="outline" onClick={() => onPage(page + 1)} disabled={page >= pages}>Next</Button>
    </nav>
  );
}

/** fmtDateTime shows a server timestamp in US English. */
export function fmtDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d.getTime()) ? iso : d.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}
