import { Helmet } from "react-helmet-async";
import type { Head, Site } from "./types";

/** Seo writes every head tag of a page. On the server Helmet collects them
 * and Go places them in <head> of the first response; in the browser Helmet
 * keeps them in sync and removes a page's JSON-LD when it unmounts. */
export function Seo({ head, site }: { head: Head; site: Site }) {
  return (
    <Helmet>
      <html lang="en" />
      <title>{head.title}</title>
      <meta name="description" content={head.description} />
      {head.keywords.length > 0 && <meta name="keywords" content={head.keywords.join(", ")} />}
      <meta name="robots" content={head.robots} />
      <link rel="canonical" href={head.canonical} />
      <meta name="theme-color" content={site.themeColor} />
      <meta property="og:type" content={head.ogType} />
      <meta property="og:title" content={head.title} />
      <meta property="og:description" content={head.description} />
      <meta property="og:url" content={head.canonical} />
      <meta property="og:site_name" content={site.name} />
      <meta property="og:image" content={head.image} />
      <meta property="og:locale" content="en_US" />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={head.title} />
      <meta name="twitter:description" content={head.description} />
      <meta name="twitter:image" content={head.image} />
      <meta name="geo.region" content={head.geo.region} />
      <meta name="geo.placename" content={head.geo.placename} />
      <meta name="geo.position" content={head.geo.position} />
      <meta name="ICBM" content={head.geo.position.replace(";", ", ")} />
      {head.jsonLd.map((ld, i) => (
        <script key={i} type="application/ld+json">{ld}</script>
      ))}
    </Helmet>
  );
}

/** jsonLd serialises structured data for a script element; "<" is escaped
 * so text such as "</script>" cannot end the element. */
export function jsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}
