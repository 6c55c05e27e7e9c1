import "../../styles/admin-leads.css";
import { useCallback, useId, useRef, useState } from "react";
import { api, ApiError } from "../api";
import { fmtDateTime } from "../listing";
import { useSession } from "../use-session";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { DataTable } from "../data-table";
import { Badge, Button, Card, ConfirmDialog, LoadError, PageHeader, useModal } from "../ui";
import { PageNav, PageSummary, SearchBox, usePaging } from "../paging";
import { useResource } from "../use-resource";
import type * as wire from "../api.gen";

/** User is a row of GET /api/admin/users (docs/leads-api.md). */
export type User = wire.User;

/** resolveRole is spec 6's role choice: admin wins, then staff, then
 * editor (content and photos, no leads). */
function resolveRole(roles: string[] | null | undefined): "admin" | "staff" | "editor" | "" {
  if (roles?.includes("admin")) return "admin";
  if (roles?.includes("staff")) return "staff";
  if (roles?.includes("editor")) return "editor";
  return "";
}

/** ROLE_NAMES say what a role change made of an account. */
const ROLE_NAMES: Record<string, string> = { admin: "an admin", staff: "staff", editor: "an editor" };

/** ROLE_LABELS name a role on the screen. */
const ROLE_LABELS: Record<string, string> = { admin: "Admin", staff: "Staff", editor: "Editor", "": "No role" };

/** ROLE_MEANS says what a role lets the person do, for the confirmation. */
const ROLE_MEANS: Record<string, string> = {
  admin: "see full lead details, export leads, manage users and change every setting",
  staff: "see leads with masked contact details and change a lead's status",
  editor: "edit the website's content and photos, and see no leads",
};

/** MIN_PASSWORD is the server's minimum password length. */
export const MIN_PASSWORD = 12;

const roleOf = (u: User) => resolveRole(u.roles);

/** byWhom names who can make the change a row cannot: another active
 * admin, or none yet. */
const byWhom = (users: User[], u: User) =>
  users.some((o) => o.id !== u.id && !o.disabledAt && roleOf(o) === "admin") ? "another admin can" : "add a second admin, who can";

/** RoleCell is a user's role: a select, or the reason it cannot change. */
function RoleCell({ u, users, busy, onChange }: { u: User; users: User[]; busy: boolean; onChange: (role: string) => void }) {
  const role = roleOf(u);
  if (u.canChangeRole === false) return <>{ROLE_LABELS[role]}<p className="a-muted al-lock">{u.roleReason}: {u.self ? `${byWhom(users, u)} change its role.` : "add or enable another admin first."}</p></>;
  return (
    <select className="a-input al-status" aria-label={`Role for ${u.name || u.email}`} value={role} disabled={busy}
      onChange={(e) => { if (e.target.value !== role) onChange(e.target.value); }}>
      {role === "" && <option value="">No role</option>}
      <option value="staff">Staff</option>
      <option value="admin">Admin</option>
      <option value="editor">Editor</option>
    </select>
  );
}
const errText = (err: unknown, fallback: string) => (err instanceof ApiError && err.status !== 0 && err.message ? err.message : fallback);

/** Users is the admins' account screen: add staff, change a role, reset a
 * password or the second factor, disable or enable. The server enforces
 * the rules (users.manage; the last admin cannot be disabled or demoted);
 * this screen shows its messages. */
