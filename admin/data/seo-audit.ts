// SEO Audit data. The screen reads everything through SeoAuditSource; the
// sample implementation audits a fixed snapshot of the home page with the
// spec's page-audit rules (spec 5), so its results and score always agree
// with those rules. A real source can audit live snapshots later without
// touching the screen.

export type AuditStatus = "pass" | "warning" | "fail";
export type AuditPriority = "P0" | "P1" | "P2";

/** AuditCheck is spec 3's audit check. */
export interface AuditCheck {
  category: string;
  check: string;
  status: AuditStatus;
  message: string;
  priority: AuditPriority;
  fix?: string;
}

/** AuditReport is spec 3's audit report; score is the dashboard audit score. */
export interface AuditReport { url: string; score: number; results: AuditCheck[]; timestamp: string }

/** LocationBrief is spec 3's location brief for one city page. */
export interface LocationBrief { city: string; county: string; url: string; seoTitle: string; metaDescription: string; keywords: string[] }

export interface GuideStep { title: string; detail: string; priority: AuditPriority; tool?: { slug: string; label: string } }

export interface SeoAuditSource {
  /** audit audits one page. It may throw; the screen then falls back to an empty report with score 0. */
  audit(): AuditReport;
  locationBriefs(): LocationBrief[];
  guide(): GuideStep[];
}

/** PageSnapshot is what the page-audit rules look at. */
export interface PageSnapshot {
  /** path of the page, e.g. "/" */
  url: string;
  /** served over HTTPS */
  https: boolean;
  title: string | null;
  metaDescription: string | null;
  /** a canonical link is present */
  canonical: boolean;
  h1Count: number;
  h2Count: number;
  images: { src: string; alt: string | null }[];
  /** parsed JSON-LD blocks of the page */
  jsonLd: unknown[];
  viewport: string | null;
  wordCount: number;
  internalLinks: number;
  /** number of preload or prefetch hints in the head */
  resourceHints: number;
  /** the page text shows the business phone / address */
  showsPhone: boolean;
  showsAddress: boolean;
}

/** Simulated audit delay. The spec names no delay for the audit button, so
 * it uses the 2 s of the other simulated scans (spec 9). */
export const AUDIT_DELAY_MS = 2000;

/** Thresholds of spec 5 and 9. */
export const AUDIT_RULES = { titleMax: 60, titleMin: 50, descriptionMax: 160, descriptionMin: 150, minWords: 300, minInternalLinks: 5 } as const;

const types = (node: unknown): string[] => {
  if (!node || typeof node !== "object") return [];
  if (Array.isArray(node)) return node.flatMap(types);
  const o = node as Record<string, unknown>;
  const own = o["@type"];
  const list = typeof own === "string" ? [own] : Array.isArray(own) ? own.filter((t): t is string => typeof t === "string") : [];
  return [...list, ...types(o["@graph"])];
};

