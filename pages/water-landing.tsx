import "../styles/service.css";
import type { ReactNode } from "react";
import { Layout, EmergencyBanner } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { FAQ } from "../components/faq";
import { Icon } from "../components/icons";
import { CallButton, em } from "../components/emergency";
import { TrustBadges } from "../components/trust";
import { word } from "../components/words";
import { QuoteSection } from "../components/quote";
import type { PageProps } from "../components/types";
import type { FAQItem, Site, WaterLandingData } from "../components/props.gen";

/** WATER_PRESETS: a visitor on the water damage landing page came for
 * water coming in now (ADR 052). */
const WATER_PRESETS = { damageType: "Water Damage", emergency: "yes" } as const;

const SERVICES: { icon: string; title: string; text: string }[] = [
  { icon: "droplets", title: "Emergency Water Extraction", text: "Truck-mounted and portable extractors pull standing water out of carpet, pad and subfloors. How fast the water comes out decides how much of your home can be dried instead of torn out." },
  { icon: "alert-triangle", title: "Burst Pipe & Plumbing Leak Cleanup", text: "Frozen crawl space lines, split supply hoses, leaking water heaters and overflowing condensate pans: we help stop the source, clean up and document the break for your claim." },
  { icon: "wind", title: "Ceiling & Wall Dry-Out", text: "Thermal cameras and moisture meters find water trapped above ceilings and inside wall cavities. Targeted airflow dries it in place, often without removing the whole wall." },
  { icon: "shield", title: "Sewage Backup Cleanup", text: "Sewage is Category 3 water. Our technicians wear protective gear, remove the porous materials it touched, clean and disinfect, and apply antimicrobial treatment before drying." },
  { icon: "hammer", title: "Structural Drying & Repairs", text: "Commercial dehumidifiers and air movers dry framing and subfloors to verified dry standards. Then our licensed crews replace drywall, insulation, flooring, trim and paint." },
  { icon: "file-text", title: "Insurance Claim Assistance", text: "Photos, daily moisture logs and an itemized estimate in the format adjusters use. We meet your adjuster on site and bill your insurance company directly." },
];

const REASONS = (arrival: string): { icon: string; title: string; text: string }[] => [
  { icon: "clock", title: `On Site in ${arrival}`, text: "Crews are on call around the clock across Atlanta, so extraction starts before water wicks into drywall, cabinets and subfloors." },
  { icon: "award", title: "IICRC Certified Drying", text: "Every job follows the IICRC S500 standard, with moisture readings logged at each visit until every material is confirmed dry." },
  { icon: "home", title: "Cleanup to Rebuild, One Company", text: "We are a state licensed general contractor, so the same team that dries your home also puts it back together. No second contractor, no second wait." },
  { icon: "file-text", title: "Direct Insurance Billing", text: "We work with all major carriers and bill them directly. You pay only your deductible and anything your policy does not cover." },
];

const FAQS = (arrival: string): FAQItem[] => [
  {
    question: "How fast can you get to my home in Atlanta?",
    answer: `Our phone is answered 24/7, and crews typically arrive within ${arrival} anywhere in our Atlanta service area, depending on traffic and weather. While you wait, shut off the main water valve if you can reach it safely, turn off power to wet rooms at the breaker, and move electronics, rugs and valuables off wet floors.`,
  },
  {
    question: "Does homeowners insurance cover water damage?",
    answer: "Most homeowners policies cover sudden and accidental water damage, such as a burst pipe, a failed supply line or a ruptured water heater. They usually exclude flooding from rising surface water, which needs a separate flood policy, and damage from slow leaks that went on for months. We document the cause and extent of the damage with photos and moisture readings and bill your insurance company directly; the coverage decision belongs to your insurer.",
  },
  {
    question: "Which areas do you serve for water damage restoration?",
    answer: "All of Atlanta, from Buckhead and Midtown to West End and East Atlanta, plus Decatur, Sandy Springs, Smyrna, Marietta, Brookhaven and East Point. Beyond the city, our crews cover 11+ metro Atlanta counties, including Fulton, DeKalb, Cobb, Gwinnett, Clayton, Douglas and Henry.",
  },
];

function LocalBlurb({ site, title, badge, children }: { site: Site; title: string; badge: string; children: ReactNode }) {
  return (
    <article className="card wl-local">
      <h3 className="card__title"><Icon name="map-pin" size={20} /> {title}</h3>
      <p className="wl-local__badge"><Icon name="clock" size={16} /> {badge}</p>
      {children}
      <CallButton site={site} className="btn btn--danger" />
    </article>
  );
}

