import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { ArticleBody } from "../components/article-body";
import { TrustBadges } from "../components/trust";
import { word } from "../components/words";
import { Icon } from "../components/icons";
import type { PageProps } from "../components/types";
import type { InfoData, RetentionItem, Site } from "../components/props.gen";
// Page styles after the shared ones, so they win at equal specificity.
import "../styles/info.css";

/** Retention lists how long each kind of record is kept (InfoData's
 * retention, on /privacy only: from the server's configuration, the same
 * the deletion job follows, never typed into the content). */
function Retention({ items }: { items: RetentionItem[] }) {
  return (
    <section className="prose retention" aria-labelledby="retention-title">
      <h2 id="retention-title">What this website keeps, and for how long</h2>
      <p>These periods come from the website&apos;s own settings: the site deletes each kind of record automatically once its time is up.</p>
      <dl className="retention__list">
        {items.map((it) => (
          <div key={it.what} className="retention__item">
            <dt>{it.what}</dt>
            <dd>{it.kept}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ContactCard({ site, topic }: { site: Site; topic: string }) {
  return (
    <aside className="card info-contact" aria-labelledby="info-contact-title">
      <p id="info-contact-title" className="card__title">Questions about {topic}?</p>
      <ul className="info-contact__list">
        <li><Icon name="phone" size={18} /> <a href={site.tel}>{site.phone}</a></li>
        {site.email && <li><Icon name="mail" size={18} /> <a href={`mailto:${site.email}`}>{site.email}</a></li>}
        <li><Icon name="map-pin" size={18} /> <span>{site.name}, {site.street}, {site.city}, {site.state} {site.zip}</span></li>
      </ul>
    </aside>
  );
}

/** Info is /about, /privacy and /terms: the content page's title as the
 * H1 and its body rendered line by line. */
export default function Info(props: PageProps<InfoData>) {
  const { site, data } = props;
  const about = data.slug === "about";
  return (
    <Layout props={props}>
      <PageHero site={site} title={data.title} lead={data.lead} call={about} estimateHref={about ? undefined : null} />
      <section className="section info">
        <div className="container">
          <ArticleBody body={data.content} />
          {data.retention && data.retention.length > 0 && <Retention items={data.retention} />}
          {!about && <div className="prose"><ContactCard site={site} topic={data.slug === "privacy" ? "your information" : "these terms"} /></div>}
        </div>
      </section>
      {about && (
          <section className="section section--muted" aria-labelledby="about-numbers-title">
            <div className="container">
              <h2 id="about-numbers-title" className="section__title">By the Numbers</h2>
              <ul className="stats stats--4">
                <li><span className="stats__value">20+</span>{" "}<span className="stats__label">Years in Business</span></li>
                <li><span className="stats__value">1000+</span>{" "}<span className="stats__label">Projects Completed</span></li>
                <li><span className="stats__value">11+</span>{" "}<span className="stats__label">Counties Served</span></li>
                <li><span className="stats__value">99%</span>{" "}<span className="stats__label">Customer Satisfaction</span></li>
              </ul>
              <TrustBadges site={site} badge={word(site, "trust", "badge")} />
              <p className="center about-links">
                <a href="/portfolio" className="btn btn--outline">See Our Work</a>
                <a href="/service-areas" className="btn btn--outline">Where We Work</a>
                <a href="/contact" className="btn btn--primary">Contact Us</a>
              </p>
            </div>
          </section>
      )}
    </Layout>
  );
}
