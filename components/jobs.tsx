import type { JobCard, JobPhoto, JobsSection, Site } from "./props.gen";
import { word } from "./words";
import "../styles/jobs.css";

/** THUMB_SIZES: a card's picture is a third of the container on a wide
 * screen, the screen's width on a phone (halved for a before/after pair). */
const THUMB_SIZES = "(min-width: 1024px) 380px, (min-width: 640px) 50vw, 100vw";
const PAIR_SIZES = "(min-width: 1024px) 190px, (min-width: 640px) 25vw, 50vw";

function Thumb({ photo, sizes, label }: { photo: JobPhoto; sizes: string; label?: string }) {
  const img = (
    <img src={photo.src} srcSet={photo.srcset || undefined} sizes={photo.srcset ? sizes : undefined} alt={photo.alt} width={photo.width || 800} height={photo.height || 600}
      loading="lazy" decoding="async" />
  );
  if (!label) return img;
  return (
    <figure className="job-card__side">
      {img}
      <figcaption className="job-card__label">{label}</figcaption>
    </figure>
  );
}

/** Card is one published job: its before and after photos (or its first
 * photo), the damage type and month, its city, and a link to its page when
 * it has one; a job without a page is a card without a link. */
function Card({ job, site }: { job: JobCard; site: Site }) {
  return (
    <li className="card job-card">
      <div className={job.pair ? "job-card__media job-card__media--pair" : "job-card__media"}>
        {job.pair ? (
          <>
            <Thumb photo={job.pair.before} sizes={PAIR_SIZES} label={word(site, "jobs", "before")} />
            <Thumb photo={job.pair.after} sizes={PAIR_SIZES} label={word(site, "jobs", "after")} />
          </>
        ) : job.photo ? <Thumb photo={job.photo} sizes={THUMB_SIZES} /> : null}
      </div>
      <p className="job-card__meta">{job.month ? `${job.damage} · ${job.month}` : job.damage}</p>
      <h3 className="card__title job-card__title">{job.title}</h3>
      <p className="job-card__city"><a href={job.cityHref}>{job.city}</a></p>
      {job.href && <a className="card__link" href={job.href} aria-label={`${word(site, "jobs", "seeJob")}: ${job.title}`}>{word(site, "jobs", "seeJob")}</a>}
    </li>
  );
}

/** JobsBlock is a page's block of published jobs ("Recent work near
 * {city}" and the like); a page with none shows no block (the loader
 * sends null). */
export function JobsBlock({ section, site, id, muted }: { section: JobsSection | null; site: Site; id: string; muted?: boolean }) {
  if (!section || section.jobs.length === 0) return null;
  return (
    <section id={id} className={muted ? "section section--muted jobs" : "section jobs"} aria-labelledby={`${id}-title`}>
      <div className="container">
        <h2 id={`${id}-title`} className="section__title">{section.heading}</h2>
        <ul className="job-cards">
          {section.jobs.map((j, i) => <Card key={i} job={j} site={site} />)}
        </ul>
      </div>
    </section>
  );
}
