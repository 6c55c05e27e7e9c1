// Location Pages data: spec 2.4 / 9's fixed sample (7 counties, 26 cities,
// 138 URLs in sitemap, Local Schema Active) and the seven main counties
// with their cities. A real source (content/counties.json, content/cities/
// and the sitemap) can implement LocationsSource later without touching
// the screen.

export interface LocationCity { name: string; slug: string }
export interface LocationCounty { name: string; slug: string; cities: LocationCity[] }
export interface LocationsSummary { counties: number; cities: number; sitemapUrls: number; localSchema: "Active" | "Inactive" }
export interface LocationsData { summary: LocationsSummary; counties: LocationCounty[] }

export interface LocationsSource { load(): LocationsData }

export const LOCATIONS_NOT_WIRED = "Editing location pages from the admin is not available yet; county and city pages live in the repository's content/ folder (counties.json and cities/).";

const city = (name: string) => ({ name, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") });

export const sampleLocations: LocationsSource = {
  load: () => ({
    summary: { counties: 7, cities: 26, sitemapUrls: 138, localSchema: "Active" },
    counties: [
      { name: "Fulton", slug: "fulton", cities: ["Atlanta", "Sandy Springs", "Roswell", "Alpharetta", "Johns Creek"].map(city) },
      { name: "DeKalb", slug: "dekalb", cities: ["Decatur", "Dunwoody", "Brookhaven", "Tucker"].map(city) },
      { name: "Cobb", slug: "cobb", cities: ["Marietta", "Smyrna", "Kennesaw", "Acworth"].map(city) },
      { name: "Gwinnett", slug: "gwinnett", cities: ["Lawrenceville", "Duluth", "Norcross", "Snellville"].map(city) },
      { name: "Clayton", slug: "clayton", cities: ["Jonesboro", "Riverdale", "Forest Park"].map(city) },
      { name: "Douglas", slug: "douglas", cities: ["Douglasville", "Villa Rica", "Lithia Springs"].map(city) },
      { name: "Henry", slug: "henry", cities: ["McDonough", "Stockbridge", "Hampton"].map(city) },
    ],
  }),
};
