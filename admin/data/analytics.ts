// Analytics data. The screen reads everything through AnalyticsSource;
// serverAnalytics maps GET /api/admin/analytics (the site's own, cookie-free
// counts: docs/analytics.md, ADR 015 and ADR 023)
// onto it. The server defines and computes every figure, shares and rates
// included, so that they agree (a headline is the total of its table); the
// screen only displays them. The spec's 3,000 / 200 / 8.0% are the goals'
// defaults, editable on the server; no sample figure is ever shown.
import { api } from "../api";
import type * as wire from "../api.gen";

export type Trend = "up" | "down";

/** TrafficSource is spec 3's traffic source; conversions are the visits
 * from the source with a call tap or an estimate request. */
export type TrafficSource = Omit<wire.SourceRow, "estimates" | "calls">;
/** AnalyticsMetric is spec 3's analytics metric; better says which trend is good news. */
export interface AnalyticsMetric { name: string; value: string; change: string; trend: Trend; description: string; better?: Trend }
/** GeographyRow is spec 3's geography row; leads are estimate requests
 * (a call carries no city). */
export type GeographyRow = wire.GeographyRow;
export interface Kpi { name: string; value: number; goal: number; unit: "" | "%"; decimals: number; description: string }
/** Leads are estimate requests and call taps: leads = estimates + calls. */
export type Leads = wire.LeadCounts;
/** PageRow is one page the site serves: its visits and page views. */
export type PageRow = Pick<wire.PageRow, "path" | "visitors" | "pageviews">;
/** LeadSourceRow is a line of 'Leads by source / campaign': the lead
 * records' own attribution (utm_source / utm_medium, else an ad click id,
 * else the referring site), every stored estimate request counted. */
export type LeadSourceRow = wire.LeadSourceRow;
/** CallPageRow is one page's taps on a phone number link. */
export type CallPageRow = wire.CallPageRow;
/** NotStored counts, since this server started, the beacons not stored:
 * over a client's daily limits, refused by the database (each alone, the
 * rest of its batch stored), dropped by a full queue. */
export type NotStored = Pick<wire.AnalyticsAnswer, "capped" | "refused" | "dropped">;

export interface AnalyticsData {
  /** no page view and no lead recorded in the period yet */
  empty: boolean;
  period: string;
  /** visits: one per visitor per day */
  visitors: number;
  /** visits with at least one lead; conversionRate = conversions / visitors */
  conversions: number;
  conversionRate: number;
  /** every lead of the period, from counted visits or not */
  leads: Leads;
  /** leads from visits that were not counted: in leads, not in the rate */
  uncounted: Leads;
  /** visits that viewed an area page: the Geography table's visitors */
  areaVisitors: number;
  /** page views of the pages the site serves */
  pageviews: number;
  /** the most visited pages (at most MAX_PAGES), all of them served pages */
  pages: PageRow[];
  /** views of the not-found page: not page views, not visits, not in pages */
  notFound: number;
  notStored: NotStored;
  sources: TrafficSource[];
  /** the period's estimate requests by their own source and campaign */
  leadSources: LeadSourceRow[];
  /** the pages call taps came from, most first */
  callPages: CallPageRow[];
  metrics: AnalyticsMetric[];
  geography: GeographyRow[];
  kpis: Kpi[];
}

export interface AnalyticsSource { load(): Promise<AnalyticsData> }

/** MAX_PAGES is the server's bound on the pages listed (analytics.MaxPages). */
export const MAX_PAGES = 50;

/** Analytics refresh delay (spec 9). */
export const REFRESH_DELAY_MS = 1500;

/** Answer is GET /api/admin/analytics (Go: web/analytics.AnalyticsAnswer:
 * analytics.Report, goals, and the dropped, refused and capped counts). */
type Answer = wire.AnalyticsAnswer;

/** change compares a figure with the period before; "new" when there was
 * nothing before to compare with. */
