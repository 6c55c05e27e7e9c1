// A link to one lead (/admin/leads?lead=ID, the new-lead email's and a
// notification's link).
import { useEffect, useRef, useState } from "react";
import { api } from "../api";
import type { Lead } from "../lead-dialog";
import type { LeadPage } from "./query";

/** LEAD_GONE is the toast for a link to a lead the list does not have. */
export const LEAD_GONE = { title: "Lead not found", description: "The linked lead is not in the list: it may have been removed.", variant: "destructive" as const };

export const rowId = (id: string) => "lead-row-" + id;

/** leadParam is the lead a link names, or null. */
function leadParam(): string | null {
  if (typeof window === "undefined") return null;
  const id = new URLSearchParams(window.location.search).get("lead");
  return id && /^[A-Za-z0-9_-]{1,100}$/.test(id) ? id : null;
}

/** forgetLeadParam drops ?lead= once the link has done its work, so a
 * reload or Back does not open the lead again. */
export function forgetLeadParam() {
  const u = new URL(window.location.href);
  if (!u.searchParams.has("lead")) return;
  u.searchParams.delete("lead");
  history.replaceState(history.state, "", u.pathname + u.search + u.hash);
}

/** useLinkedLead follows the link the page was opened with: admins get
 * the lead's details at once (openDetail); for staff, and under the
 * admin's dialog, the list moves to the page that holds it (the server's
 * order, newest first, decides the page). Once that page is shown, the
 * row is scrolled to and, for staff, focused and its notes opened. It
 * returns the linked lead's id once found. */
export function useLinkedLead({ isAdmin, perPage, setPage, data, loading, openDetail, gone }: {
  isAdmin: boolean; perPage: number; setPage: (p: number) => void; data: LeadPage | null; loading: boolean;
  openDetail: (lead: Pick<Lead, "id"> & Partial<Lead>, el: HTMLElement | null) => void; gone: () => void;
}): string | null {
  const [target, setTarget] = useState<string | null>(null);
  const shown = useRef<string | null>(null);

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
          res = await api<LeadPage>(`/api/admin/leads?page=${p}&perPage=${size}`);
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
      if (!cancelled && !isAdmin) { gone(); forgetLeadParam(); }
    })();
    return () => { cancelled = true; };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, for the link the page was opened with

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
  return target;
}
