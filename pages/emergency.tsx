import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { QuoteSection } from "../components/quote";
import { FAQ } from "../components/faq";
import { Icon } from "../components/icons";
import { CallButton, callUs, em } from "../components/emergency";
import type { PageProps } from "../components/types";
import type { EmergencyData } from "../components/props.gen";
// Page styles after the shared ones, so they win at equal specificity.
import "../styles/info.css";
import { word } from "../components/words";

interface Plan { id: string; icon: string; title: string; when: string; steps: string[]; avoid: string[] }

/** PLANS are the first steps for each kind of emergency. */
const PLANS: Plan[] = [
  {
    id: "water", icon: "droplets", title: "Water: burst pipe, leak or flooding",
    when: "Every hour counts: water wicks into drywall and floors within minutes, and mold can start in 24 to 48 hours.",
    steps: [
      "Shut off the main water valve. It is usually where the line enters the house, in the crawl space or basement, or at the meter near the street.",
      "If you can reach the breaker panel without standing in water, switch off power to the wet rooms.",
      "Photograph and film the water and everything it touched before you move or throw anything away.",
      "Lift furniture, rugs, electronics and papers off wet floors; put foil or wood blocks under furniture legs.",
      "Blot up what you can with towels and open interior doors to let air move.",
    ],
    avoid: ["Do not use a household vacuum on standing water.", "Stay out of sewage or water from outside; it carries bacteria.", "Do not wait to see whether it dries on its own."],
  },
  {
    id: "fire", icon: "flame", title: "Fire: after the fire department leaves",
    when: "Soot is acidic and keeps etching surfaces, and firefighting water starts the same clock as any other water loss.",
    steps: [
      "Stay out until the fire department tells you the home is safe to enter, and then go in only briefly.",
      "Ask the fire department for the incident number and how to get the fire report; your insurer will want it.",
      "Take out medications, documents, valuables and pets' supplies only if you can reach them safely.",
      "Call your insurance company, then call us to board up openings and tarp the roof so weather and intruders stay out.",
      "Keep receipts for hotels, meals and emergency purchases.",
    ],
    avoid: ["Do not wipe soot off walls, upholstery or carpet; it smears and sets.", "Do not run the heating or air conditioning; it spreads soot.", "Do not use food, drinks or medicines exposed to heat or smoke."],
  },
  {
    id: "storm", icon: "cloud-lightning", title: "Storm: wind, hail or a fallen tree",
    when: "A small roof opening lets in a lot of rain; tarping it the same day prevents ceiling, insulation and mold damage.",
    steps: [
      "Keep everyone away from downed power lines and report them to your power company; treat every line as live.",
      "If a tree is on the house or a ceiling is sagging, keep people out of those rooms.",
      "Photograph the damage from the ground: roof, siding, windows, gutters, fallen trees and hail on the lawn.",
      "Put buckets under drips and move belongings away from leaks.",
      "Call us for emergency tarping, board-up and water removal; insurers expect you to take reasonable steps to stop further damage.",
    ],
    avoid: ["Do not climb onto a wet or damaged roof.", "Do not try to cut a tree that is resting on the house.", "Do not sign with door-to-door storm chasers before you have talked to your insurer."],
  },
];

/** RESPONSE are the four steps; arrival is the emergency response time. */
const RESPONSE = (arrival: string) => [
  { title: "You call, a person answers", text: "Day or night, a team member answers, asks what happened and whether anyone is at risk, and dispatches a crew on the same call." },
  { title: "A crew on the way", text: `In most places across metro Atlanta our emergency crew arrives within ${arrival}, with extraction, drying, board-up and tarping equipment on the truck.` },
  { title: "The damage is stopped", text: "We stop the source, remove water, secure openings and set up drying, while photographing and measuring everything for your claim." },
  { title: "A plan and the paperwork", text: "You get a written scope of work. We bill your insurance company directly and the same licensed team handles the rebuild." },
];

const FAQS = (arrival: string) => [
  { question: "How fast can your crew get to my home?", answer: `In most places across metro Atlanta our emergency crew arrives within ${arrival} of your call, 24 hours a day, 7 days a week. The person who answers will give you an arrival estimate for your address.` },
  { question: "Should I call my insurance company or you first?", answer: "Call whoever you reach first, but do not wait on a claim number to stop the damage. Most policies expect you to take reasonable steps to prevent further damage, and we document everything so your adjuster can review the emergency work." },
  { question: "Is it safe to stay in my home?", answer: "Leave if there is a gas odor, structural damage, a sagging ceiling, electrical hazards near water, or sewage inside. Our crew will tell you which rooms are safe once we have assessed the home." },
  { question: "Do you work directly with my insurance company?", answer: "Yes. We photograph and record the loss, provide line-item estimates to your adjuster and bill your insurance company directly for covered work. You stay in control of your claim." },
];