/** auditPage applies spec 5's page-audit rules to one page. */
export function auditPage(p: PageSnapshot): AuditCheck[] {
  const r = AUDIT_RULES;
  const out: AuditCheck[] = [];
  const add = (c: AuditCheck) => out.push(c.status === "pass" ? { ...c, fix: undefined } : c);

  const title = p.title?.trim() || "";
  add(!title
    ? { category: "Meta Tags", check: "Page title", status: "fail", priority: "P0", message: "The page has no title.", fix: `Add a unique <title> of ${r.titleMin}-${r.titleMax} characters with the service and city.` }
    : title.length > r.titleMax
      ? { category: "Meta Tags", check: "Page title", status: "warning", priority: "P1", message: `Title is ${title.length} characters; over ${r.titleMax} may be cut off (recommended ${r.titleMin}-${r.titleMax}).`, fix: `Shorten the title to at most ${r.titleMax} characters.` }
      : { category: "Meta Tags", check: "Page title", status: "pass", priority: "P0", message: `Title is ${title.length} characters (recommended ${r.titleMin}-${r.titleMax}).` });

  const desc = p.metaDescription?.trim() || "";
  add(!desc
    ? { category: "Meta Tags", check: "Meta description", status: "fail", priority: "P0", message: "The page has no meta description.", fix: `Write a ${r.descriptionMin}-${r.descriptionMax} character description with a call to action.` }
    : desc.length > r.descriptionMax
      ? { category: "Meta Tags", check: "Meta description", status: "warning", priority: "P2", message: `Meta description is ${desc.length} characters; over ${r.descriptionMax} is truncated in results (recommended ${r.descriptionMin}-${r.descriptionMax}).`, fix: `Trim the description to at most ${r.descriptionMax} characters, keeping the phone call to action.` }
      : { category: "Meta Tags", check: "Meta description", status: "pass", priority: "P0", message: `Meta description is ${desc.length} characters (recommended ${r.descriptionMin}-${r.descriptionMax}).` });

  add(p.canonical
    ? { category: "Meta Tags", check: "Canonical URL", status: "pass", priority: "P1", message: "Canonical link is present." }
    : { category: "Meta Tags", check: "Canonical URL", status: "fail", priority: "P1", message: "No canonical link on the page.", fix: 'Add <link rel="canonical"> with the page\'s own absolute URL.' });

  add(p.h1Count === 0
    ? { category: "Content", check: "H1 heading", status: "fail", priority: "P0", message: "The page has no H1 heading.", fix: "Add one H1 that names the service and the area." }
    : p.h1Count > 1
      ? { category: "Content", check: "H1 heading", status: "warning", priority: "P1", message: `The page has ${p.h1Count} H1 headings; exactly one is expected.`, fix: "Keep one H1 and turn the others into H2 headings." }
      : { category: "Content", check: "H1 heading", status: "pass", priority: "P0", message: "Exactly one H1 heading." });

  add(p.h2Count >= 1
    ? { category: "Content", check: "H2 headings", status: "pass", priority: "P2", message: `${p.h2Count} H2 headings structure the page.` }
    : { category: "Content", check: "H2 headings", status: "fail", priority: "P2", message: "No H2 headings.", fix: "Break the content into sections with H2 headings." });

  const noAlt = p.images.filter((i) => !i.alt || !i.alt.trim()).length;
  add(noAlt === 0
    ? { category: "Accessibility", check: "Image alt text", status: "pass", priority: "P1", message: p.images.length ? `All ${p.images.length} images have alt text.` : "The page has no images." }
    : { category: "Accessibility", check: "Image alt text", status: "fail", priority: "P1", message: `${noAlt} of ${p.images.length} images have no alt text.`, fix: "Describe each image, e.g. \"Water-damaged kitchen ceiling in Marietta after drying\"." });

  const jsonTypes = types(p.jsonLd);
  add(p.jsonLd.length > 0
    ? { category: "Structured Data", check: "JSON-LD present", status: "pass", priority: "P1", message: `${p.jsonLd.length} JSON-LD block${p.jsonLd.length === 1 ? "" : "s"} found.` }
    : { category: "Structured Data", check: "JSON-LD present", status: "fail", priority: "P1", message: "The page has no JSON-LD structured data.", fix: "Add the LocalBusiness template from Schema Management." });
  add(jsonTypes.includes("LocalBusiness")
    ? { category: "Structured Data", check: "LocalBusiness schema", status: "pass", priority: "P0", message: "LocalBusiness type found in the structured data." }
    : { category: "Structured Data", check: "LocalBusiness schema", status: "fail", priority: "P0", message: "No LocalBusiness type in the structured data.", fix: "Publish a LocalBusiness node (name, address, phone, opening hours, area served)." });

  add(p.viewport
    ? { category: "Technical", check: "Viewport meta tag", status: "pass", priority: "P0", message: `Viewport is "${p.viewport}".` }
    : { category: "Technical", check: "Viewport meta tag", status: "fail", priority: "P0", message: "No viewport meta tag; the page will not scale on phones.", fix: 'Add <meta name="viewport" content="width=device-width, initial-scale=1">.' });

  add(p.https
    ? { category: "Technical", check: "HTTPS", status: "pass", priority: "P0", message: "The page is served over HTTPS." }
    : { category: "Technical", check: "HTTPS", status: "fail", priority: "P0", message: "The page is not served over HTTPS.", fix: "Serve the site over HTTPS and redirect HTTP to it." });

  add(p.resourceHints > 0
    ? { category: "Technical", check: "Resource hints", status: "pass", priority: "P2", message: `${p.resourceHints} preload or prefetch hints speed up loading.` }
    : { category: "Technical", check: "Resource hints", status: "fail", priority: "P2", message: "No preload or prefetch hints.", fix: "Preload the main font and the hero image." });

  add(p.wordCount >= r.minWords
    ? { category: "Content", check: "Content length", status: "pass", priority: "P2", message: `${p.wordCount.toLocaleString("en-US")} words (minimum ${r.minWords}).` }
    : { category: "Content", check: "Content length", status: "fail", priority: "P2", message: `Only ${p.wordCount} words (minimum ${r.minWords}).`, fix: "Add useful local detail: neighborhoods, common damage, the process and FAQs." });

  add(p.internalLinks >= r.minInternalLinks
    ? { category: "Content", check: "Internal links", status: "pass", priority: "P2", message: `${p.internalLinks} internal links (minimum ${r.minInternalLinks}).` }
    : { category: "Content", check: "Internal links", status: "fail", priority: "P2", message: `Only ${p.internalLinks} internal links (minimum ${r.minInternalLinks}).`, fix: "Link to the related services, the county page and nearby cities." });

  add(p.showsPhone
    ? { category: "Local SEO", check: "Business phone shown", status: "pass", priority: "P1", message: "The page text shows the business phone number." }
    : { category: "Local SEO", check: "Business phone shown", status: "fail", priority: "P1", message: "The business phone number is not in the page text.", fix: "Show the 24/7 phone number in the header and the call-to-action." });
  add(p.showsAddress
    ? { category: "Local SEO", check: "Business address shown", status: "pass", priority: "P1", message: "The page text shows the business address." }
    : { category: "Local SEO", check: "Business address shown", status: "fail", priority: "P1", message: "The business address is not in the page text.", fix: "Show the office address in the top bar or footer, matching the Google Business Profile." });
  return out;
}

