// The Secure Leads Manager's list: one page of leads with its filters,
// status changes, a lead's dialog and deleting a lead.
import { useEffect, useRef, useState } from "react";
import { count } from "../../components/plural";
import { api, ApiError, titledError } from "../api";
import { useNarrow } from "../data-table";
import { deleteLead, leadsChanged, onLeadsChanged } from "../data/leads";
import { fullName, LeadDialog, type Lead } from "../lead-dialog";
import { LiveStatus, useLeadChanges } from "../lead-stream";
import { Pager } from "../listing";
import { useToast } from "../toast";
import { Button, Card, ConfirmDialog } from "../ui";
import { useResource } from "../use-resource";
import { LeadFilters } from "./filters";
import { forgetLeadParam, LEAD_GONE, rowId, useLinkedLead } from "./link";
import { useLeadQuery, type LeadPage } from "./query";
import { LeadTable } from "./table";

/** accessFailed is spec 8's 'Access Failed' toast for a list failure. */
function accessFailed(err: unknown) {
  const msg = err instanceof Error ? err.message : String(err);
  return { title: "Access Failed", description: /access denied/i.test(msg) ? "Insufficient permissions to view lead data" : "Failed to load lead data", variant: "destructive" as const };
}

const failedToast = (err: unknown, fallback: { title: string; description: string }) =>
  titledError(err) ? { ...titledError(err)!, variant: "destructive" as const } : { ...fallback, variant: "destructive" as const };

