// Page-audit rules of spec 5 as pure functions over a parsed Document
// (DOMParser). Nothing here touches the network or the live page: the
// caller fetches and parses, these functions judge. The server's site-wide
// audit (seoaudit/rules.go) is a port of these rules: change both together
// (ADR 014 lists the two readings that differ).

export type CheckStatus = "pass" | "warning" | "fail";
export type ComplianceStatus = "compliant" | "warning" | "non-compliant";
export type Priority = "critical" | "high" | "medium" | "low";

/** AuditCheck is spec 3's audit check. */
export interface AuditCheck {
  category: string;
  check: string;
  status: CheckStatus;
  message: string;
  priority: Priority;
  fix?: string;
}

/** ComplianceCheck is a check in the compliance audit's words (spec 4). */
export interface ComplianceCheck extends Omit<AuditCheck, "status"> { status: ComplianceStatus }

/** AuditContext says where the page came from and what the business's
 * name/address/phone are (the site props). */
export interface AuditContext {
  /** absolute address the page was fetched from */
  url: string;
  phone?: string;
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
}

/** Spec 9's thresholds. */
export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 160;
export const MIN_WORDS = 300;
export const MIN_INTERNAL_LINKS = 5;
export const COMPLIANCE_TARGET = 95;
export const COMPLIANCE_MINIMUM = 85;
export const WARNING_WEIGHT = 0.7;

export const CATEGORIES = ["Meta Tags", "Content", "Images", "Structured Data", "Mobile", "Security", "Links", "Performance", "Local SEO"] as const;

type Result = Omit<AuditCheck, "category" | "check" | "priority"> & Partial<Pick<AuditCheck, "priority">>;
const pass = (message: string): Result => ({ status: "pass", message });
const warn = (message: string, fix?: string): Result => ({ status: "warning", message, fix });
const fail = (message: string, fix?: string): Result => ({ status: "fail", message, fix });

const squash = (s: string | null | undefined) => (s || "").replace(/\s+/g, " ").trim();

// ---------------------------------------------------------------- rules

export function checkTitle(doc: Document): Result {
  const t = squash(doc.querySelector("head title")?.textContent ?? doc.title);
  if (!t) return fail("The page has no <title>.", "Give the page a unique title of 50-60 characters.");
  if (t.length > TITLE_MAX) return warn(`Title is ${t.length} characters; over ${TITLE_MAX} is cut off in results (recommended 50-60).`, "Shorten the title to 60 characters or fewer.");
  return pass(`Title is ${t.length} characters: “${t}”.`);
}

export function checkMetaDescription(doc: Document): Result {
  const d = squash(doc.querySelector('meta[name="description" i]')?.getAttribute("content"));
  if (!d) return fail("The page has no meta description.", "Write a meta description of 150-160 characters.");
  if (d.length > DESCRIPTION_MAX) return warn(`Meta description is ${d.length} characters; over ${DESCRIPTION_MAX} is cut off (recommended 150-160).`, "Shorten the description to 160 characters or fewer.");
  return pass(`Meta description is ${d.length} characters.`);
}

export function checkCanonical(doc: Document): Result {
  const href = squash(doc.querySelector('link[rel~="canonical" i]')?.getAttribute("href"));
  if (!href) return fail("No canonical link.", "Add <link rel=\"canonical\"> with the page's address.");
  return pass(`Canonical: ${href}`);
}

export function checkH1(doc: Document): Result {
  const n = doc.querySelectorAll("h1").length;
  if (n === 0) return fail("The page has no H1 heading.", "Add exactly one H1 naming the page's topic.");
  if (n > 1) return warn(`The page has ${n} H1 headings; use exactly one.`, "Turn the extra H1 headings into H2.");
  return pass("Exactly one H1 heading.");
}

export function checkH2(doc: Document): Result {
  const n = doc.querySelectorAll("h2").length;
  if (n === 0) return fail("The page has no H2 headings.", "Structure the content with H2 section headings.");
  return pass(`${n} H2 heading${n === 1 ? "" : "s"}.`);
}