/** auditScore is the dashboard audit score: the percentage of passing checks. */
export function auditScore(results: AuditCheck[]): number {
  if (results.length === 0) return 0;
  return Math.round((results.filter((c) => c.status === "pass").length / results.length) * 100);
}

/** runAudit asks the source for a report; on failure it logs and falls back
 * to empty results and score 0 (spec 8). */
export function runAudit(source: SeoAuditSource, url: string): AuditReport {
  try {
    return source.audit();
  } catch (e) {
    console.error("SEO audit failed", e);
    return { url, score: 0, results: [], timestamp: new Date().toISOString() };
  }
}

const img = (src: string, alt: string | null) => ({ src, alt });

/** SAMPLE_HOME is a fixed snapshot of the home page. Two gallery photos
 * uploaded without captions have no alt text, and the description runs long. */
export const SAMPLE_HOME: PageSnapshot = {
  url: "/",
  https: true,
  title: "Water, Fire & Storm Damage Restoration Atlanta | 24/7",
  metaDescription: "24/7 water, fire and storm damage restoration across metro Atlanta. IICRC certified, licensed and insured crews with direct insurance billing and free estimates today.",
  canonical: true,
  h1Count: 1,
  h2Count: 9,
  images: [
    img("/media/hero-water-extraction.webp", "Technician extracting water from a flooded living room"),
    img("/media/logo.svg", "Company logo"),
    img("/media/projects/kitchen-fire-repair/1.webp", "Kitchen rebuilt after a grease fire in Douglasville"),
    img("/media/projects/kitchen-fire-repair/2.webp", "New cabinets and drywall after fire damage repair"),
    img("/media/projects/basement-flood-marietta/1.webp", "Dehumidifiers drying a finished basement in Marietta"),
    img("/media/projects/basement-flood-marietta/2.webp", ""),
    img("/media/projects/roof-storm-repair/1.webp", "Tarped roof after a tree fell during a storm"),
    img("/media/projects/roof-storm-repair/2.webp", null),
    img("/media/projects/bathroom-remodel/1.webp", "Remodeled bathroom with a walk-in tile shower"),
    img("/media/badges/iicrc.svg", "IICRC Certified"),
    img("/media/badges/licensed.svg", "State Licensed General Contractor"),
    img("/media/badges/insurance.svg", "Direct Insurance Billing"),
  ],
  jsonLd: [
    { "@context": "https://schema.org", "@graph": [
      { "@type": ["LocalBusiness", "GeneralContractor"], name: "Restoration company", areaServed: "Metro Atlanta" },
      { "@type": "Organization" },
      { "@type": "WebSite" },
    ] },
    { "@context": "https://schema.org", "@type": "FAQPage" },
  ],
  viewport: "width=device-width, initial-scale=1, maximum-scale=5",
  wordCount: 1486,
  internalLinks: 42,
  resourceHints: 2,
  showsPhone: true,
  showsAddress: true,
};

const brief = (city: string, county: string, slug: string, seoTitle: string, metaDescription: string, keywords: string[]): LocationBrief =>
  ({ city, county, url: `/areas/${county.toLowerCase()}/${slug}`, seoTitle, metaDescription, keywords });

