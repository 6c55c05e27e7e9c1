import type { ReactNode } from "react";
import { CallButton } from "./emergency";
import type { HeroImage, Site } from "./props.gen";
import { word } from "./words";
import { useEstimateHref } from "./estimate-target";

/** HeroPhoto is a hero's photo behind its text: the page's LCP
 * candidate, so it loads eagerly at high priority, the smallest variant a
 * screen needs from srcset, its width and height holding its place. A
 * dark overlay keeps the white text readable on any photo. The caption,
 * when there is one, sits in the hero's corner. */
export function HeroPhoto({ photo }: { photo: HeroImage | null | undefined }) {
  if (!photo) return null;
  return (
    <>
      <img className="hero-photo" src={photo.src} srcSet={photo.srcset || undefined} sizes="100vw" width={photo.width} height={photo.height}
        alt={photo.alt} fetchPriority="high" decoding="async" />
      {photo.caption && <p className="hero-photo__caption">{photo.caption}</p>}
    </>
  );
}

/** PageHero is the top of every inner page: the page's only H1, a lead
 * paragraph, optional call and estimate buttons, and an optional photo. */
export function PageHero({ title, lead, site, badge, call = true, estimateHref, photo, children }: {
  title: string; lead?: string; site: Site; badge?: string; call?: boolean; estimateHref?: string | null; photo?: HeroImage | null; children?: ReactNode;
}) {
  // The estimate button goes where every estimate link of the page goes
  // (ADR 050); null leaves it out.
  const pageTarget = useEstimateHref();
  if (estimateHref === undefined) estimateHref = pageTarget;
  return (
    <section className={photo ? "page-hero page-hero--photo" : "page-hero"} aria-labelledby="page-title">
      <HeroPhoto photo={photo} />
      <div className="container">
        {badge && <p className="hero__badge">{badge}</p>}
        <h1 id="page-title" className="page-hero__title">{title}</h1>
        {lead && <p className="page-hero__lead">{lead}</p>}
        {(call || estimateHref) && (
          <div className="hero__actions">
            {call && <CallButton site={site} className="btn btn--danger btn--lg" size={20} />}
            {estimateHref && <a href={estimateHref} className="btn btn--white-outline btn--lg">{word(site, "buttons", "estimate")}</a>}
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
