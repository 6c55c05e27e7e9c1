import "../../styles/admin-audits.css";
import "../../styles/admin-manage.css";
import { type MouseEvent } from "react";
import { Icon } from "../../components/icons";
import { contentApi } from "../data/content";
import { liveLocations } from "../data/locations";
import { useResource } from "../use-resource";
import { can } from "../capabilities";
import { useSession } from "../use-session";
import { adminPath } from "../screens";
import type { AdminPageProps } from "../types";
import { Badge, Card, LoadError, PageHeader, StatCard } from "../ui";
import { StatusBadge } from "../content/status";

/** useLocationItems loads the content items behind the location pages
 * (counties, cities, fixed city pages), for the edit links. */
function useLocationItems(editor: boolean) {
  const r = useResource(() => Promise.all((["county", "city", "city-profile"] as const).map((k) => contentApi.all(k)))
    .then((ls) => ls.flatMap((l) => l.items)), [], { skip: !editor });
  // Without them the figures still show, with no edit links.
  return r.error ? [] : r.data;
}

/** Location Pages shows the county and city landing pages of the route
 * table, with how each figure is computed, and opens each page in the
 * content editor; Add City starts a city draft in its county. */
export default function Locations({ navigate }: AdminPageProps) {
  const { data: d, error, retry } = useResource(liveLocations.load, []);
  // The PIN sees the figures; editing is an admin's or an editor's.
  const editor = can(useSession().session, "content.edit");
  const items = useLocationItems(editor);
  const byPath = new Map((items || []).filter((it) => it.path).map((it) => [it.path, it]));
  const editHref = (id: string) => adminPath(`content?item=${encodeURIComponent(id)}`);
  const follow = (e: MouseEvent<HTMLAnchorElement>, to: string) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(to);
  };
  /** editLink opens the page served at path in the editor. */
  const editLink = (path: string, name: string, variant: "ghost" | "outline" = "ghost", children = "Edit") => {
    const it = byPath.get(path);
    if (!it) return null;
    return (
      <a className={`a-btn a-btn--${variant} am-btn-sm`} href={editHref(it.id)} onClick={(e) => follow(e, `content?item=${encodeURIComponent(it.id)}`)}>
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
  /** drafts are a county's cities that have no page yet (a new city). */
  const drafts = (county: string) => (items || []).filter((it) => it.kind === "city" && !it.path && it.slug.startsWith(county + "/"));
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
                  {editLink(ci.href, ci.name)}
                  {ci.pages.length > 1 && (
                    <div className="am-city__pages">
                      <ul aria-label={`${ci.name} pages`}>
                        {ci.pages.map((p) => (
                          <li key={p.href}>
                            <span className="a-muted">{p.kind}:</span>{" "}
                            <a href={p.href} target="_blank" rel="noopener">{p.href}<span className="visually-hidden"> (opens in a new tab)</span></a>
                            {p.href !== ci.href && <> {editLink(p.href, `${ci.name}: ${p.kind.toLowerCase()}`)}</>}
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
            {drafts(c.slug).length > 0 && (
              <div className="am-drafts">
                <p className="a-muted">Not on the site yet:</p>
                <ul className="am-cities" aria-label={`${c.name} County cities not on the site`}>
                  {drafts(c.slug).map((it) => (
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
                {editLink(c.href, `${c.name} County page`, "outline", "Edit County Page")}
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