/** LOCATION_BRIEFS: the first two major cities of each of the seven main
 * counties, with the titles, descriptions and keywords their pages publish. */
export const LOCATION_BRIEFS: LocationBrief[] = [
  brief("Atlanta", "Fulton", "atlanta", "Atlanta Intown Water & Fire Damage Restoration",
    "Water, fire and storm damage restoration for Atlanta's historic bungalows, Victorians and lofts, from Buckhead to West End. IICRC certified crews, 24/7.",
    ["water damage restoration Atlanta", "fire damage repair Atlanta GA", "basement flooding Atlanta", "tree on house Atlanta", "burst pipe repair Atlanta"]),
  brief("Sandy Springs", "Fulton", "sandy-springs", "Sandy Springs, GA Water Damage Restoration | 24/7",
    "Burst pipe, flooding, fire and storm damage help in Sandy Springs, GA, from Perimeter Center condos to homes along Nancy and Marsh creeks. Free estimates.",
    ["water damage Sandy Springs GA", "Sandy Springs flood cleanup", "storm damage repair Sandy Springs", "condo water damage Perimeter Center", "fire restoration Sandy Springs"]),
  brief("Decatur", "DeKalb", "decatur", "Decatur, GA Water Damage & Bungalow Restoration",
    "Decatur, GA restoration for Oakhurst and Winnona Park bungalows, downtown condos and shops: sewer backups, old pipe leaks, tree damage and fire. 24/7.",
    ["Decatur GA water damage", "sewer backup cleanup Decatur", "crawl space drying Decatur GA", "fire damage restoration Decatur", "tree on house Decatur"]),
  brief("Dunwoody", "DeKalb", "dunwoody", "Dunwoody Water & Storm Damage Restoration | 24/7",
    "Dunwoody, GA water, fire and storm damage help for split-levels with basements, Perimeter Center condos and offices. IICRC certified crews, free estimates.",
    ["Dunwoody water damage", "basement flooding Dunwoody GA", "storm damage Dunwoody", "condo leak Perimeter Center", "fire restoration Dunwoody"]),
  brief("Marietta", "Cobb", "marietta", "Marietta, GA Water & Storm Damage Restoration | 24/7",
    "Burst pipe, flooded basement or storm damage in Marietta? IICRC certified crews serve Marietta Square to East Cobb 24/7, with direct insurance billing.",
    ["water damage restoration Marietta GA", "Marietta flooded basement cleanup", "storm damage repair Marietta", "fire damage restoration Marietta", "East Cobb water damage"]),
  brief("Smyrna", "Cobb", "smyrna", "Water Damage Restoration in Smyrna, GA | 24/7",
    "Smyrna water, fire and storm damage cleanup for ranch homes, townhomes and condos near Market Village. Licensed, insured crews, direct insurance billing, 24/7.",
    ["water damage Smyrna GA", "Smyrna fire damage restoration", "storm damage repair Smyrna", "burst pipe repair Smyrna GA", "condo water damage Smyrna"]),
  brief("Lawrenceville", "Gwinnett", "lawrenceville", "Lawrenceville GA Water Damage Cleanup | Open 24/7",
    "Water, fire and storm damage restoration in Lawrenceville, GA, from the courthouse square to newer subdivisions. IICRC certified and direct insurance billing.",
    ["water damage restoration Lawrenceville GA", "Lawrenceville basement flooding", "fire damage repair Lawrenceville", "storm damage Lawrenceville GA", "Gwinnett water damage cleanup"]),
  brief("Duluth", "Gwinnett", "duluth", "Duluth, GA Restoration: Water, Fire & Storm | 24/7",
    "Duluth homeowners call us for burst pipes, wet basements, fire cleanup and storm repair near the Town Green and Sugarloaf. Licensed, insured, free estimates.",
    ["water damage Duluth GA", "Duluth fire damage restoration", "storm damage repair Duluth GA", "basement water removal Duluth", "Duluth restoration contractor"]),
  brief("Jonesboro", "Clayton", "jonesboro", "Water Damage Restoration in Jonesboro, GA | 24/7",
    "Burst pipe or storm damage in Jonesboro? IICRC certified crews dry, repair and rebuild older Clayton County homes, with direct insurance billing, 24/7.",
    ["water damage restoration Jonesboro GA", "storm damage repair Jonesboro", "burst pipe cleanup Jonesboro", "Clayton County restoration company", "fire damage restoration Jonesboro GA"]),
  brief("Riverdale", "Clayton", "riverdale", "Riverdale GA Water & Storm Damage Repair | 24/7 Help",
    "Flooded apartment or home in Riverdale, GA? Our 24/7 crews extract water, dry the framing and rebuild, with free estimates and direct insurance billing.",
    ["water damage Riverdale GA", "apartment flood cleanup Riverdale", "storm damage repair Riverdale GA", "water extraction Clayton County", "emergency restoration Riverdale"]),
  brief("Douglasville", "Douglas", "douglasville", "Douglasville Water & Fire Damage Restoration | Local",
    "Our office is in Douglasville, so local crews respond fast to floods, fires and storm damage across Douglas County. IICRC certified, 24/7, insurance billed.",
    ["water damage restoration Douglasville GA", "fire damage restoration Douglasville", "storm damage repair Douglas County", "local restoration company Douglasville", "basement flooding Douglasville GA", "general contractor Douglasville"]),
  brief("Lithia Springs", "Douglas", "lithia-springs", "Lithia Springs, GA Flood Cleanup & Water Removal",
    "Flooded basement near Sweetwater Creek or a burst pipe in Lithia Springs? Our IICRC certified team extracts water, dries and repairs. Open 24/7.",
    ["flood cleanup Lithia Springs GA", "water removal Lithia Springs", "basement flooding Sweetwater Creek", "commercial water damage Thornton Road", "mold remediation Lithia Springs"]),
  brief("McDonough", "Henry", "mcdonough", "McDonough, GA Water Damage Restoration & Repair",
    "Water heater leak, storm damage or a kitchen fire in McDonough? Our 24/7 crews dry, clean and rebuild Henry County homes. Direct insurance billing.",
    ["water damage restoration McDonough GA", "fire damage repair McDonough", "storm damage Henry County", "water heater leak cleanup McDonough", "restoration contractor McDonough"]),
  brief("Stockbridge", "Henry", "stockbridge", "Stockbridge GA Basement Flooding & Water Cleanup",
    "Basement flooding, burst pipes and storm damage in Stockbridge, GA. Our IICRC certified crews extract water, dry and rebuild. Free estimates, 24/7.",
    ["basement flooding Stockbridge GA", "water cleanup Stockbridge", "storm damage repair Stockbridge", "Eagle's Landing water damage", "mold remediation Stockbridge GA"]),
];

