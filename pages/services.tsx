import "../styles/service.css";
import { Layout, EmergencyBanner } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { FAQ } from "../components/faq";
import { Icon } from "../components/icons";
import { ServiceTrustItems, ServiceLinkCards } from "../components/service-parts";
import type { PageProps } from "../components/types";
import type { ServicesData } from "../components/props.gen";
import { word } from "../components/words";

/** Services is the /services listing (spec 2.3): hero, three trust items,
 * the six primary services with their full feature lists, a smaller row of
 * the supplementary services, an emergency banner and the FAQ. */
export default function Services(props: PageProps<ServicesData>) {
  const { site, data } = props;
  return (
    <Layout props={props}>
      <div className="svc-page">
        <PageHero site={site} badge={word(site, "services", "badge")}
          title={word(site, "services", "headline")}
          lead="One licensed team for the emergency and the rebuild: water, fire and storm damage restoration, mold remediation, roof repair, remodeling and help with your insurance claim." />
        <ServiceTrustItems site={site} />

        <section id="services" className="section section--muted" aria-labelledby="svc-grid-title">
          <div className="container">
            <h2 id="svc-grid-title" className="section__title">Our Core Services</h2>
            <p className="section__lead">Every job starts with a free estimate and ends with a final walk-through. Pick a service to see how we handle it, step by step.</p>
            <ul className="cards cards--3 svc-grid">
              {data.services.map((s) => (
                <li key={s.slug} className="card svc-card">
                  <span className="service-card__icon"><Icon name={s.icon} size={28} /></span>
                  <h3 className="card__title">{s.title}</h3>
                  <p>{s.description}</p>
                  <ul className="checklist svc-card__features" aria-label={`${s.title} includes`}>
                    {s.features.map((f) => <li key={f}><Icon name="check" size={16} />{f}</li>)}
                  </ul>
                  <a href={`/services/${s.slug}`} className="btn btn--outline svc-card__more">
                    Learn More<span className="visually-hidden"> about {s.title}</span> <Icon name="arrow-right" size={16} />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </section>

        {data.more.length > 0 && (
          <section className="section svc-more" aria-labelledby="svc-more-title">
            <div className="container">
              <h2 id="svc-more-title" className="section__title">More Services</h2>
              <p className="section__lead">Specialized work our crews handle on its own or as part of a larger restoration job.</p>
              <ServiceLinkCards services={data.more} />
            </div>
          </section>
        )}

        <EmergencyBanner site={site} title="Damage Happening Right Now?" />

        <FAQ title="Questions About Our Services" faqs={data.faqs} schemaId="services-faq" site={site}
          intro="Straight answers to what homeowners ask us most before they call." />
      </div>
    </Layout>
  );
}
