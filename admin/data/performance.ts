// Performance Monitor data. The screen reads everything through
// PerformanceSource; the sample holds fixed mobile measurements of the home
// page, and each metric's status follows from its value and the Core Web
// Vitals thresholds. A real source (field data, Lighthouse runs) can
// implement PerformanceSource later without touching the screen.

export type PerformanceStatus = "good" | "needs-improvement" | "poor";

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

export interface PerformanceData {
  /** what was measured, e.g. "Home page, mobile" */
  scope: string;
  metrics: PerformanceMetric[];
  optimizations: Optimization[];
  monitoredPages: string[];
  history: ScanRecord[];
}

export interface PerformanceSource { load(): PerformanceData }

/** Performance scan delay (spec 9). */
export const SCAN_DELAY_MS = 2000;

const STATUS_POINTS: Record<PerformanceStatus, number> = { good: 100, "needs-improvement": 60, poor: 20 };

/** performanceScore averages 100 for good, 60 for needs-improvement and 20
 * for poor (spec 5); no metrics gives 0. */
export function performanceScore(metrics: Pick<PerformanceMetric, "status">[]): number {
  if (metrics.length === 0) return 0;
  return Math.round(metrics.reduce((s, m) => s + STATUS_POINTS[m.status], 0) / metrics.length);
}

/** rate gives the status of a measurement: at or below good is good, above
 * poor is poor, in between needs improvement. */
export function rate(value: number, good: number, poor: number): PerformanceStatus {
  return value <= good ? "good" : value > poor ? "poor" : "needs-improvement";
}

interface Measurement {
  name: string; value: number; unit: "s" | "ms" | ""; good: number; poor: number; score: number; description: string; recommendation: string;
}

const fmt = (v: number, unit: Measurement["unit"]) => (unit === "" ? String(v) : `${v} ${unit}`);

const metric = (m: Measurement): PerformanceMetric => ({
  name: m.name,
  score: m.score,
  status: rate(m.value, m.good, m.poor),
  description: m.description,
  recommendation: m.recommendation,
  value: fmt(m.value, m.unit),
  thresholds: { good: `≤ ${fmt(m.good, m.unit)}`, poor: `> ${fmt(m.poor, m.unit)}` },
});

/** The spec's LCP threshold is 2500 ms. */
const MEASUREMENTS: Measurement[] = [
  { name: "Largest Contentful Paint (LCP)", value: 2.8, unit: "s", good: 2.5, poor: 4, score: 78,
    description: "Time until the largest element, the hero photo, is painted on a mid-range phone over 4G.",
    recommendation: "Preload the hero image, serve it as AVIF or WebP sized to the phone's width, and load the lead-form embed script only after the hero has painted." },
  { name: "Interaction to Next Paint (INP)", value: 140, unit: "ms", good: 200, poor: 500, score: 96,
    description: "How quickly the page responds to taps, such as opening the menu or the FAQ.",
    recommendation: "Keep it there: avoid heavy third-party chat or tracking widgets that run on every tap." },
  { name: "Cumulative Layout Shift (CLS)", value: 0.03, unit: "", good: 0.1, poor: 0.25, score: 98,
    description: "How much the layout jumps while the page loads.",
    recommendation: "Keep width and height on gallery photos and the fixed height reserved for the embedded lead form." },
  { name: "First Contentful Paint (FCP)", value: 1.2, unit: "s", good: 1.8, poor: 3, score: 95,
    description: "Time until the first text or image appears.",
    recommendation: "Keep critical CSS small and the main font preloaded." },
  { name: "Time to First Byte (TTFB)", value: 0.4, unit: "s", good: 0.8, poor: 1.8, score: 97,
    description: "Time until the server starts answering the request.",
    recommendation: "Keep server-side page caching on and the server close to Atlanta visitors." },
];

export const samplePerformance: PerformanceSource = {
  load: () => ({
    scope: "Home page, mobile (mid-range phone, 4G)",
    metrics: MEASUREMENTS.map(metric),
    optimizations: [
      { impact: "high", title: "Compress project photos before upload", detail: "Phone photos are often 4-8 MB. Resize to at most 2000 px wide; the gallery only shows them at up to 640 px." },
      { impact: "high", title: "Lazy-load the portfolio gallery and videos", detail: "Photos and videos below the first screen should load only when scrolled into view." },
      { impact: "medium", title: "Defer third-party scripts", detail: "Load the lead-form embed, review widgets and analytics after the page is interactive." },
      { impact: "medium", title: "Limit web fonts", detail: "One preloaded font file in WOFF2 with font-display: swap; system fonts for everything else." },
      { impact: "low", title: "Cache static files for a year", detail: "Hashed scripts, styles and images can be cached long-term; HTML stays short-lived." },
    ],
    monitoredPages: ["/", "/services", "/service-areas", "/portfolio", "/contact", "/blog",
      "/services/water-damage-restoration", "/services/fire-damage-restoration", "/services/storm-damage-repair", "/services/mold-remediation"],
    history: [
      { when: "Today, 6:00 AM", score: 92, note: "LCP 2.8 s on mobile" },
      { when: "Yesterday, 6:00 AM", score: 92, note: "LCP 2.9 s on mobile" },
      { when: "3 days ago", score: 84, note: "LCP 4.3 s after large gallery photos were uploaded" },
      { when: "1 week ago", score: 92, note: "No change" },
      { when: "2 weeks ago", score: 100, note: "All metrics good" },
    ],
  }),
};
