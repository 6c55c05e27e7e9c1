import "../../styles/admin-content.css";
import { useCallback, useRef, useState } from "react";
import { ApiError } from "../api";
import { fmtDateTime } from "../listing";
import { errorText, useServer } from "../live";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, ConfirmDialog, PageHeader } from "../ui";
import { redirectsApi, type RedirectRow } from "../data/redirects";

// The tables carry their roles explicitly: on a phone their rows are laid
// out as cards (display: block), which must not take the semantics away.

/** Redirects (issue 22): the site's permanent redirects, added here or left
 * by a page whose address changed, and the 404 monitor: the paths that
 * answered "not found" most over the last 30 days, each a click away from
 * a redirect. The server refuses loops and redirects off the site. */
export default function Redirects(_: AdminPageProps) {
  const toast = useToast();
  const list = useServer(redirectsApi.list);
  const missing = useServer(redirectsApi.notFound);
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
      list.reload();
      missing.reload();
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
      list.reload();
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

      <Card title={list.data ? `Redirects (${rows.length.toLocaleString("en-US")} of at most ${list.data.max.toLocaleString("en-US")})` : "Redirects"}
        description="Auto: left by a published page whose address changed. Manual: added here.">
        {list.error ? <p className="a-error" role="alert">{list.error}</p> : !list.data ? <p role="status">Loading redirects...</p> : rows.length === 0 ? (
          <p className="a-empty">No redirects yet.</p>
        ) : (
          <div className="am-table-wrap">
            <table className="a-table ar-table" role="table">
              <caption className="visually-hidden">Redirects</caption>
              <thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">From</th><th scope="col" role="columnheader">To</th><th scope="col" role="columnheader">Kind</th><th scope="col" role="columnheader" className="ar-nowrap">Added by</th><th scope="col" role="columnheader">When</th><th scope="col" role="columnheader"><span className="visually-hidden">Actions</span></th></tr></thead>
              <tbody role="rowgroup">
                {rows.map((r) => (
                  <tr role="row" key={r.from}>
                    <th scope="row" role="rowheader" className="ar-path">{r.from}</th>
                    <td role="cell" data-label="To" className="ar-path"><a href={r.to} target="_blank" rel="noopener">{r.to}<span className="visually-hidden"> (opens in a new tab)</span></a></td>
                    <td role="cell" data-label="Kind" className="ar-nowrap"><Badge tone={r.source === "auto" ? "info" : "neutral"}>{r.source}</Badge></td>
                    <td role="cell" data-label="Added by">{r.createdBy || <span className="a-muted">unknown</span>}</td>
                    <td role="cell" data-label="When" className="ar-nowrap"><time dateTime={r.createdAt}>{fmtDateTime(r.createdAt)}</time></td>
                    <td role="cell" className="ar-nowrap"><Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" disabled={busy} onClick={() => setDeleting(r)}>Delete<span className="visually-hidden"> the redirect from {r.from}</span></Button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <Card title="404 monitor" description={missing.data ? `The addresses that answered “not found” most over the last ${missing.data.days} days. Adding a redirect takes a path off this list.` : undefined}>
        {missing.error ? <p className="a-error" role="alert">{missing.error}</p> : !missing.data ? <p role="status">Loading the 404 monitor...</p> : missing.data.paths.length === 0 ? (
          <p className="a-empty">No address has answered “not found” in the last {missing.data.days} days.</p>
        ) : (
          <div className="am-table-wrap">
            <table className="a-table ar-table" role="table">
              <caption className="visually-hidden">Top 404 paths of the last {missing.data.days} days</caption>
              <thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">Path</th><th scope="col" role="columnheader">Hits</th><th scope="col" role="columnheader">Last seen</th><th scope="col" role="columnheader"><span className="visually-hidden">Actions</span></th></tr></thead>
              <tbody role="rowgroup">
                {missing.data.paths.map((p) => (
                  <tr role="row" key={p.path}>
                    <th scope="row" role="rowheader" className="ar-path">{p.path}</th>
                    <td role="cell" data-label="Hits">{p.hits.toLocaleString("en-US")}</td>
                    <td role="cell" data-label="Last seen" className="ar-nowrap"><time dateTime={p.lastSeen}>{fmtDateTime(p.lastSeen)}</time></td>
                    <td role="cell" className="ar-nowrap"><Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" onClick={() => prefill(p.path)}>Add redirect<span className="visually-hidden"> from {p.path}</span></Button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <ConfirmDialog open={deleting !== null} title="Delete this redirect?" confirmLabel="Delete" busy={busy}
        description={<p><strong className="ar-path">{deleting?.from}</strong> will answer “not found” again instead of leading to <strong className="ar-path">{deleting?.to}</strong>.</p>}
        onConfirm={remove} onCancel={cancelDelete} />
    </>
  );
}
