import "../../styles/admin-leads.css";
import { useEffect, useRef, useState } from "react";
import { api, ApiError } from "../api";
import { fmtDateTime, Pager } from "../listing";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Button, Card, PageHeader } from "../ui";

/** AuditEntry is a row of GET /api/admin/audit (docs/leads-api.md). */
export interface AuditEntry { id: string | number; at: string; actor: string; action: string; leadId?: string | null; detail?: string | null; ip?: string | null }

const PER_PAGE = 50;

/** ACTION_LABELS name the server's audit actions for people. */
const ACTION_LABELS: Record<string, string> = {
  login: "Signed in", login_failed: "Sign-in failed", list_full: "Viewed full lead list", lead_detail: "Viewed lead details",
  export: "Exported leads", status_change: "Changed lead status", user_created: "Added a user", user_updated: "Updated a user",
  "2fa_enrolled": "Set up two-factor", "2fa_failed": "Wrong two-factor code", recovery_code_used: "Used a recovery code",
  "2fa_reset": "Reset someone's two-factor",
  lead_deleted: "Deleted a lead", privacy_export: "Exported a person's data",
};

/** Audit is the admins' audit log: who saw or changed lead data and
 * accounts, newest first, a page at a time. */
export default function Audit(_: AdminPageProps) {
  const toast = useToast();
  const [page, setPage] = useState(1);
  const [reloadKey, setReloadKey] = useState(0);
  const [data, setData] = useState<{ entries: AuditEntry[]; total: number } | null>(null);
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    setLoading(true);
    api<{ entries: AuditEntry[]; total: number }>(`/api/admin/audit?page=${page}&per_page=${PER_PAGE}`).then((res) => {
      if (mine === seq.current) setData({ entries: res.entries || [], total: res.total || 0 });
    }).catch((err) => {
      if (mine !== seq.current || (err instanceof ApiError && err.status === 401)) return;
      toast({ title: "Audit Log Not Loaded", description: err instanceof ApiError && err.status ? err.message : "Failed to load the audit log", variant: "destructive" });
    }).finally(() => { if (mine === seq.current) setLoading(false); });
  }, [page, reloadKey, toast]);
  const pages = data ? Math.max(1, Math.ceil(data.total / PER_PAGE)) : 1;
  return (
    <>
      <PageHeader title="Audit Log" description="Sign-ins, full-data views, exports, status changes and account changes, newest first." />
      <Card title="Entries" description={data ? `${data.total} in all` : undefined}
        actions={<Button variant="outline" onClick={() => setReloadKey((k) => k + 1)} disabled={loading} aria-busy={loading}>{loading ? "Refreshing..." : "Refresh"}</Button>}>
        {data === null ? <p role="status">{loading ? "Loading the audit log..." : "The audit log could not be loaded."}</p> : data.entries.length === 0 ? <p className="a-empty">No entries yet.</p> : (
          <>
            <div className="al-table-wrap" aria-busy={loading}>
              <table className="a-table al-table">
                <caption className="visually-hidden">Audit log, newest first</caption>
                <thead>
                  <tr><th scope="col">Time</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Lead</th><th scope="col">Detail</th><th scope="col">IP address</th></tr>
                </thead>
                <tbody>
                  {data.entries.map((e) => (
                    <tr key={e.id}>
                      <td className="al-nowrap"><time dateTime={e.at}>{fmtDateTime(e.at)}</time></td>
                      <td>{e.actor}</td>
                      <td><span title={e.action}>{ACTION_LABELS[e.action] || e.action}</span></td>
                      <td className="al-mono">{e.leadId || ""}</td>
                      <td>{e.detail || ""}</td>
                      <td className="al-mono">{e.ip || ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pages={pages} onPage={setPage} label="Audit log pages" />
          </>
        )}
      </Card>
    </>
  );
}
