// SEO & IndexNow data. Unlike the sample-data screens this one is real:
// pages are audited by the server with the one set of rules it also runs
// over the whole site (seoaudit; GET /api/admin/seo-audit/page), routes come
// from the server's route table, the health monitor runs on the server (a
// job; the screen reads its latest run) and IndexNow submissions go
// through the server (the browser may only talk to its own origin under
// the CSP). All of it sits behind SeoIndexNowSource so tests can pass a
// fake.

import { api } from "../api";
import type * as wire from "../api.gen";

/** The audit's words (spec 4). The server decides them; the screen shows them. */
export type CheckStatus = wire.AuditCheck["status"];
export type ComplianceStatus = wire.ComplianceCheck["status"];

/** AuditCheck is one check of the server's page audit (seoaudit.Check). */
export type AuditCheck = wire.AuditCheck;

/** ComplianceCheck is one check of the compliance audit (seoaudit.ComplianceCheck). */
export type ComplianceCheck = wire.ComplianceCheck;

/** PageAudit is GET /api/admin/seo-audit/page (seoaudit.PageAudit): the
 * verification audit (checks, score) and the compliance audit of one page. */
export type PageAudit = wire.PageAudit;

/** Spec 5's compliance target and minimum, and the colour thresholds of
 * both scores (90/70 and 95/85): display only, the scores are the server's. */
export const COMPLIANCE_TARGET = 95;
export const COMPLIANCE_MINIMUM = 85;
export type Tone = "good" | "warn" | "bad";
export function scoreTone(score: number, kind: "verification" | "compliance"): Tone {
  const [hi, lo] = kind === "verification" ? [90, 70] : [COMPLIANCE_TARGET, COMPLIANCE_MINIMUM];
  return score >= hi ? "good" : score >= lo ? "warn" : "bad";
}
export const statusTone = (s: CheckStatus | ComplianceStatus): Tone =>
  s === "pass" || s === "compliant" ? "good" : s === "warning" ? "warn" : "bad";

/** CRAWL_ROUTES are spec 9's 10 crawl routes. */
export const CRAWL_ROUTES = [
  "/", "/services", "/service-areas", "/portfolio", "/contact", "/blog",
  "/services/water-damage-restoration", "/services/fire-damage-restoration", "/services/storm-damage-repair", "/services/mold-remediation",
];

/** CRAWL_PAUSE_MS is the pause between two crawled pages (spec 9). */
export const CRAWL_PAUSE_MS = 500;

/** FALLBACK_SCORE is the compliance report's score when the audit throws (spec 8). */
export const FALLBACK_SCORE = 78;

export interface ComplianceReport {
  url: string;
  score: number;
  complianceChecks: ComplianceCheck[];
  timestamp: string;
  /** set on the fallback report: why the audit had limited data */
  limited?: string;
}

/** fallbackCompliance is the report shown when the audit throws. */
export function fallbackCompliance(url: string, reason: string): ComplianceReport {
  return {
    url, score: FALLBACK_SCORE, timestamp: new Date().toISOString(), limited: reason,
    complianceChecks: [{
      category: "Audit", check: "Audit data", status: "warning", priority: "high",
      message: `The audit completed with limited data: ${reason}`,
      fix: "Check that the page loads, then press Re-audit.",
    }],
  };
}

export interface VerificationReport { url: string; score: number; results: AuditCheck[]; timestamp: string }

/** AUTO_FIX_NOTE explains why nothing is fixed automatically. */
export const AUTO_FIX_NOTE = "Titles, descriptions, headings and page text are edited in Content Management; the business details in System Settings. "
  + "Each issue below links to the field that fixes it, or says what to do. Publish the change, then run the check again.";

/** SEO_CHECKLIST is the static checklist of the Verification tab. */
export const SEO_CHECKLIST = [
  "Every page has a unique title of 50-60 characters",
  "Every page has a meta description of 150-160 characters",
  "Every page has a canonical URL",
  "Exactly one H1 per page, with H2 section headings",
  "Every image has descriptive alt text",
  "LocalBusiness structured data (JSON-LD) on every page",
  "Viewport set to width=device-width for phones",
  "The site is served over HTTPS",
  "At least 300 words of content per page",
  "At least 5 internal links per page",
  "Critical resources preloaded",
  "Business name, address and phone shown the same way everywhere",
  "sitemap.xml lists every indexable page; robots.txt points to it",
  "New and changed pages submitted through IndexNow",
];

/** RouteInfo is one route of GET /api/admin/routes (spec 3 route descriptor). */
export type RouteInfo = wire.RouteInfo;

/** HealthStatus is a checked URL's status (the server's), or blocked: a
 * route the screen knows is not indexable, never checked. */
