import "../../styles/admin-leads.css";
import "../../styles/admin-settings.css";
import { useEffect, useRef, useState } from "react";
import { api, ApiError } from "../api";
import { fmtDateTime, Pager } from "../listing";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Button, Card, PageHeader } from "../ui";

/** AuditEntry is a row of GET /api/admin/audit (docs/leads-api.md): the
 * server words each entry as a sentence, naming the account and the lead. */
export interface AuditEntry { id: string; at: string; who: string; ip: string; sentence: string }

const PER_PAGE = 50;

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
      <PageHeader title="Audit Log" description="Who signed in, saw or changed leads, accounts, content and settings, and from where, newest first." />
      <Card title="Entries" description={data ? `${data.total} in all` : undefined}
        actions={<Button variant="outline" onClick={() => setReloadKey((k) => k + 1)} disabled={loading} aria-busy={loading}>{loading ? "Refreshing..." : "Refresh"}</Button>}>
        {data === null ? <p role="status">{loading ? "Loading the audit log..." : "The audit log could not be loaded."}</p> : data.entries.length === 0 ? <p className="a-empty">No entries yet.</p> : (
          <>
            <div aria-busy={loading}>
              {/* A laptop reads a table; a phone (below 768 px) reads cards. */}
              <table className="a-table st-audit-table">
                <caption className="visually-hidden">Audit log, newest first</caption>
                <thead>
                  <tr><th scope="col">When</th><th scope="col">What happened</th><th scope="col">From address</th></tr>
                </thead>
                <tbody>
                  {data.entries.map((e) => (
                    <tr key={e.id}>
                      <td className="al-nowrap"><time dateTime={e.at}>{fmtDateTime(e.at)}</time></td>
                      <td>{e.sentence}</td>
                      <td>{e.ip ? <span className="al-mono">{e.ip}</span> : <span className="a-muted">None (command line)</span>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ol className="st-audit-cards" aria-label="Audit log, newest first">
                {data.entries.map((e) => (
                  <li key={e.id} className="st-audit-card">
                    <p className="st-audit-card__what">{e.sentence}</p>
                    <p className="a-muted"><time dateTime={e.at}>{fmtDateTime(e.at)}</time>{e.ip && !e.sentence.includes(e.ip) ? <> · from {e.ip}</> : null}</p>
                  </li>
                ))}
              </ol>
            </div>
            <Pager page={page} pages={pages} onPage={setPage} label="Audit log pages" />
          </>
        )}
      </Card>
    </>
  );
}
