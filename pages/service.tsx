import "../styles/service.css";
import { JobsBlock } from "../components/jobs";
import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { FAQ } from "../components/faq";
import { Icon } from "../components/icons";
import { RelatedLinks } from "../components/related-links";
import { ServiceLinkCards } from "../components/service-parts";
import { CallButton, em } from "../components/emergency";
import { QuoteSection } from "../components/quote";
import { LicenceNumber } from "../components/licence";
import type { PageProps } from "../components/types";
import type { Site, ServiceData } from "../components/props.gen";

/** PROCESS is the fixed four-step process every service page shows. */
const PROCESS: { title: string; text: string }[] = [
  { title: "Emergency Response", text: "We answer 24/7, send a crew and stop the damage from spreading: shutting off water, boarding up openings or tarping the roof before anything else." },
  { title: "Assessment & Documentation", text: "We inspect, measure and photograph everything, take moisture or smoke readings where they apply, and write a detailed scope your adjuster can work from." },
  { title: "Restoration & Repair", text: "Our IICRC certified technicians clean and dry what can be saved, and our licensed crews rebuild the rest, with job photos sent to you every day." },
  { title: "Final Inspection", text: "We walk the finished work with you, check every line of the scope and close out the paperwork with your insurance company." },
];

/** process is PROCESS with the first step's promise following the 24/7
 * emergency mode. */
const process = (site: Site) => site.emergencyMode ? PROCESS
  : PROCESS.map((p, i) => (i === 0 ? { ...p, text: p.text.replace("We answer 24/7", `We answer ${site.hours}`) } : p));

const WHY = [
  "20+ years in business and 1000+ projects",
  "IICRC certified technicians",
  "Mitigation and rebuild under one contract",
  "Direct insurance billing",
  "Free, written estimates",
  "Daily job photos sent to you",
];

function Sidebar({ site }: { site: Site }) {
  return (
    <aside className="svc-side" aria-label="Emergency help and credentials">
      <div className="card card--danger">
        <p className="card__title"><Icon name="alert-triangle" size={22} /> {em(site, "24/7 Emergency Service", "Call us")}</p>
        <p>{em(site, "Damage does not wait for business hours, and neither do we. A live person answers every call, day or night, and dispatches a crew right away.",
          `A live person answers ${site.hours} and dispatches a crew right away.`)}</p>
        <CallButton site={site} className="btn btn--white btn--block" />
      </div>
      <div className="card svc-side__card">
        <p className="card__title"><Icon name="shield" size={22} /> Licensed &amp; Insured</p>
        <p>State licensed general contractor, Georgia License <LicenceNumber site={site} />. Fully insured, so your home and our crews are covered from the first visit to the final inspection.</p>
      </div>
      <div className="card svc-side__card">
        <p className="card__title"><Icon name="award" size={22} /> Why Choose Us</p>
        <ul className="checklist">{WHY.map((w) => <li key={w}><Icon name="check" size={16} />{w}</li>)}</ul>
      </div>
    </aside>
  );
}

/** Service is a /services/{slug} page (spec 2.3): the record's texts, the
 * fixed process, emergency, licence and why-choose cards, the quote form
 * with this service's type of damage chosen (ADR 052), related services,
 * the record's FAQs and related-links block (a). */
export default function Service(props: PageProps<ServiceData>) {
  const { site, data } = props;
  const s = data.service;
  return (
    <Layout props={props} form>
      <div className="svc-page">
        <PageHero site={site} badge={s.primary ? em(site, "24/7 service across metro Atlanta", "Serving metro Atlanta") : "Also available across metro Atlanta"} title={s.title} lead={s.description} photo={data.hero} />

        <section className="section" aria-labelledby="svc-what-title">
          <div className="container svc-layout">
            <div className="svc-main">
              <div className="svc-what">
                <span className="service-card__icon svc-what__icon"><Icon name={s.icon} size={32} /></span>
                <div>
                  <h2 id="svc-what-title" className="section__title section__title--left">What We Do</h2>
                  <p className="svc-what__lead">{s.shortDescription}</p>
                </div>
              </div>
              <ul className="checklist svc-features">
                {s.features.map((f) => <li key={f}><Icon name="check" size={16} />{f}</li>)}
              </ul>

              <div className="svc-body">
                <h2 className="svc-h2">{s.title} in Metro Atlanta</h2>
                {s.body.map((p, i) => <p key={i}>{p}</p>)}
              </div>

              <h2 className="svc-h2">Our Process</h2>
              <ol className="svc-steps">
                {process(site).map((step, i) => (
                  <li key={step.title} className="svc-step">
                    <span className="svc-step__num" aria-hidden="true">{i + 1}</span>
                    <div>
                      <h3 className="svc-step__title">{step.title}</h3>
                      <p>{step.text}</p>
                    </div>
                  </li>
                ))}
              </ol>
            </div>
            <Sidebar site={site} />
          </div>
        </section>

        <QuoteSection site={site} height={900} presets={data.damageType ? { damageType: data.damageType } : undefined} />

        <JobsBlock id="recent-work" section={data.recentWork} site={site} />

        {data.relatedServices.length > 0 && (
          <section className="section section--muted" aria-labelledby="svc-related-title">
            <div className="container">
              <h2 id="svc-related-title" className="section__title">Related Services</h2>
              <ServiceLinkCards services={data.relatedServices} />
            </div>
          </section>
        )}

        <FAQ title={`${s.title} FAQs`} faqs={data.faqs} schemaId={`service-${s.slug}-faq`} site={site} />
        <RelatedLinks related={data.related} site={site} />
      </div>
    </Layout>
  );
}
