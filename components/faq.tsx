import { Head } from "./head";
import { Icon } from "./icons";
import { jsonLd } from "./seo";
import { em } from "./emergency";
import type { FAQItem, Site } from "./props.gen";

/** FAQ is the accordion of spec 2.3: at most one item open, collapsible,
 * with a call link, publishing FAQPage structured data. It is built on
 * <details name=...>: single-open, and operable by click and keyboard,
 * with no script; client/islands.tsx keeps it single-open in browsers
 * without the name attribute. */
export function FAQ({ title, faqs, schemaId, site, intro }: { title: string; faqs: FAQItem[]; schemaId: string; site: Site; intro?: string }) {
  const data = {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    "@id": `${site.baseUrl}/#${schemaId}`,
    mainEntity: faqs.map((f) => ({ "@type": "Question", name: f.question, acceptedAnswer: { "@type": "Answer", text: f.answer } })),
  };
  const headingId = `${schemaId}-heading`;
  return (
    <section className="faq section" aria-labelledby={headingId}>
      <Head tags={[{ tag: "script", attrs: { type: "application/ld+json", id: `ld-${schemaId}` }, text: jsonLd(data) }]} />
      <div className="container container--narrow">
        <h2 id={headingId} className="section__title">{title}</h2>
        {intro && <p className="section__lead">{intro}</p>}
        <div className="faq__list">
          {faqs.map((f, i) => (
            <details key={i} name={schemaId} className="faq__item">
              <summary className="faq__q">
                <span>{f.question}</span>
                <Icon name="chevron-down" size={20} className="faq__chev" />
              </summary>
              <div className="faq__a"><p>{f.answer}</p></div>
            </details>
          ))}
        </div>
        <p className="faq__call">Still have questions? <a href={site.tel}><Icon name="phone" size={16} /> {em(site, "Call", "Call us at")} {site.phone}</a>{em(site, " any time, day or night.", `, ${site.hours}.`)}</p>
      </div>
    </section>
  );
}
