// The site's wording (ADR 045): hero headlines and badges, response times,
// trust figures, button labels, the estimate form's texts. One record of
// kind "words", laid out as a form from the same catalogue the server
// checks it with (content/words-catalogue.json). A text names an insert as
// {key} in the record; the owner never sees that: the form shows each as
// its name in square brackets ("[Office city]") and offers buttons to add
// one.

import catalogue from "../../content/words-catalogue.json";
import type { Section } from "./content";

/** Insert is a value a text may name: a fact from System Settings, or a
 * response time or figure of this same form. */
export interface Insert { key: string; label: string; from: string }

export const INSERTS: Insert[] = catalogue.inserts;

/** wordsSections are the wording's form: one section per group. */
export function wordsSections(): Section[] {
  return catalogue.groups.map((g) => ({
    title: g.title,
    intro: "intro" in g ? g.intro : undefined,
    fields: g.fields.map((f) => ({
      key: `${g.key}.${f.key}`, label: f.label, type: "wording" as const,
      hint: "hint" in f ? f.hint : undefined,
      values: "values" in g ? g.values : false,
      where: "where" in f ? f.where : undefined,
    })),
  }));
}

const byKey = new Map(INSERTS.map((i) => [i.key, i]));
const byLabel = new Map(INSERTS.map((i) => [i.label.toLowerCase(), i]));

/** shown is a stored text as the owner reads it: {city} → [Office city].
 * Curly brackets that name no insert stay as typed (the server says so). */
export function shown(raw: string): string {
  return (raw || "").replace(/\{([A-Za-z]+)\}/g, (m, k: string) => {
    const i = byKey.get(k);
    return i ? `[${i.label}]` : m;
  });
}

/** stored is what the owner typed as the record keeps it: [Office city] →
 * {city}. Square brackets around anything else are plain text. */
export function stored(text: string): string {
  return text.replace(/\[([^\[\]]+)\]/g, (m, label: string) => {
    const i = byLabel.get(label.trim().toLowerCase());
    return i ? `{${i.key}}` : m;
  });
}

/** SOURCES say in plain words where each kind of insert comes from. */
export const SOURCES: Record<string, string> = {
  settings: "from System Settings",
  times: "from Response times on the Words across the site page",
  figures: "from Trust figures on the Words across the site page",
};