function change(now: number, before: number): { change: string; trend: Trend } {
  if (before <= 0) return { change: now > 0 ? "new" : "0%", trend: "up" };
  const d = Math.round(((now - before) / before) * 1000) / 10;
  return { change: `${d >= 0 ? "+" : ""}${d.toFixed(1)}%`, trend: d >= 0 ? "up" : "down" };
}

const fmt = (v: number) => v.toLocaleString("en-US");

/** NOT_FOUND explains the not-found page views, in one line. */
export const NOT_FOUND = "Views of the not-found page: addresses this site does not serve (a mistyped or broken link, or junk sent by a script). Not page views, not visits, never listed as pages; the addresses are not kept.";

/** UNCOUNTED explains the leads from uncounted visits, in one line. */
export const UNCOUNTED = "Estimate requests and call taps from browsers this site did not count (JavaScript off, Do Not Track or Global Privacy Control): included in Leads, left out of the conversion rate.";

/** toData maps the server's answer onto the screen's data. */
export function toData(a: Answer): AnalyticsData {
  return {
    empty: a.empty,
    period: a.period,
    visitors: a.visitors,
    conversions: a.conversions,
    conversionRate: a.conversionRate,
    leads: { leads: a.leads, estimates: a.estimates, calls: a.calls },
    uncounted: a.uncounted,
    areaVisitors: a.areaVisitors,
    pageviews: a.pageviews,
    pages: (a.pages ?? []).map((p) => ({ path: p.path, visitors: p.visitors, pageviews: p.pageviews })),
    notFound: a.notFound,
    notStored: { capped: a.capped, refused: a.refused, dropped: a.dropped },
    sources: a.sources.map((r) => ({ source: r.source, visitors: r.visitors, percentage: r.percentage, conversions: r.conversions, conversionRate: r.conversionRate, leads: r.leads })),
    leadSources: a.leadSources ?? [],
    callPages: a.callPages ?? [],
    metrics: [
      { name: "Total Visitors", value: fmt(a.visitors), ...change(a.visitors, a.previous.visitors), description: "Visits: each visitor once a day (no cookies, so a visitor is not followed across days)" },
      { name: "Leads", value: fmt(a.leads), ...change(a.leads, a.previous.leads), description: "Estimate requests and call taps, from counted visits or not" },
      { name: "Converted Visits", value: fmt(a.conversions), change: "", trend: "up", description: "Visits with at least one call tap or estimate request" },
      { name: "Conversion Rate", value: `${a.conversionRate.toFixed(1)}%`, change: "", trend: "up", description: `Converted visits as a share of visits: ${fmt(a.conversions)} of ${fmt(a.visitors)}` },
      { name: "Phone Calls", value: fmt(a.calls), change: "", trend: "up", description: "Taps on a phone number link" },
      { name: "Estimate Requests", value: fmt(a.estimates), change: "", trend: "up", description: "Free estimate forms stored by the server, every one" },
      { name: "Leads from Uncounted Visits", value: fmt(a.uncounted.leads), change: "", trend: "up", description: UNCOUNTED },
      { name: "Page Views", value: fmt(a.pageviews), change: "", trend: "up", description: "Public pages viewed (admin pages and bots are not counted)" },
    ],
    geography: a.geography,
    kpis: [
      { name: "Monthly Visitors", value: a.visitors, goal: a.goals.visitors, unit: "", decimals: 0, description: "Visits in the period" },
      { name: "Monthly Leads", value: a.leads, goal: a.goals.leads, unit: "", decimals: 0, description: "Estimate requests and call taps in the period" },
      { name: "Conversion Rate", value: a.conversionRate, goal: a.goals.conversion, unit: "%", decimals: 1, description: "Converted visits as a share of visits" },
    ],
  };
}

export const serverAnalytics: AnalyticsSource = {
  load: async () => toData(await api<Answer>("/api/admin/analytics?days=30")),
};

/** Goals are the Goals & KPIs targets (PUT /api/admin/analytics/goals). */
export type Goals = wire.Goals;

export const saveGoals = (g: Goals) => api<Goals>("/api/admin/analytics/goals", { method: "PUT", body: JSON.stringify(g) });
