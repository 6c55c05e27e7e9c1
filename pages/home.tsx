import { Layout } from "../components/layout";
import { Hero } from "../components/hero";
import { ServicesGrid } from "../components/services-grid";
import { GalleryBlock } from "../components/gallery";
import { TrustSection } from "../components/trust";
import { QuoteSection } from "../components/quote";
import { BlogTeaser } from "../components/blog-cards";
import { FAQ } from "../components/faq";
import { RelatedGrid } from "../components/related-links";
import { Icon } from "../components/icons";
import { callUs, em } from "../components/emergency";
import type { PageProps } from "../components/types";
import type { HomeData, HomeTexts, Site, FAQItem, ServiceCard } from "../components/props.gen";

function ServiceDescriptions({ site, services, faqs, texts }: { site: Site; services: ServiceCard[]; faqs: FAQItem[]; texts: HomeTexts }) {
  return (
    <section className="section" aria-labelledby="provide-title">
      <div className="container two-col">
        <div>
          <h2 id="provide-title" className="section__title section__title--left">{texts.provideTitle}</h2>
          <ul className="provide-list">
            {services.map((s) => (
              <li key={s.slug}>
                <h3 className="card__title"><a href={`/services/${s.slug}`}>{s.title}</a></h3>
                <p>{s.description}</p>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <div className="card card--accent">
            <h3 className="card__title">Why {site.city} Chooses Us</h3>
            <p>{texts.whyText}</p>
            <ul className="checklist">
              <li><Icon name="check" size={16} />{em(site, "Local crews on call 24/7", `Local crews · ${callUs(site)}`)}</li>
              <li><Icon name="check" size={16} />Mitigation and rebuild under one licence</li>
              <li><Icon name="check" size={16} />Daily job photos sent to you</li>
            </ul>
          </div>
          <nav aria-label="Popular services" className="popular">
            <p className="card__title">Popular Services</p>
            <p className="popular__row">
              <a href="/services/water-damage-restoration">Water Damage</a>
              <a href="/services/fire-damage-restoration">Fire Damage</a>
              <a href="/services/storm-damage-repair">Storm Damage</a>
              <a href="/services/mold-remediation">Mold Remediation</a>
              <a href="/services/roof-repair">Roof Repair</a>
            </p>
          </nav>
          <div className="mini-faq">
            {faqs.map((f) => (
              <details key={f.question} name="service-descriptions" className="faq__item">
                <summary className="faq__q"><span>{f.question}</span><Icon name="chevron-down" size={20} className="faq__chev" /></summary>
                <div className="faq__a"><p>{f.answer}</p></div>
              </details>
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}

export default function Home(props: PageProps<HomeData>) {
  const { site, data } = props;
  return (
    <Layout props={props} form>
      <Hero site={site} lead={data.texts.heroLead} photo={data.hero} />
      <div className="banner"><p className="container">{data.texts.banner}</p></div>
      <ServicesGrid id="services" services={data.services} title={data.texts.servicesTitle} lead={data.texts.servicesLead} />
      <GalleryBlock gallery={data.gallery} />
      <TrustSection site={site} reviews={data.reviews} trust={data.trust} />
      <QuoteSection site={site} height={900} />
      <BlogTeaser categories={data.categories} featured={data.featured} latest={data.latest} />
      <ServiceDescriptions site={site} services={data.services} faqs={data.descriptionFaqs} texts={data.texts} />
      <FAQ title="Frequently Asked Questions" faqs={data.faqs} schemaId="home-faq" site={site} />
      <RelatedGrid current="/" site={site} />
    </Layout>
  );
}