export type HealthStatus = wire.UrlHealth["status"] | "blocked";

/** UrlHealth is spec 3's URL health result as the screen lists it: the
 * server's (wire.UrlHealth), or a blocked route the screen adds;
 * canonicalOk is false when the page's canonical names another address. */
export type UrlHealth = Omit<wire.UrlHealth, "status" | "canonicalOk"> & { status: HealthStatus; canonicalOk?: boolean };

/** HealthRun is one run of the server's health monitor. */
export type HealthRun = wire.HealthRun;

/** HealthReport is GET /api/admin/health: the latest run (null before the
 * first), spec 3's summary and every result. */
export type HealthReport = wire.HealthReport;

/** isHealthIssue: anything but an active URL whose canonical is its own. */
export const isHealthIssue = (h: UrlHealth | null | undefined) => !!h && (h.status !== "active" || h.canonicalOk === false) && h.status !== "blocked";

/** Submission is one row of the IndexNow submission history. */
export type Submission = wire.Submission;

export interface SubmitRequest { urls?: string[]; all?: boolean; apiKey: string }

/** KeyInfo is the key in force; fixed when INDEXNOW_KEY sets it. */
export type KeyInfo = wire.KeyInfo;

/** SeoIndexNowSource is everything the screen reads or sends. */
export interface SeoIndexNowSource {
  /** auditPage has the server audit one of the site's pages. */
  auditPage(path: string): Promise<PageAudit>;
  routes(): Promise<wire.RoutesInfo>;
  /** health reads the server's latest health run. */
  health(): Promise<HealthReport>;
  /** runHealth asks the server for a run now; after is the run it replaces. */
  runHealth(): Promise<wire.Queued>;
  /** fetchText loads a file of this site (sitemap.xml, robots.txt). */
  fetchText(path: string): Promise<string>;
  getKey(): Promise<KeyInfo>;
  saveKey(key: string): Promise<KeyInfo>;
  submit(req: SubmitRequest): Promise<wire.IndexNowSubmitted>;
  submissions(limit: number, offset: number): Promise<wire.SubmissionPage>;
}

export const liveSeo: SeoIndexNowSource = {
  async auditPage(path) {
    const r = await api<PageAudit>(`/api/admin/seo-audit/page?path=${encodeURIComponent(path)}`);
    if (r.error) throw new Error(r.error);
    return r;
  },
  routes: () => api("/api/admin/routes"),
  health: () => api("/api/admin/health"),
  runHealth: () => api("/api/admin/health/run", { method: "POST" }),
  async fetchText(path) {
    const res = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (!res.ok) throw new Error(`${path} answered HTTP ${res.status}`);
    return res.text();
  },
  getKey: () => api("/api/admin/indexnow/key"),
  saveKey: (key) => api("/api/admin/indexnow/key", { method: "PUT", body: JSON.stringify({ key }) }),
  submit: (req) => api("/api/admin/indexnow/submit", { method: "POST", body: JSON.stringify(req) }),
  submissions: (limit, offset) => api(`/api/admin/indexnow/submissions?limit=${limit}&offset=${offset}`),
};

/** Key storage names: the screen writes indexnow_api_key and reads both
 * names that appear in the product (spec 7). */
export const KEY_STORAGE = "indexnow_api_key";
export const KEY_STORAGE_ALT = "indexnow-api-key";

export function readStoredKey(): string {
  try {
    return localStorage.getItem(KEY_STORAGE) || localStorage.getItem(KEY_STORAGE_ALT) || "";
  } catch {
    return "";
  }
}

export function writeStoredKey(key: string) {
  try {
    if (key) localStorage.setItem(KEY_STORAGE, key);
    else localStorage.removeItem(KEY_STORAGE);
  } catch { /* storage disabled */ }
}

const KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** generateKey returns 32 random lowercase letters and digits (spec 9),
 * without modulo bias. */
export function generateKey(length = 32): string {
  let out = "";
  const buf = new Uint8Array(64);
  while (out.length < length) {
    crypto.getRandomValues(buf);
    for (const b of buf) {
      if (b < 252 && out.length < length) out += KEY_ALPHABET[b % 36];
    }
  }
  return out;
}

/** KEY_RE is the server's rule for a key: 8-128 letters, digits or dashes. */
export const KEY_RE = /^[a-zA-Z0-9-]{8,128}$/;

/** splitURLs: one URL per line, blank lines dropped (spec 5). */
export const splitURLs = (text: string) => text.split("\n").map((l) => l.trim()).filter(Boolean);

/** saveFile downloads text as a file through a Blob. */
export function saveFile(name: string, text: string, type = "text/plain") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