/** WaterLanding is the water damage landing page (spec 2.3) at
 * /water-damage-restoration-atlanta. Arrival claims are the water damage
 * arrival (60-90 minutes by default), except the Buckhead blurb's average
 * (45 minutes; spec 1): the owner edits both among the response times. */
export default function WaterLanding(props: PageProps<WaterLandingData>) {
  const { site, data } = props;
  const arrival = word(site, "times", "water");
  return (
    <Layout props={props} form>
      <div className="svc-page wl">
        <PageHero site={site} badge={em(site, word(site, "water", "badge"), "Emergency water removal in Atlanta")}
          title={word(site, "water", "headline")}
          lead={word(site, "water", "lead")}>
          <ul className="hero__points">
            <li><Icon name="check-circle" size={18} /> Free estimates</li>
            <li><Icon name="check-circle" size={18} /> Direct insurance billing</li>
            <li><Icon name="check-circle" size={18} /> 20+ years, 1000+ projects</li>
          </ul>
        </PageHero>

        <section className="wl-badges" aria-label="Credentials">
          <div className="container"><TrustBadges site={site} badge={word(site, "water", "trustBadge")} /></div>
        </section>

        <section className="section section--muted" aria-labelledby="wl-services-title">
          <div className="container">
            <h2 id="wl-services-title" className="section__title">Our Water Damage Services</h2>
            <p className="section__lead">Everything from the first gallon pumped out to the last coat of paint, handled by one certified, licensed team.</p>
            <ul className="cards cards--3">
              {SERVICES.map((s) => (
                <li key={s.title} className="card wl-service">
                  <span className="service-card__icon"><Icon name={s.icon} size={26} /></span>
                  <h3 className="card__title">{s.title}</h3>
                  <p>{s.text}</p>
                </li>
              ))}
            </ul>
            <p className="center"><a href="/services/water-damage-restoration" className="btn btn--outline">How Our Water Damage Restoration Works</a></p>
          </div>
        </section>

        <section className="section" aria-labelledby="wl-why-title">
          <div className="container">
            <h2 id="wl-why-title" className="section__title">Why Atlanta Homeowners Choose Us</h2>
            <ul className="cards cards--4">
              {REASONS(arrival).map((r) => (
                <li key={r.title} className="card wl-reason">
                  <Icon name={r.icon} size={28} />
                  <h3 className="card__title">{r.title}</h3>
                  <p>{r.text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section className="section section--muted" aria-labelledby="wl-areas-title">
          <div className="container">
            <h2 id="wl-areas-title" className="section__title">Areas We Serve</h2>
            <p className="section__lead">Water damage crews are stationed around the metro, so help comes from nearby, not from across town.</p>
            <ul className="wl-areas">
              {data.areas.map((a) => (
                <li key={a.href}><a href={a.href}><Icon name="map-pin" size={16} /> {a.name}</a></li>
              ))}
            </ul>
            <p className="center wl-areas__all"><a href="/service-areas" className="card__link">See all service areas <Icon name="arrow-right" size={16} /></a></p>

            <div className="wl-locals">
              <LocalBlurb site={site} title="Buckhead Water Damage Help" badge={`Average ${word(site, "times", "buckhead")} response`}>
                <p>From the high-rise condos along Peachtree Road to the older homes of Garden Hills and Peachtree Heights, a single failed supply line in Buckhead can soak the ceilings of several units below. We trace the source and the path of the water, document it for each owner and for the building's insurer, and dry every affected unit.</p>
              </LocalBlurb>
              <LocalBlurb site={site} title="Decatur Water Damage Help" badge={`Crews arrive in ${word(site, "times", "water")}`}>
                <p>Many of Decatur's bungalows in Oakhurst, Winnona Park and the streets around the Square still drain through original clay or cast-iron sewer lines that tree roots break into, so sewage backups into basements and crawl spaces are a common call. We clean them up safely, dry the crawl space and document the loss for your claim.</p>
              </LocalBlurb>
            </div>
          </div>
        </section>

        <FAQ title="Water Damage Questions, Answered" faqs={FAQS(arrival)} schemaId="water-damage-faq" site={site} />

        <EmergencyBanner site={site} title="Water Coming In Right Now?" />

        <QuoteSection emergencyTime="water" site={site} height={900} title="Get Your Free Water Damage Estimate" presets={WATER_PRESETS} />
      </div>
    </Layout>
  );
}
