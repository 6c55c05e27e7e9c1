// Location Pages data: the server counts the county and city pages of the
// route table and the URLs of /sitemap.xml, lists every county page with
// its city pages, and reads Local Schema from the latest SEO audit (GET
// /api/admin/locations). Each figure comes with how it is computed.

import { api } from "../api";

/** LocationPage is one page of a city, with its kind and title. */
export interface LocationPage { href: string; kind: string; title: string }
/** LocationCity is a city, listed once; href is its main page (the fixed
 * city page when it has one). A city with several pages lists them all
 * and says why. */
export interface LocationCity { name: string; href: string; pages: LocationPage[]; why?: string }
export interface LocationCounty { name: string; slug: string; href: string; cities: LocationCity[] }
/** cities counts each city once; cityPages the pages behind them. */
export interface LocationsSummary { counties: number; cities: number; cityPages: number; sitemapUrls: number; localSchema: "Active" | "Inactive" | "Not checked" }
export interface LocationsData {
  summary: LocationsSummary;
  /** how each summary figure is computed, by summary key */
  how: Record<"counties" | "cities" | "sitemapUrls" | "localSchema", string>;
  counties: LocationCounty[];
}

export interface LocationsSource { load(): Promise<LocationsData> }

export const liveLocations: LocationsSource = { load: () => api("/api/admin/locations") };
