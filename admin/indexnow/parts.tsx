// Pieces the SEO & IndexNow tabs share: a score, a list of checks, the
// page picker, Auto-Fix's note, and a flag that stops long runs once the
// screen has gone.
import { useEffect, useRef } from "react";
import { CRAWL_ROUTES, AUTO_FIX_NOTE, statusTone, type AuditCheck, type ComplianceCheck } from "../data/indexnow";
import { FixLink, priorityWords } from "../fix-links";
import { Badge, Progress } from "../ui";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** useAlive is false once the screen has gone, so long runs stop. */
export function useAlive() {
  const alive = useRef(true);
  useEffect(() => { alive.current = true; return () => { alive.current = false; }; }, []);
  return alive;
}

export function ScoreBlock({ score, tone, label, children }: { score: number; tone: "good" | "warn" | "bad"; label: string; children?: React.ReactNode }) {
  return (
    <div className={`inx-score inx-score--${tone}`}>
      <p className="inx-score__value" aria-label={`${label}: ${score}%`}>{score}%</p>
      <div className="inx-score__detail">
        <Progress value={score} label={label} />
        {children}
      </div>
    </div>
  );
}

export function CheckList({ checks, path, navigate }: { checks: (AuditCheck | ComplianceCheck)[]; path: string; navigate: (to: string) => void }) {
  if (!checks.length) return <p className="a-empty">No checks in this category.</p>;
  return (
    <ul className="inx-checks">
      {checks.map((c) => (
        <li key={c.category + c.check} className="inx-check">
          <div className="inx-check__head">
            <Badge tone={statusTone(c.status)}>{c.status}</Badge>
            <strong>{c.check}</strong>
            <span className="a-muted inx-check__cat">{c.category} · {priorityWords(c.priority)}</span>
          </div>
          <p className="inx-check__msg">{c.message}</p>
          {c.fix && c.status !== "pass" && c.status !== "compliant" && <p className="inx-check__fix"><span className="a-muted">Fix:</span> {c.fix} <FixLink path={path} check={c.check} navigate={navigate} /></p>}
        </li>
      ))}
    </ul>
  );
}

export function PageSelect({ id, value, onChange, disabled }: { id: string; value: string; onChange: (v: string) => void; disabled?: boolean }) {
  return (
    <div className="inx-select">
      <label htmlFor={id} className="a-label">Page to audit</label>
      <select id={id} className="a-input" value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        {CRAWL_ROUTES.map((r) => <option key={r} value={r}>{r}</option>)}
      </select>
    </div>
  );
}

/** FixItem is one finding of Auto-Fix: what is wrong, and where it is
 * fixed (a link to the editor field, or what to do in words). */
export interface FixItem { key: string; text: string; path: string; check?: string; plain?: string; hasFix?: boolean }

export function AutoFixNote({ issues, navigate }: { issues: FixItem[]; navigate: (to: string) => void }) {
  return (
    <div className="inx-notice" role="status">
      <p><strong>Nothing is changed automatically.</strong> {AUTO_FIX_NOTE}</p>
      {issues.length > 0 ? (
        <ul className="inx-fixlist">{issues.map((i) => (
          <li key={i.key}>{i.text} {i.check ? <FixLink path={i.path} check={i.check} navigate={navigate} plain={!i.hasFix} /> : <span className="a-muted">{i.plain}</span>}</li>
        ))}</ul>
      ) : <p className="a-muted">No issues to fix in the current results.</p>}
    </div>
  );
}
