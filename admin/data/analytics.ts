// Analytics data. The screen reads everything through AnalyticsSource; the
// sample holds the spec's fixed values (visitors 2,847 against a goal of
// 3,000, leads 216 against 200, conversion 7.6% against 8.0%) and sample
// rows that add up to them. A real source can implement AnalyticsSource
// later without touching the screen.

export type Trend = "up" | "down";

/** TrafficSource is spec 3's traffic source. */
export interface TrafficSource { source: string; visitors: number; percentage: number; conversions: number }
/** AnalyticsMetric is spec 3's analytics metric; better says which trend is good news. */
export interface AnalyticsMetric { name: string; value: string; change: string; trend: Trend; description: string; better?: Trend }
/** GeographyRow is spec 3's geography row. */
export interface GeographyRow { area: string; visitors: number; leads: number; percentage: number }
export interface Kpi { name: string; value: number; goal: number; unit: "" | "%"; decimals: number; description: string }

export interface AnalyticsData {
  period: string;
  sources: TrafficSource[];
  metrics: AnalyticsMetric[];
  geography: GeographyRow[];
  kpis: Kpi[];
}

export interface AnalyticsSource { load(): AnalyticsData }

/** Analytics refresh delay (spec 9). */
export const REFRESH_DELAY_MS = 1500;

/** share is a percentage with one decimal. */
export const share = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 1000) / 10 : 0);

const TOTAL_VISITORS = 2847;

const sources: [string, number, number][] = [
  ["Organic Search", 1281, 94],
  ["Google Business Profile", 541, 58],
  ["Direct", 427, 31],
  ["Paid Search", 313, 22],
  ["Referral", 171, 7],
  ["Social Media", 114, 4],
];

const areas: [string, number, number][] = [
  ["Douglasville, Douglas County", 612, 58],
  ["Atlanta, Fulton County", 548, 39],
  ["Marietta, Cobb County", 397, 31],
  ["Lawrenceville, Gwinnett County", 283, 20],
  ["Decatur, DeKalb County", 241, 16],
  ["McDonough, Henry County", 196, 15],
  ["Jonesboro, Clayton County", 164, 12],
  ["Other metro Atlanta areas", 406, 25],
];

export const sampleAnalytics: AnalyticsSource = {
  load: () => ({
    period: "Last 30 days",
    sources: sources.map(([source, visitors, conversions]) => ({ source, visitors, percentage: share(visitors, TOTAL_VISITORS), conversions })),
    metrics: [
      { name: "Total Visitors", value: "2,847", change: "+12.4%", trend: "up", description: "Unique visitors to the website" },
      { name: "Leads", value: "216", change: "+18.0%", trend: "up", description: "Phone calls and estimate requests combined" },
      { name: "Conversion Rate", value: "7.6%", change: "+0.4 pts", trend: "up", description: "Share of visitors who called or requested an estimate" },
      { name: "Phone Calls", value: "139", change: "+21.9%", trend: "up", description: "Calls from tap-to-call links, 61 of them emergencies" },
      { name: "Estimate Requests", value: "77", change: "+11.6%", trend: "up", description: "Free estimate forms submitted" },
      { name: "Bounce Rate", value: "38.2%", change: "-4.5%", trend: "down", better: "down", description: "Visits that left after one page without calling" },
      { name: "Avg. Time on Site", value: "2m 34s", change: "-3.1%", trend: "down", description: "Average length of a visit" },
      { name: "Cost per Lead", value: "$41", change: "-8.9%", trend: "down", better: "down", description: "Paid search spend divided by paid search leads" },
    ],
    geography: areas.map(([area, visitors, leads]) => ({ area, visitors, leads, percentage: share(visitors, TOTAL_VISITORS) })),
    kpis: [
      { name: "Monthly Visitors", value: 2847, goal: 3000, unit: "", decimals: 0, description: "Unique visitors this month" },
      { name: "Monthly Leads", value: 216, goal: 200, unit: "", decimals: 0, description: "Calls and estimate requests this month" },
      { name: "Conversion Rate", value: 7.6, goal: 8.0, unit: "%", decimals: 1, description: "Leads as a share of visitors" },
    ],
  }),
};
