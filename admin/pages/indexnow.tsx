import { count } from "../../components/plural";
import "../../styles/admin-indexnow.css";
import { FixLink, priorityWords } from "../fix-links";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError } from "../api";
import {
  AUTO_FIX_NOTE, COMPLIANCE_MINIMUM, COMPLIANCE_TARGET, CRAWL_PAUSE_MS, CRAWL_ROUTES, KEY_RE, SEO_CHECKLIST, fallbackCompliance, generateKey,
  isHealthIssue, liveSeo, readStoredKey, saveFile, scoreTone, splitURLs, statusTone, writeStoredKey,
  type AuditCheck, type ComplianceCheck, type ComplianceReport, type HealthReport, type RouteInfo, type SeoIndexNowSource, type Submission,
  type UrlHealth, type VerificationReport,
} from "../data/indexnow";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LastUpdated, PageHeader, Progress, StatCard, Tabs } from "../ui";
import type { Site } from "../../components/types";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** useAlive is false once the screen has gone, so long runs stop. */
function useAlive() {
  const alive = useRef(true);
  useEffect(() => { alive.current = true; return () => { alive.current = false; }; }, []);
  return alive;
}


// ------------------------------------------------------------ compliance

function useCompliance(source: SeoIndexNowSource, site: Site) {
  const [path, setPath] = useState("/");
  const [report, setReport] = useState<ComplianceReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [updated, setUpdated] = useState<Date | null>(null);
  const alive = useAlive();
  const run = useCallback(async (p: string) => {
    setBusy(true);
    let r: ComplianceReport;
    try {
      const a = await source.auditPage(p);
      r = { url: a.url, score: a.complianceScore, complianceChecks: a.compliance, timestamp: new Date().toISOString() };
    } catch (e) {
      console.error("SEO compliance audit failed", e);
      r = fallbackCompliance(p, (e as Error)?.message || "the page could not be read.");
    }
    if (!alive.current) return;
    setReport(r);
    setBusy(false);
    setUpdated(new Date());
  }, [source, site, alive]);
  return { path, setPath, report, busy, updated, run };
}

