// Performance Monitor data. The screen reads everything through
// PerformanceSource; serverPerformance maps GET /api/admin/vitals, the 75th
// percentile of real visitors' Core Web Vitals (ADR 015), onto it. Each
// metric's status follows Google's thresholds.

import { api } from "../api";
import type * as wire from "../api.gen";

export type PerformanceStatus = wire.KindRow["status"];

/** PerformanceMetric is spec 3's performance metric. score is 0-100;
 * value and thresholds are the measurement behind it. */
export interface PerformanceMetric {
  name: string;
  score: number;
  status: PerformanceStatus;
  description: string;
  recommendation: string;
  value: string;
  /** "Good" and "Poor" thresholds, as text */
  thresholds: { good: string; poor: string };
}

export interface Optimization { title: string; detail: string; impact: "high" | "medium" | "low" }
export interface ScanRecord { when: string; score: number; note: string }
/** KindRow is one page kind's 75th percentile of one metric. */
export type KindRow = wire.KindRow;

export interface PerformanceData {
  /** how many measurements the figures come from (0: no data yet) */
  samples: number;
  /** what was measured, e.g. "Home page, mobile" */
  scope: string;
  metrics: PerformanceMetric[];
  optimizations: Optimization[];
  monitoredPages: string[];
  history: ScanRecord[];
  byKind: KindRow[];
}

export interface PerformanceSource { load(): Promise<PerformanceData> }

/** COUNTED says which measurements count (db.VitalRanges and the
 * collector's limits, ADR 029), so a few clients cannot move a 75th
 * percentile. */
export const COUNTED = "Plausible values only (LCP, FCP and TTFB up to 60 s, INP up to 10 s, CLS up to 10); at most 3 samples of a metric per page and visitor a day, and 10 per client address a day. Each value counts rounded up: to a tenth of a second for LCP, FCP and TTFB, to 10 ms for INP, to 0.01 for CLS.";

/** Performance scan delay (spec 9). */
export const SCAN_DELAY_MS = 2000;

const STATUS_POINTS: Record<PerformanceStatus, number> = { good: 100, "needs-improvement": 60, poor: 20 };

/** performanceScore averages 100 for good, 60 for needs-improvement and 20
 * for poor (spec 5); no metrics gives 0. */
export function performanceScore(metrics: Pick<PerformanceMetric, "status">[]): number {
  if (metrics.length === 0) return 0;
  return Math.round(metrics.reduce((s, m) => s + STATUS_POINTS[m.status], 0) / metrics.length);
}

/** Vital describes one Core Web Vital: Google's thresholds (good at or
 * below, poor above) and what to do when it is not good. */
interface Vital { key: string; name: string; unit: "ms" | ""; good: number; poor: number; description: string; fix: string }

const VITALS: Vital[] = [
  { key: "LCP", name: "Largest Contentful Paint (LCP)", unit: "ms", good: 2500, poor: 4000,
    description: "Time until the largest element of the page is painted.",
    fix: "Make the largest element (usually the hero heading or photo) render sooner: keep scripts off the critical path and size hero images to the screen." },
  { key: "INP", name: "Interaction to Next Paint (INP)", unit: "ms", good: 200, poor: 500,
    description: "How quickly the page responds to taps, such as opening the menu or the FAQ.",
    fix: "Shorten the work a tap triggers: hydrate less at once and avoid heavy third-party widgets." },
  { key: "CLS", name: "Cumulative Layout Shift (CLS)", unit: "", good: 0.1, poor: 0.25,
    description: "How much the layout jumps while the page loads.",
    fix: "Give images, videos and embeds a width and height (or reserved space) so nothing moves when they arrive." },
  { key: "FCP", name: "First Contentful Paint (FCP)", unit: "ms", good: 1800, poor: 3000,
    description: "Time until the first text or image appears.",
    fix: "Keep the inline CSS small and the HTML response fast; avoid render-blocking resources." },
  { key: "TTFB", name: "Time to First Byte (TTFB)", unit: "ms", good: 800, poor: 1800,
    description: "Time until the server starts answering the request.",
    fix: "Keep pages served from the render cache and the server (or a CDN) close to Atlanta visitors." },
];

/** show writes a vital's value at the resolution it is counted at (db.VitalSteps):
 * tenths of a second from one second up, whole milliseconds below, CLS to 0.01. */
const show = (v: number, unit: Vital["unit"]) => (unit === "ms" ? (v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`) : v.toFixed(2));

/** showVital writes metric's value as show does. */
export const showVital = (metric: string, v: number) => show(v, VITALS.find((x) => x.key === metric)?.unit ?? "ms");

/** Answer is GET /api/admin/vitals (web/analytics.VitalsReport). */
type Answer = wire.VitalsReport;

/** toData maps the server's 75th percentiles onto the screen: one card per
 * metric with data, recommendations from what is not good, and the page
 * kinds measured. Nothing is shown that was not measured. */
export function toData(a: Answer): PerformanceData {
  const byKind = a.byKind ?? [];
  const metrics: PerformanceMetric[] = (a.overall ?? []).flatMap((o) => {
    const v = VITALS.find((x) => x.key === o.metric);
    if (!v) return [];
    return [{
      name: v.name, score: STATUS_POINTS[o.status], status: o.status, description: `${v.description} 75th percentile of ${o.samples.toLocaleString("en-US")} real visits.`,
      recommendation: o.status === "good" ? "Good for 3 visits in 4: keep it there." : v.fix,
      value: show(o.p75, v.unit), thresholds: { good: `≤ ${show(v.good, v.unit)}`, poor: `> ${show(v.poor, v.unit)}` },
    }];
  });
  const optimizations: Optimization[] = byKind.filter((k) => k.status !== "good").map((k) => {
    const v = VITALS.find((x) => x.key === k.metric)!;
    return { impact: k.status === "poor" ? "high" : "medium", title: `${k.metric} on ${k.pageKind} pages: ${show(k.p75, v.unit)}`,
      detail: `${k.status === "poor" ? "Poor" : "Needs improvement"} at the 75th percentile of ${k.samples} visits. ${v.fix}` };
  });
  return {
    samples: a.samples,
    scope: a.samples ? `Real visitors, 75th percentile, last ${a.days} days (${a.samples.toLocaleString("en-US")} measurements)` : "Real visitors (none recorded yet)",
    metrics, optimizations, byKind,
    monitoredPages: Array.from(new Set(byKind.map((k) => k.pageKind))).sort(),
    history: [],
  };
}

export const serverPerformance: PerformanceSource = {
  load: async () => toData(await api<Answer>("/api/admin/vitals")),
};
