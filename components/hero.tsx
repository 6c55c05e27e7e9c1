import { Icon } from "./icons";
import { CallButton, callUs, em } from "./emergency";
import { HeroPhoto } from "./page-hero";
import type { HeroImage, Site } from "./props.gen";
import { word } from "./words";
import { useEstimateHref } from "./estimate-target";

/** Hero is the 600 px home hero with its city variant (spec 2.3): its
 * badge, headline, promise, buttons and check marks are the site's
 * wording (group "home"), the office's city and county filled in; lead is
 * the owner's sub-line after the response claim, photo the owner's hero
 * photo. */
export function Hero({ site, lead, photo }: { site: Site; lead: string; photo?: HeroImage | null }) {
  const w = (key: string) => word(site, "home", key);
  const estimate = useEstimateHref();
  return (
    <section id="hero" className={photo ? "hero hero--photo" : "hero"} aria-labelledby="hero-title">
      <HeroPhoto photo={photo} />
      <div className="container hero__inner">
        <p className="hero__badge"><Icon name="map-pin" size={16} /> {w("badge")}</p>
        <h1 id="hero-title" className="hero__title">{w("headline")}</h1>
        <p className="hero__lead">{em(site, w("claim"), `${callUs(site)}.`)} {lead}</p>
        <div className="hero__actions">
          <a href={estimate} className="btn btn--primary btn--lg">{word(site, "buttons", "estimate")}</a>
          <CallButton site={site} className="btn btn--danger btn--lg" size={20} label={w("callButton")} />
        </div>
        <ul className="hero__points">
          {["point1", "point2", "point3"].map((k) => <li key={k}><Icon name="check-circle" size={18} /> {w(k)}</li>)}
        </ul>
      </div>
    </section>
  );
}
