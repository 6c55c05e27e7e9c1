import { Layout, EmergencyBanner } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { QuoteSection } from "../components/quote";
import { FAQ } from "../components/faq";
import { RelatedGrid } from "../components/related-links";
import { Icon } from "../components/icons";
import { callUs, em } from "../components/emergency";
import { AreaCTA, AreaLinkGrid, AreaReasons, AreaServiceCards } from "../components/area-blocks";
import type { PageProps } from "../components/types";
import type { Site, CityData } from "../components/props.gen";
import "../styles/area.css";
import { JobsBlock } from "../components/jobs";
import { word } from "../components/words";
import { LicenceNumber } from "../components/licence";
import { Testimonials } from "../components/testimonials";

/** StatCards are the three stat cards of the generic city page. */
function StatCards({ site }: { site: Site }) {
  const stats = [
    { icon: "clock", value: word(site, "times", "emergency"), label: "Response" },
    { icon: "shield", value: "Licensed", label: <>&amp; Insured · License <LicenceNumber site={site} /></> },
    { icon: "file-text", value: "Direct", label: "Insurance Billing" },
  ];
  return (
    <section className="area-statcards-wrap" data-shared="" aria-label="Why homeowners call us">
      <div className="container">
        <ul className="area-statcards">
          {stats.map((s) => (
            <li key={s.value} className="area-statcard">
              <span className="area-statcard__icon"><Icon name={s.icon} size={26} /></span>
              <span className="area-statcard__value">{s.value}</span>
              <span className="area-statcard__label">{s.label}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** City is the generic city page, /areas/{county}/{slug}. */
export default function City(props: PageProps<CityData>) {
  const { site, data } = props;
  const countyHref = `/service-areas/${data.countySlug}`;
  return (
    <Layout props={props} form>
      <PageHero site={site} badge={`Serving ${data.city}, ${data.county} County`} title={data.heading} lead={data.intro} photo={data.hero} />
      <EmergencyBanner site={site} title={`Water, Fire or Storm Emergency in ${data.city}?`} />
      {data.description && (
        <section className="section" aria-labelledby="city-about-title">
          <div className="container container--narrow">
            <h2 id="city-about-title" className="section__title">Restoring {data.city} Homes and Businesses</h2>
            <p className="area-prose area-prose--lead">{data.description}</p>
            <p className="center area-county-back">
              <a href={countyHref} className="card__link"><Icon name="map-pin" size={16} /> More cities in {data.county} County</a>
            </p>
          </div>
        </section>
      )}
      <AreaServiceCards id="city-services" title={`Our Services in ${data.city}`}
        lead={`Emergency mitigation, cleanup and complete repairs for ${data.city} properties, from one licensed team.`}
        services={data.services} muted />
      <StatCards site={site} />
      <JobsBlock id="recent-work" section={data.recentWork} site={site} />
      <QuoteSection site={site} height={900} title={`Get Your Free Estimate in ${data.city}`} presets={{ city: data.city }} />
      <AreaReasons id="city-reasons" title={`Why ${data.city} Chooses Us`} reasons={data.reasons} />
      <Testimonials site={site} quotes={data.quotes} id="city-testimonials" />
      {data.nearby.length > 0 && (
        <section className="section section--muted" aria-labelledby="city-nearby-title">
          <div className="container">
            <h2 id="city-nearby-title" className="section__title">Nearby Areas We Serve</h2>
            <p className="section__lead">Our crews also cover the communities around {data.city}.</p>
            <AreaLinkGrid links={data.nearby} label={`Cities near ${data.city}`} />
          </div>
        </section>
      )}
      <AreaCTA site={site} title={`Need Restoration Help in ${data.city}?`}
        text={em(site, "Call now for 24/7 emergency service, or request a free, no-obligation estimate online.", `${callUs(site)}, or request a free, no-obligation estimate online.`)} />
      <FAQ title={`${data.city} Restoration FAQ`} faqs={data.faqs} schemaId={`city-${data.countySlug}-${data.slug}-faq`} site={site} />
      <RelatedGrid current={props.path} site={site} />
    </Layout>
  );
}
