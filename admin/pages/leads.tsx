import { count } from "../../components/plural";
import "../../styles/admin-leads.css";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { DAMAGE_TYPES } from "../../components/estimate-form";
import { Icon } from "../../components/icons";
import { api, apiFetch, ApiError, titledError } from "../api";
import { deleteLead, exportPerson, leadsChanged, onLeadsChanged } from "../data/leads";
import { CallText } from "../lead-call";
import { Email, EmergencyBadge, fullName, LEAD_STATUSES, LeadDialog, Phone, StatusSelect, type Lead } from "../lead-dialog";
import { LiveStatus, useLeadChanges } from "../lead-stream";
import { PushDevices } from "../push-devices";
import { MOBILE_BREAKPOINT } from "../layout";
import { Pager } from "../listing";
import { can } from "../capabilities";
import { useSession } from "../use-session";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, ConfirmDialog, PageHeader } from "../ui";

export { LEAD_STATUSES, type Lead };

interface LeadPage { leads: Lead[]; total: number; page: number; perPage: number; full: boolean }

interface Filters { q: string; status: string; damageType: string; emergency: string; from: string; to: string }
const NO_FILTERS: Filters = { q: "", status: "", damageType: "", emergency: "", from: "", to: "" };
const PER_PAGE = [25, 50, 100];

/** Received is a lead's date on one line and its time on the next, each
 * kept whole, so the column stays narrow without a date broken in four. */
function Received({ iso }: { iso: string }) {
  const d = new Date(iso);
  if (isNaN(d.getTime())) return <>{iso}</>;
  return (
    <time dateTime={iso} className="al-when">
      <span>{d.toLocaleDateString("en-US", { dateStyle: "medium" })}</span>{" "}
      <span>{d.toLocaleTimeString("en-US", { timeStyle: "short" })}</span>
    </time>
  );
}

/** useNarrow follows the admin's mobile breakpoint (spec 9: 768 px): below
 * it each lead is a card. It reads the media query before the first paint
 * (the list only renders in the browser, after sign-in). */
function useNarrow() {
  const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;
  const [narrow, setNarrow] = useState(() => typeof window !== "undefined" && window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const on = () => setNarrow(mq.matches);
    on();
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, [query]);
  return narrow;
}

function filterParams(f: Filters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.q.trim()) p.set("q", f.q.trim());
  if (f.status) p.set("status", f.status);
  if (f.damageType) p.set("damage_type", f.damageType);
  if (f.emergency) p.set("emergency", f.emergency);
  if (f.from) p.set("from", f.from);
  if (f.to) p.set("to", f.to);
  return p;
}

/** LEAD_GONE is the toast for a link to a lead the list does not have. */
const LEAD_GONE = { title: "Lead not found", description: "The linked lead is not in the list: it may have been removed.", variant: "destructive" as const };

/** accessFailed is spec 8's 'Access Failed' toast for a list failure. */
function accessFailed(err: unknown) {
  const msg = err instanceof Error ? err.message : String(err);
  return { title: "Access Failed", description: /access denied/i.test(msg) ? "Insufficient permissions to view lead data" : "Failed to load lead data", variant: "destructive" as const };
}

/** leadParam is the lead a link names (/admin/leads?lead=ID, the new-lead
 * email's link), or null. */
function leadParam(): string | null {
  if (typeof window === "undefined") return null;
  const id = new URLSearchParams(window.location.search).get("lead");
  return id && /^[A-Za-z0-9_-]{1,100}$/.test(id) ? id : null;
}

/** forgetLeadParam drops ?lead= once the link has done its work, so a
 * reload or Back does not open the lead again. */
function forgetLeadParam() {
  const u = new URL(window.location.href);
  if (!u.searchParams.has("lead")) return;
  u.searchParams.delete("lead");
  history.replaceState(history.state, "", u.pathname + u.search + u.hash);
}

/** Leads is the Secure Leads Manager (spec 2.4, 4, 6, 8) for the signed-in
 * account: staff see masked leads, admins full data on request. The
 * router only opens it for a session with leads.read (a PIN session gets
 * spec 6's 'Authentication Required' instead, admin/unavailable.tsx). */
