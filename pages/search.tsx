import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { Icon } from "../components/icons";
import type { PageProps } from "../components/types";
import type { SearchData } from "../components/props.gen";

/** Search is /search?q=: results over services, areas, cities, articles
 * and pages, rendered by the server (the form works without JavaScript).
 * A results page is not rendered here per query: the server renders this
 * page once per content version with marks for the query and, in
 * data.slot, for the start and end of the results region, then writes
 * each search's text into it (search/shell.go, ADR 028). The results
 * markup below is repeated there, and a test compares the two byte for
 * byte: change both together. The region stays outside any island. */
export default function Search(props: PageProps<SearchData>) {
  const { site, data } = props;
  return (
    <Layout props={props}>
      <PageHero site={site} title={data.query ? `Search results for “${data.query}”` : "Search"} call={false} estimateHref={null}
        lead="Find a service, your city or a restoration guide." />
      <section className="section">
        <div className="container container--narrow">
          <form method="get" action="/search" role="search" className="search-form">
            <label htmlFor="search-q" className="visually-hidden">Search the site</label>
            <input id="search-q" name="q" type="search" defaultValue={data.query} maxLength={100} placeholder="e.g. water damage Marietta" />
            <button type="submit" className="btn btn--primary"><Icon name="search" size={18} /> Search</button>
          </form>
          {data.slot?.[0]}
          {data.query && (
            <p className="search-count" role="status">{data.results.length === 0 ? "No results found." : `${data.results.length} result${data.results.length === 1 ? "" : "s"}`}</p>
          )}
          <ul className="search-results">
            {data.results.map((r) => (
              <li key={r.href} className="card">
                <span className="pill">{r.kind}</span>
                <h2 className="card__title"><a href={r.href}>{r.title}</a></h2>
                <p>{r.snippet}</p>
              </li>
            ))}
          </ul>
          {data.query && data.results.length === 0 && (
            <p>Try a service such as <a href="/search?q=water+damage">water damage</a> or a city such as <a href="/search?q=Marietta">Marietta</a>, browse <a href="/services">all services</a>, or call <a href={site.tel}>{site.phone}</a>.</p>
          )}
          {data.slot?.[1]}
        </div>
      </section>
    </Layout>
  );
}
