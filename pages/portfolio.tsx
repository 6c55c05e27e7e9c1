import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { GalleryBlock } from "../components/gallery";
import { Icon } from "../components/icons";
import { CallButton } from "../components/emergency";
import type { PageProps } from "../components/types";
import type { PortfolioData } from "../components/props.gen";
// Page styles after the shared ones, so they win at equal specificity.
import "../styles/info.css";
import { JobsBlock } from "../components/jobs";
import { word } from "../components/words";
import { EstimateLink } from "../components/estimate-target";

/** STATS are the portfolio page's four stat cards (spec 2.3): the trust
 * figures of the site's wording, with their labels here. */
const STATS = [
  { icon: "hammer", figure: "projects", label: "Projects Completed" },
  { icon: "award", figure: "years", label: "Years in Business" },
  { icon: "map-pin", figure: "counties", label: "Counties Served" },
  { icon: "star", figure: "satisfaction", label: "Customer Satisfaction" },
];

const DOCUMENTED = [
  { icon: "camera", title: "Photos every day", text: "Homeowners get job photos every day, so you can see progress even if you are staying somewhere else during repairs." },
  { icon: "droplets", title: "Moisture readings on record", text: "On water losses we log moisture readings from the first visit until materials are dry, the proof your adjuster needs." },
  { icon: "file-text", title: "Line-item documentation", text: "Damage is photographed before anything is removed, and every item is written into a detailed estimate for your insurer." },
];

/** Portfolio is /portfolio: the heading 'Our Work Portfolio', four stat
 * cards around the gallery block, and how each project is documented. */
export default function Portfolio(props: PageProps<PortfolioData>) {
  const { site, data } = props;
  return (
    <Layout props={props}>
      <PageHero site={site} title={word(site, "portfolio", "headline")}
        lead="Real projects from real homes across metro Atlanta: water extraction and drying, fire and smoke cleanup, storm repairs and the complete rebuilds that follow, photographed by our crews on the job." />
      <section className="section section--tight" aria-label="Our track record">
        <div className="container">
          <ul className="stat-cards">
            {STATS.map((s) => (
              <li key={s.label} className="card stat-card">
                <span className="stat-card__icon"><Icon name={s.icon} size={24} /></span>
                <span className="stat-card__value">{word(site, "figures", s.figure)}</span>{" "}
                <span className="stat-card__label">{s.label}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <JobsBlock id="jobs" section={data.jobs} site={site} muted />
      <GalleryBlock gallery={data.gallery} heading="Recent Projects" />
      <section className="section section--muted" aria-labelledby="documented-title">
        <div className="container">
          <h2 id="documented-title" className="section__title">Every Job Documented From Day One</h2>
          <p className="section__lead">The photos in our portfolio come from the same records we keep for every customer and every insurance claim.</p>
          <ul className="cards cards--3">
            {DOCUMENTED.map((d) => (
              <li key={d.title} className="card">
                <span className="service-card__icon"><Icon name={d.icon} size={24} /></span>
                <h3 className="card__title">{d.title}</h3>
                <p>{d.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="cta-band" aria-labelledby="cta-title">
        <div className="container cta-band__inner">
          <div>
            <h2 id="cta-title" className="cta-band__title">Want results like these on your home?</h2>
            <p>Free estimates, direct insurance billing and one licensed team from mitigation to the final coat of paint.</p>
          </div>
          <div className="cta-band__actions">
            <EstimateLink className="btn btn--white">{word(site, "buttons", "estimate")}</EstimateLink>
            <CallButton site={site} className="btn btn--outline-white" />
          </div>
        </div>
      </section>
    </Layout>
  );
}
