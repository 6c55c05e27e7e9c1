import { Icon } from "./icons";
import { CallButton, callUs, em } from "./emergency";
import { HeroPhoto } from "./page-hero";
import type { HeroImage, Site } from "./types";

/** Hero is the 600 px home hero with its city variant (spec 2.3); lead is
 * the owner's sub-line after the response claim, photo the owner's hero
 * photo (issue 22). */
export function Hero({ site, city, county, lead, photo }: { site: Site; city: string; county: string; lead: string; photo?: HeroImage | null }) {
  return (
    <section id="hero" className={photo ? "hero hero--photo" : "hero"} aria-labelledby="hero-title">
      <HeroPhoto photo={photo} />
      <div className="container hero__inner">
        <p className="hero__badge"><Icon name="map-pin" size={16} /> Serving {city}, {county} County</p>
        <h1 id="hero-title" className="hero__title">Water, Fire &amp; Storm Restoration in {city}, {county} County</h1>
        <p className="hero__lead">{em(site, "24/7 emergency response within 60 minutes.", `${callUs(site)}.`)} {lead}</p>
        <div className="hero__actions">
          <a href="#contact-form" className="btn btn--primary btn--lg">Get Free Estimate</a>
          <CallButton site={site} className="btn btn--danger btn--lg" size={20} label="Call Now for Emergency Help" />
        </div>
        <ul className="hero__points">
          <li><Icon name="check-circle" size={18} /> 20+ Years in Business</li>
          <li><Icon name="check-circle" size={18} /> 1000+ Projects</li>
          <li><Icon name="check-circle" size={18} /> 99% Customer Satisfaction</li>
        </ul>
      </div>
    </section>
  );
}