/** Emergency is /emergency: what to do right now for water, fire and storm
 * damage, how the 24/7 response works, call buttons and the quote section. */
export default function Emergency(props: PageProps<EmergencyData>) {
  const { site, data } = props;
  const arrival = word(site, "times", "emergency");
  return (
    <Layout props={props} form>
      <PageHero site={site} badge={em(site, "24/7 Emergency Service", callUs(site))} title={em(site, "24/7 Emergency Restoration in Metro Atlanta", "Emergency Restoration in Metro Atlanta")} estimateHref={null}
        lead={em(site, `Water pouring in, a house fire, or a tree through the roof? Call now. A person answers day or night, and in most places our crew arrives within ${arrival} to stop the damage.`,
          `Water pouring in, a house fire, or a tree through the roof? ${callUs(site)}: in most places our crew arrives within ${arrival} to stop the damage.`)} />
      <div className="safety" role="note">
        <div className="container safety__inner">
          <Icon name="alert-triangle" size={24} />
          <p><strong>Danger to people comes first.</strong> Call 911 for fire, smoke, a gas odor, downed power lines, structural collapse or anyone hurt, then call us.</p>
        </div>
      </div>
      <section className="section" aria-labelledby="now-title">
        <div className="container">
          <h2 id="now-title" className="section__title">What to Do Right Now</h2>
          <p className="section__lead">While our crew is on the way, these steps protect your family, your belongings and your insurance claim.</p>
          <nav className="plan-jump" aria-label="Jump to an emergency type">
            {PLANS.map((p) => <a key={p.id} href={`#${p.id}`}><Icon name={p.icon} size={18} /> {p.id[0].toUpperCase() + p.id.slice(1)}</a>)}
          </nav>
          <div className="plans">
            {PLANS.map((p) => (
              <article key={p.id} id={p.id} className="card plan" aria-labelledby={`plan-${p.id}`}>
                <h3 id={`plan-${p.id}`} className="card__title"><span className="plan__icon"><Icon name={p.icon} size={24} /></span>{p.title}</h3>
                <p className="plan__when">{p.when}</p>
                <ol className="plan__steps">{p.steps.map((s) => <li key={s}>{s}</li>)}</ol>
                <p className="plan__avoid-title">Avoid</p>
                <ul className="plan__avoid">{p.avoid.map((s) => <li key={s}><Icon name="x" size={16} />{s}</li>)}</ul>
              </article>
            ))}
          </div>
        </div>
      </section>
      <section className="call-band" aria-labelledby="call-title">
        <div className="container call-band__inner">
          <h2 id="call-title" className="call-band__title">{em(site, "Call now, we answer 24/7", callUs(site))}</h2>
          <a href={site.tel} className="btn btn--white btn--xl"><Icon name="phone" size={26} /> {site.phone}</a>
          {site.emergencyMode && <p>Nights, weekends and holidays: same number, same crews.</p>}
        </div>
      </section>
      <section className="section section--muted" aria-labelledby="response-title">
        <div className="container">
          <h2 id="response-title" className="section__title">{em(site, "How Our 24/7 Response Works", "How Our Emergency Response Works")}</h2>
          <p className="section__lead">One call starts everything: mitigation, documentation for your insurer and, later, the repairs.</p>
          <ol className="steps steps--4">
            {RESPONSE(arrival).map((r, i) => (
              <li key={r.title} className="card step">
                <span className="step__num" aria-hidden="true">{i + 1}</span>
                <h3 className="card__title">{r.title}</h3>
                <p>{r.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>
      {data.services.length > 0 && (
        <section className="section" aria-labelledby="em-services-title">
          <div className="container">
            <h2 id="em-services-title" className="section__title">Emergency Services We Handle</h2>
            <ul className="cards cards--3">
              {data.services.map((s) => (
                <li key={s.slug} className="card service-card">
                  <span className="service-card__icon"><Icon name={s.icon} size={24} /></span>
                  <h3 className="card__title"><a href={`/services/${s.slug}`}>{s.title}</a></h3>
                  <p>{s.shortDescription}</p>
                </li>
              ))}
            </ul>
            <p className="center em-areas">Serving {data.counties.map((c) => c.name).join(", ")} counties. <a href="/service-areas">See every city we serve</a>.</p>
          </div>
        </section>
      )}
      <FAQ title="Emergency Questions" faqs={FAQS(arrival)} schemaId="emergency-faq" site={site} />
      <QuoteSection site={site} title="Not an Emergency? Get a Free Estimate" />
      <section className="call-band call-band--final" aria-label="Call us">
        <div className="container call-band__inner">
          <CallButton site={site} className="btn btn--white btn--xl" size={26} />
        </div>
      </section>
    </Layout>
  );
}
