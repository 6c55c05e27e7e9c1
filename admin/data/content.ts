// Content Management data (docs/content-api.md): the site's
// content as items, one per record, each with a working copy and, once
// published, a live copy. Every rule (what blocks a publish, what is only
// guidance, who may do what) is the server's: this module only carries
// its answers, and describes how each kind's record is laid out as a form.

import { api, ApiError } from "../api";
import { wordsSections } from "./words";
import type * as wire from "../api.gen";

/** Kind is a record kind of the content API. */
export type Kind = wire.Kind;

/** ItemView is an item as lists show it (web/editing.ItemView). */
export type ItemView = wire.ItemView;

/** ItemList is GET /api/admin/content?kind= (web/editing.ItemList). */
export type ItemList = wire.ItemList;

/** ContentProblem is one finding of the server's rules (content.Problem):
 * hard ones block a publish, the others are guidance. */
export type ContentProblem = wire.ContentProblem;

/** ItemDetail is one item with its copies (web/editing.ItemDetail). */
export type ItemDetail = wire.ItemDetail;

/** Referrer is a record that names another (editor.Referrer): its name
 * and the fields, as the editor labels them, that name it. */
export type Referrer = wire.Referrer;

/** TakeDownRefs says to remove the references to a page taken down
 * (replaceWith in their place where a page needs one: a post's category). */
export interface TakeDownRefs { removeReferences: boolean; replaceWith?: string }

/** Derived is content.Derived: the SEO title and description used while
 * the record's own are empty, the main text's words, a post's reading time. */
export type Derived = wire.Derived;

/** ConflictAnswer is a stale save's 409 (web/editing.ConflictAnswer). */
export type ConflictAnswer = wire.ConflictAnswer;

/** InvalidAnswer is a refused change's 422 (web/editing.InvalidAnswer). */
export type InvalidAnswer = wire.InvalidAnswer;

/** DiffLine and FieldDiff are a revision's changes (editor.FieldDiff). */
export type DiffLine = wire.DiffLine;
export type FieldDiff = wire.FieldDiff;

/** RevisionView is one published version (editor.RevisionView). */
export type RevisionView = wire.RevisionView;

/** History is GET /api/admin/content/{id}/revisions (web/editing.History). */
export type History = wire.History;

/** Guidance is GET /api/admin/content/{id}/guidance (editor.Guidance): the
 * rules' problems and the SEO audit's page checks on the draft's render. */
export type Guidance = wire.Guidance;

/** MediaItem is a photo of the media library (media.GalleryItem). */
export type MediaItem = wire.MediaItem;

/** isConflict tells a stale save's 409 from the other 409s ("This page is
 * not scheduled."). */
export function conflictOf(err: unknown): ConflictAnswer | null {
  if (err instanceof ApiError && err.status === 409 && err.body && typeof err.body.by === "string") return err.body as ConflictAnswer;
  return null;
}

/** problemsOf reads the problems of a refused change. */
export function problemsOf(err: unknown): ContentProblem[] | null {
  if (err instanceof ApiError && err.status === 422 && Array.isArray(err.body?.problems)) return err.body.problems as ContentProblem[];
  return null;
}

const json = (body: unknown): RequestInit => ({ method: "POST", body: JSON.stringify(body) });
const item = (id: string) => `/api/admin/content/${encodeURIComponent(id)}`;

