// Where a visit came from: the landing page, the referring
// site, the UTM parameters, the ad click ids, the device class and a
// first-party visit id, recorded on the visit's first page and kept for
// the visit in sessionStorage (this tab, until it closes), never in a
// cookie. The estimate form sends them as hidden fields named after the
// parameters (landing, referrer, device, visit, utm_source, ..., gclid);
// the server checks and bounds every value (leads.ParseAttribution) and
// reads what it can from the Referer when they are missing (no
// JavaScript).

/** FIELDS are the hidden fields' names, as the server reads them. */
export const FIELDS = ["landing", "referrer", "device", "visit", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content",
  "gclid", "gbraid", "wbraid", "fbclid", "msclkid"] as const;

export type Field = (typeof FIELDS)[number];
export type Attribution = Partial<Record<Field, string>>;

/** PARAMS are the URL parameters kept. */
const PARAMS: Field[] = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "gclid", "gbraid", "wbraid", "fbclid", "msclkid"];

const KEY = "visit_attribution";

/** widthClass is analytics.WidthClass: the lead's device class and its
 * visit's agree. */
export function widthClass(w: number): string {
  if (w <= 0) return "";
  if (w < 576) return "mobile";
  if (w < 992) return "tablet";
  if (w < 1440) return "laptop";
  return "desktop";
}

const optedOut = () => navigator.doNotTrack === "1" || (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;

/** visitId is 22 random URL-safe characters. */
function visitId(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  let s = "";
  b.forEach((x) => { s += String.fromCharCode(x); });
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function stored(): Attribution | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) || "null");
    return v && typeof v === "object" ? (v as Attribution) : null;
  } catch {
    return null;
  }
}

/** recordVisit records the visit's attribution on its first page (later
 * pages keep the first: a visit's source is where it began) and returns
 * it. A browser that asks not to be tracked gets no visit id. Without
 * sessionStorage (blocked), it is the current page's. */
export function recordVisit(): Attribution {
  const have = stored();
  if (have) return have;
  const a: Attribution = { landing: (location.pathname + location.search).slice(0, 2048), device: widthClass(innerWidth) };
  try {
    const ref = document.referrer ? new URL(document.referrer).hostname : "";
    if (ref && ref !== location.hostname) a.referrer = ref;
  } catch { /* no referrer */ }
  const q = new URLSearchParams(location.search);
  for (const p of PARAMS) {
    const v = q.get(p);
    if (v) a[p] = v.slice(0, 256);
  }
  if (!optedOut()) a.visit = visitId();
  try {
    sessionStorage.setItem(KEY, JSON.stringify(a));
  } catch { /* storage blocked: this page's alone */ }
  return a;
}

/** fillForm sets the estimate form's hidden attribution fields from the
 * visit's record; a field the record does not have keeps what the server
 * rendered (a form shown again after a post without JavaScript). */
export function fillForm(form: HTMLFormElement, a: Attribution = recordVisit()) {
  for (const f of FIELDS) {
    const el = form.elements.namedItem(f);
    if (el instanceof HTMLInputElement && el.type === "hidden" && a[f]) el.value = a[f]!;
  }
}

/** fillForms fills every estimate form on the page. */
export function fillForms() {
  const a = recordVisit();
  document.querySelectorAll<HTMLFormElement>("form.estimate-form").forEach((f) => fillForm(f, a));
}
