// An item's history: every published version, who published it
// and when, what it changed against the version before (field by field,
// as + and - lines), and Restore, which makes it a new draft.
import { type ReactNode } from "react";
import { fmtDateTime } from "../listing";
import { useResource } from "../use-resource";
import { contentApi, type RevisionView } from "../data/content";
import { Button, LoadError } from "../ui";

/** part shows one step of a record path: a list index counted from 1, a
 * key as words ("imageAlt" as "Image alt"). */
function part(p: string): string {
  if (/^\d+$/.test(p)) return String(Number(p) + 1);
  const words = p.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** fieldName shows a record path readably, with the form's labels:
 * "faqs.2.answer" as "FAQs › 3 › Answer". */
function fieldName(f: string, labels: Record<string, string>): string {
  const parts = f.split(".");
  for (let n = parts.length; n > 0; n--) {
    const key = parts.slice(0, n).join(".");
    if (labels[key]) return [labels[key], ...parts.slice(n).map(part)].join(" › ");
  }
  return parts.map(part).join(" › ");
}

/** CONTEXT is how many unchanged lines are kept around a change. */
const CONTEXT = 1;

function Lines({ lines }: { lines: RevisionView["changes"][number]["lines"] }) {
  // Unchanged lines far from any change fold into "…".
  const near = lines.map((l, i) => l.op !== "=" || lines.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((x) => x.op !== "="));
  const out: ReactNode[] = [];
  lines.forEach((l, i) => {
    if (!near[i]) {
      if (i === 0 || near[i - 1]) out.push(<li key={i} className="ac-diff__gap" aria-label="Unchanged lines">…</li>);
      return;
    }
    const cls = l.op === "+" ? "ac-diff__add" : l.op === "-" ? "ac-diff__del" : "ac-diff__same";
    const said = l.op === "+" ? "Added: " : l.op === "-" ? "Removed: " : "";
    out.push(
      <li key={i} className={cls}>
        <span className="ac-diff__op" aria-hidden="true">{l.op === "=" ? " " : l.op}</span>
        {said && <span className="visually-hidden">{said}</span>}
        <span className="ac-diff__text">{l.text || "\u00a0"}</span>
      </li>,
    );
  });
  return <ul className="ac-diff">{out}</ul>;
}

/** firstVersion says whether rev is the first publish, over nothing:
 * version 1, every line of every change an addition. */
function firstVersion(rev: RevisionView): boolean {
  return rev.number === 1 && rev.changes.every((c) => c.lines.every((l) => l.op === "+"));
}

function Changes({ rev, labels }: { rev: RevisionView; labels: Record<string, string> }) {
  return (
    <ul className="ac-changes" aria-label={`Changes in version ${rev.number}`}>
      {rev.changes.map((c) => (
        <li key={c.field}>
          <p className="ac-changes__field">{fieldName(c.field, labels)}</p>
          <Lines lines={c.lines} />
        </li>
      ))}
    </ul>
  );
}

export function HistoryPanel({ id, version, busy, onRestore, labels }: {
  id: string; version: number; busy: boolean; onRestore: (rev: RevisionView) => void; labels: Record<string, string>;
}) {
  const { data: revs, error, retry } = useResource(() => contentApi.history(id).then((h) => h.revisions || []), [id, version]);
  if (error) return <LoadError error={error} onRetry={retry} prefix="The history could not be loaded: " />;
  if (!revs) return <p role="status">Loading the history...</p>;
  if (!revs.length) return <p className="a-muted">Nothing has been published yet: the history starts with the first publish.</p>;
  return (
    <ol className="ac-history">
      {revs.map((r) => (
        <li key={r.id} className="ac-rev">
          <div className="ac-rev__head">
            <h3 className="ac-rev__title">Version {r.number}</h3>
            <p className="ac-rev__meta">Published {fmtDateTime(r.publishedAt)} by {r.publishedBy || "unknown"} · <span className="ac-mono">{r.slug}</span></p>
            <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" disabled={busy} onClick={() => onRestore(r)}>
              Restore as a new draft<span className="visually-hidden">: version {r.number}</span>
            </Button>
          </div>
          {r.changes.length === 0 ? <p className="a-muted">No text changed.</p> : firstVersion(r) ? (
            // Against nothing, every field is one long "added": folded, so
            // the versions after it stay in reach on a phone.
            <details className="ac-rev__first">
              <summary>The first version: {r.changes.length === 1 ? "1 field" : `${r.changes.length} fields`} as published</summary>
              <Changes rev={r} labels={labels} />
            </details>
          ) : <Changes rev={r} labels={labels} />}
        </li>
      ))}
    </ol>
  );
}
