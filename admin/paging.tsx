// The one paging and search of the admin's lists (ADR 069): each list
// asks the server for a page (page, perPage) and a search (q), and the
// answer names the page it holds and the total matching (PageInfo). The
// screens share this hook, the search box and the summary, as the leads
// list's own query does (leads/query.ts).
import { useEffect, useId, useState } from "react";
import { count } from "../components/plural";
import { Pager } from "./listing";

/** PageInfo is web/paging.Info: the paging part of every list's answer. */
export interface PageInfo { total: number; page: number; perPage: number; q: string }

/** pagesOf is how many pages the answer's total makes (at least 1). */
export const pagesOf = (info: PageInfo | null | undefined) => (info ? Math.max(1, Math.ceil(info.total / (info.perPage || 1))) : 1);

/** usePaging holds a list's search and page. The search applies 300 ms
 * after typing stops (Enter at once) and goes back to page 1. query is
 * the request's query string; a screen adds its own filters to it. */
export function usePaging(perPage = 50) {
  const [q, setQ] = useState(""); // the box
  const [applied, setApplied] = useState(""); // what the server is asked
  const [page, setPage] = useState(1);
  useEffect(() => {
    if (q.trim() === applied) return;
    const t = setTimeout(() => { setApplied(q.trim()); setPage(1); }, 300);
    return () => clearTimeout(t);
  }, [q]); // eslint-disable-line react-hooks/exhaustive-deps
  const params = new URLSearchParams();
  if (applied) params.set("q", applied);
  params.set("page", String(page));
  params.set("perPage", String(perPage));
  return {
    q, setQ, applied, page, setPage, perPage, query: params.toString(),
    apply: () => { setApplied(q.trim()); setPage(1); },
    /** reset goes back to the first page of the whole list. */
    reset: () => { setQ(""); setApplied(""); setPage(1); },
    /** fit moves back to the last page when the list shrank under it. */
    fit: (info: PageInfo | null | undefined) => { if (info && page > pagesOf(info)) setPage(pagesOf(info)); },
  };
}

export type Paging = ReturnType<typeof usePaging>;

/** SearchBox is a list's search: a labelled search field the server
 * matches (Enter searches at once; typing searches after a pause). */
export function SearchBox({ paging, label, placeholder }: { paging: Paging; label: string; placeholder?: string }) {
  const id = useId();
  return (
    <form role="search" className="a-search" onSubmit={(e) => { e.preventDefault(); paging.apply(); }}>
      <label className="a-label" htmlFor={id}>{label}</label>
      <input id={id} type="search" className="a-input" value={paging.q} maxLength={200} placeholder={placeholder}
        onChange={(e) => paging.setQ(e.target.value)} autoComplete="off" />
    </form>
  );
}

/** summaryOf says what the page shows: "No matches for …", or "Showing
 * 1–50 of 2,000 cities". one and many name a row. */
export function summaryOf(info: PageInfo, rows: number, one: string, many?: string): string {
  if (info.total === 0) return info.q ? `No matches for “${info.q}”.` : `No ${many || one + "s"} yet.`;
  const first = (info.page - 1) * info.perPage + 1;
  if (rows === 0) return `No ${many || one + "s"} on this page.`;
  return `Showing ${first}–${first + rows - 1} of ${count(info.total, one, many)}${info.q ? ` matching “${info.q}”` : ""}.`;
}

/** PageSummary and PageNav are a list's summary (a polite status) and its
 * pager, shown when there is more than one page. */
export function PageSummary({ info, rows, one, many }: { info: PageInfo; rows: number; one: string; many?: string }) {
  return <p role="status" className="a-page-summary">{summaryOf(info, rows, one, many)}</p>;
}

export function PageNav({ info, paging, label }: { info: PageInfo; paging: Paging; label: string }) {
  if (info.total <= info.perPage && info.page === 1) return null;
  return <Pager page={info.page} pages={pagesOf(info)} onPage={paging.setPage} label={label} />;
}
