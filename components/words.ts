import type { Site } from "./props.gen";

// A page's Site.words are the groups of the site's wording it shows (group
// → field → text), every insert already filled in by Go
// (content.Words.Fill). A page receives only the groups it shows
// (content/words-catalogue.json, "pages"), so a change of wording
// re-renders exactly those pages.

/** word is one text of the site's wording. A group the page's props do
 * not carry is a bug of the catalogue's "pages" list, not something to
 * paper over with a second copy of the text: the render fails loudly and
 * the page tests catch it. */
export function word(site: Pick<Site, "words">, group: string, key: string): string {
  const v = site.words?.[group]?.[key];
  if (typeof v !== "string") throw new Error(`words: ${group}.${key} is not in this page's props`);
  return v;
}

/** FormWords are the estimate form's texts, handed to its island. */
export interface FormWords { submit: string; required: string; thanksTitle: string; thanks: string; book: string }

export const formWordsOf = (site: Pick<Site, "words">): FormWords => ({
  submit: word(site, "form", "submit"),
  required: word(site, "form", "required"),
  thanksTitle: word(site, "form", "thanksTitle"),
  thanks: word(site, "form", "thanks"),
  book: word(site, "form", "book"),
});
