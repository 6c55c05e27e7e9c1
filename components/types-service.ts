// Props shapes of the service pages (site/services.go).
import type { FAQItem, RelatedData, ServiceCard, HeroImage } from "./types";

/** ServicesData is the /services listing's data. */
export interface ServicesData {
  /** the six primary services, in grid order */
  services: ServiceCard[];
  /** the supplementary services (mold, emergency cleanup, roof repair) */
  more: ServiceCard[];
  faqs: FAQItem[];
}

export interface ServiceDetail extends ServiceCard {
  primary: boolean;
  /** paragraphs of the service record */
  body: string[];
}

/** ServiceData is a /services/{slug} page's data. */
export interface ServiceData {
  service: ServiceDetail;
  faqs: FAQItem[];
  /** the first three other primary services */
  relatedServices: ServiceCard[];
  related: RelatedData;
  hero: HeroImage | null;
  /** the estimate form's preset type of damage, "" when the service is
   * not one kind of damage */
  damageType: string;
}

export interface WaterArea { name: string; href: string }

/** WaterLandingData is the water damage landing page's data. */
export interface WaterLandingData {
  areas: WaterArea[];
}
