// Server rendering for goja. The build generates the actual entry from the
// route table's page kinds (ssr/build.go): it imports every pages/{kind}.tsx
// and calls renderPage with that map, exposed as the global SSR.render.
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { HeadProvider, renderHead, type HeadCollector } from "../components/head";
import { FooterContent, FooterMarkup } from "../components/layout";

// The footer's markup for the last site and chrome this runtime rendered
// (one entry: every page of a content version shares them).
let footerKey = "";
let footerHTML = "";

/** footerMarkup returns the footer's inner HTML for these props, rendered
 * once per site and chrome, or null for props without them. Setting
 * globalThis.__ssrNoFragments renders every footer in place (the test
 * that the two ways are byte for byte the same). */
function footerMarkup(props: any): string | null {
  if ((globalThis as any).__ssrNoFragments || !props || !props.site || !props.chrome) return null;
  const key = JSON.stringify(props.site) + "\n" + JSON.stringify(props.chrome);
  if (key !== footerKey) {
    footerHTML = renderToString(<FooterContent site={props.site} chrome={props.chrome} />);
    footerKey = key;
  }
  return footerHTML;
}

/** renderPage renders one page kind with its JSON props and returns
 * [body HTML, collected head tags, <html> attributes]; Go reads the three
 * strings straight from the runtime (ssr/pool.go). */
export function renderPage(pages: Record<string, ComponentType<any>>, kind: string, propsJSON: string): [string, string, string] {
  const Page = pages[kind];
  if (!Page) throw new Error(`unknown page kind ${kind}`);
  const props = JSON.parse(propsJSON);
  const collected: HeadCollector = [];
  const html = renderToString(
    <FooterMarkup.Provider value={footerMarkup(props)}>
      <HeadProvider collector={collected}>
        <Page {...props} />
      </HeadProvider>
    </FooterMarkup.Provider>,
  );
  return [html, renderHead(collected), 'lang="en"'];
}
