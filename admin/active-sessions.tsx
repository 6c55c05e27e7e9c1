import "../styles/admin-manage.css";
import { useState } from "react";
import { api, ApiError } from "./api";
import type * as wire from "./api.gen";
import { can } from "./capabilities";
import { useSession } from "./use-session";
import type { SessionRow } from "./session";
import { useToast } from "./toast";
import { Badge, Button, Card, LoadError } from "./ui";
import { PageNav, PageSummary, SearchBox, usePaging } from "./paging";
import { useResource } from "./use-resource";

const when = (iso: string) => {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? iso : d.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
};

/** who names a session's principal for people. */
const who = (s: SessionRow) => (s.kind === "pin" ? "Admin PIN" : s.name || s.email || "Account");

/** endWhose completes the End button's visible words for a screen
 * reader (whose session, from where): the accessible name starts with
 * what the button shows. */
const endWhose = (s: SessionRow) =>
  (s.kind === "pin" ? " of the admin PIN" : ` of ${s.name || s.email}`) + ` from ${s.ip || "an unknown address"}`;

/** SessionsList lists the live sessions the server shows this session (its
 * account's own, or everyone's with sessions.all) and ends any of them
 * there: the session stops working at once. Ending the current one signs
 * out here too. */
export function SessionsList({ title, description }: { title: string; description: string }) {
  const toast = useToast();
  const { signOut } = useSession();
  const paging = usePaging(50);
  const { data: page, error, retry, refresh: load } = useResource(() => api<wire.SessionList>("/api/admin/sessions?" + paging.query).then((r) => ({ ...r, sessions: r.sessions || [] })),
    [paging.query], { onData: paging.fit });
  const list = page ? page.sessions : null;
  // The search shows once there is something to search (or a search is on).
  const searchable = !!page && (page.total > 5 || page.q !== "" || paging.q !== "");
  const [busy, setBusy] = useState("");
  const end = async (s: SessionRow) => {
    if (s.current) { signOut(); return; }
    setBusy(s.id);
    try {
      await api(`/api/admin/sessions/${encodeURIComponent(s.id)}`, { method: "DELETE" });
      toast({ title: "Session ended", description: `The session from ${s.ip || "an unknown address"} can no longer be used.` });
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return;
      if (!(e instanceof ApiError && e.status === 404)) toast({ title: "Could not end the session", description: e instanceof Error ? e.message : "Try again.", variant: "destructive" });
    } finally {
      setBusy("");
    }
    load();
  };
  return (
    <Card title={title} description={description} actions={<Button variant="outline" onClick={load}>Refresh</Button>}>
      <LoadError error={error} onRetry={retry} prefix="The sessions could not be loaded: " />
      {!error && list === null && <p className="a-muted" role="status">Loading sessions...</p>}
      {searchable && <SearchBox paging={paging} label="Search sessions" placeholder="Name, email or address" />}
      {!error && page && (searchable || page.total > page.perPage) && <PageSummary info={page} rows={page.sessions.length} one="session" />}
      {!error && page && !searchable && page.total === 0 && <p className="a-empty">No active sessions.</p>}
      {!error && list !== null && list.length > 0 && (
        <ul className="am-list a-sessions">
          {list.map((s) => (
            <li key={s.id} className={s.current ? "a-sessions__current" : undefined}>
              <div className="am-list__main">
                <p className="am-list__title">
                  {who(s)}{s.kind === "account" && s.name && s.email && <span className="a-muted"> {s.email}</span>}{" "}
                  {s.current && <Badge tone="info">This session</Badge>}
                </p>
                <p className="am-list__desc">
                  From {s.ip || "an unknown address"} · since <time dateTime={s.createdAt}>{when(s.createdAt)}</time> · last active <time dateTime={s.lastSeenAt}>{when(s.lastSeenAt)}</time>
                </p>
              </div>
              <div className="am-list__actions">
                <Button variant="danger" className="a-btn a-btn--danger am-btn-sm" disabled={busy === s.id} onClick={() => end(s)}>
                  {busy === s.id ? "Ending..." : s.current ? <>End (sign out)<span className="visually-hidden">: your own session{endWhose(s)}, signs you out</span></> : <>End session<span className="visually-hidden">{endWhose(s)}</span></>}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {!error && page && <PageNav info={page} paging={paging} label="Session pages" />}
    </Card>
  );
}

/** ActiveSessions is the Security screen's card (sessions.all: everyone). */
export function ActiveSessions() {
  const { session } = useSession();
  return (
    <SessionsList title="Active Sessions" description={can(session, "sessions.all")
      ? "Everyone signed in to the admin area right now, with the admin PIN or an account. Ending a session signs it out at once."
      : "Where your account is signed in right now. Ending a session signs it out at once."} />
  );
}
