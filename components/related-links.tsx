import { Icon } from "./icons";
import { CallButton, callUs, em } from "./emergency";
import type { RelatedData, Site } from "./props.gen";
import { word } from "./words";
import { EstimateLink } from "./estimate-target";

/** RelatedLinks is block (a) of spec 2.3: up to 3 related services, 4
 * location links, 3 resource links and an emergency call to action. */
export function RelatedLinks({ related, site }: { related: RelatedData; site: Site }) {
  return (
    <section className="section section--muted" aria-labelledby="related-title">
      <div className="container">
        <h2 id="related-title" className="section__title">Related Services &amp; Resources</h2>
        <div className="related">
          <nav aria-label="Related services">
            <h3 className="card__title">Related Services</h3>
            <ul>{related.services.map((s) => <li key={s.slug}><a href={`/services/${s.slug}`}>{s.title}</a></li>)}</ul>
          </nav>
          <nav aria-label="Locations">
            <h3 className="card__title">Popular Locations</h3>
            <ul>{related.locations.map((l) => <li key={l.href}><a href={l.href}>{l.name}</a></li>)}</ul>
          </nav>
          <nav aria-label="Resources">
            <h3 className="card__title">Resources</h3>
            <ul>{related.resources.map((l) => <li key={l.href}><a href={l.href}>{l.name}</a></li>)}</ul>
          </nav>
          <div className="card card--danger">
            <p className="card__title">Need Help Now?</p>
            <p>{em(site, "Emergency crews are ready 24/7.", `${callUs(site)}.`)}</p>
            <CallButton site={site} className="btn btn--white btn--block" />
            <EstimateLink className="btn btn--outline-white btn--block">{word(site, "buttons", "estimate")}</EstimateLink>
          </div>
        </div>
      </div>
    </section>
  );
}

/** LINK_CARDS are the 12 fixed cards of block (b), in 4 categories. */
export const LINK_CARDS = [
  { category: "service", href: "/services/water-damage-restoration", title: "Water Damage Restoration", text: "Extraction, drying and repairs after leaks and floods." },
  { category: "service", href: "/services/fire-damage-restoration", title: "Fire Damage Restoration", text: "Smoke, soot and structural repairs after a fire." },
  { category: "service", href: "/services/storm-damage-repair", title: "Storm Damage Repair", text: "Tarping, tree damage and roof repairs after storms." },
  { category: "service", href: "/services/mold-remediation", title: "Mold Remediation", text: "Containment and removal of mold growth." },
  { category: "location", href: "/areas/fulton/atlanta-service", title: "Atlanta Restoration", text: "Restoration services across Atlanta." },
  { category: "location", href: "/areas/douglas/douglasville", title: "Douglasville Restoration", text: "Our home base in Douglas County." },
  { category: "location", href: "/areas/cobb/marietta", title: "Marietta Restoration", text: "Fast help across Marietta and Cobb County." },
  { category: "location", href: "/service-areas", title: "All Service Areas", text: "Eleven counties across metro Atlanta." },
  { category: "emergency", href: "/emergency", title: "24/7 Emergency Service", text: "What to do right now and how we respond." },
  { category: "emergency", href: "/water-damage-restoration-atlanta", title: "Emergency Water Removal", text: "Burst pipes, sewage backups and flooding." },
  { category: "info", href: "/services/insurance-claims", title: "Insurance Claim Help", text: "Documentation and direct insurance billing." },
  { category: "info", href: "/blog", title: "Restoration Guides", text: "Tips and guides from our team." },
];

/** RelatedGrid is block (b): the fixed link cards minus the current page,
 * at most 8, with an emergency help card below. */
export function RelatedGrid({ current, site }: { current: string; site: Site }) {
  const cards = LINK_CARDS.filter((c) => c.href !== current).slice(0, 8)
    .map((c) => (c.href === "/emergency" && !site.emergencyMode ? { ...c, title: "Emergency Help" } : c));
  return (
    <section className="section section--muted" data-shared="" aria-labelledby="related-grid-title">
      <div className="container">
        <h2 id="related-grid-title" className="section__title">Related Services &amp; Areas</h2>
        <ul className="cards cards--4">
          {cards.map((c) => (
            <li key={c.href} className={`card link-card link-card--${c.category}`}>
              <span className="pill">{c.category}</span>
              <h3 className="card__title">{c.title}</h3>
              <p>{c.text}</p>
              <a href={c.href} className="card__link" >Learn More<span className="visually-hidden">: {c.title}</span> <Icon name="arrow-right" size={16} /></a>
            </li>
          ))}
        </ul>
        <div className="card card--danger help-card">
          <p className="card__title">{em(site, "Emergency Help, Day or Night", callUs(site))}</p>
          <CallButton site={site} className="btn btn--white" />
        </div>
      </div>
    </section>
  );
}
