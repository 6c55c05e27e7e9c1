import "../../styles/admin-content.css";
import { useCallback, useRef, useState } from "react";
import { ApiError } from "../api";
import { fmtDateTime } from "../listing";
import { DataTable } from "../data-table";
import { errorText, useResource } from "../use-resource";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, ConfirmDialog, LoadError, PageHeader } from "../ui";
import { redirectsApi, type RedirectRow } from "../data/redirects";
import { PageNav, PageSummary, SearchBox, usePaging } from "../paging";

/** Redirects: the site's permanent redirects, added here or left
 * by a page whose address changed, and the 404 monitor: the paths that
 * answered "not found" most over the last 30 days, each a click away from
 * a redirect. The server refuses loops and redirects off the site. */
export default function Redirects(_: AdminPageProps) {
  const toast = useToast();
  const paging = usePaging(50);
  const list = useResource(() => redirectsApi.list(paging.query), [paging.query], { onData: paging.fit });
  const [missingKey, setMissingKey] = useState(0); // a new redirect takes its path off the 404 monitor
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [deleting, setDeleting] = useState<RedirectRow | null>(null);
  const fromRef = useRef<HTMLInputElement>(null);
  const toRef = useRef<HTMLInputElement>(null);
  const cancelDelete = useCallback(() => setDeleting(null), []);

  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const r = await redirectsApi.add(from.trim(), to.trim());
      toast({ title: "Redirect added", description: `${r.from} now leads to ${r.to}.` });
      setFrom("");
      setTo("");
      list.refresh();
      setMissingKey((k) => k + 1);
      fromRef.current?.focus();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    const r = deleting;
    if (!r) return;
    setBusy(true);
    try {
      await redirectsApi.remove(r.from);
      toast({ title: "Redirect deleted", description: `${r.from} no longer redirects.` });
      setDeleting(null);
      list.refresh();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) toast({ title: "Not deleted", description: errorText(err), variant: "destructive" });
      setDeleting(null);
    } finally {
      setBusy(false);
    }
  };

  const prefill = (path: string) => {
    setFrom(path);
    setError("");
    document.getElementById("ar-add")?.scrollIntoView({ block: "start" });
    toRef.current?.focus();
  };

  const rows = list.data?.redirects || [];
  return (
    <>
      <PageHeader title="Redirects" description="Permanent (301) redirects from old addresses of the site, and the addresses visitors reach that do not exist." />
      <Card title="Add a redirect" description="Both are paths of this site, such as /blog/old-post and /blog/new-post. Loops and redirects to other sites are refused.">
        <form id="ar-add" className="ar-form" onSubmit={add}>
          <div className="a-field">
            <label className="a-label" htmlFor="ar-from">From</label>
            <input ref={fromRef} id="ar-from" className="a-input ar-path" value={from} onChange={(e) => setFrom(e.target.value)} required placeholder="/old-address" spellCheck={false} autoCapitalize="off" />
          </div>
          <div className="a-field">
            <label className="a-label" htmlFor="ar-to">To</label>
            <input ref={toRef} id="ar-to" className="a-input ar-path" value={to} onChange={(e) => setTo(e.target.value)} required placeholder="/new-address" spellCheck={false} autoCapitalize="off" />
          </div>
          <Button type="submit" disabled={busy}>{busy ? "Adding..." : "Add redirect"}</Button>
        </form>
        {error && <p className="a-error" role="alert">{error}</p>}
      </Card>

      <Card title={list.data ? `Redirects (${list.data.total.toLocaleString("en-US")}${list.data.q ? " found" : ` of at most ${list.data.max.toLocaleString("en-US")}`})` : "Redirects"}
        description="Auto: left by a published page whose address changed. Manual: added here.">
        <SearchBox paging={paging} label="Search redirects" placeholder="Either address" />
        {list.data && <PageSummary info={list.data} rows={rows.length} one="redirect" />}
        {list.error ? <LoadError error={list.error} onRetry={list.retry} /> : !list.data ? <p role="status">Loading redirects...</p> : rows.length === 0 ? null : (
          <div className="am-table-wrap">
            <DataTable rows={rows} rowKey={(r) => r.from} caption="Redirects" className="ar-table" columns={[
            { key: "from", label: "From", rowHeader: true, className: "ar-path", cell: (r) => r.from },
            { key: "to", label: "To", className: "ar-path", cell: (r) => <a href={r.to} target="_blank" rel="noopener">{r.to}<span className="visually-hidden"> (opens in a new tab)</span></a> },
            { key: "kind", label: "Kind", className: "ar-nowrap", cell: (r) => <Badge tone={r.source === "auto" ? "info" : "neutral"}>{r.source}</Badge> },
            { key: "by", label: "Added by", cell: (r) => r.createdBy || <span className="a-muted">unknown</span> },
            { key: "when", label: "When", className: "ar-nowrap", cell: (r) => <time dateTime={r.createdAt}>{fmtDateTime(r.createdAt)}</time> },
            { key: "actions", label: "Actions", hideLabel: true, className: "ar-nowrap", cell: (r) => <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" disabled={busy} onClick={() => setDeleting(r)}>Delete<span className="visually-hidden"> the redirect from {r.from}</span></Button> },
          ]} />
          </div>
        )}
        {list.data && <PageNav info={list.data} paging={paging} label="Redirect pages" />}
      </Card>

      <NotFoundCard key={missingKey} onRedirect={prefill} />

      <ConfirmDialog open={deleting !== null} title="Delete this redirect?" confirmLabel="Delete" busy={busy}
        description={<p><strong className="ar-path">{deleting?.from}</strong> will answer “not found” again instead of leading to <strong className="ar-path">{deleting?.to}</strong>.</p>}
        onConfirm={remove} onCancel={cancelDelete} />
    </>
  );
}

