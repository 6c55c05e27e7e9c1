// Location Pages data: the server counts the county and city pages of the
// route table and the URLs of /sitemap.xml, lists every county page with
// its city pages, and reads Local Schema from the latest SEO audit (GET
// /api/admin/locations). Each figure comes with how it is computed. For a
// caller who may edit content, the same answer gives each page the id of
// the content item the editor opens for it (editId) and each county its
// cities not on the site yet (drafts): the screen needs no other request.

import { api } from "../api";
import type * as wire from "../api.gen";

/** LocationPage is one page of a city, with its kind and title. */
export type LocationPage = wire.LocationPage;
/** LocationCity is a city, listed once; href is its main page (the fixed
 * city page when it has one). A city with several pages lists them all
 * and says why. */
export type LocationCity = wire.LocationCity;
export type LocationCounty = wire.LocationCounty;
/** LocationDraft is a county's city with no page yet, with its state. */
export type LocationDraft = wire.LocationDraft;
/** cities counts each city once; cityPages the pages behind them. */
export type LocationsSummary = wire.LocationsSummary;
/** LocationsData is GET /api/admin/locations (web/audits.LocationsInfo);
 * how says how each summary figure is computed, by summary key. */
export type LocationsData = wire.LocationsData;

export interface LocationsSource { load(): Promise<LocationsData> }

export const liveLocations: LocationsSource = { load: () => api("/api/admin/locations") };
