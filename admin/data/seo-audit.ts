// SEO Audit data. The server audits every indexable page of the route
// table with spec 5's page rules (package seoaudit: after each deploy and
// content change, and on Run Audit) and keeps the latest run; the screen
// reads it through SeoAuditSource. Location briefs come from the content
// the city pages are rendered from. Nothing here is a sample.

import { api } from "../api";
import type * as wire from "../api.gen";

export type AuditStatus = wire.AuditCheck["status"];
export type AuditPriority = wire.AuditCheck["priority"];

/** AuditCheck is spec 3's audit check. */
export type AuditCheck = wire.AuditCheck;

/** LocationBrief is spec 3's location brief for one city page. */
export type LocationBrief = wire.LocationBrief;

export interface GuideStep { title: string; detail: string; priority: AuditPriority; tool?: { slug: string; label: string } }

/** AuditRun is one server audit of every page: the site-wide score is
 * passing checks over all checks of the pages that answered 200. */
export type AuditRun = wire.AuditRun;

/** PageResult is one audited page of a run. */
export type PageResult = wire.PageResult;

/** SeoAuditData is GET /api/admin/seo-audit (web/audits.SEOAuditReport):
 * routes is how many pages an audit checks now; how says how the
 * site-wide score is computed. */
export type SeoAuditData = wire.SeoAuditData;

/** ThinPagesData is GET /api/admin/seo-audit/thin-pages
 * (seoaudit.ThinReport): every city page scored now, thin ones first
 * (ADR 064). */
export type ThinPagesData = wire.ThinPagesData;
export type ThinPage = wire.ThinPage;

export interface SeoAuditSource {
  load(): Promise<SeoAuditData>;
  /** thin scores every city page of the running site now. */
  thin(): Promise<ThinPagesData>;
  /** run asks the server for an audit now; after is the run it replaces. */
  run(): Promise<wire.Queued>;
  guide(): GuideStep[];
}

/** AUDIT_DELAY_MS: the spec names no delay for the audit button, so it
 * waits at least the 2 s of the other scans (spec 9) while the server runs. */
export const AUDIT_DELAY_MS = 2000;

/** RuleSummary is how one rule fared across every audited page. */
export interface RuleSummary { check: string; category: string; priority: AuditPriority; pass: number; warning: number; fail: number; worst?: AuditCheck; worstPath?: string }

/** summarizeRules tallies each rule over the pages and keeps the first
 * failing (or else warning) example. */
export function summarizeRules(pages: PageResult[]): RuleSummary[] {
  const by = new Map<string, RuleSummary>();
  for (const p of pages) {
    for (const c of p.checks) {
      let r = by.get(c.check);
      if (!r) { r = { check: c.check, category: c.category, priority: c.priority, pass: 0, warning: 0, fail: 0 }; by.set(c.check, r); }
      r[c.status]++;
      const rank = (s?: AuditStatus) => (s === "fail" ? 2 : s === "warning" ? 1 : 0);
      if (c.status !== "pass" && rank(c.status) > rank(r.worst?.status)) { r.worst = c; r.worstPath = p.path; }
    }
  }
  return Array.from(by.values());
}

/** GUIDE is the Implementation Guide, in the order to work through it. */
export const GUIDE: GuideStep[] = [
  { priority: "P0", title: "Fix every failing check marked Fix first (P0)", detail: "Titles, meta descriptions, the single H1, the LocalBusiness schema, the viewport tag and HTTPS decide whether a page can rank at all. Re-run the audit after each fix." },
  { priority: "P1", title: "Give every image real alt text", detail: "When uploading project photos, name the project clearly and describe each photo: the damage, the room and the city. Empty alt text fails the audit." },
  { priority: "P1", title: "Publish the location pages from the Location Briefs", detail: "Use each brief's SEO title (at most 60 characters), meta description (150-160 characters) and keywords on its city page (edit the city in Content Management). Keep every title and description unique.", tool: { slug: "locations", label: "Open Location Pages" } },
  { priority: "P1", title: "Keep LocalBusiness structured data on every page", detail: "Name, address, phone, 24/7 opening hours and the metro Atlanta service area must match the Google Business Profile exactly.", tool: { slug: "schema", label: "Open Schema Management" } },
  { priority: "P2", title: "Trim long meta descriptions", detail: "Descriptions over 160 characters are cut off in search results. Lead with the damage type and city, end with the 24/7 call to action." },
  { priority: "P2", title: "Write at least 300 words and 5 internal links per page", detail: "Link each city page to its county page, nearby cities and the matching service pages; cover local neighborhoods, creeks and common damage." },
  { priority: "P2", title: "Submit changed pages to search engines", detail: "After publishing, submit the new and changed URLs through IndexNow so Bing and partners recrawl them quickly.", tool: { slug: "indexnow", label: "Open SEO & IndexNow" } },
  { priority: "P2", title: "Re-audit after every site change", detail: "The server re-audits every page after the site starts and after every content change; compare the score and check Performance and Analytics for the effect on speed, traffic and leads." },
];

export const liveSeoAudit: SeoAuditSource = {
  load: () => api("/api/admin/seo-audit"),
  thin: () => api("/api/admin/seo-audit/thin-pages"),
  run: () => api("/api/admin/seo-audit/run", { method: "POST" }),
  guide: () => GUIDE,
};