export const contentApi = {
  /** list is one page of a kind's items; query adds q, page and perPage
   * (the server's page is 50 items unless perPage says otherwise, at most 200). */
  list: (kind: Kind, query = "") => api<ItemList>(`/api/admin/content?kind=${encodeURIComponent(kind)}${query ? "&" + query : ""}`),
  /** all reads every item of a kind, a page of 200 at a time: for the
   * screens that need a whole short kind (the counties, the categories
   * to move posts to). The record pickers read by id and search instead
   * (admin/content/choices.ts). */
  all: async (kind: Kind): Promise<ItemList> => {
    const first = await contentApi.list(kind, "perPage=200");
    const items = [...first.items];
    for (let page = 2; items.length < first.total && page <= Math.ceil(first.total / 200); page++) {
      items.push(...(await contentApi.list(kind, `perPage=200&page=${page}`)).items);
    }
    return { ...first, items };
  },
  get: (id: string) => api<ItemDetail>(item(id)),
  create: (kind: Kind, data: unknown) => api<ItemDetail>("/api/admin/content", json({ kind, data })),
  save: (id: string, version: number, data: unknown) => api<ItemDetail>(item(id), { method: "PUT", body: JSON.stringify({ version, data }) }),
  publish: (id: string, version: number) => api<ItemDetail>(item(id) + "/publish", json({ version })),
  schedule: (id: string, version: number, at: string | null) => api<ItemDetail>(item(id) + "/schedule", json({ version, at })),
  unschedule: (id: string, version: number) => api<ItemDetail>(item(id) + "/unschedule", json({ version })),
  unpublish: (id: string, version: number, refs?: TakeDownRefs) => api<ItemDetail>(item(id) + "/unpublish", json({ version, ...refs })),
  remove: (id: string, version: number, refs?: TakeDownRefs) =>
    api<wire.DeletedAnswer>(item(id) + `?version=${version}` + (refs?.removeReferences ? `&removeReferences=true&replaceWith=${encodeURIComponent(refs.replaceWith || "")}` : ""), { method: "DELETE" }),
  referrers: (id: string) => api<wire.ReferrerList>(item(id) + "/referrers"),
  history: (id: string) => api<History>(item(id) + "/revisions"),
  restore: (id: string, version: number, revision: string) => api<ItemDetail>(item(id) + "/restore", json({ version, revision })),
  guidance: (id: string) => api<Guidance>(item(id) + "/guidance"),
  /** media is one page of the photo library (q, page, perPage, type). */
  media: (query = "") => api<wire.MediaLibrary>(`/api/admin/media${query ? "?" + query : ""}`),
};

/** previewUrl is the draft's private preview (a session's page, noindex). */
export const previewUrl = (id: string) => `/admin/preview/${encodeURIComponent(id)}`;

// ---- How each kind is laid out as a form --------------------------------

/** Field is one control of an editor form. key is the record's JSON path
 * ("profile.reasons"; "" is the record itself, a FAQ block's list), the
 * same path the server's problems name. */
export type Field =
  | { key: string; label: string; type: "text" | "textarea" | "date" | "number" | "checkbox"; hint?: string; count?: number }
  /** coordinate is a latitude or longitude in degrees (a decimal). */
  | { key: string; label: string; type: "coordinate"; hint?: string }
  | { key: string; label: string; type: "readonly"; hint?: string }
  | { key: string; label: string; type: "slug"; hint?: string; prefix: (d: any) => string }
  | { key: string; label: string; type: "lines"; hint?: string }
  | { key: string; label: string; type: "rows"; item: string; hint?: string }
  | { key: string; label: string; type: "pairs"; item: string; a: [string, string]; b: [string, string]; hint?: string }
  | { key: string; label: string; type: "body"; hint?: string }
  | { key: string; label: string; type: "image"; hint?: string }
  /** refs name other records by id (admin/content/record-picker.tsx):
   * target is their kind, one how one is called ("city"). */
  | { key: string; label: string; type: "refs"; target: Kind; one: string; single?: boolean; hint?: string }
  | { key: string; label: string; type: "icon"; hint?: string }
  /** wording: a text of the site's wording (admin/data/words.ts); values
   * are the response times and figures that other texts insert, where
   * where they appear */
  | { key: string; label: string; type: "wording"; hint?: string; values?: boolean; where?: string[] };

/** Section is a titled group of fields; when is the key that must hold an
 * object for the section to show (a county's profile). */
export interface Section { title: string; fields: Field[]; when?: string; intro?: string }

/** KindInfo is a tab of Content Management. */
export interface KindInfo { kind: Kind; label: string; one: string; sections: Section[] }

/** hideFromSearch is a city page's noindex switch (ADR 064). */
const hideFromSearch = (): Field => ({
  key: "noindex", label: "Hide this page from search engines", type: "checkbox",
  hint: "Search engines stop listing the page and it leaves the sitemap. Visitors still see it and every link to it keeps working. Nothing is hidden unless you tick this.",
});

const seo = (...more: Field[]): Section => ({
  title: "Search engines",
  fields: [
    { key: "seoTitle", label: "SEO title", type: "text", count: 60, hint: "Shown as the page's title in search results and browser tabs. Leave it empty to use the title." },
    { key: "metaDescription", label: "Meta description", type: "textarea", count: 160, hint: "The summary search engines show under the title. Leave it empty to use the summary." },
    { key: "keywords", label: "Keywords", type: "lines", hint: "One per line." },
    ...more,
  ],
});

const photo = (label: string): Section => ({ title: label, fields: [{ key: "image", label, type: "image" }] });

const BODY_HINT = "One block per line: ‘## ’ a heading, ‘### ’ a subheading, ‘- ’ a list item, a line starting with ❌ a red warning. A blank line separates blocks. Select words and press Bold or Link to mark them.";

