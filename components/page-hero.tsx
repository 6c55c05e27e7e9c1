import type { ReactNode } from "react";
import { CallButton } from "./emergency";
import type { Site } from "./types";

/** PageHero is the top of every inner page: the page's only H1, a lead
 * paragraph and optional call and estimate buttons. */
export function PageHero({ title, lead, site, badge, call = true, estimateHref = "/contact", children }: {
  title: string; lead?: string; site: Site; badge?: string; call?: boolean; estimateHref?: string | null; children?: ReactNode;
}) {
  return (
    <section className="page-hero" aria-labelledby="page-title">
      <div className="container">
        {badge && <p className="hero__badge">{badge}</p>}
        <h1 id="page-title" className="page-hero__title">{title}</h1>
        {lead && <p className="page-hero__lead">{lead}</p>}
        {(call || estimateHref) && (
          <div className="hero__actions">
            {call && <CallButton site={site} className="btn btn--danger btn--lg" size={20} />}
            {estimateHref && <a href={estimateHref} className="btn btn--white-outline btn--lg">Get Free Estimate</a>}
          </div>
        )}
        {children}
      </div>
    </section>
  );
}

/** Breadcrumbs is the visible trail; the same crumbs feed BreadcrumbList. */
export function Breadcrumbs({ crumbs }: { crumbs: { name: string; href: string }[] }) {
  if (!crumbs.length) return null;
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol className="container">
        <li><a href="/">Home</a></li>
        {crumbs.map((c, i) => (
          <li key={c.href}>{i === crumbs.length - 1 ? <span aria-current="page">{c.name}</span> : <a href={c.href}>{c.name}</a>}</li>
        ))}
      </ol>
    </nav>
  );
}
