import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { FAQ } from "../components/faq";
import { RelatedGrid } from "../components/related-links";
import { Icon } from "../components/icons";
import { CallButton, callUs, em } from "../components/emergency";
import { AreaReasons, AreaServiceCards } from "../components/area-blocks";
import type { PageProps } from "../components/types";
import type { Site, CountyData, CountyProfileView } from "../components/props.gen";
import "../styles/area.css";
import { JobsBlock } from "../components/jobs";
import { word } from "../components/words";

function CountyProfile({ name, profile, site }: { name: string; profile: CountyProfileView; site: Site }) {
  const stats: [string, string][] = [
    [profile.population, "Population"],
    [String(profile.citiesServed), "Cities Served"],
    [`${profile.squareMiles} sq mi`, "Area Covered"],
    site.emergencyMode ? ["24/7", "Emergency Service"] : ["Call us", site.hours],
  ];
  return (
    <section className="section" aria-labelledby="county-about-title">
      <div className="container">
        <ul className="area-stats" aria-label={`${name} County at a glance`}>
          {stats.map(([v, l]) => (
            <li key={l}><span className="area-stats__value">{v}</span><span className="area-stats__label">{l}</span></li>
          ))}
        </ul>
        <div className="area-two-col">
          <div>
            <h2 id="county-about-title" className="section__title section__title--left">About {name} County</h2>
            <p className="area-prose">{profile.description}</p>
            {profile.features.length > 0 && (
              <ul className="checklist area-features">
                {profile.features.map((f) => <li key={f}><Icon name="check" size={16} />{f}</li>)}
              </ul>
            )}
          </div>
          <div className="area-side">
            <div className="card area-damage">
              <h3 className="card__title"><Icon name="alert-triangle" size={20} /> Common Damage in {name} County</h3>
              <ul className="area-damage__list">
                {profile.commonDamage.map((d) => <li key={d}>{d}</li>)}
              </ul>
            </div>
            <nav className="card area-four" aria-label={`Services in ${name} County`}>
              <h3 className="card__title">Our Services in {name} County</h3>
              <ul>
                {profile.services.map((s) => (
                  <li key={s.href}>
                    <a href={s.href}><span className="area-four__icon"><Icon name={s.icon} size={20} /></span>{s.title}<Icon name="chevron-right" size={16} className="area-link__chev" /></a>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        </div>
      </div>
    </section>
  );
}

function EmergencyCTA({ site, name }: { site: Site; name: string }) {
  return (
    <section className="section" aria-labelledby="county-emergency-title">
      <div className="container">
        <div className="card card--danger area-emergency">
          <div>
            <h2 id="county-emergency-title" className="area-emergency__title"><Icon name="alert-triangle" size={26} /> Emergency in {name} County?</h2>
            <p>{em(site, `Water pouring in, fire or storm damage? Our crews are on call 24/7 and typically arrive within ${word(site, "times", "areas")}.`,
              `Water pouring in, fire or storm damage? ${callUs(site)}: our crews typically arrive within ${word(site, "times", "areas")}.`)}</p>
          </div>
          <div className="area-emergency__actions">
            <a href="/contact" className="btn btn--white btn--lg">Request Emergency Service</a>
            <CallButton site={site} className="btn btn--outline-white btn--lg" size={20} />
          </div>
        </div>
      </div>
    </section>
  );
}

/** County is /service-areas/{county}: its cities as cards, three service
 * cards and an emergency call to action; the seven fixed counties add
 * their profile, reasons and a five-question FAQ. */
export default function County(props: PageProps<CountyData>) {
  const { site, data } = props;
  const p = data.profile;
  return (
    <Layout props={props}>
      <PageHero
        site={site}
        photo={data.hero}
        badge={`Serving ${data.name} County, Georgia`}
        title={`Water, Fire & Storm Damage Restoration in ${data.name} County`}
        lead={data.intro}
      />
      {p && <CountyProfile name={data.name} profile={p} site={site} />}
      <section className={"section" + (p ? " section--muted" : "")} aria-labelledby="county-cities-title">
        <div className="container">
          <h2 id="county-cities-title" className="section__title">Cities We Serve in {data.name} County</h2>
          <p className="section__lead">Select your city for local details, nearby areas and answers to common questions.</p>
          <ul className="cards cards--3 area-city-cards">
            {data.cities.map((c) => (
              <li key={c.href} className="card area-city-card">
                <h3 className="card__title"><Icon name="map-pin" size={18} /> <a href={c.href}>{c.name}</a></h3>
                {c.text && <p>{c.text}</p>}
                <a href={c.href} className="card__link">View {c.name} <Icon name="arrow-right" size={16} /></a>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <JobsBlock id="recent-work" section={data.recentWork} site={site} muted={!p} />
      <AreaServiceCards id="county-services" title={`Restoration Services in ${data.name} County`} services={data.services} muted={!p} />
      {p && <AreaReasons id="county-reasons" title={`Why ${data.name} County Chooses Us`} reasons={p.reasons} muted />}
      <EmergencyCTA site={site} name={data.name} />
      {p && p.faqs.length > 0 && (
        <FAQ title={`${data.name} County Restoration FAQ`} faqs={p.faqs} schemaId={`county-${data.slug}-faq`} site={site} />
      )}
      <RelatedGrid current={props.path} site={site} />
    </Layout>
  );
}