export function checkImageAlt(doc: Document): Result {
  const imgs = Array.from(doc.querySelectorAll("img"));
  if (imgs.length === 0) return pass("No images on the page.");
  const missing = imgs.filter((i) => !squash(i.getAttribute("alt")));
  if (missing.length) return fail(`${missing.length} of ${imgs.length} images lack alt text.`, "Describe every image in its alt attribute.");
  return pass(`All ${imgs.length} images have alt text.`);
}

/** jsonLdTypes lists the @type values of every JSON-LD block, including
 * arrays of types and the nodes of an @graph. Blocks that do not parse are
 * counted in `invalid`. */
export function jsonLdTypes(doc: Document): { types: string[]; blocks: number; invalid: number } {
  const types: string[] = [];
  let blocks = 0, invalid = 0;
  const add = (t: unknown) => {
    if (typeof t === "string") types.push(t);
    else if (Array.isArray(t)) t.forEach(add);
  };
  const node = (n: unknown) => {
    if (Array.isArray(n)) { n.forEach(node); return; }
    if (!n || typeof n !== "object") return;
    const o = n as Record<string, unknown>;
    add(o["@type"]);
    if (Array.isArray(o["@graph"])) (o["@graph"] as unknown[]).forEach(node);
  };
  doc.querySelectorAll('script[type="application/ld+json" i]').forEach((s) => {
    blocks++;
    try { node(JSON.parse(s.textContent || "")); } catch { invalid++; }
  });
  return { types, blocks, invalid };
}

export function checkStructuredData(doc: Document): Result {
  const { types, blocks, invalid } = jsonLdTypes(doc);
  if (blocks === 0) return fail("No JSON-LD structured data.", "Add LocalBusiness structured data (JSON-LD).");
  if (!types.includes("LocalBusiness")) {
    return fail(`JSON-LD found (${types.join(", ") || "no types"}) but no LocalBusiness type.`, "Add a LocalBusiness node with name, address and phone.");
  }
  if (invalid) return warn(`LocalBusiness found, but ${invalid} JSON-LD block${invalid === 1 ? " does" : "s do"} not parse.`, "Fix the JSON syntax of the broken block.");
  return pass(`LocalBusiness structured data found (${blocks} JSON-LD block${blocks === 1 ? "" : "s"}).`);
}

/** checkViewport: a viewport tag is required; the compliance audit also
 * requires width=device-width. */