const faqs = (key: string, label = "FAQs"): Field => ({ key, label, type: "pairs", item: "FAQ", a: ["question", "Question"], b: ["answer", "Answer"] });
const reasons = (key: string): Field => ({ key, label: "Reasons to choose us", type: "pairs", item: "Reason", a: ["title", "Title"], b: ["text", "Text"] });

/** KINDS are the tabs, in the order the screen shows them. */
export const KINDS: KindInfo[] = [
  {
    kind: "article", label: "Blog posts", one: "blog post",
    sections: [
      {
        title: "Post",
        fields: [
          { key: "title", label: "Title", type: "text" },
          { key: "slug", label: "Slug", type: "slug", prefix: () => "/blog/", hint: "The post's address. Changing it once published leaves a permanent redirect (301) from the old address." },
          { key: "excerpt", label: "Excerpt", type: "textarea", hint: "The summary shown on the blog's list and cards." },
          { key: "category", label: "Category", type: "refs", target: "category", one: "category", single: true },
          { key: "publishDate", label: "Date shown on the post", type: "date" },
          { key: "readTime", label: "Reading time (minutes)", type: "readonly", hint: "Worked out from the article body's words each time you save." },
          { key: "featured", label: "Featured post", type: "checkbox" },
        ],
      },
      { title: "Article", fields: [{ key: "content", label: "Article body", type: "body", hint: BODY_HINT }] },
      photo("Cover photo"),
      seo(),
    ],
  },
  {
    kind: "category", label: "Categories", one: "category",
    sections: [{
      title: "Category",
      fields: [
        { key: "name", label: "Name", type: "text" },
        { key: "slug", label: "Slug", type: "readonly", hint: "A category's slug is fixed once it is added: it is the address of its topic page, /blog/category/ followed by the slug." },
        { key: "description", label: "Description", type: "textarea" },
      ],
    }],
  },
  {
    kind: "service", label: "Services", one: "service",
    sections: [
      {
        title: "Service",
        fields: [
          { key: "title", label: "Title", type: "text" },
          { key: "slug", label: "Address", type: "readonly", hint: "A service's address is fixed." },
          { key: "primary", label: "Primary service (one of the home page's six)", type: "checkbox" },
          { key: "icon", label: "Icon", type: "icon", hint: "Shown on the service's card and in the menu." },
          { key: "shortDescription", label: "Short description", type: "textarea" },
          { key: "description", label: "Description", type: "textarea" },
          { key: "features", label: "Features", type: "lines", hint: "One per line." },
          { key: "body", label: "Body", type: "rows", item: "Paragraph" },
          faqs("faqs"),
        ],
      },
      photo("Hero photo"),
      seo(),
    ],
  },
  {
    kind: "county", label: "Counties", one: "county",
    sections: [
      {
        title: "County",
        fields: [
          { key: "name", label: "Name", type: "text" },
          { key: "slug", label: "Address", type: "readonly", hint: "A county's address is fixed." },
          { key: "intro", label: "Introduction", type: "textarea" },
        ],
      },
      {
        title: "County profile", when: "profile",
        fields: [
          { key: "profile.description", label: "Description", type: "textarea" },
          { key: "profile.population", label: "Population", type: "text" },
          { key: "profile.squareMiles", label: "Square miles", type: "text" },
          { key: "profile.majorCities", label: "Major cities", type: "refs", target: "city", one: "city", hint: "The county's cities its page names first. A renamed city stays listed." },
          { key: "profile.features", label: "Features", type: "lines", hint: "One per line." },
          { key: "profile.commonDamage", label: "Common damage", type: "lines", hint: "One per line." },
          reasons("profile.reasons"),
        ],
      },
      photo("Hero photo"),
      seo(),
    ],
  },
  {
    kind: "city", label: "Cities", one: "city",
    sections: [
      {
        title: "City",
        fields: [
          { key: "city", label: "City name", type: "text" },
          { key: "county", label: "County", type: "readonly", hint: "A city stays in its county." },
          { key: "slug", label: "Slug", type: "slug", prefix: (d) => `/areas/${d?.county || ""}/`, hint: "The city page's address. Changing it once published leaves a permanent redirect (301) from the old address." },
          { key: "intro", label: "Introduction", type: "textarea" },
          { key: "description", label: "Description", type: "textarea" },
          { key: "lat", label: "Latitude", type: "coordinate", hint: "Where the city's centre is, so its page shows the work done near it. On Google Maps, press and hold the centre of town: the first number shown (about 33 or 34 here)." },
          { key: "lng", label: "Longitude", type: "coordinate", hint: "The second number Google Maps shows, with its minus sign (about -84 here)." },
          { key: "services", label: "Services offered", type: "refs", target: "service", one: "service", hint: "Leave empty to show our usual services." },
          { key: "nearby", label: "Nearby cities", type: "refs", target: "city", one: "city", hint: "Shown as 'Nearby Areas We Serve'. A renamed city stays listed, at its new address." },
        ],
      },
      photo("Hero photo"),
      seo(hideFromSearch()),
    ],
  },
  {
    kind: "city-profile", label: "Fixed city pages", one: "fixed city page",
    sections: [
      {
        title: "City page",
        fields: [
          { key: "cityName", label: "City name", type: "text" },
          { key: "countyName", label: "County name", type: "text" },
          { key: "intro", label: "Introduction", type: "textarea" },
          { key: "zipCodes", label: "ZIP codes", type: "lines", hint: "One per line." },
          { key: "landmarks", label: "Landmarks", type: "lines", hint: "One per line." },
          { key: "neighborhoods", label: "Neighborhoods", type: "lines", hint: "One per line." },
          reasons("reasons"),
          faqs("faqs"),
        ],
      },
      photo("Hero photo"),
      seo(hideFromSearch()),
    ],
  },
  {
    kind: "page", label: "Info pages", one: "info page",
    sections: [
      {
        title: "Page",
        fields: [
          { key: "title", label: "Title", type: "text" },
          { key: "slug", label: "Address", type: "readonly", hint: "An info page's address is fixed." },
        ],
      },
      { title: "Page text", fields: [{ key: "content", label: "Page body", type: "body", hint: BODY_HINT }] },
      seo(),
    ],
  },
  {
    kind: "home", label: "Home page", one: "home page",
    sections: [
      {
        title: "Home page texts",
        fields: [
          { key: "heroLead", label: "Hero sub-line", type: "textarea", hint: "Follows the hero's response-time claim." },
          { key: "banner", label: "Banner", type: "text" },
          { key: "servicesTitle", label: "Services section title", type: "text" },
          { key: "servicesLead", label: "Services section text", type: "textarea" },
          { key: "provideTitle", label: "Service descriptions title", type: "text" },
          { key: "whyText", label: "Why choose us text", type: "wording" },
        ],
      },
      photo("Hero photo"),
    ],
  },
  { kind: "words", label: "Words across the site", one: "site wording", sections: wordsSections() },
  {
    kind: "faq", label: "FAQs", one: "FAQ block",
    sections: [{ title: "Questions and answers", fields: [faqs("", "Questions and answers")] }],
  },
];

