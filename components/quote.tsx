import { Icon } from "./icons";
import { LeadForm } from "./lead-form";
import { Island } from "./island";
import { CallButton, em } from "./emergency";
import type { FormPresets } from "./estimate-form";
import { leadContactOf } from "./types";
import type { Site } from "./props.gen";
import { formWordsOf, word } from "./words";

/** QuoteSection is the embedded quote section (anchor contact-form): the
 * lead form, the red 24/7 card, the why-choose checklist and the
 * response-times card (spec 2.3). Its texts, claims and figures are the
 * site's wording (groups "form", "times" and "figures"). */
export function QuoteSection({ site, height = 900, title = "Get Your Free Estimate", emergencyTime = "areas", presets }: {
  site: Site; height?: number; title?: string;
  /** the answers this page already knows (ADR 052); none on a page that
   * is about no one service, place or emergency */
  presets?: FormPresets;
  /** which response time is the emergency arrival claim: spec 1 assigns it
   * per page (the city and county arrival by default, the water damage
   * arrival on the water damage page) */
  emergencyTime?: "areas" | "water";
}) {
  const fig = (key: string) => word(site, "figures", key);
  const reasons = ["IICRC certified technicians", "State licensed and insured", "Direct insurance billing", "Free, written estimates", "Daily job photos sent to homeowners", `${fig("years")} years and ${fig("projects")} projects`];
  return (
    <section id="contact-form" className="section section--muted" data-shared="" aria-labelledby="quote-title">
      <div className="container quote">
        <div className="quote__form">
          <h2 id="quote-title" className="section__title section__title--left">{title}</h2>
          <p>{word(site, "form", "intro")}</p>
          <Island name="leadform" component={LeadForm} props={{ site: leadContactOf(site), height, words: formWordsOf(site), presets }} />
        </div>
        <aside className="quote__side" aria-label="Emergency and response times">
          <div className="card card--danger">
            <p className="card__title"><Icon name="alert-triangle" size={22} /> {em(site, "24/7 Emergency Service", "Call us")}</p>
            <p>{em(site, "Water pouring in, fire or storm damage? Don't wait for a callback.", `Water pouring in, fire or storm damage? Our office is open ${site.hours}.`)}</p>
            <CallButton site={site} className="btn btn--white btn--block" />
          </div>
          <div className="card">
            <p className="card__title">Why Choose Us</p>
            <ul className="checklist">{reasons.map((r) => <li key={r}><Icon name="check" size={16} />{r}</li>)}</ul>
          </div>
          <div className="card">
            <p className="card__title"><Icon name="clock" size={20} /> Response Times</p>
            <dl className="times">
              <div><dt>Emergency</dt><dd>{word(site, "times", emergencyTime)}</dd></div>
              <div><dt>Non-emergency</dt><dd>{word(site, "times", "visit")}</dd></div>
            </dl>
          </div>
        </aside>
      </div>
    </section>
  );
}
