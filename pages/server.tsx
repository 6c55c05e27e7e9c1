// Server rendering for goja. The build generates the actual entry from the
// route table's page kinds (ssr/build.go): it imports every pages/{kind}.tsx
// and calls renderPage with that map, exposed as the global SSR.render.
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { HeadProvider, renderHead, type HeadCollector } from "../components/head";

/** renderPage renders one page kind with its JSON props and returns
 * [body HTML, collected head tags, <html> attributes]; Go reads the three
 * strings straight from the runtime (ssr/pool.go). */
export function renderPage(pages: Record<string, ComponentType<any>>, kind: string, propsJSON: string): [string, string, string] {
  const Page = pages[kind];
  if (!Page) throw new Error(`unknown page kind ${kind}`);
  const props = JSON.parse(propsJSON);
  const collected: HeadCollector = [];
  const html = renderToString(
    <HeadProvider collector={collected}>
      <Page {...props} />
    </HeadProvider>,
  );
  return [html, renderHead(collected), 'lang="en"'];
}