export const kindInfo = (kind: string): KindInfo => KINDS.find((k) => k.kind === kind) || KINDS[0];

/** getAt and setAt read and write a record's value at a JSON path. */
export function getAt(obj: any, key: string): any {
  if (key === "") return obj;
  return key.split(".").reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

export function setAt(obj: any, key: string, value: any): any {
  if (key === "") return value;
  const [head, ...rest] = key.split(".");
  const base = Array.isArray(obj) ? [...obj] : { ...(obj || {}) };
  if (rest.length === 0) {
    if (value === undefined) delete (base as any)[head];
    else (base as any)[head] = value;
  } else {
    (base as any)[head] = setAt((base as any)[head], rest.join("."), value);
  }
  return base;
}

/** clean drops the blank lines a one-per-line list keeps while it is
 * typed, before the record is sent. */
export function clean(kind: Kind, data: any): any {
  let out = data;
  for (const s of kindInfo(kind).sections) {
    for (const f of s.fields) {
      if (f.type !== "lines") continue;
      const v = getAt(out, f.key);
      if (Array.isArray(v)) out = setAt(out, f.key, v.map((x: string) => x.trim()).filter((x: string) => x !== ""));
    }
  }
  return out;
}

/** newRecord is the first draft of an item the editor adds: its name and
 * address; the server's rules then say what it still needs. */
export function newRecord(kind: Kind, name: string, slug: string, county: string, today: string): any {
  switch (kind) {
    case "article":
      return { slug, title: name, excerpt: "", content: "", category: "", publishDate: today, readTime: 0, seoTitle: "", metaDescription: "", keywords: [], featured: false };
    case "city":
      return { county, city: name, slug, hero_image: "", intro: "", nearby: [], seoTitle: "", metaDescription: "", keywords: [] };
    case "category":
      return { slug, name, description: "" };
  }
  return { slug };
}

/** suggestSlug offers an address for a name (the server checks it). */
export function suggestSlug(name: string): string {
  return name.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80).replace(/-+$/, "");
}