export default function Users(_: AdminPageProps) {
  const { session } = useSession();
  const toast = useToast();
  const paging = usePaging(50);
  const { data: page, error, retry, refresh: load } = useResource(() => api<wire.UserList>("/api/admin/users?" + paging.query).then((r) => ({ ...r, users: r.users || [] })), [paging.query], {
    onData: paging.fit,
    onError: (err) => { if (!(err instanceof ApiError && err.status === 401)) toast({ title: "Users Not Loaded", description: errText(err, "Failed to load user accounts"), variant: "destructive" }); },
  });
  const users = page ? page.users : null;
  const [busy, setBusy] = useState<string | null>(null);
  const [resetFor, setResetFor] = useState<User | null>(null);
  const [disabling, setDisabling] = useState<User | null>(null);
  const [resetting2fa, setResetting2fa] = useState<User | null>(null);
  const [changingRole, setChangingRole] = useState<{ user: User; role: string } | null>(null);
  const cancelRole = useCallback(() => setChangingRole(null), []);
  const cancelDisable = useCallback(() => setDisabling(null), []);
  const cancelReset2fa = useCallback(() => setResetting2fa(null), []);


  /** update PATCHes a user and reloads; errors (like the last-admin 409)
   * are the server's message. */
  const update = async (u: User, patch: Record<string, unknown>, done: string): Promise<boolean> => {
    setBusy(u.id);
    try {
      await api(`/api/admin/users/${encodeURIComponent(u.id)}`, { method: "PATCH", body: JSON.stringify(patch) });
      toast({ title: "User Updated", description: done });
      return true;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) toast({ title: "Update Failed", description: errText(err, "Failed to update the account"), variant: "destructive" });
      return false;
    } finally {
      setBusy(null);
      load();
    }
  };

  return (
    <>
      <PageHeader title="Users" description="Staff and admin accounts: the Secure Leads Manager and, for admins, the whole admin area." />
      <AddUser onAdded={load} />
      <Card title={page ? `Accounts (${page.total}${page.q ? " found" : ""})` : "Accounts"}>
        <SearchBox paging={paging} label="Search accounts" placeholder="Name or email" />
        {page && <PageSummary info={page} rows={page.users.length} one="account" />}
        {users === null ? (error ? <LoadError error={error} onRetry={retry} /> : <p role="status">Loading accounts...</p>) : users.length === 0 ? null : (
          <div className="al-table-wrap">
            <DataTable rows={users} rowKey={(u) => u.id} caption="User accounts" className="al-table al-users" columns={[
              { key: "name", label: "Name", rowHeader: true, className: "al-name", cell: (u) => <>{u.name || <span className="a-muted">No name</span>}{u.email.toLowerCase() === session.email.toLowerCase() && <> <Badge tone="info">You</Badge></>}</> },
              { key: "email", label: "Email", cell: (u) => u.email },
              { key: "role", label: "Role", cell: (u) => <RoleCell u={u} users={users} busy={busy === u.id} onChange={(role) => setChangingRole({ user: u, role })} /> },
              {
                key: "state", label: "State", cell: (u) => <>
                  {u.disabledAt ? <Badge tone="bad">Disabled</Badge> : <Badge tone="good">Active</Badge>}
                  {u.signInLocked && u.lockedUntil && (
                    <p className="a-muted al-lock">Too many failed sign-ins: new browsers wait until <time dateTime={u.lockedUntil}>{fmtDateTime(u.lockedUntil)}</time>.</p>
                  )}
                </>,
              },
              {
                key: "2fa", label: "Two-factor", cell: (u) => (u.totpEnabledAt ? (
                  <><Badge tone="good">On</Badge> <span className="a-muted al-since">since <time dateTime={u.totpEnabledAt}>{fmtDateTime(u.totpEnabledAt)}</time></span></>
                ) : (
                  <><Badge tone="neutral">Off</Badge>{roleOf(u) === "admin" && <span className="a-muted al-since"> set up at next sign-in</span>}</>
                )),
              },
              { key: "last", label: "Last sign-in", cell: (u) => (u.lastLoginAt ? <time dateTime={u.lastLoginAt}>{fmtDateTime(u.lastLoginAt)}</time> : <span className="a-muted">Never</span>) },
              {
                key: "actions", label: "Actions", hideLabel: true, cell: (u) => {
                  const label = u.name || u.email;
                  return (
                    <div className="a-row">
                      <Button variant="outline" className="a-btn a-btn--outline al-btn-sm" disabled={busy === u.id} onClick={() => setResetFor(u)}
                        aria-label={`Reset password for ${label}`}>Reset password</Button>
                      {u.totpEnabledAt && (
                        <Button variant="outline" className="a-btn a-btn--outline al-btn-sm" disabled={busy === u.id} onClick={() => setResetting2fa(u)}
                          aria-label={`Reset two-factor for ${label}`}>Reset two-factor</Button>
                      )}
                      {u.signInLocked && (
                        <Button variant="outline" className="a-btn a-btn--outline al-btn-sm" disabled={busy === u.id} aria-label={`Unlock sign-in for ${label}`}
                          onClick={() => update(u, { unlock: true }, `${label} can sign in from any browser again.`)}>Unlock sign-in</Button>
                      )}
                      {u.disabledAt ? (
                        <Button variant="outline" className="a-btn a-btn--outline al-btn-sm" disabled={busy === u.id} aria-label={`Enable ${label}`}
                          onClick={() => update(u, { disabled: false }, `${label} can sign in again.`)}>Enable</Button>
                      ) : u.canDisable === false ? (
                        <p className="a-muted al-lock" data-testid="disable-reason">{u.disableReason}: {u.self ? `${byWhom(users, u)} disable it.` : "add or enable another admin first."}</p>
                      ) : (
                        <Button variant="danger" className="a-btn a-btn--danger al-btn-sm" disabled={busy === u.id} aria-label={`Disable ${label}`}
                          onClick={() => setDisabling(u)}>Disable</Button>
                      )}
                    </div>
                  );
                },
              },
            ]} />
          </div>
        )}
        {page && <PageNav info={page} paging={paging} label="Account pages" />}
      </Card>
      {resetFor && <ResetPassword user={resetFor} onClose={() => setResetFor(null)}
        onSave={async (pw) => { const ok = await update(resetFor, { password: pw }, `The password of ${resetFor.name || resetFor.email} was reset; their sessions were ended.`); if (ok) setResetFor(null); return ok; }} />}
      <ConfirmDialog open={changingRole !== null} title={`Make ${changingRole ? changingRole.user.name || changingRole.user.email : ""} ${changingRole ? ROLE_NAMES[changingRole.role] : ""}?`}
        confirmLabel={`Make ${changingRole ? ROLE_NAMES[changingRole.role] : ""}`} busy={busy !== null}
        description={changingRole && <p><strong>{changingRole.user.name || changingRole.user.email}</strong> will {ROLE_MEANS[changingRole.role]}. Their open sessions end now; they sign in again to continue{changingRole.role === "admin" && !changingRole.user.totpEnabledAt ? ", and set up two-factor authentication" : ""}.</p>}
        onConfirm={async () => { const { user: u, role: r } = changingRole!; await update(u, { role: r }, `${u.name || u.email} is now ${ROLE_NAMES[r] || r}.`); setChangingRole(null); }}
        onCancel={cancelRole} />
      <ConfirmDialog open={disabling !== null} title="Disable this account?" confirmLabel="Disable" busy={busy !== null}
        description={<p><strong>{disabling?.name || disabling?.email}</strong> will no longer be able to sign in. Their open sessions end now. An admin can enable the account again.</p>}
        onConfirm={async () => { const u = disabling!; await update(u, { disabled: true }, `${u.name || u.email} was disabled.`); setDisabling(null); }}
        onCancel={cancelDisable} />
      <ConfirmDialog open={resetting2fa !== null} title="Reset two-factor authentication?" confirmLabel="Reset two-factor" busy={busy !== null}
        description={<p>The authenticator and recovery codes of <strong>{resetting2fa?.name || resetting2fa?.email}</strong> stop working and their sessions end.
          {resetting2fa && roleOf(resetting2fa) === "admin" ? " As an admin, they set up a new authenticator at their next sign-in." : " They can set up a new one from their Sessions screen."} Do this when a phone is lost, after checking who is asking.</p>}
        onConfirm={async () => { const u = resetting2fa!; await update(u, { resetTwoFactor: true }, `Two-factor authentication of ${u.name || u.email} was reset; their sessions were ended.`); setResetting2fa(null); }}
        onCancel={cancelReset2fa} />
    </>
  );
}

