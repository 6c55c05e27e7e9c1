// Server entry: bundled as an IIFE (global SSR) and run inside goja.
import { renderToString } from "react-dom/server";
import { HelmetProvider } from "react-helmet-async";
import { pages } from "./registry";

/** render renders one page kind with its JSON props and returns the body
 * HTML with the head tags Helmet collected, as JSON for Go. */
export function render(kind: string, propsJSON: string): string {
  const Page = pages[kind];
  if (!Page) throw new Error(`unknown page kind ${kind}`);
  const props = JSON.parse(propsJSON);
  const ctx: { helmet?: any } = {};
  const html = renderToString(
    <HelmetProvider context={ctx}>
      <Page {...props} />
    </HelmetProvider>,
  );
  const h = ctx.helmet;
  const head = h ? h.title.toString() + h.meta.toString() + h.link.toString() + h.script.toString() : "";
  return JSON.stringify({ html, head, htmlAttributes: h ? h.htmlAttributes.toString() : "" });
}