export function checkViewport(doc: Document, requireDeviceWidth = false): Result {
  const c = squash(doc.querySelector('meta[name="viewport" i]')?.getAttribute("content"));
  if (!c) return fail("No viewport meta tag: phones will show a zoomed-out desktop page.", "Add <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">.");
  if (requireDeviceWidth && !/(^|,)\s*width\s*=\s*device-width\s*(,|$)/i.test(c)) {
    return fail(`Viewport “${c}” does not set width=device-width.`, "Set width=device-width in the viewport tag.");
  }
  return pass(`Viewport: ${c}`);
}

/** checkHTTPS: https passes; plain http on this machine (127.0.0.1,
 * localhost) is a warning, since a local test server has no certificate;
 * plain http anywhere else fails. */
export function checkHTTPS(ctx: AuditContext): Result {
  let u: URL;
  try { u = new URL(ctx.url); } catch { return fail(`Cannot tell the protocol of “${ctx.url}”.`); }
  if (u.protocol === "https:") return pass("Served over HTTPS.");
  const h = u.hostname;
  if (h === "127.0.0.1" || h === "localhost" || h.endsWith(".localhost") || h === "[::1]") {
    return warn(`Served over plain HTTP from ${h} (a local server); the live site must use HTTPS.`, "Set BASE_URL to the https address in production.");
  }
  return fail("Served over plain HTTP.", "Serve the site over HTTPS and redirect http to https.");
}

/** visibleText is the text a visitor reads: body text without scripts,
 * styles and templates, with element boundaries kept as spaces. */
export function visibleText(doc: Document): string {
  const out: string[] = [];
  const skip = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG"]);
  const walk = (n: Node) => {
    if (n.nodeType === 3) { out.push(n.nodeValue || ""); return; }
    if (n.nodeType !== 1) return;
    if (skip.has((n as Element).tagName.toUpperCase())) return;
    if ((n as Element).hasAttribute("hidden")) return;
    n.childNodes.forEach(walk);
    out.push(" ");
  };
  if (doc.body) walk(doc.body);
  return squash(out.join(" "));
}

export function wordCount(doc: Document): number {
  const t = visibleText(doc);
  return t ? t.split(" ").filter((w) => /[A-Za-z0-9\u00C0-\u024F]/.test(w)).length : 0;
}

export function checkContentLength(doc: Document): Result {
  const n = wordCount(doc);
  if (n < MIN_WORDS) return warn(`${n} words; at least ${MIN_WORDS} are recommended.`, `Expand the page to ${MIN_WORDS} words or more of useful text.`);
  return pass(`${n} words of content.`);
}

/** internalLinks counts links to the page's own origin (fragment-only,
 * tel:, mailto: and other schemes do not count). */
export function internalLinks(doc: Document, pageUrl: string): number {
  let origin: string;
  try { origin = new URL(pageUrl).origin; } catch { return 0; }
  let n = 0;
  doc.querySelectorAll("a[href]").forEach((a) => {
    const href = (a.getAttribute("href") || "").trim();
    if (!href || href.startsWith("#")) return;
    try {
      const u = new URL(href, pageUrl);
      if ((u.protocol === "http:" || u.protocol === "https:") && u.origin === origin) n++;
    } catch { /* not a URL */ }
  });
  return n;
}

export function checkInternalLinks(doc: Document, ctx: AuditContext): Result {
  const n = internalLinks(doc, ctx.url);
  if (n < MIN_INTERNAL_LINKS) return warn(`${n} internal links; at least ${MIN_INTERNAL_LINKS} are recommended.`, "Link to related services, areas and articles.");
  return pass(`${n} internal links.`);
}

// A speculation-rules script counts as one prefetch hint per prefetch rule
// (ADR 017); invalid JSON has none, as browsers ignore it.
function speculationPrefetches(js: string): number {
  try {
    const rules = JSON.parse(js);
    return Array.isArray(rules?.prefetch) ? rules.prefetch.length : 0;
  } catch {
    return 0;
  }
}

export function checkResourceHints(doc: Document): Result {
  let n = Array.from(doc.querySelectorAll("link[rel]")).filter((l) =>
    (l.getAttribute("rel") || "").toLowerCase().split(/\s+/).some((r) => r === "preload" || r === "prefetch" || r === "modulepreload")).length;
  for (const s of Array.from(doc.querySelectorAll("script[type]"))) {
    if ((s.getAttribute("type") || "").trim().toLowerCase() === "speculationrules") n += speculationPrefetches(s.textContent || "");
  }
  if (!n) return fail("No resource hints (preload, prefetch or modulepreload).", "Preload the critical font, image or script.");
  return pass(`${n} resource hint${n === 1 ? "" : "s"}.`);
}

const digits = (s: string) => {
  const d = s.replace(/\D/g, "");
  return d.length === 11 && d[0] === "1" ? d.slice(1) : d;
};

/** checkNAP: the page text shows the business phone and address. */
export function checkNAP(doc: Document, ctx: AuditContext): Result {
  const text = visibleText(doc);
  const want = digits(ctx.phone || "");
  const phones = (text.match(/(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}/g) || []).map(digits);
  const phoneOk = want.length === 10 && phones.includes(want);
  const lower = text.toLowerCase();
  const parts = [ctx.street, ctx.city, ctx.zip].filter((p): p is string => !!p && !!p.trim());
  const missing = parts.filter((p) => !lower.includes(squash(p).toLowerCase()));
  const addressOk = parts.length > 0 && missing.length === 0;
  if (phoneOk && addressOk) return pass(`Shows the phone ${ctx.phone} and the address (${parts.join(", ")}).`);
  const lacks = [!phoneOk && `the phone ${ctx.phone || "(not configured)"}`, !addressOk && `the address (${missing.join(", ") || "not configured"})`].filter(Boolean).join(" and ");
  return fail(`The page text does not show ${lacks}.`, "Show the same name, address and phone as the business profile (footer or contact block).");
}

// ---------------------------------------------------------------- audits

interface RuleDef { category: string; check: string; priority: Priority; run: (doc: Document, ctx: AuditContext) => Result }

const COMMON: RuleDef[] = [
  { category: "Meta Tags", check: "Title tag", priority: "critical", run: (d) => checkTitle(d) },
  { category: "Meta Tags", check: "Meta description", priority: "high", run: (d) => checkMetaDescription(d) },
  { category: "Meta Tags", check: "Canonical URL", priority: "high", run: (d) => checkCanonical(d) },
  { category: "Content", check: "H1 heading", priority: "high", run: (d) => checkH1(d) },
  { category: "Content", check: "H2 headings", priority: "medium", run: (d) => checkH2(d) },
  { category: "Images", check: "Image alt text", priority: "medium", run: (d) => checkImageAlt(d) },
  { category: "Structured Data", check: "LocalBusiness structured data", priority: "high", run: (d) => checkStructuredData(d) },
  { category: "Security", check: "HTTPS", priority: "critical", run: (_, c) => checkHTTPS(c) },
  { category: "Content", check: "Content length", priority: "medium", run: (d) => checkContentLength(d) },
  { category: "Links", check: "Internal links", priority: "medium", run: (d, c) => checkInternalLinks(d, c) },
];

const VERIFICATION: RuleDef[] = [
  ...COMMON.slice(0, 7),
  { category: "Mobile", check: "Viewport", priority: "critical", run: (d) => checkViewport(d) },
  ...COMMON.slice(7),
  { category: "Performance", check: "Resource hints", priority: "low", run: (d) => checkResourceHints(d) },
  { category: "Local SEO", check: "Business phone and address (NAP)", priority: "medium", run: (d, c) => checkNAP(d, c) },
];

const COMPLIANCE: RuleDef[] = [
  ...COMMON.slice(0, 7),
  { category: "Mobile", check: "Viewport", priority: "critical", run: (d) => checkViewport(d, true) },
  ...COMMON.slice(7),
];

const runRules = (rules: RuleDef[], doc: Document, ctx: AuditContext): AuditCheck[] =>
  rules.map((r) => {
    const res = r.run(doc, ctx);
    return { category: r.category, check: r.check, priority: res.priority || r.priority, status: res.status, message: res.message, ...(res.fix ? { fix: res.fix } : {}) };
  });

/** verificationChecks: the SEO Verification audit (spec 5). */
export function verificationChecks(doc: Document, ctx: AuditContext): AuditCheck[] {
  return runRules(VERIFICATION, doc, ctx);
}

const toCompliance: Record<CheckStatus, ComplianceStatus> = { pass: "compliant", warning: "warning", fail: "non-compliant" };

/** complianceChecks: the SEO Compliance audit (spec 5). */
export function complianceChecks(doc: Document, ctx: AuditContext): ComplianceCheck[] {
  return runRules(COMPLIANCE, doc, ctx).map((c) => ({ ...c, status: toCompliance[c.status] }));
}

/** verificationScore is the percentage of passing checks. */
export function verificationScore(checks: Pick<AuditCheck, "status">[]): number {
  if (!checks.length) return 0;
  return Math.round((checks.filter((c) => c.status === "pass").length / checks.length) * 100);
}

/** complianceScore is (compliant + 0.7 × warnings) / total × 100, clamped
 * to 0-100. */
export function complianceScore(checks: Pick<ComplianceCheck, "status">[]): number {
  if (!checks.length) return 0;
  const ok = checks.filter((c) => c.status === "compliant").length;
  const w = checks.filter((c) => c.status === "warning").length;
  return Math.min(100, Math.max(0, Math.round(((ok + WARNING_WEIGHT * w) / checks.length) * 100)));
}

export type Tone = "good" | "warn" | "bad";

/** scoreTone: colour thresholds 90/70 (verification) and 95/85 (compliance). */
export function scoreTone(score: number, kind: "verification" | "compliance"): Tone {
  const [hi, lo] = kind === "verification" ? [90, 70] : [COMPLIANCE_TARGET, COMPLIANCE_MINIMUM];
  return score >= hi ? "good" : score >= lo ? "warn" : "bad";
}

export const statusTone = (s: CheckStatus | ComplianceStatus): Tone =>
  s === "pass" || s === "compliant" ? "good" : s === "warning" ? "warn" : "bad";

/** parseHTML parses fetched page text (DOMParser runs no scripts). */
export function parseHTML(html: string): Document {
  return new DOMParser().parseFromString(html, "text/html");
}
