import { useState } from "react";
import { Icon } from "./icons";
import { LicenceNumber } from "./licence";
import { Island } from "./island";
import { callUs, em } from "./emergency";
import type { Review, Site, TrustData } from "./props.gen";
import { word } from "./words";

/** TrustBadges is the small row of credentials; badge is the emergency
 * badge's 24/7 text, which names the page's own response claim (the home
 * and About pages' trust.badge, the water damage page's water.trustBadge),
 * so a page never contradicts itself. */
export function TrustBadges({ site, badge }: { site: Pick<Site, "emergencyMode" | "hours">; badge: string }) {
  return (
    <ul className="trust-badges" aria-label="Credentials">
      <li><Icon name="shield" size={18} /> Licensed &amp; Insured</li>
      <li><Icon name="award" size={18} /> IICRC Certified</li>
      <li><Icon name="file-text" size={18} /> Insurance Approved</li>
      <li><Icon name="clock" size={18} /> {em(site, badge, callUs(site))}</li>
      <li className="trust-badges__partners">Working with State Farm, Allstate, USAA, Liberty Mutual, Nationwide and other carriers</li>
    </ul>
  );
}

function Stars({ n }: { n: number }) {
  return (
    <span className="stars" aria-label={`${n} out of 5 stars`}>
      {Array.from({ length: 5 }, (_, i) => <Icon key={i} name="star" size={16} className={i < n ? "star--on" : "star--off"} />)}
    </span>
  );
}

/** What the reviews block says after a fetch, by outcome. */
const NOTE = {
  none: "Google has no reviews for us to show here yet.",
  recent: "Reviews were checked a few minutes ago. Please try again later.",
  failed: "We couldn't get reviews from Google just now. Please try again later.",
};

/** ReviewsLink is the link to the business's reviews on Google
 * (GOOGLE_REVIEW_URL). */
function ReviewsLink({ href }: { href: string }) {
  return <a href={href} target="_blank" rel="noopener">Read our reviews on Google</a>;
}

/** Reviews shows up to 3 reviews; 3 skeleton cards while loading; when
 * there are none, the empty prompt (spec 2.3, 4). Its button asks the
 * server to fetch reviews only where that can work (canFetch: Google
 * Places is configured); elsewhere the prompt says reviews are not shown
 * here and links to them on Google, which works without JavaScript too.
 * After a fetch the block says what happened; a failure keeps what was
 * shown. */
export function Reviews({ initial, reviewUrl, canFetch }: { initial: Review[]; reviewUrl: string; canFetch: boolean }) {
  const [reviews, setReviews] = useState(initial);
  const [loading, setLoading] = useState(false);
  const [fetchable, setFetchable] = useState(canFetch);
  const [note, setNote] = useState("");
  const refresh = async () => {
    setLoading(true);
    setNote("");
    try {
      const r = await fetch("/api/reviews/refresh", { method: "POST" });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const answer = (await r.json()) as { status: string };
      if (answer.status === "not-configured") {
        setFetchable(false);
        return;
      }
      const list = await fetch("/api/reviews");
      if (!list.ok) throw new Error(`HTTP ${list.status}`);
      const got = (await list.json()) as Review[];
      setReviews(got);
      if (got.length === 0) setNote(answer.status === "recent" ? NOTE.recent : NOTE.none);
    } catch (err) {
      console.warn("review fetch failed", err);
      setNote(NOTE.failed);
    } finally {
      setLoading(false);
    }
  };
  return (
    <div className="reviews">
      <h3 className="reviews__title">What Our Customers Say</h3>
      {loading ? (
        <ul className="cards cards--3" aria-busy="true" aria-label="Loading reviews">
          {[0, 1, 2].map((i) => <li key={i} className="card review review--skeleton"><span /><span /><span /></li>)}
        </ul>
      ) : reviews.length === 0 ? (
        <div className="empty">
          <p>No reviews to show yet.</p>
          {fetchable ? (
            <>
              <button type="button" className="btn btn--outline reviews__fetch" onClick={refresh}>Click here to fetch reviews</button>
              <p className="reviews__note reviews__nojs"><ReviewsLink href={reviewUrl} /></p>
            </>
          ) : (
            <p className="reviews__note">Reviews from Google are not shown on this site yet. <ReviewsLink href={reviewUrl} /></p>
          )}
        </div>
      ) : (
        <ul className="cards cards--3">
          {reviews.map((r) => (
            <li key={r.id} className="card review">
              <Stars n={Math.min(5, r.rating)} />
              <p className="review__text">“{r.review_text || "Great service!"}”</p>
              <p className="review__author">{r.author_name}</p>
            </li>
          ))}
        </ul>
      )}
      <p role="status" className="reviews__note reviews__status">{note && <>{note} <ReviewsLink href={reviewUrl} /></>}</p>
      <p className="center"><a href={reviewUrl} target="_blank" rel="noopener" className="card__link">Write us a review on Google <Icon name="arrow-right" size={16} /></a></p>
    </div>
  );
}

/** TrustSection is the trust and reviews section (anchor trust-section). */
export function TrustSection({ site, reviews, trust }: { site: Site; reviews: Review[]; trust: TrustData }) {
  // The rating figures are Google Places' or the owner's (Go decides,
  // reviews/service.go); a place without a rating yet shows a dash.
  const { rating, count } = trust.rating;
  const w = (key: string) => word(site, "trust", key);
  const fig = (key: string) => word(site, "figures", key);
  const stats: [React.ReactNode, string][] = [
    [fig("years"), w("years")],
    [fig("projects"), w("projects")],
    [<LicenceNumber key="licence" site={site} />, "State License"],
    [rating ? `${rating}/5` : "—", "Average Rating"],
    [String(count), count === 1 ? "Google Review" : "Google Reviews"],
    [fig("counties"), w("counties")],
  ];
  const badges = [
    ["award", "IICRC Certified", "Technicians trained to the industry's restoration standards."],
    ["shield", "State Licensed General Contractor", "Licensed and insured for mitigation and full rebuilds."],
    site.emergencyMode ? ["clock", "24/7 Emergency Service", "A live person answers, day or night, every day of the year."] : ["clock", "Call us", `Our office is open ${site.hours}.`],
    ["file-text", "Direct Insurance Billing", "We document the loss and bill your carrier directly."],
  ];
  return (
    <section id="trust-section" className="section" aria-labelledby="trust-title">
      <div className="container">
        <h2 id="trust-title" className="section__title">{w("title")}</h2>
        <ul className="stats">
          {stats.map(([v, l]) => <li key={l}><span className={"stats__value" + (l === "State License" ? " stats__value--licence" : "")}>{v}</span><span className="stats__label">{l}</span></li>)}
        </ul>
        <ul className="cards cards--4">
          {badges.map(([icon, title, text]) => (
            <li key={title} className="card badge-card">
              <Icon name={icon} size={28} />
              <h3 className="card__title">{title}</h3>
              <p>{text}</p>
            </li>
          ))}
        </ul>
        <TrustBadges site={site} badge={w("badge")} />
        <Island name="reviews" component={Reviews} props={{ initial: reviews, reviewUrl: site.reviewUrl, canFetch: trust.canFetch }} />
      </div>
    </section>
  );
}
