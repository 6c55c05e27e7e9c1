import { Layout, EmergencyBanner } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { ArticleCards, CategoryCards } from "../components/blog-cards";
import type { PageProps } from "../components/types";
import type { BlogCategoryData } from "../components/props.gen";
import { count } from "../components/plural";
import { word } from "../components/words";
// Page styles after the shared ones, so they win at equal specificity.
import "../styles/blog.css";

/** BlogCategory is /blog/category/{slug} (ADR 051): one topic's articles,
 * newest first, then the other topics. */
export default function BlogCategory(props: PageProps<BlogCategoryData>) {
  const { site, data } = props;
  const n = data.articles.length;
  return (
    <Layout props={props}>
      <PageHero site={site} title={data.category.name} estimateHref={null} badge={word(site, "blog", "badge")} lead={data.category.description} />
      <section className="section" aria-labelledby="topic-articles-title">
        <div className="container">
          <h2 id="topic-articles-title" className="section__title">{data.category.name} Articles</h2>
          {n > 0 ? (
            <>
              <p className="section__lead">{n === 1 ? "1 article." : `${count(n, "article")}, newest first.`}</p>
              <ArticleCards articles={data.articles} />
            </>
          ) : (
            <p className="section__lead">No articles on this topic yet. <a href="/blog">See every article on the blog</a>.</p>
          )}
        </div>
      </section>
      <EmergencyBanner site={site} title="Dealing With Damage Right Now?" />
      {data.others.length > 0 && (
        <section className="section section--muted" aria-labelledby="topic-others-title">
          <div className="container">
            <h2 id="topic-others-title" className="section__title">Other Topics</h2>
            <CategoryCards categories={data.others} />
          </div>
        </section>
      )}
    </Layout>
  );
}
