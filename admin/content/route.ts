// The content screen's address (?kind= a list, ?item= an editor, ?new=
// the add dialog, ?page= and ?field= the SEO findings' links) and where a
// deep link to a field lands.
import { kindInfo, type Field, type Kind } from "../data/content";
import { fieldId } from "./fields";

/** listPath is the address of a kind's list. */
export const listPath = (kind: string) => `content?kind=${encodeURIComponent(kind)}`;

/** readRoute reads the content screen's address: ?kind= (a list),
 * ?item= (an editor), ?new=city&county= (the add dialog). */
export function readRoute(): { kind: string; item: string; create: string; county: string; field: string; page: string } {
  const q = new URLSearchParams(typeof window === "undefined" ? "" : window.location.search);
  return { kind: q.get("kind") || "", item: q.get("item") || "", create: q.get("new") || "", county: q.get("county") || "",
    field: q.get("field") || "", page: q.get("page") || "" };
}

/** fieldsOf lists a kind's fields with their labels, for the problems summary. */
export function fieldsOf(kind: Kind): Field[] {
  return kindInfo(kind).sections.flatMap((s) => s.fields);
}

/** BODY_FIELD is each kind's main text, where "body" deep links go
 * (the SEO findings' links). */
const BODY_FIELD: Partial<Record<Kind, string>> = { article: "content", page: "content", service: "body", county: "intro", city: "intro", "city-profile": "intro", home: "heroLead" };

/** fieldTarget is the id of the control a deep link (?field=) names:
 * "body" is the kind's main text, "image" the photo's description. A
 * field the kind lacks gives "". */
export function fieldTarget(kind: Kind, field: string): string {
  const key = field === "body" ? BODY_FIELD[kind] || "" : field;
  const f = fieldsOf(kind).find((x) => x.key === key);
  if (!f) return "";
  return f.type === "image" ? fieldId(f.key) + "-alt" : fieldId(f.key);
}
