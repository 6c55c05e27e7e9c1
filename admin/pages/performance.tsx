import "../../styles/admin-insights.css";
import { performanceScore, samplePerformance, SCAN_DELAY_MS, type Optimization, type PerformanceData, type PerformanceSource, type PerformanceStatus } from "../data/performance";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LastUpdated, PageHeader, Progress, StatCard, Tabs, useSimulated } from "../ui";

const statusTone = (s: PerformanceStatus) => (s === "good" ? "good" : s === "needs-improvement" ? "warn" : "bad");
const scoreTone = (n: number) => (n >= 90 ? "good" : n >= 50 ? "warn" : "bad");
const impactTone = (i: Optimization["impact"]) => (i === "high" ? "bad" : i === "medium" ? "warn" : "neutral");
const STATUS_ORDER: Record<PerformanceStatus, number> = { poor: 0, "needs-improvement": 1, good: 2 };

function Vitals({ d }: { d: PerformanceData }) {
  return (
    <>
      <h2 className="visually-hidden">Core Web Vitals</h2>
      <p className="a-muted">Measured on: {d.scope}</p>
      <ul className="a-grid a-grid--2">
        {d.metrics.map((m) => (
          <li key={m.name} className="a-card ai-metric">
            <div className="ai-metric__row">
              <h3 className="a-card__title">{m.name}</h3>
              <Badge tone={statusTone(m.status)}>{m.status}</Badge>
            </div>
            <div className="ai-metric__row">
              <p className="ai-metric__value">{m.value}</p>
              <p className="ai-small">Score {m.score}/100</p>
            </div>
            <Progress value={m.score} label={`${m.name} score`} />
            <p>{m.description}</p>
            <p className="ai-small">Good {m.thresholds.good} · Poor {m.thresholds.poor}</p>
          </li>
        ))}
      </ul>
    </>
  );
}

function Recommendations({ d }: { d: PerformanceData }) {
  const byStatus = [...d.metrics].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  return (
    <>
      <Card title="Metric Recommendations" description="Metrics that need work come first.">
        <ul className="ai-list">
          {byStatus.map((m) => (
            <li key={m.name} className="ai-item">
              <div className="ai-item__head">
                <Badge tone={statusTone(m.status)}>{m.status}</Badge>
                <h3 className="ai-item__title">{m.name}</h3>
                <span className="ai-item__meta">{m.value}</span>
              </div>
              <p>{m.recommendation}</p>
            </li>
          ))}
        </ul>
      </Card>
      <Card title="General Optimizations">
        <ul className="ai-list">
          {d.optimizations.map((o) => (
            <li key={o.title} className="ai-item">
              <div className="ai-item__head">
                <h3 className="ai-item__title">{o.title}</h3>
                <span className="ai-push"><Badge tone={impactTone(o.impact)}>{o.impact} impact</Badge></span>
              </div>
              <p className="a-muted">{o.detail}</p>
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}

function Monitoring({ d, updated }: { d: PerformanceData; updated: Date | null }) {
  return (
    <>
      <div className="a-grid a-grid--2 ai-cards">
        <Card title="Monitoring Status">
          <dl className="ai-dl">
            <div><dt>Status</dt><dd><Badge tone="good">Active</Badge></dd></div>
            <div><dt>Automatic scan</dt><dd>Daily at 6:00 AM</dd></div>
            <div><dt>Measured on</dt><dd>{d.scope}</dd></div>
            <div><dt>Alert when</dt><dd>LCP is over 2,500 ms</dd></div>
            <div><dt>Last manual scan</dt><dd>{updated ? updated.toLocaleString("en-US") : "Not run yet"}</dd></div>
          </dl>
        </Card>
        <Card title="Recent Scans">
          <ul className="ai-list">
            {d.history.map((h) => (
              <li key={h.when} className="ai-item">
                <div className="ai-metric__row">
                  <strong>{h.when}</strong>
                  <span>Score {h.score}</span>
                </div>
                <Progress value={h.score} label={`Performance score, ${h.when}`} />
                <p className="ai-small">{h.note}</p>
              </li>
            ))}
          </ul>
        </Card>
      </div>
      <Card title="Monitored Pages" description={`${d.monitoredPages.length} key pages are scanned on every run.`}>
        <ul className="ai-routes">
          {d.monitoredPages.map((p) => <li key={p}><code>{p}</code></li>)}
        </ul>
      </Card>
    </>
  );
}

export default function Performance({ source = samplePerformance }: AdminPageProps & { source?: PerformanceSource }) {
  const { data: d, busy, updated, run } = useSimulated(() => source.load(), SCAN_DELAY_MS);
  const score = performanceScore(d.metrics);
  const count = (s: PerformanceStatus) => d.metrics.filter((m) => m.status === s).length;
  return (
    <>
      <PageHeader title="Performance Monitor" description="Core Web Vitals, speed recommendations and ongoing monitoring."
        actions={<Button onClick={run} disabled={busy} aria-busy={busy}>{busy ? "Scanning..." : "Run Scan"}</Button>} />
      <div className="ai-updated" aria-live="polite"><LastUpdated at={updated} /></div>
      <div className="a-grid a-grid--4">
        <StatCard label="Performance Score" value={score} hint="Good 100, needs improvement 60, poor 20" tone={scoreTone(score)} />
        <StatCard label="Good" value={count("good")} hint={`of ${d.metrics.length} metrics`} tone="good" />
        <StatCard label="Needs Improvement" value={count("needs-improvement")} hint="Metrics to work on" tone={count("needs-improvement") ? "warn" : undefined} />
        <StatCard label="Poor" value={count("poor")} hint="Fix these first" tone={count("poor") ? "bad" : undefined} />
      </div>
      <Tabs label="Performance sections" tabs={[
        { id: "vitals", label: "Core Web Vitals", content: <Vitals d={d} /> },
        { id: "recommendations", label: "Recommendations", content: <Recommendations d={d} /> },
        { id: "monitoring", label: "Monitoring", content: <Monitoring d={d} updated={updated} /> },
      ]} />
    </>
  );
}
