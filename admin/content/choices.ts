// What the record pickers offer and show (ADR 046, ADR 069 amended
// 2026-11-29): the records a field names are read by id, and the records
// that can be added are one page of a search on the server, so a picker
// never downloads a whole kind (2,000 cities are about 1 MB). Answers are
// kept for a short while: the pickers of one form share them, and a
// record added or renamed meanwhile shows soon after.
import { contentApi, type ItemView, type Kind } from "../data/content";

/** Choice is a record that can be chosen. */
export interface Choice {
  id: string;
  name: string;
  /** group is where the record belongs (a city's county), "" for none. */
  group: string;
  /** live: the record is on the site. */
  live: boolean;
}

/** PAGE is how many records a search shows, and the most a picker lists
 * whole, without a search box. */
export const PAGE = 20;
/** MAX_IDS is the most ids one request asks for (web/editor MaxIDs). */
const MAX_IDS = 200;
const KEEP_MS = 30_000;

type Entry<T> = { at: number; value: Promise<T> };
const pages = new Map<string, Entry<Found>>();
const wholes = new Map<string, Entry<Choice[]>>();
/** named holds each record read, by kind and id (null: none of the kind). */
const named = new Map<string, { at: number; choice: Choice | null }>();
let counties: Entry<Map<string, string>> | null = null;

const fresh = <T>(e: Entry<T> | null | undefined) => (e && Date.now() - e.at < KEEP_MS ? e.value : undefined);

/** kept answers load()'s promise, or the one kept under key; a failure is
 * not kept. */
function kept<T>(m: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> {
  const hit = fresh(m.get(key));
  if (hit) return hit;
  if (m.size > 200) m.clear();
  const value = load();
  value.catch(() => m.delete(key));
  m.set(key, { at: Date.now(), value });
  return value;
}

const titleCase = (s: string) => s.split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");

/** countyNames is every county's name by slug: eleven fixed pages. */
function countyNames(): Promise<Map<string, string>> {
  const hit = fresh(counties);
  if (hit) return hit;
  const value = contentApi.all("county").then((l) => new Map(l.items.map((c) => [c.slug, c.title])));
  value.catch(() => { counties = null; });
  counties = { at: Date.now(), value };
  return value;
}

/** toChoices turns list items into choices and remembers each by id. */
async function toChoices(kind: Kind, items: ItemView[]): Promise<Choice[]> {
  const names = kind === "city" && items.length ? await countyNames() : new Map<string, string>();
  const at = Date.now();
  return items.map((it) => {
    const county = kind === "city" ? it.slug.split("/")[0] : "";
    const c = { id: it.id, name: it.title, group: county ? names.get(county) || titleCase(county) : "", live: it.liveSlug !== "" };
    named.set(kind + " " + c.id, { at, choice: c });
    return c;
  });
}

/** Found is one page of a search and how many records match in all. */
export interface Found { choices: Choice[]; total: number }

/** Search is what a picker asks for: q, part of a name ("" for any);
 * county, a county's slug, limits it to that county's cities; exclude is
 * the record being edited. */
export interface Search { q: string; county?: string; exclude?: string }

/** findChoices is the first page (PAGE records) of the records of kind
 * that match s, in the kind's order, and their total. */
export function findChoices(kind: Kind, s: Search): Promise<Found> {
  const p = new URLSearchParams({ perPage: String(PAGE) });
  if (s.q.trim()) p.set("q", s.q.trim());
  if (s.county) p.set("county", s.county);
  if (s.exclude) p.set("exclude", s.exclude);
  const query = p.toString();
  return kept(pages, kind + "?" + query, async () => {
    const l = await contentApi.list(kind, query);
    return { choices: await toChoices(kind, l.items), total: l.total };
  });
}

/** isID tells a record's id from a value an older screen or file wrote
 * (a slug or a name), which the server converts on save. */
export const isID = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v);

/** knownChoice is the record of kind with id as last read: undefined when
 * it has not been read, null when no record of the kind has that id. */
export const knownChoice = (kind: Kind, id: string) => named.get(kind + " " + id)?.choice;

/** loadChoices reads from the server the records of kind with these ids
 * that were not read lately (MAX_IDS a request); knownChoice then has
 * them. */
export async function loadChoices(kind: Kind, ids: string[]): Promise<void> {
  const now = Date.now();
  const missing = [...new Set(ids)].filter((id) => {
    const e = named.get(kind + " " + id);
    return isID(id) && (!e || now - e.at >= KEEP_MS);
  });
  for (let i = 0; i < missing.length; i += MAX_IDS) {
    const ask = missing.slice(i, i + MAX_IDS);
    const found = new Set((await toChoices(kind, (await contentApi.list(kind, "ids=" + ask.join(","))).items)).map((c) => c.id));
    for (const id of ask) if (!found.has(id)) named.set(kind + " " + id, { at: Date.now(), choice: null });
  }
}

/** choicesOf reads every record of a kind, in pages (the take-down
 * dialog's categories to move posts to: a short list). */
export function choicesOf(kind: Kind): Promise<Choice[]> {
  return kept(wholes, kind, async () => toChoices(kind, (await contentApi.all(kind)).items));
}

/** a is a record's word with its article: "a city", "an article". */
export const a = (one: string) => (/^[aeiou]/.test(one) ? "an " : "a ") + one;

/** plural is a record's word for several: "cities", "services". */
export const plural = (one: string) => (/[^aeiou]y$/.test(one) ? one.slice(0, -1) + "ies" : one + "s");

/** forgetChoices drops everything read (after a change of the records). */
export function forgetChoices() {
  pages.clear();
  wholes.clear();
  named.clear();
  counties = null;
}
