import "../../styles/admin-leads.css";
import "../../styles/admin-settings.css";
import { api, ApiError } from "../api";
import type * as wire from "../api.gen";
import { DataTable } from "../data-table";
import { fmtDateTime } from "../listing";
import { PageNav, PageSummary, SearchBox, usePaging } from "../paging";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Button, Card, LoadError, PageHeader } from "../ui";
import { useResource } from "../use-resource";

/** AuditEntry is a row of GET /api/admin/audit (docs/leads-api.md): the
 * server words each entry as a sentence, naming the account and the lead. */
export type AuditEntry = wire.AuditEntry;

/** Audit is the admins' audit log: who saw or changed lead data and
 * accounts, newest first, a page at a time. */
export default function Audit(_: AdminPageProps) {
  const toast = useToast();
  const paging = usePaging(50);
  // The answer names the page it holds: the pager names the page on screen.
  const { data, error, loading, refresh, retry } = useResource(
    () => api<wire.AuditPage>(`/api/admin/audit?${paging.query}`).then((res) => ({ ...res, entries: res.entries || [] })),
    [paging.query],
    { onError: (err) => { if (!(err instanceof ApiError && err.status === 401)) toast({ title: "Audit Log Not Loaded", description: err instanceof ApiError && err.status ? err.message : "Failed to load the audit log", variant: "destructive" }); } },
  );
  return (
    <>
      <PageHeader title="Audit Log" description="Who signed in, saw or changed leads, accounts, content and settings, and from where, newest first." />
      <Card title="Entries" description={data ? `${data.total} in all` : undefined}
        actions={<Button variant="outline" onClick={refresh} disabled={loading} aria-busy={loading}>{loading ? "Refreshing..." : "Refresh"}</Button>}>
        <SearchBox paging={paging} label="Search the audit log" placeholder="A name, an email, a lead, an address" />
        {data && <PageSummary info={data} rows={data.entries.length} one="entry" many="entries" />}
        {data === null ? (error ? <LoadError error={error} onRetry={retry} prefix="The audit log could not be loaded: " /> : <p role="status">{loading ? "Loading the audit log..." : "The audit log could not be loaded."}</p>) : data.entries.length === 0 ? null : (
          <>
            <div aria-busy={loading}>
              {/* A laptop reads a table; a phone (below 768 px) reads cards of sentences. */}
              <DataTable rows={data.entries} rowKey={(e) => e.id} caption="Audit log, newest first" className="st-audit-table" cardsClassName="st-audit-cards"
                columns={[
                  { key: "when", label: "When", className: "al-nowrap", cell: (e) => <time dateTime={e.at}>{fmtDateTime(e.at)}</time> },
                  { key: "what", label: "What happened", cell: (e) => e.sentence },
                  { key: "from", label: "From address", cell: (e) => (e.ip ? <span className="al-mono">{e.ip}</span> : <span className="a-muted">None (command line)</span>) },
                ]}
                rowProps={(_, as) => (as === "card" ? { className: "st-audit-card" } : {})}
                card={(e) => <>
                  <p className="st-audit-card__what">{e.sentence}</p>
                  <p className="a-muted"><time dateTime={e.at}>{fmtDateTime(e.at)}</time>{e.ip && !e.sentence.includes(e.ip) ? <> · from {e.ip}</> : null}</p>
                </>} />
            </div>
            <PageNav info={data} paging={paging} label="Audit log pages" />
          </>
        )}
      </Card>
    </>
  );
}
