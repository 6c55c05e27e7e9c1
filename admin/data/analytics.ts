// Analytics data. The screen reads everything through AnalyticsSource;
// serverAnalytics maps GET /api/admin/analytics (the site's own, cookie-free
// counts: README "Analytics and Core Web Vitals", ADR 015) onto it. The
// spec's 3,000 / 200 / 8.0% are the goals' defaults, editable on the
// server; no sample figure is ever shown.
import { api } from "../api";

export type Trend = "up" | "down";

/** TrafficSource is spec 3's traffic source. */
export interface TrafficSource { source: string; visitors: number; percentage: number; conversions: number }
/** AnalyticsMetric is spec 3's analytics metric; better says which trend is good news. */
export interface AnalyticsMetric { name: string; value: string; change: string; trend: Trend; description: string; better?: Trend }
/** GeographyRow is spec 3's geography row. */
export interface GeographyRow { area: string; visitors: number; leads: number; percentage: number }
export interface Kpi { name: string; value: number; goal: number; unit: "" | "%"; decimals: number; description: string }

export interface AnalyticsData {
  /** no page view, call or lead recorded in the period yet */
  empty: boolean;
  period: string;
  sources: TrafficSource[];
  metrics: AnalyticsMetric[];
  geography: GeographyRow[];
  kpis: Kpi[];
}

export interface AnalyticsSource { load(): Promise<AnalyticsData> }

/** Analytics refresh delay (spec 9). */
export const REFRESH_DELAY_MS = 1500;

/** share is a percentage with one decimal. */
export const share = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 1000) / 10 : 0);

/** Answer is GET /api/admin/analytics. */
interface Answer {
  period: string; empty: boolean; visitors: number; pageviews: number; leads: number; calls: number; conversionRate: number;
  previous: { visitors: number; conversions: number };
  sources: { source: string; visitors: number; percentage: number; leads: number; calls: number; conversions: number }[];
  geography: { area: string; visitors: number; leads: number; percentage: number }[];
  goals: { visitors: number; leads: number; conversion: number };
}

/** change compares a figure with the period before; "new" when there was
 * nothing before to compare with. */
function change(now: number, before: number): { change: string; trend: Trend } {
  if (before <= 0) return { change: now > 0 ? "new" : "0%", trend: "up" };
  const d = Math.round(((now - before) / before) * 1000) / 10;
  return { change: `${d >= 0 ? "+" : ""}${d.toFixed(1)}%`, trend: d >= 0 ? "up" : "down" };
}

const fmt = (v: number) => v.toLocaleString("en-US");

/** toData maps the server's answer onto the screen's data. */
export function toData(a: Answer): AnalyticsData {
  const conversions = a.leads + a.calls;
  return {
    empty: a.empty,
    period: a.period,
    sources: a.sources.map((r) => ({ source: r.source, visitors: r.visitors, percentage: r.percentage, conversions: r.conversions })),
    metrics: [
      { name: "Total Visitors", value: fmt(a.visitors), ...change(a.visitors, a.previous.visitors), description: "Unique visitors per day, added up (no cookies: a visitor is not followed across days)" },
      { name: "Leads", value: fmt(conversions), ...change(conversions, a.previous.conversions), description: "Tap-to-call clicks and estimate requests combined" },
      { name: "Conversion Rate", value: `${a.conversionRate.toFixed(1)}%`, change: "", trend: "up", description: "Leads as a share of visitors" },
      { name: "Phone Calls", value: fmt(a.calls), change: "", trend: "up", description: "Taps on a phone number link" },
      { name: "Estimate Requests", value: fmt(a.leads), change: "", trend: "up", description: "Free estimate forms received by the server" },
      { name: "Page Views", value: fmt(a.pageviews), change: "", trend: "up", description: "Public pages viewed (admin pages and bots are not counted)" },
    ],
    geography: a.geography,
    kpis: [
      { name: "Monthly Visitors", value: a.visitors, goal: a.goals.visitors, unit: "", decimals: 0, description: "Unique visitors in the period" },
      { name: "Monthly Leads", value: conversions, goal: a.goals.leads, unit: "", decimals: 0, description: "Calls and estimate requests in the period" },
      { name: "Conversion Rate", value: a.conversionRate, goal: a.goals.conversion, unit: "%", decimals: 1, description: "Leads as a share of visitors" },
    ],
  };
}

export const serverAnalytics: AnalyticsSource = {
  load: async () => toData(await api<Answer>("/api/admin/analytics?days=30")),
};

/** Goals are the Goals & KPIs targets (PUT /api/admin/analytics/goals). */
export interface Goals { visitors: number; leads: number; conversion: number }

export const saveGoals = (g: Goals) => api<Goals>("/api/admin/analytics/goals", { method: "PUT", body: JSON.stringify(g) });
