import { Layout, EmergencyBanner } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { RelatedGrid } from "../components/related-links";
import { Icon } from "../components/icons";
import { callUs, em } from "../components/emergency";
import type { PageProps } from "../components/types";
import type { ServiceAreasData } from "../components/props.gen";
import "../styles/area.css";
import { word } from "../components/words";

/** ServiceAreas is /service-areas: every county with its city count, the
 * first 5 city links, '+ N more cities' and a link to the county page. */
export default function ServiceAreas(props: PageProps<ServiceAreasData>) {
  const { site, data } = props;
  return (
    <Layout props={props}>
      <PageHero
        site={site}
        badge={em(site, "24/7 Emergency Service Across Metro Atlanta", `Serving Metro Atlanta · ${callUs(site)}`)}
        title="Our Service Areas"
        lead={`Water, fire and storm damage restoration in ${data.cityTotal} cities across ${data.counties.length} metro Atlanta counties. For emergencies our crews typically arrive within ${word(site, "times", "areas")}.`}
      />
      <section className="section" aria-labelledby="counties-title">
        <div className="container">
          <h2 id="counties-title" className="section__title">Counties We Serve</h2>
          <p className="section__lead">Choose your county to see every city we cover, or pick your city below.</p>
          <ul className="cards cards--3 area-counties">
            {data.counties.map((c) => (
              <li key={c.slug} className="card area-county">
                <div className="area-county__head">
                  <h3 className="card__title"><Icon name="map-pin" size={20} /> <a href={c.href}>{c.name} County</a></h3>
                  <span className="pill area-county__count">{c.cityCount} {c.cityCount === 1 ? "city" : "cities"}</span>
                </div>
                <ul className="area-county__cities" aria-label={`Cities in ${c.name} County`}>
                  {c.cities.map((ci) => (
                    <li key={ci.href}><a href={ci.href}><Icon name="chevron-right" size={14} />{ci.name}</a></li>
                  ))}
                </ul>
                {c.more > 0 && <p className="area-county__more">{`+ ${c.more} more ${c.more === 1 ? "city" : "cities"}`}</p>}
                <a href={c.href} className="btn btn--outline area-county__link">View {c.name} County <Icon name="arrow-right" size={16} /></a>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <EmergencyBanner site={site} title="Emergency in Your Area? Call Now" />
      <RelatedGrid current={props.path} site={site} />
    </Layout>
  );
}
