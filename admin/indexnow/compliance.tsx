// The SEO Compliance tab: a page of this site audited by the server
// against the SEO rules, with the spec's target and minimum.
import { useMemo, useState } from "react";
import { COMPLIANCE_MINIMUM, COMPLIANCE_TARGET, fallbackCompliance, liveSeo, scoreTone, type ComplianceReport } from "../data/indexnow";
import { Button, Card, LastUpdated } from "../ui";
import { useResource } from "../use-resource";
import { CheckList, PageSelect, ScoreBlock } from "./parts";

/** complianceOf audits a page; a failed audit gives spec 8's fallback
 * report (limited data) rather than an error. */
async function complianceOf(p: string): Promise<ComplianceReport> {
  try {
    const a = await liveSeo.auditPage(p);
    return { url: a.url, score: a.complianceScore, complianceChecks: a.compliance, timestamp: new Date().toISOString() };
  } catch (e) {
    console.error("SEO compliance audit failed", e);
    return fallbackCompliance(p, (e as Error)?.message || "the page could not be read.");
  }
}

/** useCompliance audits the chosen page ("/" when the screen opens) and
 * again on Re-audit; the latest choice's answer is the one shown. */
export function useCompliance() {
  const [path, setPath] = useState("/");
  const [updated, setUpdated] = useState<Date | null>(null);
  const r = useResource(() => complianceOf(path), [path], { onData: () => setUpdated(new Date()) });
  return { path, setPath, report: r.data, busy: r.loading, updated, run: r.refresh };
}

export function CompliancePanel({ c, navigate }: { c: ReturnType<typeof useCompliance>; navigate: (to: string) => void }) {
  const r = c.report;
  const counts = useMemo(() => {
    const list = r?.complianceChecks || [];
    return { ok: list.filter((x) => x.status === "compliant").length, warn: list.filter((x) => x.status === "warning").length, bad: list.filter((x) => x.status === "non-compliant").length };
  }, [r]);
  const verdict = !r ? "" : r.score >= COMPLIANCE_TARGET ? "Meets the 95% target." : r.score >= COMPLIANCE_MINIMUM ? "Above the 85% minimum, below the 95% target." : "Below the 85% minimum.";
  return (
    <>
      <Card title="SEO Compliance" description="Fetches a page of this site, as search engines see it, and checks it against the SEO rules. Warnings count 70%.">
        <div className="inx-toolbar">
          <PageSelect id="inx-compliance-page" value={c.path} disabled={c.busy} onChange={c.setPath} />
          <Button onClick={() => { c.run(); }} disabled={c.busy}>{c.busy ? "Running Audit..." : "Re-audit"}</Button>
        </div>
        {!r ? <p role="status" className="a-muted">{c.busy ? "Running Audit..." : "Not audited yet."}</p> : (
          <>
            {r.limited && <p className="inx-notice inx-notice--warn" role="alert">The audit completed with limited data: {r.limited}</p>}
            <ScoreBlock score={r.score} tone={scoreTone(r.score, "compliance")} label="Compliance score">
              <p className="inx-score__meta">Target {COMPLIANCE_TARGET}% or more · Minimum {COMPLIANCE_MINIMUM}%</p>
              <p className="inx-score__meta"><strong>{verdict}</strong> {counts.ok} compliant, {counts.warn} warning{counts.warn === 1 ? "" : "s"}, {counts.bad} non-compliant.</p>
              <p className="inx-score__meta a-muted">Audited: <a href={r.url}>{r.url}</a></p>
            </ScoreBlock>
          </>
        )}
        <LastUpdated at={c.updated} />
      </Card>
      {r && <Card title="Compliance checks"><CheckList checks={r.complianceChecks} path={c.path} navigate={navigate} /></Card>}
    </>
  );
}
