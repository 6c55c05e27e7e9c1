import { Icon } from "./icons";
import type { ArticleCard, Category } from "./props.gen";

/** formatDate renders a YYYY-MM-DD date in long US format without
 * time-zone drift between server and browser. */
export function formatDate(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number);
  const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  return `${months[m - 1]} ${d}, ${y}`;
}

export function ArticleCards({ articles }: { articles: ArticleCard[] }) {
  return (
    <ul className="cards cards--3">
      {articles.map((a) => (
        <li key={a.slug} className="card article-card">
          <span className="pill">{a.categoryName}</span>
          <h3 className="card__title"><a href={`/blog/${a.slug}`}>{a.title}</a></h3>
          <p>{a.excerpt}</p>
          <p className="article-card__meta"><Icon name="calendar" size={14} /> <time dateTime={a.publishDate}>{formatDate(a.publishDate)}</time> · {a.readTime} min read</p>
        </li>
      ))}
    </ul>
  );
}

/** CategoryCards are the blog's topics, each card a link to its topic's
 * page (ADR 051): the title is the link, and it covers the whole card. */
export function CategoryCards({ categories }: { categories: Category[] }) {
  return (
    <ul className="cards cards--4">
      {categories.map((c) => (
        <li key={c.slug} className="card category-card">
          <Icon name="book" size={24} />
          <h3 className="card__title"><a href={`/blog/category/${c.slug}`}>{c.name}</a></h3>
          <p>{c.description}</p>
        </li>
      ))}
    </ul>
  );
}

/** BlogTeaser is the home page's blog block: 4 category blurbs, featured
 * articles and the latest 6. */
export function BlogTeaser({ categories, featured, latest }: { categories: Category[]; featured: ArticleCard[]; latest: ArticleCard[] }) {
  return (
    <section className="section" aria-labelledby="blog-title">
      <div className="container">
        <h2 id="blog-title" className="section__title">Restoration Tips &amp; Guides</h2>
        <p className="section__lead">Practical advice from our restoration team for Atlanta homeowners.</p>
        <CategoryCards categories={categories} />
        <h3 className="subheading">Featured Articles</h3>
        <ArticleCards articles={featured} />
        <h3 className="subheading">Latest Articles</h3>
        <ArticleCards articles={latest} />
        <p className="center"><a href="/blog" className="btn btn--outline">Read the Blog</a></p>
      </div>
    </section>
  );
}
