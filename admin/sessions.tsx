import { useCallback, useEffect, useState } from "react";
import { api, ApiError } from "./api";
import { useToast } from "./toast";
import { Badge, Button, Card } from "./ui";

/** Session is one live admin (PIN) or account session as the server lists
 * it: never the token, only a public id, where and when. */
interface Session { id: string; kind: "pin" | "account"; userId: string; ip: string; createdAt: string; lastSeenAt: string; expiresAt: string; current: boolean }

const when = (iso: string) => new Date(iso).toLocaleString("en-US");

/** ActiveSessions lists the live sessions from the server and ends any of
 * them there (the token stops working at once). Ending your own session
 * locks this screen too. */
export function ActiveSessions() {
  const toast = useToast();
  const [list, setList] = useState<Session[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState("");
  const load = useCallback(async () => {
    try {
      const r = await api<{ sessions: Session[] }>("/api/admin/sessions");
      setList(r.sessions);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => { load(); }, [load]);
  const end = async (s: Session) => {
    setBusy(s.id);
    try {
      await api(`/api/admin/sessions/${encodeURIComponent(s.id)}`, { method: "DELETE" });
      toast({ title: "Session ended", description: `The session from ${s.ip || "an unknown address"} can no longer be used.` });
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) toast({ title: "Could not end the session", description: e instanceof Error ? e.message : "Try again.", variant: "destructive" });
    } finally {
      setBusy("");
    }
    if (!s.current) load();
  };
  return (
    <Card title="Active Sessions" description="Everyone signed in to the admin area or the leads manager right now. Ending a session signs it out at once."
      actions={<Button variant="outline" onClick={load}>Refresh</Button>}>
      {failed && <p className="a-empty">The sessions could not be loaded.</p>}
      {!failed && list === null && <p className="a-muted">Loading sessions...</p>}
      {!failed && list !== null && list.length === 0 && <p className="a-empty">No active sessions.</p>}
      {!failed && list !== null && list.length > 0 && (
        <ul className="am-list">
          {list.map((s) => (
            <li key={s.id}>
              <div className="am-list__main">
                <p className="am-list__title">
                  {s.kind === "pin" ? "Admin PIN" : "Leads account"} <span className="a-muted">from {s.ip || "unknown address"}</span>{" "}
                  {s.current && <Badge tone="info">This session</Badge>}
                </p>
                <p className="am-list__desc">Since <time dateTime={s.createdAt}>{when(s.createdAt)}</time> · last active <time dateTime={s.lastSeenAt}>{when(s.lastSeenAt)}</time> · expires <time dateTime={s.expiresAt}>{when(s.expiresAt)}</time></p>
              </div>
              <div className="am-list__actions">
                <Button variant="danger" className="a-btn a-btn--danger am-btn-sm" disabled={busy === s.id} onClick={() => end(s)}
                  aria-label={`End the ${s.kind === "pin" ? "admin PIN" : "leads account"} session from ${s.ip || "unknown address"}`}>
                  {busy === s.id ? "Ending..." : "End session"}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