/** NotFoundCard is the 404 monitor: a page of the paths that answered
 * "not found" most, searched on the server. */
function NotFoundCard({ onRedirect }: { onRedirect: (path: string) => void }) {
  const paging = usePaging(50);
  const missing = useResource(() => redirectsApi.notFound(paging.query), [paging.query], { onData: paging.fit });
  return (
      <Card title="404 monitor" description={missing.data ? `The addresses that answered “not found” most over the last ${missing.data.days} days. Adding a redirect takes a path off this list.` : undefined}>
        {missing.data && (missing.data.total > 0 || missing.data.q || paging.q) && <SearchBox paging={paging} label="Search the 404 monitor" placeholder="Part of an address" />}
        {missing.data && (missing.data.total > 0 || missing.data.q) && <PageSummary info={missing.data} rows={missing.data.paths.length} one="address" many="addresses" />}
        {missing.error ? <LoadError error={missing.error} onRetry={missing.retry} /> : !missing.data ? <p role="status">Loading the 404 monitor...</p> : missing.data.paths.length === 0 ? (
          missing.data.q ? null : <p className="a-empty">No address has answered “not found” in the last {missing.data.days} days.</p>
        ) : (
          <div className="am-table-wrap">
            <DataTable rows={missing.data.paths} rowKey={(p) => p.path} caption={`Top 404 paths of the last ${missing.data.days} days`} className="ar-table" columns={[
            { key: "path", label: "Path", rowHeader: true, className: "ar-path", cell: (p) => p.path },
            { key: "hits", label: "Hits", cell: (p) => p.hits.toLocaleString("en-US") },
            { key: "seen", label: "Last seen", className: "ar-nowrap", cell: (p) => <time dateTime={p.lastSeen}>{fmtDateTime(p.lastSeen)}</time> },
            { key: "actions", label: "Actions", hideLabel: true, className: "ar-nowrap", cell: (p) => <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" onClick={() => onRedirect(p.path)}>Add redirect<span className="visually-hidden"> from {p.path}</span></Button> },
          ]} />
          </div>
        )}
        {missing.data && <PageNav info={missing.data} paging={paging} label="404 monitor pages" />}
      </Card>
  );
}
