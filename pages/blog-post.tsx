import { Layout, EmergencyBanner } from "../components/layout";
import { PageHero } from "../components/page-hero";
import { ArticleCards, formatDate } from "../components/blog-cards";
import { ArticleBody, headings } from "../components/article-body";
import { RelatedLinks } from "../components/related-links";
import { Icon } from "../components/icons";
import { CallButton, em } from "../components/emergency";
import type { PageProps } from "../components/types";
import type { BlogPostData } from "../components/props.gen";
// Page styles after the shared ones, so they win at equal specificity.
import "../styles/blog.css";

function TocList({ toc }: { toc: { id: string; text: string }[] }) {
  return <ul className="toc__list">{toc.map((h) => <li key={h.id}><a href={`#${h.id}`}>{h.text}</a></li>)}</ul>;
}

/** BlogPost is /blog/{slug}: category badge, title, excerpt, date, read
 * time and author, the body line by line, an emergency call to action, up
 * to 3 related articles of the same category and related-links block (a). */
export default function BlogPost(props: PageProps<BlogPostData>) {
  const { site, data } = props;
  const a = data.article;
  const toc = headings(a.content);
  return (
    <Layout props={props}>
      <PageHero site={site} title={a.title} lead={a.excerpt} badge={a.categoryName} call={false} estimateHref={null} photo={data.cover}>
        <p className="post-meta">
          <span className="post-meta__item"><Icon name="calendar" size={16} /> <time dateTime={a.publishDate}>{formatDate(a.publishDate)}</time></span>
          <span className="post-meta__item"><Icon name="clock" size={16} /> {a.readTime} min read</span>
          <span className="post-meta__item"><Icon name="users" size={16} /> By the {site.name} Team</span>
        </p>
      </PageHero>
      <section className="section post" aria-label="Article">
        <div className="container post__layout">
          <aside className="post__aside" aria-label="About this article">
            {toc.length > 1 && (
              <nav className="card toc toc--aside" aria-labelledby="toc-title">
                <p id="toc-title" className="card__title">In This Article</p>
                <TocList toc={toc} />
              </nav>
            )}
            <div className="card card--danger post__call">
              <p className="card__title"><Icon name="alert-triangle" size={20} /> Damage happening now?</p>
              <p>{em(site, "A live person answers 24/7 and can send a crew to stop the damage.", `A live person answers ${site.hours} and can send a crew to stop the damage.`)}</p>
              <CallButton site={site} className="btn btn--white btn--block" />
            </div>
          </aside>
          <article className="post__body">
            {toc.length > 1 && (
              <details className="toc toc--inline">
                <summary>In this article <span className="toc__count">{toc.length} sections</span><Icon name="chevron-down" size={18} className="toc__chev" /></summary>
                <TocList toc={toc} />
              </details>
            )}
            <ArticleBody body={a.content} />
            <p className="post__back"><a href="/blog" className="card__link"><Icon name="chevron-left" size={16} /> All articles</a></p>
          </article>
        </div>
      </section>
      <EmergencyBanner site={site} title="Need Help With Water, Fire or Storm Damage?" />
      {data.related.length > 0 ? (
        <section className="section post-more" aria-labelledby="related-articles-title">
          <div className="container">
            <h2 id="related-articles-title" className="section__title">Related Articles</h2>
            <p className="section__lead">More {a.categoryName.toLowerCase()} guides from our team.</p>
            <ArticleCards articles={data.related} />
          </div>
        </section>
      ) : data.more.length > 0 ? (
        <section className="section post-more" aria-labelledby="more-articles-title">
          <div className="container">
            <h2 id="more-articles-title" className="section__title">More From Our Blog</h2>
            <p className="section__lead">The latest guides from our restoration team.</p>
            <ArticleCards articles={data.more} />
          </div>
        </section>
      ) : null}
      <RelatedLinks related={data.relatedLinks} site={site} />
    </Layout>
  );
}