function ScoreBlock({ score, tone, label, children }: { score: number; tone: "good" | "warn" | "bad"; label: string; children?: React.ReactNode }) {
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

function CheckList({ checks, path, navigate }: { checks: (AuditCheck | ComplianceCheck)[]; path: string; navigate: (to: string) => void }) {
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

function PageSelect({ id, value, onChange, disabled }: { id: string; value: string; onChange: (v: string) => void; disabled?: boolean }) {
  return (
    <div className="inx-select">
      <label htmlFor={id} className="a-label">Page to audit</label>
      <select id={id} className="a-input" value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        {CRAWL_ROUTES.map((r) => <option key={r} value={r}>{r}</option>)}
      </select>
    </div>
  );
}

function CompliancePanel({ c, navigate }: { c: ReturnType<typeof useCompliance>; navigate: (to: string) => void }) {
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
          <PageSelect id="inx-compliance-page" value={c.path} disabled={c.busy} onChange={(p) => { c.setPath(p); c.run(p); }} />
          <Button onClick={() => c.run(c.path)} disabled={c.busy}>{c.busy ? "Running Audit..." : "Re-audit"}</Button>
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

// ---------------------------------------------------------- verification

interface CrawlRow { path: string; score: number; pass: number; warning: number; fail: number; error?: string }

function useVerification(source: SeoIndexNowSource, site: Site) {
  const [path, setPath] = useState("/");
  const [report, setReport] = useState<VerificationReport | null>(null);
  const [busy, setBusy] = useState<"" | "audit" | "crawl">("");
  const [updated, setUpdated] = useState<Date | null>(null);
  const [crawl, setCrawl] = useState<CrawlRow[]>([]);
  const [crawlAt, setCrawlAt] = useState<Date | null>(null);
  const [progress, setProgress] = useState("");
  const [error, setError] = useState("");
  const alive = useAlive();
  const auditOne = useCallback(async (p: string): Promise<VerificationReport> => {
    const a = await source.auditPage(p);
    return { url: a.url, score: a.score, results: a.checks, timestamp: new Date().toISOString() };
  }, [source, site]);
  const audit = useCallback(async () => {
    setBusy("audit");
    setError("");
    try {
      const r = await auditOne(path);
      if (!alive.current) return;
      setReport(r);
      setUpdated(new Date());
    } catch (e) {
      console.error("SEO audit failed", e);
      if (alive.current) setError(`The audit could not read ${path}: ${(e as Error).message}`);
    }
    if (alive.current) setBusy("");
  }, [auditOne, path, alive]);
  const crawlAll = useCallback(async () => {
    setBusy("crawl");
    setError("");
    const rows: CrawlRow[] = [];
    for (let i = 0; i < CRAWL_ROUTES.length; i++) {
      const p = CRAWL_ROUTES[i];
      if (!alive.current) return;
      setProgress(`Scanning ${i + 1} of ${CRAWL_ROUTES.length}: ${p}`);
      try {
        const r = await auditOne(p);
        rows.push({ path: p, score: r.score, pass: r.results.filter((x) => x.status === "pass").length,
          warning: r.results.filter((x) => x.status === "warning").length, fail: r.results.filter((x) => x.status === "fail").length });
      } catch (e) {
        rows.push({ path: p, score: 0, pass: 0, warning: 0, fail: 0, error: (e as Error).message });
      }
      if (!alive.current) return;
      setCrawl([...rows]);
      if (i < CRAWL_ROUTES.length - 1) await sleep(CRAWL_PAUSE_MS);
    }
    if (!alive.current) return;
    setProgress("");
    setBusy("");
    setCrawlAt(new Date());
  }, [auditOne, alive]);
  return { path, setPath, report, busy, updated, crawl, crawlAt, progress, error, audit, crawlAll };
}

/** FixItem is one finding of Auto-Fix: what is wrong, and where it is
 * fixed (a link to the editor field, or what to do in words). */
interface FixItem { key: string; text: string; path: string; check?: string; plain?: string; hasFix?: boolean }

function AutoFixNote({ issues, navigate }: { issues: FixItem[]; navigate: (to: string) => void }) {
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

function VerificationPanel({ v, navigate }: { v: ReturnType<typeof useVerification>; navigate: (to: string) => void }) {
  const [cat, setCat] = useState("All");
  const [fixOpen, setFixOpen] = useState(false);
  const r = v.report;
  const cats = useMemo(() => ["All", ...Array.from(new Set((r?.results || []).map((x) => x.category)))], [r]);
  const shown = (r?.results || []).filter((x) => cat === "All" || x.category === cat);
  const issues: FixItem[] = (r?.results || []).filter((x) => x.status !== "pass").map((x) => ({ key: x.check, text: `${x.check}: ${x.fix || x.message}`, path: v.path, check: x.check, hasFix: !!x.fix }));
  const avg = v.crawl.length ? Math.round(v.crawl.reduce((s, x) => s + x.score, 0) / v.crawl.length) : 0;
  return (
    <>
      <Card title="SEO Verification" description="Checks a page's meta tags, headings, structured data, images, links, resource hints and business details.">
        <PageSelect id="inx-verify-page" value={v.path} onChange={v.setPath} disabled={!!v.busy} />
        <div className="a-row">
          <Button onClick={v.audit} disabled={!!v.busy}>{v.busy === "audit" ? "Running Audit..." : "Run SEO Audit"}</Button>
          <Button variant="outline" onClick={() => setFixOpen(true)} aria-expanded={fixOpen}>Auto-Fix Issues</Button>
          <Button variant="outline" onClick={v.crawlAll} disabled={!!v.busy}>{v.busy === "crawl" ? "Scanning..." : "Crawl All Pages"}</Button>
        </div>
        {v.progress && <p role="status" className="a-muted inx-progress-text">{v.progress}</p>}
        {v.error && <p role="alert" className="a-error">{v.error}</p>}
        {fixOpen && <AutoFixNote issues={issues} navigate={navigate} />}
        {r && (
          <ScoreBlock score={r.score} tone={scoreTone(r.score, "verification")} label="SEO score">
            <p className="inx-score__meta">{r.results.filter((x) => x.status === "pass").length} of {r.results.length} checks pass. Good at 90% or more; needs work below 70%.</p>
            <p className="inx-score__meta a-muted">Audited: <a href={r.url}>{r.url}</a></p>
          </ScoreBlock>
        )}
        <LastUpdated at={v.updated} />
      </Card>
      {r && (
        <Card title="Results">
          <div className="a-row inx-filters" role="group" aria-label="Filter results by category">
            {cats.map((c) => (
              <button key={c} type="button" className={`a-btn ${cat === c ? "a-btn--primary" : "a-btn--outline"} inx-filter`} aria-pressed={cat === c} onClick={() => setCat(c)}>
                {c}{c !== "All" && <span className="inx-filter__n"> ({r.results.filter((x) => x.category === c).length})</span>}
              </button>
            ))}
          </div>
          <CheckList checks={shown} path={v.path} navigate={navigate} />
        </Card>
      )}
      <Card title="Site-wide results" description={`Crawls the ${CRAWL_ROUTES.length} main pages, ${CRAWL_PAUSE_MS} ms apart, and audits each.`}>
        {v.crawl.length === 0 ? <p className="a-muted">Press Crawl All Pages to audit every main page.</p> : (
          <>
            {!v.progress && <p><strong>Average score: {avg}%</strong> across {count(v.crawl.length, "page")}.</p>}
            <div className="inx-tablewrap">
              <table className="a-table">
                <thead><tr><th scope="col">Page</th><th scope="col">Score</th><th scope="col">Pass</th><th scope="col">Warnings</th><th scope="col">Failed</th></tr></thead>
                <tbody>
                  {v.crawl.map((x) => (
                    <tr key={x.path}>
                      <td><a href={x.path}>{x.path}</a>{x.error && <span className="a-error"> {x.error}</span>}</td>
                      <td><Badge tone={x.error ? "bad" : scoreTone(x.score, "verification")}>{x.error ? "error" : `${x.score}%`}</Badge></td>
                      <td>{x.pass}</td><td>{x.warning}</td><td>{x.fail}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        <LastUpdated at={v.crawlAt} />
      </Card>
      <Card title="SEO checklist">
        <ul className="inx-checklist">{SEO_CHECKLIST.map((i) => <li key={i}>{i}</li>)}</ul>
      </Card>
    </>
  );
}

// ---------------------------------------------------------------- health

/** HealthRow is a line of the URL lists: a route of the table (or one of
 * the generated files) with its result from the server's latest run. */
interface HealthRow { path: string; meta: string; health: UrlHealth | null }

const GENERATED = ["/sitemap.xml", "/robots.txt"];

/** rowsOf joins the route table with the latest run's results. */
function rowsOf(routes: RouteInfo[], report: HealthReport): HealthRow[] {
  const byPath = new Map(report.results.map((r) => [r.url, r]));
  const rows: HealthRow[] = routes.map((route) => ({
    path: route.path,
    meta: `${route.indexable ? "listed for search engines" : "kept out of search engines"}${route.includeInSitemap ? " · in the sitemap" : ""}`,
    health: !route.indexable
      ? { url: route.path, status: "blocked", statusCode: 0, error: "Not indexable: disallowed in robots.txt and marked noindex", lastChecked: report.run?.finishedAt || "" }
      : byPath.get(route.path) || null,
  }));
  for (const f of GENERATED) rows.push({ path: f, meta: "made by the site from its pages", health: byPath.get(f) || null });
  return rows;
}

/** every turns a Go duration ("1h0m0s") into words ("1 h"). */
function every(d: string) {
  const parts: string[] = [];
  for (const [re, unit] of [[/(\d+)h/, "h"], [/(\d+)m(?!s)/, "min"], [/([\d.]+)s/, "s"]] as const) {
    const m = d.match(re);
    if (m && Number(m[1]) > 0) parts.push(`${m[1]} ${unit}`);
  }
  return parts.join(" ") || d;
}

/** HEALTH_WAIT_MS bounds how long Refresh waits for the server's run. */
const HEALTH_WAIT_MS = 120_000;

function useHealth(source: SeoIndexNowSource) {
  const [rows, setRows] = useState<HealthRow[] | null>(null);
  const [report, setReport] = useState<HealthReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const started = useRef(false);
  const alive = useAlive();
  const show = useCallback(async (rep?: HealthReport) => {
    const [{ routes }, r] = await Promise.all([source.routes(), rep ? Promise.resolve(rep) : source.health()]);
    if (!alive.current) return;
    setReport(r);
    setRows(rowsOf(routes, r));
  }, [source, alive]);
  const load = useCallback(async () => {
    setError("");
    try {
      await show();
    } catch (e) {
      if (alive.current) setError(e instanceof ApiError ? e.message : `The health results could not be loaded: ${(e as Error).message}`);
    }
  }, [show, alive]);
  // Refresh asks the server for a run (a job: the request returns at once)
  // and polls until a newer run than the one shown is stored.
  const refresh = useCallback(async () => {
    setBusy(true);
    setError("");
    try {
      const { after } = await source.runHealth();
      const until = Date.now() + HEALTH_WAIT_MS;
      for (;;) {
        await sleep(600);
        if (!alive.current) return;
        const rep = await source.health();
        if (rep.run && rep.run.id !== after) { await show(rep); break; }
        if (Date.now() > until) throw new Error("The check is taking longer than expected; its results will show here once it ends.");
      }
    } catch (e) {
      if (alive.current) setError(e instanceof ApiError ? e.message : (e as Error).message);
    }
    if (alive.current) setBusy(false);
  }, [source, show, alive]);
  const ensure = useCallback(() => {
    if (!started.current) { started.current = true; load(); }
  }, [load]);
  const updated = report?.run ? new Date(report.run.finishedAt) : null;
  return { rows, report, busy, updated, error, refresh, ensure };
}

const healthTone = (h: UrlHealth | null) => (!h ? "neutral" : isHealthIssue(h) ? (h.status === "redirect" ? "warn" : "bad") : h.status === "active" ? "good" : "neutral");
const healthLabel = (h: UrlHealth | null) => (!h ? "not checked" : h.status === "active" && h.canonicalOk === false ? "canonical" : h.status);

function UrlList({ rows, empty }: { rows: HealthRow[]; empty: string }) {
  if (!rows.length) return <p className="a-empty">{empty}</p>;
  return (
    <div className="inx-urlbox" tabIndex={0} role="region" aria-label={`${rows.length} URLs`}>
      <ul className="inx-urls">
        {rows.map(({ path, meta, health }) => (
          <li key={path} className="inx-url">
            <div className="inx-url__main">
              <a href={path} className="inx-url__path">{path}</a>
              <span className="a-muted inx-url__meta">{meta}</span>
              {health?.redirectTo && <span className="inx-url__meta">Redirects to {health.redirectTo}</span>}
              {health?.error && (health.status !== "active" || health.canonicalOk === false) && <span className="inx-url__meta a-muted">{health.error}</span>}
            </div>
            <Badge tone={healthTone(health)}>{healthLabel(health)}</Badge>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** healthFix says, in words, how a health finding is fixed: a redirect
 * by linking to the final address, a missing page by a redirect. */
function healthFix(r: HealthRow): string {
  const st = r.health?.status;
  if (st === "redirect") return "Wherever the site links to this address, link to the final one; a redirect is added on the Redirects screen.";
  if (r.health?.statusCode === 404) return "Publish the page again in Content Management, or send its address to another page on the Redirects screen.";
  return "Check the page in Content Management; if it still fails, tell your web developer.";
}

function HealthPanel({ h, source, toast, navigate }: { h: ReturnType<typeof useHealth>; source: SeoIndexNowSource; toast: ReturnType<typeof useToast>; navigate: (to: string) => void }) {
  const [fixOpen, setFixOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  useEffect(() => { h.ensure(); }, [h.ensure]);
  const rows = h.rows || [];
  const rep = h.report;
  const issues = rows.filter((r) => isHealthIssue(r.health));
  const active = rows.filter((r) => r.health?.status === "active" && r.health.canonicalOk !== false);
  const download = async () => {
    setDownloading(true);
    try {
      const [sitemap, robots] = await Promise.all([source.fetchText("/sitemap.xml"), source.fetchText("/robots.txt")]);
      saveFile("sitemap.xml", sitemap, "application/xml");
      saveFile("robots.txt", robots, "text/plain");
      toast({ title: "Files Downloaded", description: "sitemap.xml and robots.txt were saved." });
    } catch (e) {
      toast({ title: "Download Failed", description: (e as Error).message, variant: "destructive" });
    } finally {
      setDownloading(false);
    }
  };
  const fixText = (r: HealthRow) => `${r.path}: ${r.health?.status === "redirect" ? `redirects${r.health.redirectTo ? " to " + r.health.redirectTo : ""}; link to the final address instead` : r.health?.error || r.health?.status}`;
  const loaded = !!rep;
  return (
    <>
      <Card title="Health Monitor" description={`The server checks every sitemap URL, sitemap.xml and robots.txt through its own handler${rep ? ` every ${every(rep.interval)}` : ""}, and each page's canonical. Refresh runs a check now.`}>
        <div className="a-row">
          <Button onClick={h.refresh} disabled={h.busy}>{h.busy ? "Refreshing..." : "Refresh"}</Button>
          <Button variant="outline" onClick={download} disabled={downloading}>{downloading ? "Downloading..." : "Download Files"}</Button>
          <Button variant="outline" onClick={() => setFixOpen(true)} aria-expanded={fixOpen}>Auto-Fix Issues</Button>
        </div>
        {h.error && <p className="a-error" role="alert">{h.error}</p>}
        {rep?.monitoring === false && <p className="inx-notice inx-notice--warn">SEO health monitoring is off in System Settings: the scheduled check does not run. Refresh still checks now.</p>}
        {fixOpen && <AutoFixNote issues={issues.map((r) => ({ key: r.path, text: fixText(r), path: r.path, plain: healthFix(r) }))} navigate={navigate} />}
        <div className="a-grid a-grid--4 inx-stats">
          <StatCard label="Total Routes" value={loaded ? rep.summary.totalRoutes : "…"} hint="Every page address of the site" />
          <StatCard label="Indexable URLs" value={loaded ? rep.summary.indexableRoutes : "…"} hint="Allowed in robots.txt" />
          <StatCard label="In Sitemap" value={loaded ? rep.summary.urlsInSitemap : "…"} hint="Listed in sitemap.xml" />
          <StatCard label="Issues Found" value={rep?.run ? rep.summary.issues : "…"} tone={rep?.run ? (rep.summary.issues ? "bad" : "good") : undefined}
            hint={rep?.run ? `${rep.run.checked} URLs checked` : "No check has run yet"} />
        </div>
        {h.busy && <p className="a-muted" role="status">The server is checking every URL...</p>}
        {loaded && !rep.run && !h.busy && <p className="a-muted">No health check has run yet. Press Refresh to run one now.</p>}
        <LastUpdated at={h.updated} />
      </Card>
      <Card title="URLs">
        {!h.rows ? <p role="status" className="a-muted">Loading routes...</p> : (
          <Tabs label="URL lists" tabs={[
            { id: "all", label: "All URLs", content: <UrlList rows={rows} empty="No routes." /> },
            { id: "issues", label: "Issues", content: <UrlList rows={issues} empty={rep?.run ? "No issues found: every sitemap URL answers 200 and names itself as canonical." : "No check has run yet."} /> },
            { id: "active", label: "Active", content: <UrlList rows={active} empty={rep?.run ? "No active URLs." : "No check has run yet."} /> },
          ]} />
        )}
      </Card>
    </>
  );
}

// -------------------------------------------------------------- indexnow

const TRIGGER_LABEL: Record<Submission["trigger"], string> = { auto: "Automatic: changed pages", all: "Submit All Site Pages", custom: "Custom URLs" };

/** HISTORY_PAGE is how many submissions the history shows at a time. */
const HISTORY_PAGE = 10;

/** SubmissionHistory lists what the server sent to IndexNow, newest first. */
function SubmissionHistory({ source, reload }: { source: SeoIndexNowSource; reload: number }) {
  const [page, setPage] = useState(0);
  // data remembers which page it is, so the pager names the page on
  // screen, not the one asked for while its answer is on the way; an
  // answer that arrives after a newer request was made is dropped.
  const [data, setData] = useState<{ submissions: Submission[]; total: number; page: number } | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let current = true;
    source.submissions(HISTORY_PAGE, page * HISTORY_PAGE)
      .then((d) => { if (current) { setData({ ...d, page }); setError(""); } })
      .catch((e) => { if (current) setError(e instanceof ApiError ? e.message : "The submission history could not be loaded."); });
    return () => { current = false; };
  }, [source, page, reload]);
  const pages = data ? Math.max(1, Math.ceil(data.total / HISTORY_PAGE)) : 1;
  const shown = data ? data.page : page;
  return (
    <Card title="Submission history" description="Every submission the server made: automatic ones after content changes (when 'auto-submit to IndexNow' is on in System Settings) and the ones sent from this screen.">
      {error && <p className="a-error" role="alert">{error}</p>}
      {!data ? (!error && <p role="status" className="a-muted">Loading...</p>) : data.submissions.length === 0 ? <p className="a-empty">No submissions yet.</p> : (
        <>
          <ul className="inx-history" aria-label="Submissions">
            {data.submissions.map((x) => (
              <li key={x.id} className="inx-sub">
                <div className="inx-sub__head">
                  <Badge tone={x.outcome === "ok" ? "good" : "bad"}>{x.statusCode ? `HTTP ${x.statusCode}` : "failed"}</Badge>
                  <strong>{TRIGGER_LABEL[x.trigger] || x.trigger}</strong>
                  <span className="a-muted">{x.urlCount} URL{x.urlCount === 1 ? "" : "s"}</span>
                  <time className="a-muted inx-sub__time" dateTime={x.createdAt}>{new Date(x.createdAt).toLocaleString("en-US")}</time>
                </div>
                {x.response && <p className="inx-sub__resp">{x.response}</p>}
                <details className="inx-sub__urls">
                  <summary>Submitted URLs</summary>
                  <ul>{x.urls.map((u) => <li key={u}>{u}</li>)}</ul>
                </details>
              </li>
            ))}
          </ul>
          {pages > 1 && (
            <div className="a-row inx-pager">
              <Button variant="outline" onClick={() => setPage(shown - 1)} disabled={shown === 0}>Newer</Button>
              <span className="a-muted">Page {shown + 1} of {pages}</span>
              <Button variant="outline" onClick={() => setPage(shown + 1)} disabled={shown + 1 >= pages}>Older</Button>
            </div>
          )}
        </>
      )}
    </Card>
  );
}

function IndexNowPanel({ source, site, toast }: { source: SeoIndexNowSource; site: Site; toast: ReturnType<typeof useToast> }) {
  const [key, setKey] = useState("");
  const [serverKey, setServerKey] = useState<string | null>(null);
  const [fixed, setFixed] = useState(false);
  const [historyVersion, setHistoryVersion] = useState(0);
  const [keyError, setKeyError] = useState("");
  const [custom, setCustom] = useState("");
  const [busy, setBusy] = useState<"" | "all" | "custom">("");
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [updated, setUpdated] = useState<Date | null>(null);
  const alive = useAlive();

  // The server's key is the one in force: it replaces the copy this
  // browser keeps (both spec names are read), unless something was typed
  // meanwhile. A browser-only key shows until it is saved.
  useEffect(() => {
    const local = readStoredKey();
    setKey(local);
    source.getKey().then((r) => {
      if (!alive.current) return;
      setServerKey(r.key);
      setFixed(!!r.fixed);
      if (r.key) setKey((cur) => { if (cur && cur !== local) return cur; writeStoredKey(r.key); return r.key; });
    }).catch((e) => console.error("IndexNow key could not be loaded", e));
  }, [source, alive]);

  const save = async (k: string) => {
    try {
      const r = await source.saveKey(k);
      if (alive.current) setServerKey(r.key);
      return true;
    } catch (e) {
      if (alive.current) setKeyError(`The key could not be saved on the server: ${(e as Error).message}`);
      return false;
    }
  };
  const generate = async () => {
    const k = generateKey();
    setKey(k);
    setKeyError("");
    writeStoredKey(k);
    toast({ title: "API Key Generated", description: "New IndexNow API key created. Don't forget to create the verification file!" });
    await save(k);
  };
  const onKeyChange = (v: string) => {
    setKey(v);
    writeStoredKey(v.trim());
    setKeyError("");
  };
  const onKeyBlur = () => {
    const k = key.trim();
    if (!k) return;
    if (!KEY_RE.test(k)) { setKeyError("A key is 8-128 characters: letters, digits or dashes."); return; }
    if (k !== serverKey) save(k);
  };
  const copy = async () => {
    if (!key) { toast({ title: "No API Key", description: "Generate an API key first", variant: "destructive" }); return; }
    try {
      await navigator.clipboard.writeText(key);
      toast({ title: "Copied!", description: "API key copied to clipboard" });
    } catch {
      toast({ title: "Copy Failed", description: "Could not copy to clipboard", variant: "destructive" });
    }
  };
  const downloadKeyFile = () => {
    if (!key) { toast({ title: "No API Key", description: "Generate an API key first", variant: "destructive" }); return; }
    saveFile(`${key}.txt`, key);
    toast({ title: "File Downloaded", description: `Upload ${key}.txt to your domain root to verify ownership` });
  };
  const submit = async (all: boolean) => {
    const k = key.trim();
    if (!k) { toast({ title: "Missing API Key", description: "Please generate an API key first", variant: "destructive" }); return; }
    let urls: string[] = [];
    if (!all) {
      urls = splitURLs(custom);
      if (!urls.length) { toast({ title: "No URLs", description: "Please enter URLs to submit", variant: "destructive" }); return; }
    }
    setBusy(all ? "all" : "custom");
    setResult(null);
    try {
      const r = await source.submit(all ? { all: true, apiKey: k } : { urls, apiKey: k });
      if (!alive.current) return;
      setServerKey(k);
      setResult({ ok: true, text: `Submitted ${r.submitted} URLs to IndexNow.` });
      setHistoryVersion((v) => v + 1);
      toast({ title: "Submission Successful", description: `Submitted ${r.submitted} URLs to IndexNow` });
    } catch (e) {
      console.error("IndexNow submission failed", e);
      if (!alive.current) return;
      setResult({ ok: false, text: (e as Error).message || "Could not submit URLs to IndexNow." });
      setHistoryVersion((v) => v + 1);
      toast({ title: "Submission Failed", description: "Could not submit URLs to IndexNow", variant: "destructive" });
    }
    setBusy("");
    setUpdated(new Date());
  };
  const k = key.trim();
  const keyURL = k ? `${site.baseUrl}/${k}.txt` : "";
  return (
    <>
      <Card title="IndexNow API Key" description="IndexNow tells Bing, Yandex, Seznam, Naver and other search engines that pages changed. The key proves the site is yours.">
        <div className="a-field">
          <label htmlFor="inx-key" className="a-label">API key</label>
          <div className="inx-keyrow">
            <input id="inx-key" className="a-input inx-key" value={key} onChange={(e) => onKeyChange(e.target.value)} onBlur={onKeyBlur}
              spellCheck={false} autoComplete="off" maxLength={128} placeholder="Generate a key or paste an existing one" readOnly={fixed}
              aria-invalid={!!keyError} aria-describedby={keyError ? "inx-key-err inx-key-hint" : "inx-key-hint"} />
            <Button onClick={generate} disabled={fixed}>Generate</Button>
            <Button variant="outline" onClick={copy}>Copy</Button>
          </div>
          {keyError && <p id="inx-key-err" className="a-error" role="alert">{keyError}</p>}
          <p id="inx-key-hint" className="a-muted inx-hint">
            {fixed ? <>Set by your web host on the server (see the deployment guide), which answers the verification file at <a href={`/${k}.txt`}>{keyURL}</a>.</>
              : !k ? "No key yet. Generate one: it is saved on the server, which submits changed pages with it, and kept in this browser."
              : serverKey === k ? <>Saved on the server, which answers the verification file at <a href={`/${k}.txt`}>{keyURL}</a>.</>
                : "Not saved on the server yet: it is saved when you leave the field, or with the next submission."}
          </p>
        </div>
        <h3 className="inx-h3">Verification file</h3>
        <p className="a-muted inx-hint">Search engines fetch <code>{k ? `${k}.txt` : "a file named after the key"}</code> from the domain root and expect the key inside. This server already serves it once the key is saved; download it only if the site is hosted elsewhere.</p>
        <Button variant="outline" onClick={downloadKeyFile}>Download Verification File</Button>
      </Card>
      <Card title="Submit All Site Pages" description="Sends every URL in sitemap.xml to IndexNow in one request, through this server.">
        <Button onClick={() => submit(true)} disabled={!!busy}>{busy === "all" ? "Submitting..." : "Submit All Site Pages"}</Button>
      </Card>
      <Card title="Submit Custom URLs" description="Only addresses on this site are accepted. Paths such as /contact are completed with the site address.">
        <div className="a-field">
          <label htmlFor="inx-urls" className="a-label">URLs to submit (one per line)</label>
          <textarea id="inx-urls" className="a-input inx-textarea" value={custom} onChange={(e) => setCustom(e.target.value)} rows={6} spellCheck={false}
            placeholder={`${site.baseUrl}/services/water-damage-restoration\n${site.baseUrl}/contact`} />
        </div>
        <Button onClick={() => submit(false)} disabled={!!busy || !k || !custom.trim()}>{busy === "custom" ? "Submitting..." : "Submit URLs"}</Button>
      </Card>
      {result && <p className={`inx-notice ${result.ok ? "inx-notice--good" : "inx-notice--bad"}`} role={result.ok ? "status" : "alert"}>{result.text}</p>}
      <LastUpdated at={updated} />
      <SubmissionHistory source={source} reload={historyVersion} />
    </>
  );
}

// ---------------------------------------------------------------- screen

/** IndexNowPage is SEO & IndexNow Management (spec 2.4): a compliance
 * audit, a verification audit and crawl, route health, and IndexNow
 * submission. State lives here so switching tabs keeps results. */
export default function IndexNowPage(props: AdminPageProps & { source?: SeoIndexNowSource }) {
  const { site, source = liveSeo } = props;
  const toast = useToast();
  const compliance = useCompliance(source, site);
  const verification = useVerification(source, site);
  const health = useHealth(source);
  const { run } = compliance;
  const { navigate } = props;
  useEffect(() => { run("/"); }, [run]);
  return (
    <>
      <PageHeader title="SEO & IndexNow Management" description="Audit pages against the SEO rules, watch every route's health, and tell search engines about new and changed pages." />
      <Tabs label="SEO & IndexNow tools" tabs={[
        { id: "compliance", label: "SEO Compliance", content: <CompliancePanel c={compliance} navigate={navigate} /> },
        { id: "verification", label: "SEO Verification", content: <VerificationPanel v={verification} navigate={navigate} /> },
        { id: "health", label: "Health Monitor", content: <HealthPanel h={health} source={source} toast={toast} navigate={navigate} /> },
        { id: "indexnow", label: "IndexNow Submission", content: <IndexNowPanel source={source} site={site} toast={toast} /> },
      ]} />
    </>
  );
}
