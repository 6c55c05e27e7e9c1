// Small pieces the list screens share (Secure Leads Manager, Users, Audit Log).
import { Button } from "./ui";

/** Pager is the Previous / Next control with 'Page X of Y'. page is the
 * page whose rows are on screen (the answer's, kept with its data), never
 * the one asked for while its answer is on the way: a pager that named
 * the requested page would say 'Page 2' over page 1's rows. */
export function Pager({ page, pages, onPage, label }: { page: number; pages: number; onPage: (p: number) => void; label: string }) {
  return (
    <nav className="al-pager" aria-label={label}>
      <Button variant="outline" onClick={() => onPage(page - 1)} disabled={page <= 1}>Previous</Button>
      <span aria-live="polite">Page {page} of {pages}</span>
      <Button variant="outline" onClick={() => onPage(page + 1)} disabled={page >= pages}>Next</Button>
    </nav>
  );
}

/** fmtDateTime shows a server timestamp in US English. */
export function fmtDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d.getTime()) ? iso : d.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}
