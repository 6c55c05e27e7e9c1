// The SEO Audit's Thin Pages tab (ADR 064): every city page with how much
// of its text is its own and its local proof, thin pages first, each with
// what would fix it and a link to the city in the content editor.
import { count } from "../../components/plural";
import { useState } from "react";
import { liveSeoAudit, type ThinPage, type ThinPagesData } from "../data/seo-audit";
import { adminPath } from "../screens";
import { useResource } from "../use-resource";
import { Badge, Button, Card, LoadError } from "../ui";

/** editHref opens the page's record in the content editor at field. */
const editHref = (path: string, field: string) => adminPath(`content?page=${encodeURIComponent(path)}&field=${encodeURIComponent(field)}`);

function EditLink({ href, children, navigate }: { href: string; children: React.ReactNode; navigate: (to: string) => void }) {
  return (
    <a className="a-link" href={href} onClick={(e) => {
      if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(href.replace(/^\/admin\//, ""));
    }}>{children}</a>
  );
}

function verdict(p: ThinPage) {
  if (p.error) return <Badge tone="bad">Not read</Badge>;
  if (p.thin && p.noindex) return <Badge tone="warn">Thin, hidden from search</Badge>;
  if (p.thin) return <Badge tone="bad">Thin</Badge>;
  return <Badge tone="good">Has its own</Badge>;
}

/** Figures are one page's numbers, as short lines that wrap on a phone. */
function Figures({ p, data }: { p: ThinPage; data: ThinPagesData }) {
  return (
    <dl className="ai-thin__figs">
      <div><dt>Text of its own</dt><dd>{p.uniqueShare}% of {count(p.words, "word")}</dd></div>
      <div><dt>Written for {p.city}</dt><dd>{count(p.ownWords, "word")}</dd></div>
      {data.jobsCounted && <div><dt>Jobs nearby</dt><dd>{p.jobs}</dd></div>}
      {data.testimonialsCounted && <div><dt>Testimonials</dt><dd>{p.testimonials}</dd></div>}
      <div><dt>City page with its own layout</dt><dd>{p.profile ? "Yes" : "No"}</dd></div>
      <div><dt>Search engines</dt><dd>{p.noindex ? "Hidden" : "Listed"}</dd></div>
    </dl>
  );
}

function Row({ p, data, navigate }: { p: ThinPage; data: ThinPagesData; navigate: (to: string) => void }) {
  return (
    <li className="ai-item ai-thin" data-path={p.path}>
      <div className="ai-item__head">
        {verdict(p)}
        <h3 className="ai-item__title">{p.city}</h3>
        <span className="ai-item__meta">{p.county} County · <a href={p.path} target="_blank" rel="noopener">{p.path}<span className="visually-hidden"> (opens in a new tab)</span></a></span>
      </div>
      {p.error ? <p className="a-error">{p.error}</p> : <><Figures p={p} data={data} /><p>{p.why}</p></>}
      {p.fixes.length > 0 && (
        <ul className="ai-thin__fixes">
          {p.fixes.map((f) => (
            <li key={f.text} className="ai-fix">
              {f.text}{" "}
              {f.field && <EditLink href={editHref(p.path, f.field)} navigate={navigate}>{f.field === "noindex" ? "Hide it in the editor" : `Write it in the editor`}<span className="visually-hidden">: {p.city}</span></EditLink>}
            </li>
          ))}
        </ul>
      )}
      {!p.fixes.length && !p.error && <p><EditLink href={editHref(p.path, "body")} navigate={navigate}>Edit {p.city} in the editor</EditLink></p>}
    </li>
  );
}

/** ThinPages scores the city pages when the tab opens; Score again
 * re-reads the pages as they are served now. */
export function ThinPages({ navigate }: { navigate: (to: string) => void }) {
  const { data, error, retry } = useResource(liveSeoAudit.thin, []);
  const [onlyThin, setOnlyThin] = useState(false);
  if (!data) {
    return <Card title="Thin Pages">{error ? <LoadError error={error} onRetry={retry} prefix="The city pages could not be scored: " /> : <p className="a-muted" role="status">Loading... the server reads and scores every city page.</p>}</Card>;
  }
  const shown = onlyThin ? data.pages.filter((p) => p.thin) : data.pages;
  return (
    <Card title="Thin Pages" actions={<Button variant="outline" onClick={retry}>Score again</Button>}
      description={<>{count(data.thin, "city page")} of {data.pages.length} {data.thin === 1 ? "is" : "are"} thin. {data.rule}
        {data.jobsCounted ? ` Jobs count within ${Math.round(data.jobsKm / 1.609344)} miles.` : ""}</>}>
      <label className="a-switch ai-thin__only">
        <input type="checkbox" checked={onlyThin} onChange={(e) => setOnlyThin(e.target.checked)} />
        <span>Show only thin pages</span>
      </label>
      <ul className="ai-list" aria-label="City pages, thin ones first">
        {shown.map((p) => <Row key={p.path} p={p} data={data} navigate={navigate} />)}
      </ul>
    </Card>
  );
}
