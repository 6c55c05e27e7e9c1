import { Layout } from "../components/layout";
import type { PageProps } from "../components/types";
import type { FeedbackData, Site } from "../components/props.gen";
import { word } from "../components/words";
import "../styles/reviews.css";

const w = (site: Site, key: string) => word(site, "feedback", key);

/** GoogleLink is the link to the company's Google review page: shown in
 * every state of the page, whatever the homeowner wrote (no gate). */
function GoogleLink({ site, href }: { site: Site; href: string }) {
  if (!href) return null;
  return <p><a className="btn btn--primary feedback__google" href={href} rel="noopener noreferrer" target="_blank">{w(site, "google")}</a></p>;
}

function FeedbackForm({ site, d }: { site: Site; d: FeedbackData }) {
  return (
    <form method="post" action={d.action} className="estimate-form" noValidate>
      {d.error && <p className="form-error" role="alert">{d.error}</p>}
      <div className={d.error ? "field field--error" : "field"}>
        <label htmlFor="feedback-text">{w(site, "label")}</label>
        <textarea id="feedback-text" name="text" rows={6} maxLength={d.maxLen} defaultValue={d.text} />
      </div>
      <div className="field">
        <label className="feedback__consent">
          <input type="checkbox" name="consent" value="yes" defaultChecked={d.consent} />
          <span>{w(site, "consent")}{d.firstName && d.city ? ` (${d.firstName}, ${d.city})` : ""}</span>
        </label>
      </div>
      <button type="submit" className="btn btn--primary">{w(site, "submit")}</button>
    </form>
  );
}

/** Feedback is the private page a review request links to. It works
 * without JavaScript: one form, posted to the same address. */
export default function Feedback(props: PageProps<FeedbackData>) {
  const { site, data: d } = props;
  const stopping = d.state === "stop" || d.state === "stopped";
  return (
    <Layout props={props}>
      <section className="feedback">
        <div className="container container--narrow">
          <h1>{stopping ? w(site, "stopButton") : w(site, "headline")}</h1>
          {d.state === "stop" && (
            <form method="post" action={d.stopHref}>
              <p>{w(site, "stopText")}</p>
              <button type="submit" className="btn btn--primary">{w(site, "stopButton")}</button>
            </form>
          )}
          {d.state === "stopped" && <p className="form-success" role="status">{w(site, "stopped")}</p>}
          {!stopping && (
            <>
              {d.state === "thanks" ? <p className="form-success" role="status">{w(site, "thanks")}</p> : <p className="section__lead">{w(site, "intro")}</p>}
              <GoogleLink site={site} href={d.reviewLink} />
              <FeedbackForm site={site} d={d} />
              <p className="feedback__stop"><a href={d.stopHref}>{w(site, "stopLink")}</a></p>
            </>
          )}
        </div>
      </section>
    </Layout>
  );
}
