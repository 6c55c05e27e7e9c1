// Server entry: bundled as an IIFE (global SSR) and run inside goja.
import { renderToString } from "react-dom/server";
import { HeadProvider, renderHead, type HeadCollector } from "../components/head";
import { pages } from "./registry";

/** render renders one page kind with its JSON props and returns the body
 * HTML and the collected head tags, as JSON for Go. */
export function render(kind: string, propsJSON: string): string {
  const Page = pages[kind];
  if (!Page) throw new Error(`unknown page kind ${kind}`);
  const props = JSON.parse(propsJSON);
  const collected: HeadCollector = [];
  const html = renderToString(
    <HeadProvider collector={collected}>
      <Page {...props} />
    </HeadProvider>,
  );
  return JSON.stringify({ html, head: renderHead(collected), htmlAttributes: 'lang="en"' });
}
