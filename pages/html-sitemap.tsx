import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import type { PageProps } from "../components/types";
import type { Link, SitemapData, SitemapGroup } from "../components/props.gen";
// Page styles after the shared ones, so they win at equal specificity.
import "../styles/info.css";

function Links({ links }: { links: Link[] }) {
  return <ul className="sitemap__links">{links.map((l) => <li key={l.href}><a href={l.href}>{l.name}</a></li>)}</ul>;
}

function Title({ g, level }: { g: SitemapGroup; level: 2 | 3 }) {
  const H = level === 2 ? "h2" : "h3";
  return (
    <H id={`sm-${g.id}`} className={level === 2 ? "sitemap__title" : "sitemap__subtitle"}>
      {g.href ? <a href={g.href}>{g.title}</a> : g.title}
      {level === 2 && <span className="sitemap__count">{g.links.length + g.subs.reduce((n, s) => n + s.links.length, 0)}</span>}
    </H>
  );
}

/** HtmlSitemap is /sitemap: every indexable page of the route table,
 * grouped into main pages, services, counties, cities by county and blog. */
export default function HtmlSitemap(props: PageProps<SitemapData>) {
  const { site, data } = props;
  return (
    <Layout props={props}>
      <PageHero site={site} title="Sitemap" call={false} estimateHref={null}
        lead={`All ${data.total} pages of our website in one place, from emergency help and services to every county and city we serve across metro Atlanta.`} />
      <div className="section">
        <div className="container">
          <nav aria-label="Sitemap sections" className="sitemap__jump">
            {data.groups.map((g) => <a key={g.id} href={`#sm-${g.id}`}>{g.title}</a>)}
          </nav>
          {data.groups.map((g) => (
            <section key={g.id} className="sitemap__group" aria-labelledby={`sm-${g.id}`}>
              <Title g={g} level={2} />
              {g.links.length > 0 && <Links links={g.links} />}
              {g.subs.length > 0 && (
                <div className="sitemap__subs">
                  {g.subs.map((s) => (
                    <section key={s.id} className="sitemap__sub" aria-labelledby={`sm-${s.id}`}>
                      <Title g={s} level={3} />
                      <Links links={s.links} />
                    </section>
                  ))}
                </div>
              )}
            </section>
          ))}
        </div>
      </div>
    </Layout>
  );
}
