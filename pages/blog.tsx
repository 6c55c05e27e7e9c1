import { Layout, EmergencyBanner } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { ArticleCards, CategoryCards } from "../components/blog-cards";
import type { PageProps } from "../components/types";
import type { BlogIndexData } from "../components/props.gen";
// Page styles after the shared ones, so they win at equal specificity.
import "../styles/blog.css";
import { word } from "../components/words";
import { count } from "../components/plural";

/** Blog is /blog: intro, the four categories, the featured articles, every
 * article newest first and an emergency call to action (spec 2.3). */
export default function Blog(props: PageProps<BlogIndexData>) {
  const { site, data } = props;
  return (
    <Layout props={props}>
      <PageHero site={site} title={word(site, "blog", "headline")} estimateHref={null} badge={word(site, "blog", "badge")}
        lead="Straight answers from the crews who dry out flooded basements, clean up after house fires and rebuild storm-damaged roofs across metro Atlanta: what to do first, how insurance claims really work, and how to keep it from happening again." />
      <section className="section" aria-labelledby="topics-title">
        <div className="container">
          <h2 id="topics-title" className="section__title">Browse by Topic</h2>
          <p className="section__lead">Every guide falls into one of four topics, written for homeowners, landlords and property managers in Georgia.</p>
          <CategoryCards categories={data.categories} />
        </div>
      </section>
      <section className="section section--muted" aria-labelledby="featured-title">
        <div className="container">
          <h2 id="featured-title" className="section__title">Featured Articles</h2>
          <p className="section__lead">Start here: the guides our team sends most often to homeowners in the middle of a loss.</p>
          <ArticleCards articles={data.featured} />
        </div>
      </section>
      <EmergencyBanner site={site} title="Dealing With Damage Right Now?" />
      <section className="section" aria-labelledby="all-title">
        <div className="container">
          <h2 id="all-title" className="section__title">All Articles</h2>
          <p className="section__lead">{data.articles.length === 1 ? "1 article." : `${count(data.articles.length, "article")}, newest first.`}</p>
          <ArticleCards articles={data.articles} />
        </div>
      </section>
    </Layout>
  );
}
