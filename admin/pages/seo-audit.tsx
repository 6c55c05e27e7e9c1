import "../../styles/admin-insights.css";
import { useId, useState } from "react";
import { AUDIT_DELAY_MS, runAudit, sampleSeoAudit, type AuditCheck, type AuditPriority, type AuditStatus, type GuideStep, type LocationBrief, type SeoAuditSource } from "../data/seo-audit";
import { adminPath } from "../layout";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LastUpdated, PageHeader, Progress, StatCard, Tabs, useSimulated } from "../ui";

const statusTone = (s: AuditStatus) => (s === "pass" ? "good" : s === "warning" ? "warn" : "bad");
const priorityTone = (p: AuditPriority) => (p === "P0" ? "bad" : p === "P1" ? "warn" : "neutral");
const scoreTone = (n: number) => (n >= 90 ? "good" : n >= 70 ? "warn" : "bad");
const STATUS_ORDER: Record<AuditStatus, number> = { fail: 0, warning: 1, pass: 2 };

function Results({ url, results, score }: { url: string; results: AuditCheck[]; score: number }) {
  if (results.length === 0) {
    return (
      <Card title="Audit Results">
        <p className="a-empty">No audit results. Run the audit to check the page.</p>
      </Card>
    );
  }
  const sorted = [...results].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.priority.localeCompare(b.priority));
  const passed = results.filter((c) => c.status === "pass").length;
  return (
    <Card title="Audit Results" description={<>Page audited: <code>{url}</code> · {results.length} checks, issues first</>}>
      <div className="ai-scorebar">
        <div className="ai-scorebar__row"><span>{passed} of {results.length} checks pass</span><span>{score}%</span></div>
        <Progress value={score} label="SEO audit score" />
      </div>
      <ul className="ai-list">
        {sorted.map((c) => (
          <li key={c.check} className="ai-item">
            <div className="ai-item__head">
              <Badge tone={statusTone(c.status)}>{c.status}</Badge>
              <h3 className="ai-item__title">{c.check}</h3>
              <span className="ai-item__meta">{c.category}</span>
              <span className="ai-push"><Badge tone={priorityTone(c.priority)}>{c.priority}</Badge></span>
            </div>
            <p>{c.message}</p>
            {c.fix && <p className="ai-fix"><strong>Fix:</strong> {c.fix}</p>}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Briefs({ briefs, county, setCounty }: { briefs: LocationBrief[]; county: string; setCounty: (c: string) => void }) {
  const id = useId();
  const counties = Array.from(new Set(briefs.map((b) => b.county)));
  const shown = county ? briefs.filter((b) => b.county === county) : briefs;
  return (
    <>
      <h2 className="visually-hidden">Location Briefs</h2>
      <div className="ai-filter">
        <div className="a-field">
          <label className="a-label" htmlFor={id}>County</label>
          <select id={id} className="a-input" value={county} onChange={(e) => setCounty(e.target.value)}>
            <option value="">All seven main counties</option>
            {counties.map((c) => <option key={c} value={c}>{c} County</option>)}
          </select>
        </div>
        <p className="a-muted" aria-live="polite">{shown.length} location brief{shown.length === 1 ? "" : "s"}</p>
      </div>
      <ul className="a-grid a-grid--2">
        {shown.map((b) => (
          <li key={b.url} className="a-card ai-brief">
            <div className="a-card__head">
              <h3 className="a-card__title">{b.city}</h3>
              <Badge tone="info">{b.county} County</Badge>
            </div>
            <dl>
              <div><dt>URL</dt><dd><a href={b.url} target="_blank" rel="noopener">{b.url}<span className="visually-hidden"> (opens in a new tab)</span></a></dd></div>
              <div><dt>SEO title <span className="ai-count">({b.seoTitle.length} characters)</span></dt><dd>{b.seoTitle}</dd></div>
              <div><dt>Meta description <span className="ai-count">({b.metaDescription.length} characters)</span></dt><dd>{b.metaDescription}</dd></div>
              <div><dt>Keywords</dt><dd><ul className="ai-tags">{b.keywords.map((k) => <li key={k} className="ai-tag">{k}</li>)}</ul></dd></div>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

function Guide({ steps, navigate }: { steps: GuideStep[]; navigate: (slug: string) => void }) {
  return (
    <Card title="Implementation Guide" description="Work through these steps in order, then run the audit again.">
      <ol className="ai-steps">
        {steps.map((s) => (
          <li key={s.title} className="ai-step">
            <div>
              <h3>{s.title} <Badge tone={priorityTone(s.priority)}>{s.priority}</Badge></h3>
              <p>{s.detail}</p>
              {s.tool && (
                <a className="a-link" href={adminPath(s.tool.slug)} onClick={(e) => { e.preventDefault(); navigate(s.tool!.slug); }}>{s.tool.label}</a>
              )}
            </div>
          </li>
        ))}
      </ol>
    </Card>
  );
}

export default function SeoAudit({ navigate, source = sampleSeoAudit }: AdminPageProps & { source?: SeoAuditSource }) {
  const { data: report, busy, updated, run } = useSimulated(() => runAudit(source, "/"), AUDIT_DELAY_MS);
  const [county, setCounty] = useState("");
  const briefs = source.locationBriefs();
  const count = (s: AuditStatus) => report.results.filter((c) => c.status === s).length;
  return (
    <>
      <PageHeader title="SEO Audit" description="Checks pages against the SEO rules and plans the city landing pages for local search."
        actions={<Button onClick={run} disabled={busy} aria-busy={busy}>{busy ? "Running Audit..." : "Run Audit"}</Button>} />
      <div className="ai-updated" aria-live="polite"><LastUpdated at={updated} /></div>
      <div className="a-grid a-grid--4">
        <StatCard label="Audit Score" value={`${report.score}%`} hint="Share of passing checks" tone={scoreTone(report.score)} />
        <StatCard label="Passed" value={count("pass")} hint="Checks that pass" tone="good" />
        <StatCard label="Warnings" value={count("warning")} hint="Worth improving" tone={count("warning") ? "warn" : undefined} />
        <StatCard label="Failed" value={count("fail")} hint="Fix these first" tone={count("fail") ? "bad" : undefined} />
      </div>
      <Tabs label="SEO audit sections" tabs={[
        { id: "results", label: "Audit Results", content: <Results url={report.url} results={report.results} score={report.score} /> },
        { id: "briefs", label: "Location Briefs", content: <Briefs briefs={briefs} county={county} setCounty={setCounty} /> },
        { id: "guide", label: "Implementation Guide", content: <Guide steps={source.guide()} navigate={navigate} /> },
      ]} />
    </>
  );
}
