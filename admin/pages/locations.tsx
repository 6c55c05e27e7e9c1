import "../../styles/admin-manage.css";
import { useId } from "react";
import { Icon } from "../../components/icons";
import { LOCATIONS_NOT_WIRED, sampleLocations, type LocationsSource } from "../data/locations";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, PageHeader, StatCard } from "../ui";

/** Location Pages shows the county and city landing pages. Editing and
 * adding are not wired (spec 2.4): the buttons are disabled and say why. */
export default function Locations({ source = sampleLocations }: AdminPageProps & { source?: LocationsSource }) {
  const d = source.load();
  const note = useId();
  const s = d.summary;
  return (
    <>
      <PageHeader title="Location Pages" description="County and city landing pages for local search." />
      <p className="a-muted am-sample">Sample figures: the counts and city lists below are fixed example values, not read from the live site.</p>
      <div className="a-grid a-grid--4 am-summary">
        <StatCard label="Counties" value={s.counties} hint="Main service counties" />
        <StatCard label="Cities" value={s.cities} hint="City landing pages" />
        <StatCard label="URLs in Sitemap" value={s.sitemapUrls} hint="Listed in /sitemap.xml" />
        <StatCard label="Local Schema" tone={s.localSchema === "Active" ? "good" : "warn"}
          value={<Badge tone={s.localSchema === "Active" ? "good" : "warn"}><span className="am-stat-badge">{s.localSchema}</span></Badge>}
          hint="LocalBusiness structured data" />
      </div>
      <div className="am-note" id={note}>
        <Icon name="alert-triangle" size={18} />
        <p>{LOCATIONS_NOT_WIRED}</p>
      </div>
      <h2 className="a-h2">Counties and Cities</h2>
      <div className="a-grid a-grid--2 am-counties">
        {d.counties.map((c) => (
          <Card key={c.slug} title={<><Icon name="map-pin" size={18} />{c.name} County <Badge tone="info">{c.cities.length} cities</Badge></>}
            actions={<a className="a-link" href={`/service-areas/${c.slug}`} target="_blank" rel="noopener">View<span className="visually-hidden"> {c.name} County page (opens in a new tab)</span></a>}>
            <ul className="am-cities" aria-label={`${c.name} County cities`}>
              {c.cities.map((ci) => (
                <li key={ci.slug}>
                  <a href={`/areas/${c.slug}/${ci.slug}`} target="_blank" rel="noopener">{ci.name}<span className="visually-hidden"> (opens in a new tab)</span></a>
                  <Button variant="ghost" className="a-btn a-btn--ghost am-btn-sm" disabled aria-describedby={note} aria-label={`Edit ${ci.name}`}>Edit</Button>
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
