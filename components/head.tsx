import { createContext, useContext, type ComponentType } from "react";
import type { HelmetProps } from "react-helmet-async";

/** HeadTag is one element of <head>, or (tag "html") the attributes of
 * <html>. */
export interface HeadTag {
  tag: "title" | "meta" | "link" | "script" | "html";
  attrs: Record<string, string>;
  /** text content: the title, or already-escaped JSON-LD */
  text?: string;
}

/** HeadManager is react-helmet-async's Helmet, handed down by the render
 * root: pages/server.tsx (with a HelmetProvider whose context is new for
 * every render) and, in the browser, the admin app's client/hydrate.tsx.
 * Where nobody provides it (the islands of public pages) Head renders
 * nothing. It is a context and not an import so that no public browser
 * bundle carries Helmet: the islands' runtime imports components/layout.tsx
 * for the menu, layout.tsx imports Seo and Seo imports this file, and
 * esbuild places a file's code in the chunk of every entry that reaches the
 * file; an import here put Helmet into the React chunk that public pages
 * load (ADR 055). */
export const HeadManager = createContext<ComponentType<HelmetProps> | null>(null);

// A regular expression literal is a new object (several in goja) each time
// it is evaluated; replace() starts a global one from the beginning.
const LT = /</g;

/** Head declares head tags through Helmet: on the server they are placed
 * in the first response's <head> (ssr/document.go); in the admin app
 * Helmet keeps them in sync while the owner moves between screens and
 * removes a screen's tags when it unmounts. For each kind the innermost
 * Head wins (a later title, the same meta name or property, the canonical
 * link), as Helmet decides. Script text is JSON-LD, escaped when it was
 * serialised (Go and jsonLd write "<" as \u003c); Helmet writes it as it
 * is, so any "<" left is written \u003c here too. In JSON a "<" can only
 * be inside a string, where \u003c is the same character, and without one
 * the text can neither end the element ("</script>") nor start the
 * parser's escaped state ("<!--" then "<script"). */
export function Head({ tags }: { tags: HeadTag[] }) {
  const Manager = useContext(HeadManager);
  if (!Manager) return null;
  // Only the kinds this Head has become props: Helmet takes an own
  // "title" property, even undefined, as this instance's title.
  const props: HelmetProps = {};
  for (const t of tags) {
    switch (t.tag) {
      case "title": props.title = t.text || ""; break;
      case "html": props.htmlAttributes = t.attrs; break;
      case "meta": (props.meta ||= []).push(t.attrs); break;
      case "link": (props.link ||= []).push(t.attrs); break;
      default: (props.script ||= []).push({ ...t.attrs, innerHTML: (t.text || "").replace(LT, "\\u003c") });
    }
  }
  return <Manager {...props} />;
}
