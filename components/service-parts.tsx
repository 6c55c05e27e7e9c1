import { Icon } from "./icons";
import { LicenceNumber } from "./licence";
import type { ServiceCard, Site } from "./props.gen";

/** ServiceTrustItems is the strip of three trust items below a service
 * page's hero. */
export function ServiceTrustItems({ site }: { site: Site }) {
  const items: [string, string, React.ReactNode][] = [
    ["award", "IICRC Certified Technicians", "Trained to the industry's cleaning and restoration standards"],
    ["shield", "Licensed & Insured", <>Georgia License <LicenceNumber site={site} />, fully insured</>],
    site.emergencyMode ? ["clock", "24/7 Emergency Service", "A live person answers, day or night"] : ["clock", "Call us", site.hours],
  ];
  return (
    <section className="svc-trust" aria-label="Why homeowners trust us">
      <ul className="container svc-trust__list">
        {items.map(([icon, title, text]) => (
          <li key={title} className="svc-trust__item">
            <span className="svc-trust__icon"><Icon name={icon} size={24} /></span>
            <span>
              <span className="svc-trust__title">{title}</span>
              <span className="svc-trust__text">{text}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** ServiceLinkCards are compact cards (icon, title, short description,
 * Learn More) for smaller rows of services. */
export function ServiceLinkCards({ services }: { services: ServiceCard[] }) {
  return (
    <ul className="svc-mini">
      {services.map((s) => (
        <li key={s.slug} className="card svc-mini__card">
          <span className="service-card__icon svc-mini__icon"><Icon name={s.icon} size={22} /></span>
          <div className="svc-mini__body">
            <h3 className="card__title">{s.title}</h3>
            <p>{s.shortDescription}</p>
            <a href={`/services/${s.slug}`} className="card__link" >Learn More<span className="visually-hidden"> about {s.title}</span> <Icon name="arrow-right" size={16} /></a>
          </div>
        </li>
      ))}
    </ul>
  );
}
