// Props shapes shared by the Go loaders (site/props.go) and the pages.
// Pages are pure functions of these props.
import type { Words } from "./words";

/** Head is the shared head of every page (pkgsite's BasePage). */
export interface Head {
  title: string;
  description: string;
  keywords: string[];
  /** Absolute canonical address. */
  canonical: string;
  robots: string;
  ogType: string;
  image: string;
  /** JSON-LD blocks, already serialised (and HTML-escaped) by Go. */
  jsonLd: string[];
  geo: { region: string; placename: string; position: string };
}

export interface Site {
  name: string;
  /** the 24/7 line: every call button, bar, banner and tel: link dials it,
   * in and out of emergency mode (ADR 039) */
  phone: string;
  tel: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  county: string;
  license: string;
  email: string;
  facebook: string;
  instagram: string;
  youtube: string;
  yelp: string;
  reviewUrl: string;
  leadFormUrl: string;
  leadFormScript: string;
  baseUrl: string;
  themeColor: string;
  /** year of the render, for the copyright line */
  year: number;
  /** System Settings' 24/7 emergency mode, decided by Go: every
   * element promising emergency service follows it (components/emergency.tsx). */
  emergencyMode: boolean;
  /** the optional office number the contact page shows beside the hours
   * ("" for none); every other place shows `phone`, the 24/7 line (ADR 039) */
  officePhone: string;
  officeTel: string;
  /** business hours as visitors read them, e.g. "Mon–Fri 8:00 AM–6:00 PM" */
  hours: string;
  /** the groups of the site's wording this page shows (components/words.ts) */
  words: Words;
}

/** Contact is the slice of Site that interactive islands need; islands
 * serialise their props into the page, so they take no more than this. */
export type Contact = Pick<Site, "name" | "emergencyMode" | "phone" | "tel" | "words">;
export type LeadContact = Pick<Site, "phone" | "tel" | "leadFormUrl" | "leadFormScript">;

/** contactOf carries the Buttons group of the wording, the only one the
 * chrome and the call buttons read (components/words.ts). */
export const contactOf = (s: Site): Contact => ({ name: s.name, emergencyMode: s.emergencyMode, phone: s.phone, tel: s.tel, words: { buttons: s.words.buttons } });
export const leadContactOf = (s: Site): LeadContact => ({ phone: s.phone, tel: s.tel, leadFormUrl: s.leadFormUrl, leadFormScript: s.leadFormScript });

export interface LinkItem { slug: string; name: string }

export interface Chrome {
  services: LinkItem[];
  counties: LinkItem[];
  /** whether the portfolio has work to show: the menu's OUR WORK only then */
  portfolio: boolean;
}

export interface PageProps<D> {
  head: Head;
  site: Site;
  chrome: Chrome;
  path: string;
  /** visible breadcrumbs (without Home); empty on the home page */
  breadcrumbs: { name: string; href: string }[];
  data: D;
}

export interface FAQItem { question: string; answer: string }

export interface ServiceCard {
  slug: string;
  title: string;
  shortDescription: string;
  description: string;
  icon: string;
  features: string[];
}

export interface GalleryItem {
  id: string;
  name: string;
  url: string;
  type: "image" | "video";
  projectName: string;
  project: string;
  uploadedAt: string;
  width: number;
  height: number;
  srcset: string;
  /** poster is a video's poster image URL, "" when it has none. */
  poster: string;
  /** caption is the owner's caption, "" for none. */
  caption: string;
  /** alt is the text alternative to show: the owner's, or one naming the
   * project when they wrote none (altDefault). Never the file name. */
  alt: string;
  altDefault?: boolean;
}

export interface Gallery {
  items: GalleryItem[];
  projectCount: number;
}

export interface Review {
  id: string;
  author_name: string;
  review_text: string;
  rating: number;
  created_time: string;
}

/** RatingFigures are the trust section's rating and review count (Go's
 * reviews.Figures): Google Places' when configured, else the owner's from
 * System Settings. */
export interface RatingFigures {
  /** one decimal, e.g. "4.9"; "" when Places has no rating yet */
  rating: string;
  count: number;
  source: "places" | "settings";
  fetchedAt?: string;
}

/** TrustData is the trust section's data besides the reviews. */
export interface TrustData {
  rating: RatingFigures;
  /** Google Places is configured: the empty block may offer the fetch button */
  canFetch: boolean;
}

export interface Category { slug: string; name: string; description: string }

export interface ArticleCard {
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  categoryName: string;
  publishDate: string;
  readTime: number;
}

/** HeroImage is a page's hero or a post's cover photo (site/images.go):
 * the page's LCP candidate, loaded eagerly at high priority. */
export interface HeroImage {
  src: string;
  srcset: string;
  width: number;
  height: number;
  alt: string;
  caption: string;
}

/** HomeTexts are the home page's editable texts (content/home.json). */
export interface HomeTexts {
  heroLead: string;
  banner: string;
  servicesTitle: string;
  servicesLead: string;
  provideTitle: string;
  whyText: string;
}

export interface HomeData {
  texts: HomeTexts;
  hero: HeroImage | null;
  heroCity: string;
  heroCounty: string;
  services: ServiceCard[];
  gallery: Gallery | null;
  reviews: Review[];
  trust: TrustData;
  categories: Category[];
  featured: ArticleCard[];
  latest: ArticleCard[];
  faqs: FAQItem[];
  descriptionFaqs: FAQItem[];
  related: RelatedData;
}

export interface RelatedData {
  services: { slug: string; title: string }[];
  locations: { href: string; name: string }[];
  resources: { href: string; name: string }[];
}
