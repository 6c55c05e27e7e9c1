import { Layout } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { AreaCTA } from "../components/area-blocks";
import { BeforeAfter } from "../components/before-after";
import { Icon } from "../components/icons";
import { callUs, em } from "../components/emergency";
import type { PageProps } from "../components/types";
import type { JobData, JobPhoto } from "../components/props.gen";
import { Testimonials } from "../components/testimonials";
import { word } from "../components/words";
import "../styles/area.css";
import "../styles/jobs.css";

const PHOTO_SIZES = "(min-width: 1024px) 380px, (min-width: 640px) 50vw, 100vw";

/** NO_POSTER is a transparent pixel for a video without a poster (as the
 * portfolio's carousel does). */
const NO_POSTER = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

function Photo({ photo }: { photo: JobPhoto }) {
  return (
    <li>
      <figure className="job-photo">
        {photo.type === "video" ? (
          <video src={photo.src} controls preload="none" poster={photo.poster || NO_POSTER} aria-label={photo.alt}
            width={photo.width || 640} height={photo.height || 360}>
            Your browser does not support the video tag.
          </video>
        ) : (
          <img src={photo.src} srcSet={photo.srcset || undefined} sizes={photo.srcset ? PHOTO_SIZES : undefined} alt={photo.alt}
            width={photo.width || 800} height={photo.height || 600} loading="lazy" decoding="async" />
        )}
        {photo.caption && <figcaption>{photo.caption}</figcaption>}
      </figure>
    </li>
  );
}

/** Job is a published job's page, /portfolio/{slug} (ADR 062): what was
 * done, where (the city, never an address) and when (the month), the
 * owner's story, the before/after comparison and the other photos. */
export default function Job(props: PageProps<JobData>) {
  const { site, data } = props;
  const labels = { before: word(site, "jobs", "before"), after: word(site, "jobs", "after"), compare: word(site, "jobs", "compare") };
  return (
    <Layout props={props}>
      <PageHero site={site} title={data.title} lead={data.summary} />
      <section className="section" aria-label={data.summary}>
        <div className="container container--narrow">
          {data.compare && <BeforeAfter before={data.compare.before} after={data.compare.after} labels={labels} eager />}
          <div className="job-story">
            {data.story.map((p, i) => <p key={i}>{p}</p>)}
          </div>
          {data.customer && <p className="job-facts">{word(site, "jobs", "customer")} {data.customer}.</p>}
          <p className="job-links">
            <a href={data.cityHref}><Icon name="map-pin" size={16} /> {word(site, "jobs", "cityLink")} {data.city}</a>
            {data.damageHref && <a href={data.damageHref}><Icon name="shield" size={16} /> {data.damage}</a>}
          </p>
        </div>
      </section>
      {data.photos.length > 0 && (
        <section className="section section--muted" aria-labelledby="job-photos-title">
          <div className="container">
            <h2 id="job-photos-title" className="section__title">{word(site, "jobs", "photos")}</h2>
            <ul className="job-photos">
              {data.photos.map((p, i) => <Photo key={i} photo={p} />)}
            </ul>
          </div>
        </section>
      )}
      <Testimonials site={site} quotes={data.quotes} id="job-testimonials" />
      <AreaCTA site={site} title={word(site, "jobs", "ctaTitle")}
        text={em(site, "Call now for 24/7 emergency service, or request a free, no-obligation estimate online.", `${callUs(site)}, or request a free, no-obligation estimate online.`)} />
    </Layout>
  );
}