/** AddUser is the form for a new staff, admin or editor account. */
function AddUser({ onAdded }: { onAdded: () => void }) {
  const toast = useToast();
  const ids = useId();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState("staff");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError("");
    try {
      await api("/api/admin/users", { method: "POST", body: JSON.stringify({ email: email.trim(), name: name.trim(), role, password }) });
      toast({ title: "User Added", description: `${email.trim()} can now sign in as ${role}.` });
      setEmail(""); setName(""); setRole("staff"); setPassword("");
      onAdded();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      const msg = errText(err, "Failed to add the account");
      setError(msg);
      toast({ title: "User Not Added", description: msg, variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Add a user" description="Staff see masked leads and can change a lead's status; admins also see full details, export, and manage users; editors edit and publish the website's content and photos, and see no leads.">
      <form onSubmit={submit} aria-label="Add a user">
        <div className="a-form-grid">
          <div className="a-field">
            <label htmlFor={ids + "e"} className="a-label">Email</label>
            <input id={ids + "e"} type="email" className="a-input" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} required />
          </div>
          <div className="a-field">
            <label htmlFor={ids + "n"} className="a-label">Name</label>
            <input id={ids + "n"} className="a-input" autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} required />
          </div>
          <div className="a-field">
            <label htmlFor={ids + "r"} className="a-label">Role</label>
            <select id={ids + "r"} className="a-input" value={role} onChange={(e) => setRole(e.target.value)}>
              <option value="staff">Staff</option>
              <option value="admin">Admin</option>
              <option value="editor">Editor</option>
            </select>
          </div>
          <div className="a-field">
            <label htmlFor={ids + "p"} className="a-label">Password</label>
            <input id={ids + "p"} type="password" className="a-input" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)}
              minLength={MIN_PASSWORD} maxLength={1024} required aria-describedby={ids + "ph"} />
            <p id={ids + "ph"} className="a-muted al-hint">At least {MIN_PASSWORD} characters. Share it with the person privately; they should not reuse it elsewhere.</p>
          </div>
        </div>
        {error && <p className="a-error" role="alert">{error}</p>}
        <button type="submit" className="a-btn a-btn--primary" disabled={busy}>{busy ? "Adding..." : "Add user"}</button>
      </form>
    </Card>
  );
}

