import { count } from "../../components/plural";
import "../../styles/admin-audits.css";
import "../../styles/admin-insights.css";
import { useId, useState } from "react";
import { AUDIT_DELAY_MS, liveSeoAudit, summarizeRules, type AuditCheck, type AuditPriority, type AuditStatus, type GuideStep, type LocationBrief, type PageResult, type SeoAuditData } from "../data/seo-audit";
import { FixLink, priorityWords } from "../fix-links";
import { ThinPages } from "../seo-audit/thin-pages";
import { adminPath } from "../layout";
import { errorText, useResource } from "../use-resource";
import { runOnServer } from "../server-run";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LastUpdated, LoadError, PageHeader, Progress, StatCard, Tabs } from "../ui";

const statusTone = (s: AuditStatus) => (s === "pass" ? "good" : s === "warning" ? "warn" : "bad");
const priorityTone = (p: AuditPriority) => (p === "P0" ? "bad" : p === "P1" ? "warn" : "neutral");
const scoreTone = (n: number) => (n >= 90 ? "good" : n >= 70 ? "warn" : "bad");
const STATUS_ORDER: Record<AuditStatus, number> = { fail: 0, warning: 1, pass: 2 };
const when = (iso: string) => new Date(iso).toLocaleString("en-US");
const TRIGGERS = { deploy: "after the site started", content: "after a content change", manual: "on request" } as const;

/** EMPTY says how the audit fills when it has not run yet. */
const EMPTY = "No audit has run yet. The server audits every page of the site once the pages are rendered after the site starts, again after every content change (uploads, settings, reviews), and when you press Run Audit.";

function CheckList({ results, path, navigate }: { results: AuditCheck[]; path: string; navigate: (to: string) => void }) {
  const sorted = [...results].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.priority.localeCompare(b.priority));
  return (
    <ul className="ai-list">
      {sorted.map((c) => (
        <li key={c.check} className="ai-item">
          <div className="ai-item__head">
            <Badge tone={statusTone(c.status)}>{c.status}</Badge>
            <h3 className="ai-item__title">{c.check}</h3>
            <span className="ai-item__meta">{c.category}</span>
            <span className="ai-push"><Badge tone={priorityTone(c.priority)}>{priorityWords(c.priority)}</Badge></span>
          </div>
          <p>{c.message}</p>
          {c.fix && c.status !== "pass" && <p className="ai-fix"><strong>Fix:</strong> {c.fix} <FixLink path={path} check={c.check} navigate={navigate} /></p>}
        </li>
      ))}
    </ul>
  );
}

