import type { ComponentType } from "react";
import home from "./home";
import notFound from "./not-found";
import error from "./error";

/** pages maps a page kind (the route table's component) to its component.
 * Each kind is also a client entry: pages/{kind}.tsx. */
export const pages: Record<string, ComponentType<any>> = {
  home,
  "not-found": notFound,
  error,
};
