import { Head, type HeadTag } from "./head";
import type { Head as HeadData, Site } from "./props.gen";

/** Seo writes every head tag of a page (through Helmet, components/head.tsx)
 * and the document's language: title, description, keywords,
 * robots, canonical, Open Graph, Twitter card, theme colour, geo tags and
 * the JSON-LD that Go serialised. */
export function Seo({ head, site }: { head: HeadData; site: Site }) {
  const meta = (name: string, content: string): HeadTag => ({ tag: "meta", attrs: { name, content } });
  const prop = (property: string, content: string): HeadTag => ({ tag: "meta", attrs: { property, content } });
  const tags: HeadTag[] = [
    // Helmet writes <html> attributes without escaping them: constants only.
    { tag: "html", attrs: { lang: "en" } },
    { tag: "title", attrs: {}, text: head.title },
    meta("description", head.description),
    ...(head.keywords.length ? [meta("keywords", head.keywords.join(", "))] : []),
    meta("robots", head.robots),
    { tag: "link", attrs: { rel: "canonical", href: head.canonical } },
    meta("theme-color", site.themeColor),
    prop("og:type", head.ogType),
    prop("og:title", head.title),
    prop("og:description", head.description),
    prop("og:url", head.canonical),
    prop("og:site_name", site.name),
    prop("og:image", head.image),
    prop("og:locale", "en_US"),
    meta("twitter:card", "summary_large_image"),
    meta("twitter:title", head.title),
    meta("twitter:description", head.description),
    meta("twitter:image", head.image),
    meta("geo.region", head.geo.region),
    meta("geo.placename", head.geo.placename),
    meta("geo.position", head.geo.position),
    meta("ICBM", head.geo.position.replace(";", ", ")),
    ...head.jsonLd.map((text, i): HeadTag => ({ tag: "script", attrs: { type: "application/ld+json", id: `ld-page-${i}` }, text })),
  ];
  return <Head tags={tags} />;
}

/** jsonLd serialises structured data for a script element; "<", ">" and
 * "&" are escaped so text such as "</script>" cannot end the element. */
export function jsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}