/** SiteWide is every rule across every audited page, issues first. */
function SiteWide({ data, navigate }: { data: SeoAuditData; navigate: (to: string) => void }) {
  const run = data.run!;
  const rules = summarizeRules(data.pages).sort((a, b) => (b.fail - a.fail) || (b.warning - a.warning));
  const total = run.passed + run.warnings + run.failed;
  const audited = run.pages - run.errors;
  const local = run.baseUrl.startsWith("http://");
  return (
    <Card title="Site-wide results" description={<>{count(audited, "page")} audited {TRIGGERS[run.trigger]} on {when(run.finishedAt)} · {count(data.rules.length, "check")} each · {data.how}</>}>
      <div className="ai-scorebar">
        <div className="ai-scorebar__row"><span>{run.passed} of {total} checks pass</span><span>{run.score}%</span></div>
        <Progress value={run.score} label="SEO audit score" />
      </div>
      {local && <p className="ai-note" role="note">This copy of the site runs at {run.baseUrl}, a local or test address over plain HTTP, so the HTTPS check fails on every page. On the live site, at its https address, it passes.</p>}
      {run.errors > 0 && <p className="a-error" role="alert">{run.errors} of {run.pages} pages could not be audited (see Pages below).</p>}
      <ul className="ai-list">
        {rules.map((r) => {
          const tone = r.fail ? "bad" : r.warning ? "warn" : "good";
          const label = r.fail ? "fail" : r.warning ? "warning" : "pass";
          return (
            <li key={r.check} className="ai-item ai-rule">
              <div className="ai-item__head">
                <Badge tone={tone}>{label}</Badge>
                <h3 className="ai-item__title">{r.check}</h3>
                <span className="ai-item__meta">{r.category}</span>
                <span className="ai-push"><Badge tone={priorityTone(r.priority)}>{priorityWords(r.priority)}</Badge></span>
              </div>
              <p>Passes on {r.pass} of {r.pass + r.warning + r.fail} pages{r.warning ? `, warns on ${r.warning}` : ""}{r.fail ? `, fails on ${r.fail}` : ""}.</p>
              {r.worst && <p>For example <code>{r.worstPath}</code>: {r.worst.message}</p>}
              {r.worst?.fix && <p className="ai-fix"><strong>Fix:</strong> {r.worst.fix} <FixLink path={r.worstPath || ""} check={r.check} navigate={navigate} /></p>}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** Pages lets the owner look at one page's checks; lowest scores first. */
function Pages({ data, navigate }: { data: SeoAuditData; navigate: (to: string) => void }) {
  const id = useId();
  const pages = [...data.pages].sort((a, b) => (a.error ? -1 : 0) - (b.error ? -1 : 0) || a.score - b.score || a.path.localeCompare(b.path));
  const [path, setPath] = useState(pages[0]?.path || "");
  const p: PageResult | undefined = pages.find((x) => x.path === path);
  return (
    <Card title="Audit Results" description={p ? <>Page audited: <code>{p.url}</code> · {p.error ? "not audited" : `${p.checks.length} checks, issues first`}</> : undefined}>
      <div className="a-field ai-pagepick">
        <label className="a-label" htmlFor={id}>Page</label>
        <select id={id} className="a-input" value={path} onChange={(e) => setPath(e.target.value)}>
          {pages.map((x) => <option key={x.path} value={x.path}>{x.path} · {x.error ? "not audited" : `${x.score}%`}</option>)}
        </select>
      </div>
      {p?.error && <p className="a-error" role="alert">{p.path}: {p.error}</p>}
      {p && !p.error && (
        <>
          <div className="ai-scorebar">
            <div className="ai-scorebar__row"><span>{p.checks.filter((c) => c.status === "pass").length} of {p.checks.length} checks pass</span><span>{p.score}%</span></div>
            <Progress value={p.score} label={`Score of ${p.path}`} />
          </div>
          <CheckList results={p.checks} path={p.path} navigate={navigate} />
        </>
      )}
    </Card>
  );
}

function Results({ data, error, onRetry, navigate }: { data: SeoAuditData | null; error: Error | null; onRetry: () => void; navigate: (to: string) => void }) {
  if (!data) return <Card title="Audit Results">{error ? <LoadError error={error} onRetry={onRetry} prefix="The audit could not be loaded: " /> : <p className="a-muted" role="status">Loading...</p>}</Card>;
  if (!data.run) return <Card title="Audit Results"><p className="a-empty">{EMPTY}</p></Card>;
  return (
    <>
      <SiteWide data={data} navigate={navigate} />
      <Pages data={data} navigate={navigate} />
    </>
  );
}

function Briefs({ briefs, county, setCounty }: { briefs: LocationBrief[]; county: string; setCounty: (c: string) => void }) {
  const id = useId();
  const counties = Array.from(new Set(briefs.map((b) => b.county)));
  const shown = county ? briefs.filter((b) => b.county === county) : briefs;
  return (
    <>
      <h2 className="visually-hidden">Location Briefs</h2>
      <p className="a-muted">What each city page publishes, read from the content it is made from (the cities in Content Management and the four fixed city pages).</p>
      <div className="ai-filter">
        <div className="a-field">
          <label className="a-label" htmlFor={id}>County</label>
          <select id={id} className="a-input" value={county} onChange={(e) => setCounty(e.target.value)}>
            <option value="">All {counties.length} counties</option>
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
              <h3>{s.title} <Badge tone={priorityTone(s.priority)}>{priorityWords(s.priority)}</Badge></h3>
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

/** SEO Audit: the server's audit of every page (spec 5 rules), the
 * location briefs from the content and the implementation guide. Run
 * Audit asks the server for an audit and waits for it (2 s at least). */
export default function SeoAudit({ navigate }: AdminPageProps) {
  const { data, error, retry, setData } = useResource(liveSeoAudit.load, []);
  const [busy, setBusy] = useState(false);
  const [runError, setRunError] = useState("");
  const [updated, setUpdated] = useState<Date | null>(null);
  const [county, setCounty] = useState("");
  const run = async () => {
    setBusy(true);
    setRunError("");
    try {
      setData(await runOnServer(liveSeoAudit.run, liveSeoAudit.load, (d) => d.run?.id, AUDIT_DELAY_MS));
      setUpdated(new Date());
    } catch (e) {
      // Spec 8: a failed audit is logged; the screen says so and keeps what it had.
      console.warn("SEO audit failed", e);
      setRunError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const r = data?.run;
  return (
    <>
      <PageHeader title="SEO Audit" description="Checks every page of the site against the SEO rules and plans the city landing pages for local search."
        actions={<Button onClick={run} disabled={busy} aria-busy={busy}>{busy ? "Running Audit..." : "Run Audit"}</Button>} />
      <div className="ai-updated" aria-live="polite"><LastUpdated at={updated} /></div>
      {runError && <p className="a-error" role="alert">The audit did not finish: {runError}</p>}
      <div className="a-grid a-grid--4">
        <StatCard label="Audit Score" value={r ? `${r.score}%` : "—"} hint={r ? `Passing checks across ${r.pages - r.errors} pages` : "No audit yet"} tone={r ? scoreTone(r.score) : undefined} />
        <StatCard label="Passed" value={r ? r.passed : "—"} hint="Checks that pass" tone={r ? "good" : undefined} />
        <StatCard label="Warnings" value={r ? r.warnings : "—"} hint="Worth improving" tone={r?.warnings ? "warn" : undefined} />
        <StatCard label="Failed" value={r ? r.failed : "—"} hint="Fix these first" tone={r?.failed ? "bad" : undefined} />
      </div>
      <Tabs label="SEO audit sections" tabs={[
        { id: "results", label: "Audit Results", content: <Results data={data} error={error} onRetry={retry} navigate={navigate} /> },
        { id: "thin", label: "Thin Pages", content: <ThinPages navigate={navigate} /> },
        { id: "briefs", label: "Location Briefs", content: <Briefs briefs={data?.briefs || []} county={county} setCounty={setCounty} /> },
        { id: "guide", label: "Implementation Guide", content: <Guide steps={liveSeoAudit.guide()} navigate={navigate} /> },
      ]} />
    </>
  );
}
