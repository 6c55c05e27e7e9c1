import type { ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";

/** hydratePage attaches React to the server-rendered tree with the exact
 * props the server used (read from the inline JSON). */
export function hydratePage(Page: ComponentType<any>) {
  const el = document.getElementById("__PROPS__");
  const root = document.getElementById("root");
  if (!el || !root) return;
  const props = JSON.parse(el.textContent || "{}");
  hydrateRoot(root, <Page {...props} />);
}
