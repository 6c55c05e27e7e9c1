// Schema Management data: fixed sample schema records and validation
// results (spec 3), plus the two read-only JSON-LD templates built from the
// business details the page already has. A real source (the JSON-LD the
// server actually emits, checked by a validator) can implement
// SchemaSource later without touching the screen.
import type { Site } from "../../components/types";

export type SchemaStatus = "active" | "missing";
export type SchemaPriority = "critical" | "high" | "medium" | "low";
export interface SchemaRecord { type: string; status: SchemaStatus; pages: number; description: string; priority: SchemaPriority }
export interface SchemaValidation { type: string; valid: boolean; errors: string[]; warnings: string[] }
export interface SchemaTemplate { type: "LocalBusiness" | "Service"; description: string; fileName: string; json: Record<string, unknown> }

export interface SchemaSource {
  records(): SchemaRecord[];
  validate(): SchemaValidation[];
  /** pagesCovered is the number of pages carrying at least one schema. */
  pagesCovered(): number;
  templates(site: Site): SchemaTemplate[];
}

/** GENERATOR_TYPES are the Schema Generator's type options (spec 2.4). */
export const GENERATOR_TYPES = ["LocalBusiness", "Service", "Article", "FAQ", "Review"] as const;

export const GENERATOR_NOT_WIRED = "Generating schema from the admin is not available yet; the server adds structured data to every page from its templates.";

/** VALIDATE_DELAY_MS is spec 9's 2 s schema validation ("Validate All"). */
export const VALIDATE_DELAY_MS = 2000;

/** DEFAULT_VALIDATION_SCORE is shown when there is nothing to score (spec 5). */
export const DEFAULT_VALIDATION_SCORE = 98;

/** validationScore is the share of valid results as a whole percentage,
 * or 98 when there are no results. */
export function validationScore(results: SchemaValidation[]): number {
  if (results.length === 0) return DEFAULT_VALIDATION_SCORE;
  return Math.round((results.filter((r) => r.valid).length / results.length) * 100);
}

const telephone = (phone: string) => {
  const d = phone.replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");
  return d.length === 10 ? `+1-${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}` : phone;
};

export const COUNTIES = ["Fulton", "DeKalb", "Gwinnett", "Cobb", "Clayton", "Douglas", "Henry"];

export const sampleSchema: SchemaSource = {
  records: () => [
    { type: "LocalBusiness", status: "active", pages: 138, description: "Business name, phone, address, hours, service area and rating on every page.", priority: "critical" },
    { type: "Organization", status: "active", pages: 138, description: "Company identity, logo and social profiles.", priority: "high" },
    { type: "Service", status: "active", pages: 104, description: "Each restoration service, on service, county and city pages.", priority: "high" },
    { type: "BreadcrumbList", status: "active", pages: 137, description: "Breadcrumb trail on every inner page.", priority: "medium" },
    { type: "FAQPage", status: "active", pages: 96, description: "Questions and answers from the FAQ blocks.", priority: "medium" },
    { type: "Article", status: "active", pages: 5, description: "Blog posts with headline, dates and publisher.", priority: "medium" },
    { type: "Review", status: "missing", pages: 0, description: "Individual customer reviews next to the aggregate rating.", priority: "low" },
    { type: "VideoObject", status: "missing", pages: 0, description: "Project videos in the portfolio gallery.", priority: "low" },
  ],
  validate: () => [
    { type: "LocalBusiness", valid: true, errors: [], warnings: ["Review counts differ between blocks (79, 87, 150 and 247)."] },
    { type: "Organization", valid: true, errors: [], warnings: ["One block shows a different licence number."] },
    { type: "Service", valid: true, errors: [], warnings: [] },
    { type: "BreadcrumbList", valid: true, errors: [], warnings: [] },
    { type: "FAQPage", valid: true, errors: [], warnings: ["Some answers repeat on several pages."] },
    { type: "Article", valid: false, errors: ["publisher.logo is missing."], warnings: ["image is recommended for rich results."] },
  ],
  pagesCovered: () => 138,
  templates: (site) => {
    const base = site.baseUrl.replace(/\/$/, "");
    return [
      {
        type: "LocalBusiness",
        description: "The business block every page carries.",
        fileName: "localbusiness-schema.json",
        json: {
          "@context": "https://schema.org",
          "@type": ["LocalBusiness", "GeneralContractor"],
          "@id": `${base}/#business`,
          name: site.name,
          url: `${base}/`,
          telephone: telephone(site.phone),
          priceRange: "$$",
          address: {
            "@type": "PostalAddress",
            streetAddress: site.street,
            addressLocality: site.city,
            addressRegion: site.state,
            postalCode: site.zip,
            addressCountry: "US",
          },
          openingHoursSpecification: {
            "@type": "OpeningHoursSpecification",
            dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
            opens: "00:00",
            closes: "23:59",
          },
          areaServed: COUNTIES.map((c) => ({ "@type": "AdministrativeArea", name: `${c} County, Georgia` })),
          aggregateRating: { "@type": "AggregateRating", ratingValue: "4.9", reviewCount: "79", bestRating: "5" },
        },
      },
      {
        type: "Service",
        description: "One restoration service, linked to the business.",
        fileName: "service-schema.json",
        json: {
          "@context": "https://schema.org",
          "@type": "Service",
          "@id": `${base}/services/water-damage-restoration#service`,
          name: "Water Damage Restoration",
          serviceType: "Water damage restoration",
          description: "24/7 emergency water extraction, structural drying and repairs with direct insurance billing.",
          url: `${base}/services/water-damage-restoration`,
          provider: { "@id": `${base}/#business` },
          areaServed: COUNTIES.map((c) => ({ "@type": "AdministrativeArea", name: `${c} County, Georgia` })),
        },
      },
    ];
  },
};
