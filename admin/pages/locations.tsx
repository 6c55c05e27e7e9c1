import "../../styles/admin-audits.css";
import "../../styles/admin-manage.css";
import { type MouseEvent } from "react";
import { Icon } from "../../components/icons";
import { liveLocations } from "../data/locations";
import { useResource } from "../use-resource";
import { can } from "../capabilities";
import { useSession } from "../use-session";
import { adminPath } from "../screens";
import type { AdminPageProps } from "../types";
import { Badge, Card, LoadError, PageHeader, StatCard } from "../ui";
import { StatusBadge } from "../content/status";

/** Location Pages shows the county and city landing pages of the route
 * table, with how each figure is computed, and opens each page in the
 * content editor; Add City starts a city draft in its county. */
export default function Locations({ navigate }: AdminPageProps) {
  const { data: d, error, retry } = useResource(liveLocations.load, []);
  // The PIN sees the figures; editing is an admin's or an editor's.
  const editor = can(useSession().session, "content.edit");
  const editHref = (id: string) => adminPath(`content?item=${encodeURIComponent(id)}`);
  const follow = (e: MouseEvent<HTMLAnchorElement>, to: string) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(to);
  };
  /** editLink opens the content item id (the server's, for a caller who
   * may edit) in the editor; nothing without one. */
  const editLink = (id: string | undefined, name: string, variant: "ghost" | "outline" = "ghost", children = "Edit") => {
    if (!id) return null;
    return (
      <a className={`a-btn a-btn--${variant} am-btn-sm`} href={editHref(id)} onClick={(e) => follow(e, `content?item=${encodeURIComponent(id)}`)}>
        {children}<span className="visually-hidden"> {name}</span>
      </a>
    );
  };
  if (!d) {
    return (
      <>
        <PageHeader title="Location Pages" description="County and city landing pages for local search." />
        {error ? <LoadError error={error} onRetry={retry} prefix="The location pages could not be loaded: " /> : <p className="a-muted" role="status">Loading...</p>}
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
      {!editor && <p className="a-muted am-note-line">Editing these pages, and adding a city, needs an admin or editor account: sign in with one to edit.</p>}
      <h2 className="a-h2">Counties and Cities</h2>
      <div className="a-grid a-grid--2 am-counties">
        {d.counties.map((c) => (
          <Card key={c.slug} title={<><Icon name="map-pin" size={18} />{c.name} County <Badge tone="info">{c.cities.length} {c.cities.length === 1 ? "city" : "cities"}</Badge></>}
            actions={<a className="a-link" href={c.href} target="_blank" rel="noopener">View<span className="visually-hidden"> {c.name} County page (opens in a new tab)</span></a>}>
            <ul className="am-cities" aria-label={`${c.name} County cities`}>
              {c.cities.map((ci) => (
                <li key={ci.href} className={ci.pages.length > 1 ? "am-city--several" : undefined}>
                  <a href={ci.href} target="_blank" rel="noopener">{ci.name}<span className="visually-hidden"> (opens in a new tab)</span></a>
                  {editLink(ci.pages.find((p) => p.href === ci.href)?.editId, ci.name)}
                  {ci.pages.length > 1 && (
                    <div className="am-city__pages">
                      <ul aria-label={`${ci.name} pages`}>
                        {ci.pages.map((p) => (
                          <li key={p.href}>
                            <span className="a-muted">{p.kind}:</span>{" "}
                            <a href={p.href} target="_blank" rel="noopener">{p.href}<span className="visually-hidden"> (opens in a new tab)</span></a>
                            {p.href !== ci.href && <> {editLink(p.editId, `${ci.name}: ${p.kind.toLowerCase()}`)}</>}
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
            {c.drafts.length > 0 && (
              <div className="am-drafts">
                <p className="a-muted">Not on the site yet:</p>
                <ul className="am-cities" aria-label={`${c.name} County cities not on the site`}>
                  {c.drafts.map((it) => (
                    <li key={it.id}>
                      <span>{it.title} <StatusBadge item={it} /></span>
                      <a className="a-btn a-btn--ghost am-btn-sm" href={editHref(it.id)} onClick={(e) => follow(e, `content?item=${encodeURIComponent(it.id)}`)}>
                        Edit<span className="visually-hidden"> {it.title}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {editor && (
              <div className="am-county__foot">
                {editLink(c.editId, `${c.name} County page`, "outline", "Edit County Page")}
                <a className="a-btn a-btn--outline am-btn-sm" href={adminPath(`content?kind=city&new=city&county=${encodeURIComponent(c.slug)}`)}
                  onClick={(e) => follow(e, `content?kind=city&new=city&county=${encodeURIComponent(c.slug)}`)}>
                  Add City<span className="visually-hidden"> to {c.name} County</span>
                </a>
              </div>
            )}
          </Card>
        ))}
      </div>
    </>
  );
}