export function LeadsManager({ isAdmin, canAssign, canErase }: { isAdmin: boolean; canAssign: boolean; canErase: boolean }) {
  const toast = useToast();
  const lq = useLeadQuery(isAdmin);
  const [updating, setUpdating] = useState<string | null>(null);
  const [detail, setDetail] = useState<Lead | null>(null);
  const [workKey, setWorkKey] = useState(0); // reloads the open dialog's timeline
  const [opening, setOpening] = useState<string | null>(null);
  const [erasing, setErasing] = useState<Lead | null>(null); // the lead whose deletion awaits confirmation
  const [erasingBusy, setErasingBusy] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  // 'Data Loaded' is owed for the first load, Refresh and the full-data
  // toggle, until the latest load answers: a load that a newer one
  // replaced (the live stream's resync as the screen opens, say) hands it on.
  const announce = useRef(true);
  const failures = useRef(0);
  const wrap = useRef<HTMLDivElement>(null);
  const narrow = useNarrow();

  const { data, loading, refresh, setData } = useResource(() => api<LeadPage>("/api/admin/leads?" + lq.query), [lq.query], {
    skip: lq.badRange,
    onData: (res) => {
      failures.current = 0;
      if (announce.current) toast({ title: "Data Loaded", description: `Loaded ${count(res.leads.length, "lead")} with ${res.full ? "full" : "masked"} data` });
      announce.current = false;
    },
    onError: (err) => {
      announce.current = false;
      if (err instanceof ApiError && err.status === 401) return;
      toast(titledError(err) ? { ...titledError(err)!, variant: "destructive" } : accessFailed(err));
      failures.current += 1;
      if (failures.current > 2) console.warn(`Loading lead data failed ${failures.current} times in a row:`, err.message);
      if (lq.full && err instanceof ApiError && err.status === 403) lq.dropFull();
    },
  });

  // Refresh, a change made in this tab (onLeadsChanged) and a live stream
  // of lead changes all refresh the list.
  useEffect(() => onLeadsChanged(() => { refresh(); }), [refresh]);
  // another device's change: the list and an open timeline
  const { live } = useLeadChanges(() => { refresh(); setWorkKey((k) => k + 1); });

  const pages = data ? Math.max(1, Math.ceil(data.total / (data.perPage || lq.perPage))) : 1;
  useEffect(() => { if (data && lq.page > pages) lq.setPage(pages); }, [data, lq.page, pages]); // eslint-disable-line react-hooks/exhaustive-deps

  const changeStatus = async (lead: Lead, status: string) => {
    setUpdating(lead.id);
    setData((d) => d && { ...d, leads: d.leads.map((l) => (l.id === lead.id ? { ...l, status } : l)) });
    setDetail((d) => (d && d.id === lead.id ? { ...d, status } : d));
    try {
      await api(`/api/admin/leads/${encodeURIComponent(lead.id)}`, { method: "PATCH", body: JSON.stringify({ status }) });
      toast({ title: "Status Updated", description: `Lead status changed to ${status}` });
      setWorkKey((k) => k + 1);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      toast({ title: "Update Failed", description: "Failed to update lead status", variant: "destructive" });
    } finally {
      setUpdating(null);
      leadsChanged();
    }
  };

  const openDetail = async (lead: Pick<Lead, "id"> & Partial<Lead>, el: HTMLElement | null) => {
    opener.current = el;
    if (!isAdmin) {
      // Staff: the row they see (masked), with its notes and timeline.
      if (lead.created_at) setDetail(lead as Lead);
      return;
    }
    setOpening(lead.id);
    try {
      const res = await api<Lead | { lead: Lead }>(`/api/admin/leads/${encodeURIComponent(lead.id)}`);
      setDetail("lead" in res && typeof res.lead === "object" ? res.lead : (res as Lead));
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) { toast(LEAD_GONE); if (!el) forgetLeadParam(); }
      else if (!(err instanceof ApiError && err.status === 401)) toast(failedToast(err, { title: "Access Error", description: "Failed to load full lead details" }));
    } finally {
      setOpening(null);
    }
  };

  const target = useLinkedLead({ isAdmin, perPage: lq.perPage, setPage: lq.setPage, data, loading, openDetail, gone: () => toast(LEAD_GONE) });

  // Deleting a lead (a privacy request): confirmed in its own dialog, in
  // place of the lead's.
  const erase = async () => {
    if (!erasing) return;
    setErasingBusy(true);
    try {
      await deleteLead(erasing.id);
      toast({ title: "Lead Deleted", description: `${fullName(erasing)}'s request, notes and timeline were deleted. The audit log records that you deleted it.` });
      setErasing(null);
      leadsChanged();
      wrap.current?.focus();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      toast(failedToast(err, { title: "Delete Failed", description: (err as Error).message || "The lead could not be deleted." }));
    } finally {
      setErasingBusy(false);
    }
  };

  const leads = data?.leads || [];
  const first = data && data.total > 0 ? (data.page - 1) * data.perPage + 1 : 0;
  const summary = lq.badRange ? "" : loading && !data ? "Loading leads..." : !data ? "Lead data could not be loaded." : data.total === 0 ? "No leads match these filters."
    : `Showing ${first}–${first + leads.length - 1} of ${count(data.total, "lead")}${data.full ? " with full data" : " (contact details masked)"}.`;

  return (
    <>
      <Card className="al-leads-card" title="Leads" description={isAdmin ? "Newest first. Call or Text shows you the number and records it in the audit log; so does Show full data and every export." : "Newest first. Contact details are masked for staff accounts."}
        actions={<div className="a-row"><LiveStatus live={live} /><Button variant="outline" onClick={() => { announce.current = true; refresh(); }} disabled={loading} aria-busy={loading}>{loading ? "Refreshing..." : "Refresh"}</Button></div>}>
        <LeadFilters lq={lq} isAdmin={isAdmin} narrow={narrow} onFull={() => { announce.current = true; }} />
        <p role="status" className="al-summary">{summary}</p>
        <div ref={wrap} tabIndex={-1} className="al-table-wrap al-leads-wrap" aria-busy={loading}>
          <LeadTable leads={leads} isAdmin={isAdmin} target={target} updating={updating} opening={opening} onStatus={changeStatus} onOpen={openDetail} />
        </div>
        {/* The pager names the page on screen (data.page), not the one asked for while it loads. */}
        {data && data.total > 0 && <Pager page={data.page} pages={pages} onPage={lq.setPage} label="Lead pages" />}
      </Card>
      <ConfirmDialog open={erasing !== null} title="Delete this lead?" confirmLabel="Delete lead" busy={erasingBusy}
        description={erasing && <>
          <p>{fullName(erasing)}&apos;s estimate request, its notes, timeline and notifications are deleted for good. This cannot be undone.</p>
          <p>The audit log keeps only that you deleted it, and when. Backups still hold it until they expire.</p>
        </>}
        onConfirm={erase} onCancel={() => { setErasing(null); (opener.current || wrap.current)?.focus(); }} />
      {detail && <LeadDialog lead={detail} full={isAdmin} canAssign={canAssign} workKey={workKey} updating={updating === detail.id} onStatus={changeStatus}
        onErase={canErase ? (l) => { setDetail(null); forgetLeadParam(); setErasing(l); } : undefined} onClose={() => {
          setDetail(null);
          forgetLeadParam();
          // Back to the button that opened it; for a linked lead, its row (or the list).
          (opener.current || document.getElementById(rowId(detail.id)) || wrap.current)?.focus();
        }} />}
    </>
  );
}
