// Redirects and the 404 monitor (docs/content-api.md): the
// server keeps the site's 301s (added here, or left by a published page
// whose address changed), refuses loops and redirects off the site, and
// counts the paths that answer 404.

import { api } from "../api";
import type * as wire from "../api.gen";

/** RedirectRow is one redirect (web/editing.RedirectRow). */
export type RedirectRow = wire.RedirectRow;

/** RedirectList is GET /api/admin/redirects (web/editing.RedirectList). */
export type RedirectList = wire.RedirectList;

/** NotFoundPath is one path of the 404 monitor (web/editing.NotFoundPath). */
export type NotFoundPath = wire.NotFoundPath;

/** NotFoundList is GET /api/admin/not-found (web/editing.NotFoundList). */
export type NotFoundList = wire.NotFoundList;

export const redirectsApi = {
  /** list and notFound are one page of each (query: q, page, perPage). */
  list: (query = "") => api<RedirectList>("/api/admin/redirects" + (query ? "?" + query : "")),
  add: (from: string, to: string) => api<RedirectRow>("/api/admin/redirects", { method: "POST", body: JSON.stringify({ from, to }) }),
  remove: (from: string) => api<wire.DeletedAnswer>(`/api/admin/redirects?from=${encodeURIComponent(from)}`, { method: "DELETE" }),
  notFound: (query = "") => api<NotFoundList>("/api/admin/not-found" + (query ? "?" + query : "")),
};