export default function Leads(_: AdminPageProps) {
  const { session } = useSession();
  const admin = session.role === "admin";
  return (
    <>
      <PageHeader title="Secure Leads Manager" description="Estimate requests from the website." actions={
        <div className="al-who">
          <Badge tone={admin ? "info" : "good"}>{admin ? "Admin Access" : "Staff Access"}</Badge>
          <span className="a-muted al-who__name">{session.name || session.email}</span>
        </div>
      } />
      <LeadsManager isAdmin={can(session, "leads.full")} canAssign={can(session, "leads.assign")} canErase={can(session, "leads.erase")} />
      {can(session, "leads.erase") && <PrivacyRequests />}
      {can(session, "push.subscribe") && <PushDevices isAdmin={can(session, "push.all")} />}
    </>
  );
}

const rowId = (id: string) => "lead-row-" + id;

function LeadsManager({ isAdmin, canAssign, canErase }: { isAdmin: boolean; canAssign: boolean; canErase: boolean }) {
  const toast = useToast();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [q, setQ] = useState(""); // the search box, applied after a pause
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(50);
  const [full, setFull] = useState(false);
  const [reloadKey, setReloadKey] = useState(0);
  const [data, setData] = useState<LeadPage | null>(null);
  const [loading, setLoading] = useState(true);
  const [updating, setUpdating] = useState<string | null>(null);
  const [exporting, setExporting] = useState<"" | "plain" | "source">("");
  const [detail, setDetail] = useState<Lead | null>(null);
  const [workKey, setWorkKey] = useState(0); // reloads the open dialog's timeline
  const [opening, setOpening] = useState<string | null>(null);
  const [erasing, setErasing] = useState<Lead | null>(null); // the lead whose deletion awaits confirmation
  const [erasingBusy, setErasingBusy] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const announce = useRef(true); // toast 'Data Loaded' for the first load, Refresh and the full-data toggle
  const failures = useRef(0);
  const seq = useRef(0);
  const ids = useId();
  const wrap = useRef<HTMLDivElement>(null);
  // The lead a link names: admins get its details, staff its row (found
  // on whichever page holds it, then scrolled to and marked).
  const [target, setTarget] = useState<string | null>(null);
  const shown = useRef<string | null>(null);
  // Exports, search and filters fold behind one control: closed on a
  // phone, so the first lead is in the first screen; open on a laptop.
  const narrow = useNarrow();
  const [fold, setFold] = useState<boolean | null>(null);
  const foldOpen = fold ?? !narrow;

  const badRange = filters.from !== "" && filters.to !== "" && filters.from > filters.to;
  const params = filterParams(filters);
  params.set("page", String(page));
  params.set("per_page", String(perPage));
  if (full && isAdmin) params.set("full", "1");
  const query = params.toString();

  useEffect(() => {
    if (badRange) { setLoading(false); return; }
    const mine = ++seq.current;
    setLoading(true);
    // The announcement stays owed until the latest load answers: a load
    // that a newer one replaced (the live stream's resync as the screen
    // opens, say) hands it on instead of losing it.
    api<LeadPage>("/api/admin/leads?" + query).then((res) => {
      if (mine !== seq.current) return;
      failures.current = 0;
      setData(res);
      if (announce.current) toast({ title: "Data Loaded", description: `Loaded ${count(res.leads.length, "lead")} with ${res.full ? "full" : "masked"} data` });
      announce.current = false;
    }).catch((err) => {
      if (mine === seq.current) announce.current = false;
      if (mine !== seq.current || (err instanceof ApiError && err.status === 401)) return;
      toast(titledError(err) ? { ...titledError(err)!, variant: "destructive" } : accessFailed(err));
      failures.current += 1;
      if (failures.current > 2) console.warn(`Loading lead data failed ${failures.current} times in a row:`, (err as Error).message);
      if (full && err instanceof ApiError && err.status === 403) setFull(false);
    }).finally(() => {
      if (mine === seq.current) setLoading(false);
    });
  }, [query, reloadKey, badRange]); // eslint-disable-line react-hooks/exhaustive-deps

  // The search box applies 300 ms after typing stops (Enter applies at once).
  useEffect(() => {
    if (q === filters.q) return;
    const t = setTimeout(() => { setFilters((f) => ({ ...f, q })); setPage(1); }, 300);
    return () => clearTimeout(t);
  }, [q]); // eslint-disable-line react-hooks/exhaustive-deps

  const setFilter = (k: keyof Filters, v: string) => { setFilters((f) => ({ ...f, [k]: v })); setPage(1); };
  // reload is the list's one reload: Refresh, a change made in this tab
  // (onLeadsChanged) and a live stream of lead changes all call it.
  const reload = useCallback((toastIt = false) => { announce.current ||= toastIt; setReloadKey((k) => k + 1); }, []);
  useEffect(() => onLeadsChanged(() => reload()), [reload]);
  // another device's change: the list and an open timeline
  const { live } = useLeadChanges(() => { reload(); setWorkKey((k) => k + 1); });
  const clear = () => { setQ(""); setFilters(NO_FILTERS); setPage(1); };

  const pages = data ? Math.max(1, Math.ceil(data.total / (data.perPage || perPage))) : 1;
  useEffect(() => { if (data && page > pages) setPage(pages); }, [data, page, pages]);

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
      else if (!(err instanceof ApiError && err.status === 401)) {
        toast(titledError(err) ? { ...titledError(err)!, variant: "destructive" } : { title: "Access Error", description: "Failed to load full lead details", variant: "destructive" });
      }
    } finally {
      setOpening(null);
    }
  };

  // A link to one lead (?lead=ID): admins open its details at once; for
  // staff, and under the admin's dialog, the list moves to the page that
  // holds it. The server's list order (newest first) decides the page.
  useEffect(() => {
    const id = leadParam();
    if (!id) return;
    if (isAdmin) openDetail({ id }, null);
    let cancelled = false;
    (async () => {
      const size = 200;
      for (let p = 1; p <= 50 && !cancelled; p++) {
        let res: LeadPage;
        try {
          res = await api<LeadPage>(`/api/admin/leads?page=${p}&per_page=${size}`);
        } catch {
          return; // the list's own load reports the failure
        }
        const i = res.leads.findIndex((l) => l.id === id);
        if (i >= 0) {
          if (cancelled) return;
          setPage(Math.floor(((p - 1) * size + i) / perPage) + 1);
          setTarget(id);
          return;
        }
        if (p * size >= res.total) break;
      }
      if (!cancelled && !isAdmin) { toast(LEAD_GONE); forgetLeadParam(); }
    })();
    return () => { cancelled = true; };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, for the link the page was opened with

  // Once the page holding the linked lead is shown: scroll to its row and
  // give it the focus (staff; an admin's dialog keeps the focus).
  useEffect(() => {
    if (!target || shown.current === target || loading || !data?.leads.some((l) => l.id === target)) return;
    shown.current = target;
    const el = document.getElementById(rowId(target));
    if (!el) return;
    el.scrollIntoView({ block: "center" });
    if (!isAdmin) {
      el.focus({ preventScroll: true });
      // A notification's link: open the lead's notes and timeline.
      const row = data.leads.find((l) => l.id === target);
      if (row) openDetail(row, el);
    }
  }, [target, data, loading, isAdmin]); // eslint-disable-line react-hooks/exhaustive-deps

  const exportCsv = async (withSource: boolean) => {
    setExporting(withSource ? "source" : "plain");
    try {
      const params = filterParams(filters);
      if (withSource) params.set("with", "source");
      const res = await apiFetch("/api/admin/leads/export.csv?" + params.toString());
      if (res.status === 401) return;
      if (!res.ok) {
        const body = await res.json().catch(() => null);
        throw new ApiError(res.status, body?.error || `HTTP ${res.status}`, body);
      }
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = withSource ? "leads-export-with-source.csv" : "leads-export.csv";
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast({ title: "Export Complete", description: "Lead data exported successfully" });
    } catch (err) {
      toast(titledError(err) ? { ...titledError(err)!, variant: "destructive" } : { title: "Export Failed", description: "Failed to export lead data", variant: "destructive" });
    } finally {
      setExporting("");
    }
  };

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
      toast(titledError(err) ? { ...titledError(err)!, variant: "destructive" } : { title: "Delete Failed", description: (err as Error).message || "The lead could not be deleted.", variant: "destructive" });
    } finally {
      setErasingBusy(false);
    }
  };

  const leads = data?.leads || [];
  const active = [filters.q, filters.status, filters.damageType, filters.emergency, filters.from, filters.to].filter(Boolean).length;
  const first = data && data.total > 0 ? (data.page - 1) * data.perPage + 1 : 0;
  const summary = badRange ? "" : loading && !data ? "Loading leads..." : !data ? "Lead data could not be loaded." : data.total === 0 ? "No leads match these filters."
    : `Showing ${first}–${first + leads.length - 1} of ${count(data.total, "lead")}${data.full ? " with full data" : " (contact details masked)"}.`;
  const searchHint = isAdmin ? "Searches name, city, phone and email." : "Searches name and city.";

  return (
    <>
      <Card className="al-leads-card" title="Leads" description={isAdmin ? "Newest first. Call or Text shows you the number and records it in the audit log; so does Show full data and every export." : "Newest first. Contact details are masked for staff accounts."}
        actions={<div className="a-row"><LiveStatus live={live} /><Button variant="outline" onClick={() => reload(true)} disabled={loading} aria-busy={loading}>{loading ? "Refreshing..." : "Refresh"}</Button></div>}>
        <button type="button" className="a-btn a-btn--outline al-fold-toggle" aria-expanded={foldOpen} aria-controls={ids + "fold"} onClick={() => setFold(!foldOpen)}>
          <Icon name="search" size={16} /><span>Search and filters</span>
          {active > 0 && <span className="al-fold-toggle__count">{active} active</span>}
          <Icon name="chevron-right" size={16} />
        </button>
        <div id={ids + "fold"} className="al-fold" hidden={!foldOpen}>
        {isAdmin && (
          <div className="a-row al-exports">
            <Button onClick={() => exportCsv(false)} disabled={!!exporting} aria-busy={exporting === "plain"}>{exporting === "plain" ? "Exporting..." : "Export CSV"}</Button>
            <Button variant="outline" onClick={() => exportCsv(true)} disabled={!!exporting} aria-busy={exporting === "source"}
              title="The columns of Export CSV, then each lead's landing page, referrer, campaign, click ids, device and visit">{exporting === "source" ? "Exporting..." : "Export with source"}</Button>
          </div>
        )}
        <form className="al-filters" role="search" aria-label="Filter leads" onSubmit={(e) => { e.preventDefault(); setFilters((f) => ({ ...f, q })); setPage(1); }}>
          <div className="a-field al-filters__search">
            <label htmlFor={ids + "q"} className="a-label">Search</label>
            <input id={ids + "q"} type="search" className="a-input" value={q} onChange={(e) => setQ(e.target.value)} maxLength={200} aria-describedby={ids + "qh"} />
            <p id={ids + "qh"} className="a-muted al-hint">{searchHint}</p>
          </div>
          <div className="a-field">
            <label htmlFor={ids + "st"} className="a-label">Status</label>
            <select id={ids + "st"} className="a-input" value={filters.status} onChange={(e) => setFilter("status", e.target.value)}>
              <option value="">All statuses</option>
              {LEAD_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
          </div>
          <div className="a-field">
            <label htmlFor={ids + "dt"} className="a-label">Damage type</label>
            <select id={ids + "dt"} className="a-input" value={filters.damageType} onChange={(e) => setFilter("damageType", e.target.value)}>
              <option value="">All damage types</option>
              {DAMAGE_TYPES.map((d) => <option key={d} value={d}>{d}</option>)}
            </select>
          </div>
          <div className="a-field">
            <label htmlFor={ids + "em"} className="a-label">Emergency</label>
            <select id={ids + "em"} className="a-input" value={filters.emergency} onChange={(e) => setFilter("emergency", e.target.value)}>
              <option value="">All leads</option>
              <option value="true">Emergencies only</option>
              <option value="false">Not emergencies</option>
            </select>
          </div>
          <div className="a-field">
            <label htmlFor={ids + "from"} className="a-label">From</label>
            <input id={ids + "from"} type="date" className="a-input" value={filters.from} max={filters.to || undefined} onChange={(e) => setFilter("from", e.target.value)}
              aria-invalid={badRange} aria-describedby={badRange ? ids + "range" : undefined} />
          </div>
          <div className="a-field">
            <label htmlFor={ids + "to"} className="a-label">To</label>
            <input id={ids + "to"} type="date" className="a-input" value={filters.to} min={filters.from || undefined} onChange={(e) => setFilter("to", e.target.value)}
              aria-invalid={badRange} aria-describedby={badRange ? ids + "range" : undefined} />
          </div>
          <div className="al-filters__actions">
            <Button variant="ghost" onClick={clear}>Clear filters</Button>
          </div>
          {badRange && <p id={ids + "range"} className="a-error al-filters__wide" role="alert">The From date is after the To date.</p>}
        </form>
        <div className="al-bar">
          {isAdmin && (
            <label className="a-switch al-full">
              <input type="checkbox" checked={full} onChange={(e) => { announce.current = true; setFull(e.target.checked); setPage(1); }} aria-describedby={ids + "fullh"} />
              <span><strong>Show full data</strong><span id={ids + "fullh"} className="a-muted al-hint"> Unmasked phone and email; recorded in the audit log.</span></span>
            </label>
          )}
          <div className="al-perpage">
            <label htmlFor={ids + "pp"} className="a-label">Rows per page</label>
            <select id={ids + "pp"} className="a-input" value={perPage} onChange={(e) => { setPerPage(Number(e.target.value)); setPage(1); }}>
              {PER_PAGE.map((n) => <option key={n} value={n}>{n}</option>)}
            </select>
          </div>
        </div>
        </div>
        <p role="status" className="al-summary">{summary}</p>
        <div ref={wrap} tabIndex={-1} className="al-table-wrap al-leads-wrap" aria-busy={loading}>
          {narrow ? (
            <ul className="al-cards" aria-label="Leads, newest first">
              {leads.map((l) => (
                <li key={l.id} id={rowId(l.id)} tabIndex={l.id === target ? -1 : undefined} aria-current={l.id === target ? "true" : undefined}
                  className={"al-card" + (l.is_emergency ? " al-card--emergency" : "") + (l.id === target ? " al-target" : "")}>
                  {l.id === target && <p className="al-target__note">Linked lead</p>}
                  <article aria-labelledby={ids + "n" + l.id}>
                    {l.is_emergency && <p className="al-card__flag"><EmergencyBadge /></p>}
                    <h3 className="al-card__name" id={ids + "n" + l.id}>{fullName(l)}</h3>
                    <p className="al-card__when"><Received iso={l.created_at} /></p>
                    <dl className="al-card__facts">
                      <div><dt>Phone</dt><dd><Phone lead={l} /></dd></div>
                      <div><dt>Email</dt><dd><Email lead={l} /></dd></div>
                      {l.street_address ? <div><dt>Address</dt><dd>{[l.street_address, l.city, l.zip_code].filter(Boolean).join(", ")}</dd></div>
                        : <div><dt>City</dt><dd>{l.city || <span className="a-muted">None</span>}</dd></div>}
                      <div><dt>Damage type</dt><dd>{l.damage_type}</dd></div>
                      {l.notes && !isAdmin && <div><dt>Message</dt><dd className="al-card__message">{l.notes}</dd></div>}
                    </dl>
                    <div className="al-card__actions">
                      {isAdmin && <CallText id={l.id} name={fullName(l)} phoneHref={l.phone_href} textOnly={!!l.phone_href} />}
                      <StatusSelect lead={l} updating={updating === l.id} onChange={changeStatus} />
                      <DetailsButton lead={l} admin={isAdmin} opening={opening === l.id} onOpen={openDetail} />
                    </div>
                  </article>
                </li>
              ))}
            </ul>
          ) : (
            <table className="a-table al-table al-leads">
              <caption className="visually-hidden">Leads, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th><th scope="col">Name</th><th scope="col">Phone</th><th scope="col">Email</th>
                  <th scope="col" className="al-fold">City</th><th scope="col" className="al-fold">Damage type</th><th scope="col">Status</th>
                  <th scope="col" className="al-fold">Emergency</th>
                  <th scope="col"><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {leads.map((l) => (
                  <tr key={l.id} id={rowId(l.id)} tabIndex={l.id === target ? -1 : undefined} aria-current={l.id === target ? "true" : undefined}
                    className={[l.is_emergency ? "al-row--emergency" : "", l.id === target ? "al-target" : ""].filter(Boolean).join(" ") || undefined}>
                    <td><Received iso={l.created_at} /></td>
                    <th scope="row" className="al-name">
                      <span className="al-name__text">{fullName(l)}</span>
                      {l.id === target && <span className="al-target__note">Linked lead</span>}
                      {/* Shown when the table is too narrow for the City,
                          Damage type and Emergency columns (styles/admin-leads.css). */}
                      <span className="al-folded">
                        {l.is_emergency && <EmergencyBadge />}
                        <span className="al-folded__meta">{[l.city, l.damage_type].filter(Boolean).join(" · ")}</span>
                      </span>
                    </th>
                    <td><Phone lead={l} />{isAdmin && <div className="al-row-call"><CallText id={l.id} name={fullName(l)} phoneHref={l.phone_href} textOnly={!!l.phone_href} compact /></div>}</td>
                    <td><Email lead={l} /></td>
                    <td className="al-fold">{l.city}</td>
                    <td className="al-fold">{l.damage_type}</td>
                    <td><StatusSelect lead={l} updating={updating === l.id} onChange={changeStatus} /></td>
                    <td className="al-fold">{l.is_emergency ? <EmergencyBadge /> : <span className="a-muted">No</span>}</td>
                    <td><DetailsButton lead={l} admin={isAdmin} opening={opening === l.id} onOpen={openDetail} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        {data && data.total > 0 && <Pager page={Math.min(page, pages)} pages={pages} onPage={setPage} label="Lead pages" />}
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
        // Back to the button that opened it; for a linked lead, its row
        // (or the list).
        (opener.current || document.getElementById(rowId(detail.id)) || wrap.current)?.focus();
      }} />}
    </>
  );
}

/** DetailsButton opens a lead's dialog: the admin's full details, or for
 * staff the masked row with its notes and timeline. */
function DetailsButton({ lead, admin, opening, onOpen }: { lead: Lead; admin: boolean; opening: boolean; onOpen: (l: Lead, el: HTMLElement) => void }) {
  const label = admin ? "Details" : "Notes";
  return (
    <Button variant="outline" className="a-btn a-btn--outline al-btn-sm" disabled={opening}
      aria-label={`${admin ? "Details" : "Notes and timeline"} for ${fullName(lead)}`} onClick={(e) => onOpen(lead, e.currentTarget)}>{opening ? "Loading..." : label}</Button>
  );
}

/** PrivacyRequests is an admin's answer to a person who asks what the
 * business holds about them: every lead with their email or phone, with
 * notes and timeline, as a JSON file (the server audits the export
 * without the person's contact data). Erasing is per lead, from its
 * details. */
function PrivacyRequests() {
  const toast = useToast();
  const ids = useId();
  const [email, setEmail] = useState("");
  const [phone, setPhone] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState("");
  const run = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!email.trim() && !phone.trim()) { setResult("Give the person's email address or phone number, or both."); return; }
    setBusy(true);
    setResult("");
    try {
      const data = await exportPerson(email, phone);
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `personal-data-${data.exportedAt.slice(0, 10)}.json`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      const n = data.leads.length;
      const msg = n === 0 ? "No lead has this email or phone. The file says so." : `Exported ${n} lead${n === 1 ? "" : "s"} with their notes and timeline.`;
      setResult(msg);
      toast({ title: "Export Complete", description: msg });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setResult((err as Error).message || "The export failed.");
      toast(titledError(err) ? { ...titledError(err)!, variant: "destructive" } : { title: "Export Failed", description: (err as Error).message || "The export failed.", variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Privacy requests" description="When someone asks what you hold about them: every lead with their email or phone, with notes and timeline, as a file to send them. To delete a lead, open its details and press Delete lead. Both are recorded in the audit log, without the person's contact details.">
      <form className="al-privacy" onSubmit={run} aria-label="Export one person's data">
        <div className="a-field">
          <label htmlFor={ids + "pe"} className="a-label">Email</label>
          <input id={ids + "pe"} type="email" className="a-input" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} autoComplete="off" />
        </div>
        <div className="a-field">
          <label htmlFor={ids + "pp"} className="a-label">Phone</label>
          <input id={ids + "pp"} type="tel" className="a-input" value={phone} onChange={(e) => setPhone(e.target.value)} maxLength={40} autoComplete="off" />
        </div>
        <div className="al-privacy__actions">
          <Button type="submit" disabled={busy} aria-busy={busy}>{busy ? "Exporting..." : "Export their data"}</Button>
        </div>
      </form>
      <p role="status" className="al-summary">{result}</p>
    </Card>
  );
}
