import { Icon } from "./icons";
import type { ServiceCard } from "./props.gen";

/** ServicesGrid shows service cards: icon, short description, the first
 * three features and Learn More (spec 2.3). */
export function ServicesGrid({ services, title, lead, id }: {
  services: ServiceCard[]; title: string; lead?: string; id?: string;
}) {
  return (
    <section id={id} className="section section--muted" aria-labelledby={`${id || "services"}-title`}>
      <div className="container">
        <h2 id={`${id || "services"}-title`} className="section__title">{title}</h2>
        {lead && <p className="section__lead">{lead}</p>}
        <ul className="cards cards--3">
          {services.map((s) => (
            <li key={s.slug} className="card service-card">
              <span className="service-card__icon"><Icon name={s.icon} size={28} /></span>
              <h3 className="card__title">{s.title}</h3>
              <p>{s.shortDescription}</p>
              <ul className="checklist">
                {s.features.slice(0, 3).map((f) => <li key={f}><Icon name="check" size={16} />{f}</li>)}
              </ul>
              <a href={`/services/${s.slug}`} className="card__link" >Learn More<span className="visually-hidden"> about {s.title}</span> <Icon name="arrow-right" size={16} /></a>
            </li>
          ))}
        </ul>
        <p className="center"><a href="/services" className="btn btn--outline">View All Services</a></p>
      </div>
    </section>
  );
}
