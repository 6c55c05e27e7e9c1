import type { ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { Helmet, HelmetProvider } from "react-helmet-async";
import { HeadManager } from "../components/head";

/** hydratePage attaches React to the server-rendered tree with the exact
 * props the server used (read from the inline JSON). Only the pages that
 * hydrate whole (the admin app) come here; their head is kept by Helmet in
 * the browser too (ADR 055): it finds the server's tags by their data-rh
 * attribute, which ssr/head.go keeps on these pages only. Helmet and its
 * provider render no element, so the tree hydrates as the server made it. */
export function hydratePage(Page: ComponentType<any>) {
  const el = document.getElementById("__PROPS__");
  const root = document.getElementById("root");
  if (!el || !root) return;
  const props = JSON.parse(el.textContent || "{}");
  hydrateRoot(root, (
    <HelmetProvider>
      <HeadManager.Provider value={Helmet}>
        <Page {...props} />
      </HeadManager.Provider>
    </HelmetProvider>
  ));
}
