// Server rendering for goja. The build generates the actual entry from the
// route table's page kinds (ssr/build.go): it imports every pages/{kind}.tsx
// and calls renderPage with that map, exposed as the global SSR.render.
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { Helmet, HelmetProvider, type HelmetProps, type HelmetServerState } from "react-helmet-async";
import { HeadManager } from "../components/head";
import { BlueBarContent, ChromeVariants, FooterContent, Nav, TopBarContent, type ChromeParts } from "../components/layout";
import { contactOf } from "../components/types";
import { estimateTarget } from "../components/estimate-target";
import catalogue from "../content/words-catalogue.json";

// CHROME_WORDS are the groups of the site's wording every page carries
// (the catalogue's "*" pages): the only ones the chrome may show, and the
// only ones in its cache key, so pages of different kinds share it.
const CHROME_WORDS = catalogue.groups.filter((g) => g.pages.includes("*")).map((g) => g.key);

function chromeSite(site: any) {
  const words: Record<string, unknown> = {};
  for (const g of CHROME_WORDS) words[g] = site.words?.[g];
  return { ...site, words };
}

// The chrome's markup for the last site and chrome this runtime rendered,
// one entry per estimate target (ADR 050: the menu and the footer link to
// the page's own form or to /estimate); every page of a content version
// shares them. Both are rendered before the page (a render inside a
// render would share React's server state), once per content version.
let chromeKey = "";
let chromeParts = new Map<string, ChromeParts>();
const TARGETS = [estimateTarget(true), estimateTarget(false)];

/** chromeVariants returns, for these props, the function that gives the
 * inner HTML of the page chrome for an estimate target (null for one it
 * does not hold: Layout then renders the chrome in place), or null for
 * props without site and chrome. Setting globalThis.__ssrNoFragments
 * renders the chrome in place on every page (the test that the two ways
 * are byte for byte the same). */
function chromeVariants(props: any): ((estimate: string) => ChromeParts | null) | null {
  if ((globalThis as any).__ssrNoFragments || !props || !props.site || !props.chrome) return null;
  const site = chromeSite(props.site);
  const key = JSON.stringify(site) + "\n" + JSON.stringify(props.chrome);
  if (key !== chromeKey) {
    const { chrome } = props;
    const topbar = renderToString(<TopBarContent site={site} />);
    const bluebar = renderToString(<BlueBarContent site={site} />);
    chromeParts = new Map(TARGETS.map((estimate) => [estimate, {
      topbar, bluebar,
      nav: renderToString(<Nav site={contactOf(site)} estimate={estimate} portfolio={!!chrome.portfolio} />),
      footer: renderToString(<FooterContent site={site} chrome={chrome} estimate={estimate} />),
    }]));
    chromeKey = key;
  }
  const parts = chromeParts;
  return (estimate: string) => parts.get(estimate) ?? null;
}

/** KEEP_IN_GO asks the patched renderToString to leave the page's markup in
 * Go's output buffer (ssr/sink.go) and return "": the body never crosses
 * back into JavaScript as one big string. React reads only
 * identifierPrefix from the options, so the output is the same. */
const KEEP_IN_GO = { ssrKeepInGo: true };

// The head's values are escaped here, once, and Helmet is told not to
// escape them again (encodeSpecialCharacters, Helmet's own prop). Helmet's
// escaping evaluates five regular expression literals per value, each a
// new RegExp in goja (ADR 037), and writes an apostrophe as "&#x27;":
// here the expressions are made once and a value with nothing to escape
// is returned as it is. Script text (JSON-LD) is not escaped by Helmet
// either way: components/head.tsx makes it safe. <html> attributes, which
// Helmet never escapes, are escaped here too.
const SPECIAL = /[&<>"]/, AMP = /&/g, LT = /</g, GT = />/g, QUOT = /"/g;
const esc = (s: string) => (SPECIAL.test(s) ? s.replace(AMP, "&amp;").replace(LT, "&lt;").replace(GT, "&gt;").replace(QUOT, "&quot;") : s);

function escAttrs(attrs: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const k of Object.keys(attrs)) out[k] = k === "innerHTML" ? attrs[k] : esc(String(attrs[k]));
  return out;
}

/** ServerHelmet is Helmet as the server render gives it to Head
 * (HeadManager): the same props, escaped once. Every head tag goes through
 * Head, so every Helmet instance of a render has encodeSpecialCharacters
 * false (Helmet takes the innermost instance's). */
function ServerHelmet(p: HelmetProps) {
  const q: HelmetProps = { encodeSpecialCharacters: false };
  if (p.title !== undefined) q.title = esc(p.title);
  if (p.htmlAttributes) q.htmlAttributes = escAttrs(p.htmlAttributes);
  if (p.meta) q.meta = p.meta.map(escAttrs);
  if (p.link) q.link = p.link.map(escAttrs);
  if (p.script) q.script = p.script.map(escAttrs);
  return <Helmet {...q} />;
}

/** renderPage renders one page: [body, head markup, <html> attributes].
 * The head comes from react-helmet-async: every render gets a new
 * HelmetProvider with a new context object (never shared between renders
 * or runtimes), and Helmet's server state in it gives the markup, kind by
 * kind in a fixed order. ssr/head.go tidies it where Go places it. */
export function renderPage(pages: Record<string, ComponentType<any>>, kind: string, propsJSON: string): [string, string, string] {
  const Page = pages[kind];
  if (!Page) throw new Error(`unknown page kind ${kind}`);
  const props = JSON.parse(propsJSON);
  const helmetContext: { helmet?: HelmetServerState } = {};
  const html = renderToString(
    <ChromeVariants.Provider value={chromeVariants(props)}>
      <HelmetProvider context={helmetContext}>
        <HeadManager.Provider value={ServerHelmet}>
          <Page {...props} />
        </HeadManager.Provider>
      </HelmetProvider>
    </ChromeVariants.Provider>,
    KEEP_IN_GO as {},
  );
  const h = helmetContext.helmet!;
  const head = h.title.toString() + h.base.toString() + h.meta.toString() + h.link.toString() + h.script.toString();
  return [html, head, h.htmlAttributes.toString()];
}
