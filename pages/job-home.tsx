import { JobBooking } from "../components/job-booking";
import { JobFiles } from "../components/job-files";
import { Layout } from "../components/layout";
import type { PageProps } from "../components/types";
import type { ClaimFacts, JobPageData, JobStep, Site } from "../components/props.gen";
import { word } from "../components/words";
import "../styles/job-home.css";

const w = (site: Site, key: string) => word(site, "jobHome", key);

/** Steps is the job's timeline in plain words, oldest first; the last
 * step is where the job stands now. */
function Steps({ site, steps, adjuster }: { site: Site; steps: JobStep[]; adjuster: boolean }) {
  return (
    <ol className="job-steps" aria-label={w(site, "timeline")}>
      {steps.map((s, i) => (
        <li key={`${s.key}-${i}`} className={i === steps.length - 1 ? "job-steps__item job-steps__item--current" : "job-steps__item"}
          aria-current={i === steps.length - 1 ? "step" : undefined}>
          <span className="job-steps__what">{s.key === "drying" ? `${w(site, "drying")} ${s.day || 1}` : adjuster && s.key === "received" ? w(site, "receivedClaim") : w(site, s.key)}</span>
          {s.visit && <span className="job-steps__visit">{s.visit}</span>}
          <time className="job-steps__when" dateTime={s.at}>{s.when}</time>
        </li>
      ))}
    </ol>
  );
}

/** Claim shows an insurer what the claim needs: the property and the
 * claim, never the homeowner's phone or email. */
function Claim({ site, c }: { site: Site; c: ClaimFacts }) {
  const none = w(site, "notGiven");
  return (
    <dl className="job-home__facts job-home__card">
      <dt>{w(site, "claimProperty")}</dt><dd>{[c.street, c.city, c.zip].filter(Boolean).join(", ") || none}</dd>
      <dt>{w(site, "claimInsurer")}</dt><dd>{c.carrier || none}</dd>
      <dt>{w(site, "claimNumber")}</dt><dd>{c.claimNumber || none}</dd>
      <dt>{w(site, "claimReceived")}</dt><dd>{c.received}</dd>
    </dl>
  );
}

/** Contact is the homeowner's side column: who is coming, the phone,
 * what to do now. */
function Contact({ site, d }: { site: Site; d: JobPageData }) {
  return (
    <div>
      <section className="job-home__card" aria-labelledby="job-who">
        <h2 id="job-who">{w(site, "whoTitle")}</h2>
        <p>{d.who || w(site, "whoNobody")}</p>
      </section>
      {site.tel && (
        <section className="job-home__card" aria-labelledby="job-call">
          <h2 id="job-call">{w(site, "callTitle")}</h2>
          <a className="btn btn--primary job-home__call" href={site.tel}>{site.phone}</a>
        </section>
      )}
      {d.doNow && (
        <section className="job-home__card" aria-labelledby="job-now">
          <h2 id="job-now">{w(site, "doNowTitle")}</h2>
          <p>{w(site, d.doNow)}</p>
        </section>
      )}
    </div>
  );
}

/** StopPage is the opt-out's one button (a link scanner that opens
 * every link stops nothing), and its answer. */
function StopPage({ site, d }: { site: Site; d: JobPageData }) {
  return d.state === "stopped" ? <p className="form-success" role="status">{w(site, "stopped")}</p> : (
    <form method="post" action={d.stopHref}>
      <p>{w(site, "stopText")}</p>
      <button type="submit" className="btn btn--primary">{w(site, "stopButton")}</button>
    </form>
  );
}

/** JobHome is the homeowner's private job page, and an insurer's
 * read-only view of it (no contact, no messaging). It needs no
 * JavaScript. */
export default function JobHome(props: PageProps<JobPageData>) {
  const { site, data: d } = props;
  const adjuster = d.view === "adjuster";
  const stopping = d.state === "stop" || d.state === "stopped";
  return (
    <Layout props={props}>
      <section className="job-home">
        <div className="container">
          <h1>{adjuster ? w(site, "claimHeadline") : stopping ? w(site, "stopButton") : w(site, "headline")}</h1>
          {stopping ? <StopPage site={site} d={d} /> : (
            <>
              {!adjuster && d.firstName && <p>{`${w(site, "hello")} ${d.firstName},`}</p>}
              {!adjuster && <p className="section__lead">{w(site, "intro")}</p>}
              {adjuster && d.claim && <Claim site={site} c={d.claim} />}
              <div className="job-home__grid">
                <section aria-labelledby="job-timeline">
                  <h2 id="job-timeline">{w(site, "timeline")}</h2>
                  {d.damageType && <p>{d.damageType}</p>}
                  <Steps site={site} steps={d.steps} adjuster={adjuster} />
                  {d.booking && <JobBooking site={site} v={d.booking} />}
                  <JobFiles site={site} files={d.files} />
                </section>
                {!adjuster && <Contact site={site} d={d} />}
              </div>
              {!adjuster && <p className="job-home__stop"><a href={d.stopHref}>{w(site, "stopLink")}</a></p>}
            </>
          )}
        </div>
      </section>
    </Layout>
  );
}
