import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { QuoteSection } from "../components/quote";
import { Icon } from "../components/icons";
import { CallButton, callUs, em } from "../components/emergency";
import type { PageProps } from "../components/types";
import type { ContactData } from "../components/props.gen";
import { word } from "../components/words";
// Page styles after the shared ones, so they win at equal specificity.
import "../styles/info.css";

const NEXT_STEPS = [
  { title: "We talk it through", text: "A team member asks what happened, where the water, smoke or storm damage is, and whether anyone is at risk. In an emergency we dispatch a crew on that call." },
  { title: "We inspect and document", text: "On site we photograph the damage, take moisture readings where water is involved and explain what we find before anything is removed." },
  { title: "You approve the plan", text: "You get a free written estimate. Work starts only after you sign, and we bill your insurance company directly for covered work." },
];

/** Contact is /contact: the phone, service-area and availability cards,
 * the response promise and the lead form at 1000 px (spec 2.3). */
export default function Contact(props: PageProps<ContactData>) {
  const { site, data } = props;
  const named = data.counties.slice(0, 7).map((c) => c.name);
  const rest = data.counties.length - named.length;
  return (
    <Layout props={props} form>
      <PageHero site={site} title={word(site, "contact", "headline")}
        lead={em(site, "Call our 24/7 line for water, fire or storm damage happening right now, or send the form below for a free estimate on repairs, restoration or remodeling.",
          `${callUs(site)} for water, fire or storm damage happening right now, or send the form below for a free estimate on repairs, restoration or remodeling.`)} />
      <section className="section" aria-labelledby="contact-cards-title">
        <div className="container">
          <h2 id="contact-cards-title" className="section__title">How to Reach Us</h2>
          <ul className="cards cards--3 contact-cards">
            <li className="card contact-card">
              <span className="contact-card__icon"><Icon name="phone" size={26} /></span>
              <h3 className="card__title">Phone</h3>
              <p className="contact-card__big"><a href={site.tel}>{site.phone}</a></p>
              <p>{em(site, "Our emergency line is answered by a person, not a voicemail box, day and night.", `Answered by a person, not a voicemail box, ${site.hours}.`)}</p>
              {site.email && <p>Email: <a href={`mailto:${site.email}`}>{site.email}</a></p>}
              <CallButton site={site} className="btn btn--danger btn--block contact-card__btn" label="Call Now" />
            </li>
            <li className="card contact-card">
              <span className="contact-card__icon"><Icon name="map-pin" size={26} /></span>
              <h3 className="card__title">Service Area</h3>
              <p className="contact-card__big">{data.counties.length}+ metro Atlanta counties</p>
              <p>{named.join(", ")}{rest > 0 ? ` and ${rest} more counties` : ""}. Office: {site.street}, {site.city}, {site.state} {site.zip}.</p>
              <a href="/service-areas" className="btn btn--outline btn--block contact-card__btn">View Areas</a>
            </li>
            <li className="card contact-card">
              <span className="contact-card__icon"><Icon name="clock" size={26} /></span>
              <h3 className="card__title">Availability</h3>
              <p className="contact-card__big">{em(site, "24 hours a day, 7 days a week", site.hours)}</p>
              <dl className="times">
                <div><dt>Emergencies</dt><dd>{`Within ${word(site, "times", "emergency")}`}</dd></div>
                <div><dt>General inquiries</dt><dd>{`Within ${word(site, "times", "general")}`}</dd></div>
                <div><dt>Estimate visits</dt><dd>{word(site, "times", "visit")}</dd></div>
              </dl>
              {site.officePhone && <p>Office line for non-urgent calls, {site.hours}: <a href={site.officeTel}>{site.officePhone}</a></p>}
            </li>
          </ul>
          <p className="promise" role="note">
            <Icon name="check-circle" size={22} />
            <span>{word(site, "contact", "promise")}</span>
          </p>
        </div>
      </section>
      <QuoteSection site={site} height={1000} title="Request Your Free Estimate" />
      <section className="section" aria-labelledby="next-title">
        <div className="container">
          <h2 id="next-title" className="section__title">What Happens After You Contact Us</h2>
          <ol className="steps">
            {NEXT_STEPS.map((s, i) => (
              <li key={s.title} className="card step">
                <span className="step__num" aria-hidden="true">{i + 1}</span>
                <h3 className="card__title">{s.title}</h3>
                <p>{s.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>
    </Layout>
  );
}
