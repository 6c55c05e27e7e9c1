// What the Secure Leads Manager asks the server for: its filters, page,
// page size and whether an admin sees full data.
import { useEffect, useState } from "react";
import type * as wire from "../api.gen";
import type { Lead } from "../lead-dialog";

/** LeadPage is GET /api/admin/leads: one page of leads, and which page. */
export type LeadPage = Omit<wire.LeadList, "leads"> & { leads: Lead[] };

export interface Filters { q: string; status: string; damageType: string; emergency: string; from: string; to: string }
const NO_FILTERS: Filters = { q: "", status: "", damageType: "", emergency: "", from: "", to: "" };
export const PER_PAGE = [25, 50, 100];

export function filterParams(f: Filters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.q.trim()) p.set("q", f.q.trim());
  if (f.status) p.set("status", f.status);
  if (f.damageType) p.set("damageType", f.damageType);
  if (f.emergency) p.set("emergency", f.emergency);
  if (f.from) p.set("from", f.from);
  if (f.to) p.set("to", f.to);
  return p;
}

/** useLeadQuery holds the list's query. Any change of filter, page size
 * or full data goes back to page 1; the search box applies 300 ms after
 * typing stops (Enter applies at once). */
export function useLeadQuery(isAdmin: boolean) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [q, setQ] = useState(""); // the search box, applied after a pause
  const [page, setPage] = useState(1);
  const [perPage, setPerPageState] = useState(50);
  const [full, setFullState] = useState(false);

  useEffect(() => {
    if (q === filters.q) return;
    const t = setTimeout(() => { setFilters((f) => ({ ...f, q })); setPage(1); }, 300);
    return () => clearTimeout(t);
  }, [q]); // eslint-disable-line react-hooks/exhaustive-deps

  const badRange = filters.from !== "" && filters.to !== "" && filters.from > filters.to;
  const params = filterParams(filters);
  params.set("page", String(page));
  params.set("perPage", String(perPage));
  if (full && isAdmin) params.set("full", "1");
  return {
    filters, q, page, perPage, full, badRange, query: params.toString(),
    active: [filters.q, filters.status, filters.damageType, filters.emergency, filters.from, filters.to].filter(Boolean).length,
    setQ, setPage,
    setFilter: (k: keyof Filters, v: string) => { setFilters((f) => ({ ...f, [k]: v })); setPage(1); },
    applySearch: () => { setFilters((f) => ({ ...f, q })); setPage(1); },
    clear: () => { setQ(""); setFilters(NO_FILTERS); setPage(1); },
    setPerPage: (n: number) => { setPerPageState(n); setPage(1); },
    setFull: (on: boolean) => { setFullState(on); setPage(1); },
    /** dropFull turns full data off without moving (the server refused it). */
    dropFull: () => setFullState(false),
  };
}

export type LeadQuery = ReturnType<typeof useLeadQuery>;