/** GUIDE is the Implementation Guide, in the order to work through it. */
export const GUIDE: GuideStep[] = [
  { priority: "P0", title: "Fix every failing P0 check first", detail: "Titles, meta descriptions, the single H1, the LocalBusiness schema, the viewport tag and HTTPS decide whether a page can rank at all. Re-run the audit after each fix." },
  { priority: "P1", title: "Give every image real alt text", detail: "When uploading project photos, name the project clearly and describe each photo: the damage, the room and the city. Empty alt text fails the audit." },
  { priority: "P1", title: "Publish the location pages from the Location Briefs", detail: "Use each brief's SEO title (at most 60 characters), meta description (150-160 characters) and keywords on its /areas/{county}/{city} page. Keep every title and description unique.", tool: { slug: "locations", label: "Open Location Pages" } },
  { priority: "P1", title: "Keep LocalBusiness structured data on every page", detail: "Name, address, phone, 24/7 opening hours and the metro Atlanta service area must match the Google Business Profile exactly.", tool: { slug: "schema", label: "Open Schema Management" } },
  { priority: "P2", title: "Trim long meta descriptions", detail: "Descriptions over 160 characters are cut off in search results. Lead with the damage type and city, end with the 24/7 call to action." },
  { priority: "P2", title: "Write at least 300 words and 5 internal links per page", detail: "Link each city page to its county page, nearby cities and the matching service pages; cover local neighborhoods, creeks and common damage." },
  { priority: "P2", title: "Submit changed pages to search engines", detail: "After publishing, submit the new and changed URLs through IndexNow so Bing and partners recrawl them quickly.", tool: { slug: "indexnow", label: "Open SEO & IndexNow" } },
  { priority: "P2", title: "Re-audit monthly and after every site change", detail: "Run the audit again, compare the score and check Performance and Analytics for the effect on speed, traffic and leads." },
];

export const sampleSeoAudit: SeoAuditSource = {
  audit: () => {
    const results = auditPage(SAMPLE_HOME);
    return { url: SAMPLE_HOME.url, score: auditScore(results), results, timestamp: new Date().toISOString() };
  },
  locationBriefs: () => LOCATION_BRIEFS,
  guide: () => GUIDE,
};
