import { Icon } from "./icons";
import { CallButton } from "./emergency";
import type { Site, AreaLink, AreaService, Reason } from "./props.gen";
import { word } from "./words";
import { EstimateLink } from "./estimate-target";

/** AreaServiceCards is a grid of service cards (icon, title, text, Learn
 * More) linking to the service pages. */
export function AreaServiceCards({ id, title, lead, services, muted = false }: {
  id: string; title: string; lead?: string; services: AreaService[]; muted?: boolean;
}) {
  const cols = services.length === 4 ? "cards--4" : "cards--3";
  return (
    <section className={"section" + (muted ? " section--muted" : "")} aria-labelledby={`${id}-title`}>
      <div className="container">
        <h2 id={`${id}-title`} className="section__title">{title}</h2>
        {lead && <p className="section__lead">{lead}</p>}
        <ul className={`cards ${cols} area-services`}>
          {services.map((s) => (
            <li key={s.href + s.title} className="card area-service">
              <span className="service-card__icon"><Icon name={s.icon} size={28} /></span>
              <h3 className="card__title">{s.title}</h3>
              <p>{s.text}</p>
              <a href={s.href} className="card__link" >Learn More<span className="visually-hidden"> about {s.title}</span> <Icon name="arrow-right" size={16} /></a>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** AreaReasons shows the three reasons to choose the company. */
export function AreaReasons({ id, title, reasons, muted = false }: { id: string; title: string; reasons: Reason[]; muted?: boolean }) {
  return (
    <section className={"section" + (muted ? " section--muted" : "")} aria-labelledby={`${id}-title`}>
      <div className="container">
        <h2 id={`${id}-title`} className="section__title">{title}</h2>
        <ul className="cards cards--3 area-reasons">
          {reasons.map((r) => (
            <li key={r.title} className="card area-reason">
              <span className="area-reason__icon"><Icon name="check-circle" size={24} /></span>
              <h3 className="card__title">{r.title}</h3>
              <p>{r.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** AreaLinkGrid is a grid of place links (cities of a county, nearby cities). */
export function AreaLinkGrid({ links, label }: { links: AreaLink[]; label: string }) {
  return (
    <ul className="area-links" aria-label={label}>
      {links.map((l) => (
        <li key={l.href}>
          <a href={l.href} className="area-link">
            <Icon name="map-pin" size={18} />
            <span>{l.name}</span>
            <Icon name="chevron-right" size={16} className="area-link__chev" />
          </a>
        </li>
      ))}
    </ul>
  );
}

/** AreaCTA is the call button and Get Free Estimate banner (to the page's
 * estimate target, ADR 050). */
export function AreaCTA({ site, title, text }: { site: Site; title: string; text: string }) {
  return (
    <section className="area-cta" data-shared="" aria-label="Call or request a free estimate">
      <div className="container area-cta__inner">
        <div className="area-cta__text">
          <p className="area-cta__title">{title}</p>
          <p>{text}</p>
        </div>
        <div className="area-cta__actions">
          <CallButton site={site} className="btn btn--danger btn--lg" size={20} />
          <EstimateLink className="btn btn--white btn--lg area-cta__estimate">{word(site, "buttons", "estimate")}</EstimateLink>
        </div>
      </div>
    </section>
  );
}
