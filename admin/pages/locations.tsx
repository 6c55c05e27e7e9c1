import "../../styles/admin-audits.css";
import "../../styles/admin-manage.css";
import { useId } from "react";
import { Icon } from "../../components/icons";
import { LOCATIONS_NOT_WIRED, liveLocations, type LocationsSource } from "../data/locations";
import { useServer } from "../live";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, PageHeader, StatCard } from "../ui";

/** Location Pages shows the county and city landing pages of the route
 * table, with how each figure is computed. Editing and adding are not
 * wired (spec 2.4): the buttons are disabled and say why. */
export default function Locations({ source = liveLocations }: AdminPageProps & { source?: LocationsSource }) {
  const { data: d, error } = useServer(source.load);
  const note = useId();
  if (!d) {
    return (
      <>
        <PageHeader title="Location Pages" description="County and city landing pages for local search." />
        {error ? <p className="a-error" role="alert">The location pages could not be loaded: {error}</p> : <p className="a-muted" role="status">Loading...</p>}
      </>
    );
  }
  const s = d.summary;
  const schemaTone = s.localSchema === "Active" ? "good" : s.localSchema === "Inactive" ? "warn" : undefined;
  return (
    <>
      <PageHeader title="Location Pages" description="County and city landing pages for local search." />
      <div className="a-grid a-grid--4 am-summary">
        <StatCard label="Counties" value={s.counties} hint="County pages" />
        <StatCard label="Cities" value={s.cities} hint={s.cityPages === s.cities ? "City landing pages" : `On ${s.cityPages} city landing pages`} />
        <StatCard label="URLs in Sitemap" value={s.sitemapUrls} hint="Listed in /sitemap.xml" />
        <StatCard label="Local Schema" tone={schemaTone}
          value={<Badge tone={schemaTone || "neutral"}><span className="am-stat-badge">{s.localSchema}</span></Badge>}
          hint="LocalBusiness structured data" />
      </div>
      <details className="a-how" open>
        <summary>How these figures are computed</summary>
        <dl>
          <div><dt>Counties</dt><dd>{d.how.counties}</dd></div>
          <div><dt>Cities</dt><dd>{d.how.cities}</dd></div>
          <div><dt>URLs in Sitemap</dt><dd>{d.how.sitemapUrls}</dd></div>
          <div><dt>Local Schema</dt><dd>{d.how.localSchema}</dd></div>
        </dl>
      </details>
      <div className="am-note" id={note}>
        <Icon name="alert-triangle" size={18} />
        <p>{LOCATIONS_NOT_WIRED}</p>
      </div>
      <h2 className="a-h2">Counties and Cities</h2>
      <div className="a-grid a-grid--2 am-counties">
        {d.counties.map((c) => (
          <Card key={c.slug} title={<><Icon name="map-pin" size={18} />{c.name} County <Badge tone="info">{c.cities.length} {c.cities.length === 1 ? "city" : "cities"}</Badge></>}
            actions={<a className="a-link" href={c.href} target="_blank" rel="noopener">View<span className="visually-hidden"> {c.name} County page (opens in a new tab)</span></a>}>
            <ul className="am-cities" aria-label={`${c.name} County cities`}>
              {c.cities.map((ci) => (
                <li key={ci.href} className={ci.pages.length > 1 ? "am-city--several" : undefined}>
                  <a href={ci.href} target="_blank" rel="noopener">{ci.name}<span className="visually-hidden"> (opens in a new tab)</span></a>
                  <Button variant="ghost" className="a-btn a-btn--ghost am-btn-sm" disabled aria-describedby={note} aria-label={`Edit ${ci.name}`}>Edit</Button>
                  {ci.pages.length > 1 && (
                    <div className="am-city__pages">
                      <ul aria-label={`${ci.name} pages`}>
                        {ci.pages.map((p) => (
                          <li key={p.href}>
                            <span className="a-muted">{p.kind}:</span>{" "}
                            <a href={p.href} target="_blank" rel="noopener">{p.href}<span className="visually-hidden"> (opens in a new tab)</span></a>
                            <br /><span className="am-city__title">“{p.title}”</span>
                          </li>
                        ))}
                      </ul>
                      <p className="a-muted">{ci.why}</p>
                    </div>
                  )}
                </li>
              ))}
            </ul>
            <div className="am-county__foot">
              <Button variant="outline" className="a-btn a-btn--outline am-btn-sm" disabled aria-describedby={note} aria-label={`Edit County Page: ${c.name}`}>Edit County Page</Button>
              <Button variant="outline" className="a-btn a-btn--outline am-btn-sm" disabled aria-describedby={note} aria-label={`Add City to ${c.name} County`}>Add City</Button>
            </div>
          </Card>
        ))}
      </div>
    </>
  );
}
