// Props shapes of the blog pages (site/blog.go).
import type { ArticleCard, Category, RelatedData, HeroImage } from "./types";

export interface BlogIndexData {
  categories: Category[];
  featured: ArticleCard[];
  /** every article, newest first */
  articles: ArticleCard[];
}

export interface ArticleView extends ArticleCard {
  /** the line-based body (content/SCHEMA.md) */
  content: string;
}

export interface BlogPostData {
  article: ArticleView;
  /** up to 3 other articles of the same category */
  related: ArticleCard[];
  /** latest other articles, only when the category has no other article */
  more: ArticleCard[];
  relatedLinks: RelatedData;
  cover: HeroImage | null;
}

/** BlogCategoryData is a blog topic page's data (/blog/category/{slug}). */
export interface BlogCategoryData {
  category: Category;
  /** the topic's articles, newest first */
  articles: ArticleCard[];
  /** the other topics */
  others: Category[];
}
