import type { Quote, Site } from "./props.gen";
import { word } from "./words";
import "../styles/reviews.css";

/** Testimonials are homeowners' own words about the company, approved by
 * the owner and given with consent to show them under first name and
 * city. Text only: no stars and no Review or AggregateRating structured
 * data, which Google treats as self-serving on a company's own site
 * (ADR 063). Nothing at all when there are none. */
export function Testimonials({ site, quotes, id }: { site: Site; quotes: Quote[]; id: string }) {
  if (quotes.length === 0) return null;
  return (
    <section className="section testimonials" aria-labelledby={`${id}-title`}>
      <div className="container container--narrow">
        <h2 id={`${id}-title`} className="section__title">{word(site, "testimonials", "title")}</h2>
        <ul className="testimonials__list">
          {quotes.map((q) => (
            <li key={q.id} className="testimonials__item">
              <figure>
                <blockquote className="testimonials__quote"><p>{q.text}</p></blockquote>
                <figcaption className="testimonials__who">{q.firstName}, {q.city}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
