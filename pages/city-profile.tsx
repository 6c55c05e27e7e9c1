import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { QuoteSection } from "../components/quote";
import { FAQ } from "../components/faq";
import { RelatedGrid } from "../components/related-links";
import { Icon } from "../components/icons";
import { callUs, em } from "../components/emergency";
import { AreaCTA, AreaReasons, AreaServiceCards } from "../components/area-blocks";
import type { PageProps } from "../components/types";
import type { CityProfileData } from "../components/props.gen";
import "../styles/area.css";
import { JobsBlock } from "../components/jobs";
import { Testimonials } from "../components/testimonials";

/** CityProfile is one of the four fixed city pages (Douglasville, Atlanta,
 * Marietta, Lawrenceville): emergency badge, hero with call link,
 * neighborhoods and landmarks, zip codes, four services, three reasons and
 * the profile's five questions. */
export default function CityProfile(props: PageProps<CityProfileData>) {
  const { site, data } = props;
  return (
    <Layout props={props} form>
      <PageHero site={site} title={data.heading} lead={data.intro} photo={data.hero}>
        <p className="area-badge-row">
          <span className="area-emergency-badge"><Icon name="alert-triangle" size={16} /> {em(site, `24/7 Emergency Service in ${data.city}`, callUs(site))}</span>
          <span className="hero__badge"><Icon name="map-pin" size={16} /> {data.county} County, GA</span>
        </p>
      </PageHero>
      <section className="section" aria-labelledby="local-title">
        <div className="container">
          <h2 id="local-title" className="section__title">Local Restoration Across {data.city}</h2>
          <p className="section__lead">Our crews know {data.city}'s neighborhoods, housing and storm risks.</p>
          <div className="cards cards--3 area-local">
            <div className="card">
              <h3 className="card__title"><Icon name="home" size={20} /> Neighborhoods We Serve</h3>
              <ul className="area-tags">
                {data.neighborhoods.map((n) => <li key={n}>{n}</li>)}
              </ul>
            </div>
            <div className="card">
              <h3 className="card__title"><Icon name="map-pin" size={20} /> Near Local Landmarks</h3>
              <ul className="area-tags">
                {data.landmarks.map((l) => <li key={l}>{l}</li>)}
              </ul>
            </div>
            <div className="card">
              <h3 className="card__title"><Icon name="mail" size={20} /> ZIP Codes We Serve</h3>
              <ul className="area-tags area-tags--zip">
                {data.zipCodes.map((z) => <li key={z}>{z}</li>)}
              </ul>
              <p className="area-local__note">Plus every other ZIP code in {data.county} County.</p>
            </div>
          </div>
        </div>
      </section>
      <JobsBlock id="recent-work" section={data.recentWork} site={site} muted />
      <AreaServiceCards id="profile-services" title={`Restoration Services in ${data.city}`} services={data.services} muted={!data.recentWork} />
      <AreaReasons id="profile-reasons" title={`Why ${data.city} Chooses Us`} reasons={data.reasons} />
      <Testimonials site={site} quotes={data.quotes} id="profile-testimonials" />
      <QuoteSection site={site} height={900} title={`Get Your Free Estimate in ${data.city}`} presets={{ city: data.city }} />
      <AreaCTA site={site} title={`Damage at Your ${data.city} Property?`}
        text={em(site, "Call now for 24/7 emergency service, or request a free, no-obligation estimate online.", `${callUs(site)}, or request a free, no-obligation estimate online.`)} />
      <FAQ title={`${data.city} Restoration FAQ`} faqs={data.faqs} schemaId={`profile-${data.countySlug}-${data.city.toLowerCase()}-faq`} site={site} />
      <RelatedGrid current={props.path} site={site} />
    </Layout>
  );
}
