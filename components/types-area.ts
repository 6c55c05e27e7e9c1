// Props of the area pages (site/areas.go fills them).
import type { FAQItem, HeroImage } from "./types";

export interface AreaLink { name: string; href: string }

export interface AreaService { title: string; text: string; href: string; icon: string }

export interface Reason { title: string; text: string }

export interface CountySummary {
  slug: string;
  name: string;
  intro: string;
  href: string;
  cityCount: number;
  /** the first 5 cities */
  cities: AreaLink[];
  /** how many cities beyond the first 5 */
  more: number;
}

export interface ServiceAreasData {
  counties: CountySummary[];
  cityTotal: number;
}

export interface CountyCityCard { name: string; href: string; text: string }

export interface CountyProfileView {
  description: string;
  population: string;
  squareMiles: string;
  citiesServed: number;
  features: string[];
  commonDamage: string[];
  services: AreaService[];
  reasons: Reason[];
  faqs: FAQItem[];
}

export interface CountyData {
  slug: string;
  name: string;
  intro: string;
  cities: CountyCityCard[];
  services: AreaService[];
  /** only for the seven fixed county pages */
  profile: CountyProfileView | null;
  hero: HeroImage | null;
}

export interface CityData {
  city: string;
  slug: string;
  county: string;
  countySlug: string;
  heading: string;
  intro: string;
  description: string;
  services: AreaService[];
  reasons: Reason[];
  nearby: AreaLink[];
  faqs: FAQItem[];
  hero: HeroImage | null;
}

export interface CityProfileData {
  city: string;
  county: string;
  countySlug: string;
  heading: string;
  intro: string;
  zipCodes: string[];
  landmarks: string[];
  neighborhoods: string[];
  services: AreaService[];
  reasons: Reason[];
  faqs: FAQItem[];
  hero: HeroImage | null;
}
