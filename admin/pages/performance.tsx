import "../../styles/admin-insights.css";
import { COUNTED, performanceScore, serverPerformance, showVital, SCAN_DELAY_MS, type Optimization, type PerformanceData, type PerformanceStatus } from "../data/performance";
import { useResource } from "../use-resource";
import { useTimedReload } from "../server-run";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LastUpdated, LoadError, PageHeader, Progress, StatCard, Tabs } from "../ui";

const statusTone = (s: PerformanceStatus) => (s === "good" ? "good" : s === "needs-improvement" ? "warn" : "bad");
const scoreTone = (n: number) => (n >= 90 ? "good" : n >= 50 ? "warn" : "bad");
const impactTone = (i: Optimization["impact"]) => (i === "high" ? "bad" : i === "medium" ? "warn" : "neutral");
const STATUS_ORDER: Record<PerformanceStatus, number> = { poor: 0, "needs-improvement": 1, good: 2 };

/** EmptyVitals says how the figures fill on a site nobody has visited yet. */
function EmptyVitals() {
  return (
    <Card title="No measurements yet" description="This screen fills as people use the public site.">
      <p className="ai-small">Every visit to a public page reports its Core Web Vitals (LCP, INP, CLS, FCP and TTFB) from the visitor&apos;s own
        browser after the page has loaded. The figures here are the 75th percentile of the last 28 days: 3 visits in 4 were at least this fast.</p>
    </Card>
  );
}

function Vitals({ d }: { d: PerformanceData }) {
  return (
    <>
      <h2 className="visually-hidden">Core Web Vitals</h2>
      <p className="a-muted">Measured on: {d.scope}</p>
      <p className="ai-small">{COUNTED}</p>
      {d.samples === 0 && <EmptyVitals />}
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
      <Card title="General Optimizations" description="Page kinds whose 75th percentile is not good, worst first.">
        {d.optimizations.length === 0 && <p className="ai-small">{d.samples ? "Every measured page kind is good on every metric." : "Nothing measured yet."}</p>}
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
            <div><dt>Status</dt><dd><Badge tone={d.samples ? "good" : "neutral"}>{d.samples ? "Active" : "Waiting for visits"}</Badge></dd></div>
            <div><dt>Automatic scan</dt><dd>Continuous: every real visit reports its measurements</dd></div>
            <div><dt>Measured on</dt><dd>{d.scope}</dd></div>
            <div><dt>Alert when</dt><dd>LCP is over 2,500 ms</dd></div>
            <div><dt>Last manual scan</dt><dd>{updated ? updated.toLocaleString("en-US") : "Not run yet"}</dd></div>
          </dl>
          <p className="ai-small ai-counted"><strong>What counts:</strong> {COUNTED}</p>
        </Card>
        <Card title="By Page Kind" description="75th percentile per page kind and metric.">
          {d.byKind.length === 0 ? <p className="ai-small">No page kind measured yet.</p> : (
            <div className="ai-scroll" tabIndex={0} role="region" aria-label="Core Web Vitals by page kind">
              <table className="a-table ai-table ai-table--dense">
                <thead><tr><th scope="col">Page kind</th><th scope="col">Metric</th><th scope="col" className="ai-num">p75</th><th scope="col">Status</th><th scope="col" className="ai-num">Visits</th></tr></thead>
                <tbody>
                  {d.byKind.map((k) => (
                    <tr key={k.pageKind + k.metric}>
                      <th scope="row">{k.pageKind}</th><td>{k.metric}</td>
                      <td className="ai-num">{showVital(k.metric, k.p75)}</td>
                      <td><Badge tone={statusTone(k.status)}>{k.status}</Badge></td><td className="ai-num">{k.samples}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      </div>
      <Card title="Monitored Pages" description={`${d.monitoredPages.length} page kinds have real-visit measurements.`}>
        <ul className="ai-routes">
          {d.monitoredPages.map((p) => <li key={p}><code>{p}</code></li>)}
        </ul>
      </Card>
    </>
  );
}

export default function Performance(_: AdminPageProps) {
  const { data: d, error, refresh, retry } = useResource(serverPerformance.load, []);
  const { busy, updated, run } = useTimedReload(refresh, SCAN_DELAY_MS);
  const header = (
    <PageHeader title="Performance Monitor" description="Core Web Vitals, speed recommendations and ongoing monitoring."
      actions={<Button onClick={run} disabled={busy || !d} aria-busy={busy}>{busy ? "Scanning..." : "Run Scan"}</Button>} />
  );
  if (!d) {
    return <>{header}{error ? <LoadError error={error} onRetry={retry} /> : <p className="ai-small" aria-busy="true">Loading measurements...</p>}</>;
  }
  const score = performanceScore(d.metrics);
  const count = (s: PerformanceStatus) => d.metrics.filter((m) => m.status === s).length;
  return (
    <>
      {header}
      <div className="ai-updated" aria-live="polite"><LastUpdated at={updated} /><LoadError error={error} onRetry={retry} /></div>
      <div className="a-grid a-grid--4">
        <StatCard label="Performance Score" value={d.metrics.length ? score : "—"} hint={d.metrics.length ? "Good 100, needs improvement 60, poor 20" : "No measurements yet"} tone={d.metrics.length ? scoreTone(score) : undefined} />
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
