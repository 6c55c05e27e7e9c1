// The Health Monitor tab: the server's checks of every sitemap URL,
// sitemap.xml and robots.txt, with the route table's URLs listed.
import { useCallback, useEffect, useState } from "react";
import { ApiError } from "../api";
import { isHealthIssue, liveSeo, saveFile, type HealthReport, type RouteInfo, type UrlHealth } from "../data/indexnow";
import { useToast } from "../toast";
import { Badge, Button, Card, LastUpdated, LoadError, StatCard, Tabs } from "../ui";
import { useResource } from "../use-resource";
import { AutoFixNote, sleep, useAlive } from "./parts";

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

/** loadHealth joins the route table with the server's latest run (or with
 * rep, a run just read). */
async function loadHealth(rep?: HealthReport) {
  const [{ routes }, report] = await Promise.all([liveSeo.routes(), rep ? Promise.resolve(rep) : liveSeo.health()]);
  return { report, rows: rowsOf(routes, report) };
}

/** useHealth loads the results once the tab is first opened (ensure) and
 * keeps them while other tabs show. Refresh asks the server for a run (a
 * job: the request returns at once) and polls until a newer run than the
 * one shown is stored. */
export function useHealth() {
  const [started, setStarted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [runError, setRunError] = useState("");
  const alive = useAlive();
  const r = useResource(() => loadHealth(), [], { skip: !started });
  const { setData } = r;
  const refresh = useCallback(async () => {
    setBusy(true);
    setRunError("");
    try {
      const { after } = await liveSeo.runHealth();
      const until = Date.now() + HEALTH_WAIT_MS;
      for (;;) {
        await sleep(600);
        if (!alive.current) return;
        const rep = await liveSeo.health();
        if (rep.run && rep.run.id !== after) { const d = await loadHealth(rep); if (alive.current) setData(d); break; }
        if (Date.now() > until) throw new Error("The check is taking longer than expected; its results will show here once it ends.");
      }
    } catch (e) {
      if (alive.current) setRunError(e instanceof ApiError ? e.message : (e as Error).message);
    }
    if (alive.current) setBusy(false);
  }, [alive, setData]);
  const ensure = useCallback(() => setStarted(true), []);
  const report = r.data?.report || null;
  const loadError = r.error && (r.error instanceof ApiError ? r.error.message : `The health results could not be loaded: ${r.error.message}`);
  return {
    rows: r.data?.rows || null, report, busy, refresh, ensure, retry: r.retry,
    updated: report?.run ? new Date(report.run.finishedAt) : null,
    error: runError || loadError || "",
  };
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

export function HealthPanel({ h, navigate }: { h: ReturnType<typeof useHealth>; navigate: (to: string) => void }) {
  const toast = useToast();
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
      const [sitemap, robots] = await Promise.all([liveSeo.fetchText("/sitemap.xml"), liveSeo.fetchText("/robots.txt")]);
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
        <LoadError error={h.error} onRetry={h.error && !h.rows ? h.retry : h.refresh} />
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
