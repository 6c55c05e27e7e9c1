// The SEO Verification tab: one page's checks by category, Auto-Fix's
// note, and a crawl of the main pages.
import { useCallback, useMemo, useState } from "react";
import { count } from "../../components/plural";
import { CRAWL_PAUSE_MS, CRAWL_ROUTES, liveSeo, SEO_CHECKLIST, scoreTone, type VerificationReport } from "../data/indexnow";
import { DataTable } from "../data-table";
import { Badge, Button, Card, LastUpdated } from "../ui";
import { AutoFixNote, CheckList, PageSelect, ScoreBlock, sleep, useAlive, type FixItem } from "./parts";

interface CrawlRow { path: string; score: number; pass: number; warning: number; fail: number; error?: string }

export function useVerification() {
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
    const a = await liveSeo.auditPage(p);
    return { url: a.url, score: a.score, results: a.checks, timestamp: new Date().toISOString() };
  }, []);
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

export function VerificationPanel({ v, navigate }: { v: ReturnType<typeof useVerification>; navigate: (to: string) => void }) {
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
              <DataTable rows={v.crawl} rowKey={(x) => x.path} caption="Site-wide results" columns={[
                { key: "page", label: "Page", cell: (x) => <><a href={x.path}>{x.path}</a>{x.error && <span className="a-error"> {x.error}</span>}</> },
                { key: "score", label: "Score", cell: (x) => <Badge tone={x.error ? "bad" : scoreTone(x.score, "verification")}>{x.error ? "error" : `${x.score}%`}</Badge> },
                { key: "pass", label: "Pass", cell: (x) => x.pass },
                { key: "warning", label: "Warnings", cell: (x) => x.warning },
                { key: "fail", label: "Failed", cell: (x) => x.fail },
              ]} />
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