/** ResetPassword is a small modal form for a new password. */
function ResetPassword({ user, onSave, onClose }: { user: User; onSave: (pw: string) => Promise<boolean>; onClose: () => void }) {
  const [pw, setPw] = useState("");
  const [busy, setBusy] = useState(false);
  const ids = useId();
  const panel = useRef<HTMLFormElement>(null);
  useModal(panel, true, onClose);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const ok = await onSave(pw);
    if (!ok) setBusy(false);
  };
  return (
    <div className="a-dialog">
      <div className="a-dialog__overlay" aria-hidden="true" />
      <form ref={panel} id={ids + "panel"} className="a-dialog__panel" role="dialog" aria-modal="true" aria-labelledby={ids + "t"} onSubmit={submit}>
        <h2 id={ids + "t"} className="a-dialog__title">Reset password for {user.name || user.email}</h2>
        <p className="a-muted">Their current sessions end when the new password is saved.</p>
        <label htmlFor={ids + "pw"} className="a-label">New password</label>
        <input id={ids + "pw"} data-autofocus type="password" className="a-input" autoComplete="new-password" value={pw} onChange={(e) => setPw(e.target.value)}
          minLength={MIN_PASSWORD} maxLength={1024} required aria-describedby={ids + "h"} />
        <p id={ids + "h"} className="a-muted al-hint">At least {MIN_PASSWORD} characters.</p>
        <div className="a-dialog__actions">
          <Button variant="outline" onClick={onClose} disabled={busy}>Cancel</Button>
          <button type="submit" className="a-btn a-btn--primary" disabled={busy}>{busy ? "Saving..." : "Save password"}</button>
        </div>
      </form>
    </div>
  );
}
