package site

import (
	"context"
	"sort"
	"strings"

	"github.com/atlanta-restoration/site/content"
)

// RelatedArticles is spec 9's "related articles 3".
const RelatedArticles = 3

func init() {
	// Slugs of an earlier route list (spec 2.1) moved to the current posts.
	redirects["/blog/water-damage-prevention-tips"] = "/blog/preventing-water-damage-atlanta-homes"
	redirects["/blog/emergency-restoration-guide"] = "/blog/what-to-do-immediately-after-water-damage"
}

// blogRoutes are the blog index and the posts (spec 2.3).
func blogRoutes() []Route {
	return []Route{
		{Pattern: "/blog", Page: "blog", Priority: "high", ChangeFreq: "weekly", InSitemap: true, Indexable: true, Load: loadBlog},
		{Pattern: "/blog/{slug}", Page: "blog-post", Priority: "medium", ChangeFreq: "monthly", InSitemap: true, Indexable: true,
			Expand: func(c *content.Set) []string {
				out := make([]string, 0, len(c.Articles))
				for _, a := range c.Articles {
					out = append(out, "/blog/"+a.Slug)
				}
				return out
			},
			Load: loadBlogPost},
		// A topic's page (ADR 051): the blog index's topic cards link
		// here. Listed before nothing else can answer it: /blog/{slug}
		// matches one segment only.
		{Pattern: "/blog/category/{slug}", Page: "blog-category", Priority: "low", ChangeFreq: "weekly", InSitemap: true, Indexable: true,
			Expand: expandCategories, Load: loadBlogCategory},
	}
}

// CategoryPath is the address of a blog topic's page.
func CategoryPath(slug string) string { return "/blog/category/" + slug }

// expandCategories lists the topic pages the sitemap and the crawl know:
// the topics with at least one article (an empty topic's page answers,
// but is not indexed: it has nothing to read yet).
func expandCategories(c *content.Set) []string {
	used := map[string]bool{}
	for _, a := range c.Articles {
		used[a.Category] = true
	}
	var out []string
	for _, cat := range c.Categories {
		if used[cat.Slug] {
			out = append(out, CategoryPath(cat.Slug))
		}
	}
	return out
}

// BlogCategoryData is a blog topic page's data.
type BlogCategoryData struct {
	Category content.Category `json:"category"`
	// Articles are the topic's articles, newest first.
	Articles []ArticleCard `json:"articles"`
	// Others are the other topics, for the reader who came for another.
	Others []content.Category `json:"others"`
}

func loadBlogCategory(_ context.Context, s *Site, p Params) (Page, error) {
	c := s.content()
	var cat *content.Category
	var others []content.Category
	for i := range c.Categories {
		if c.Categories[i].Slug == p["slug"] {
			cat = &c.Categories[i]
		} else {
			others = append(others, c.Categories[i])
		}
	}
	if cat == nil {
		return Page{}, &NotFoundError{
			Title: "Topic Not Found", Message: "The blog topic you're looking for doesn't exist.",
			LinkHref: "/blog", LinkText: "Back to the Blog",
		}
	}
	var mine []content.Article
	for _, a := range c.Articles {
		if a.Category == cat.Slug {
			mine = append(mine, a)
		}
	}
	cards := s.articleCards(mine)
	sort.SliceStable(cards, func(i, j int) bool { return cards[i].PublishDate > cards[j].PublishDate })
	if others == nil {
		others = []content.Category{}
	}
	path := CategoryPath(cat.Slug)
	posts := make([]map[string]any, 0, len(mine))
	for _, a := range mine {
		posts = append(posts, map[string]any{"@type": "BlogPosting", "headline": a.Title, "url": s.Abs("/blog/" + a.Slug), "datePublished": a.PublishDate})
	}
	return Page{
		Data: BlogCategoryData{Category: *cat, Articles: cards, Others: others},
		Head: HeadSpec{
			Title:       cat.Name + " Guides | Restoration Blog",
			Description: cat.Description,
			Keywords:    []string{strings.ToLower(cat.Name) + " tips Atlanta", strings.ToLower(cat.Name) + " guide", "restoration blog"},
			Path:        path,
			Crumbs:      []Crumb{{"Blog", "/blog"}, {cat.Name, path}},
			NoIndex:     len(mine) == 0,
			Extra: []map[string]any{{
				"@type": "CollectionPage", "@id": s.Abs(path) + "#topic", "name": cat.Name, "url": s.Abs(path), "description": cat.Description,
				"isPartOf": map[string]any{"@id": s.Abs("/blog#blog")}, "hasPart": posts,
			}},
		},
	}, nil
}

// BlogIndexData is the blog index's data.
type BlogIndexData struct {
	Categories []content.Category `json:"categories"`
	Featured   []ArticleCard      `json:"featured"`
	// Articles are all articles, newest first.
	Articles []ArticleCard `json:"articles"`
}

func loadBlog(_ context.Context, s *Site, _ Params) (Page, error) {
	all := s.articleCards(s.content().Articles)
	// Content loads them newest first; keep that order even if it changes.
	sort.SliceStable(all, func(i, j int) bool { return all[i].PublishDate > all[j].PublishDate })
	var featured []content.Article
	for _, a := range s.content().Articles {
		if a.Featured {
			featured = append(featured, a)
		}
	}
	posts := make([]map[string]any, 0, len(s.content().Articles))
	for _, a := range s.content().Articles {
		posts = append(posts, map[string]any{
			"@type": "BlogPosting", "headline": a.Title, "url": s.Abs("/blog/" + a.Slug), "datePublished": a.PublishDate,
		})
	}
	return Page{
		Data: BlogIndexData{Categories: s.content().Categories, Featured: s.articleCards(featured), Articles: all},
		Head: HeadSpec{
			Title:       "Restoration Blog: Water, Fire & Storm Damage Guides",
			Description: "Guides from our Atlanta restoration team on water, fire, storm and mold damage, insurance claims, prevention and rebuilding after a loss.",
			Keywords:    []string{"restoration blog", "water damage tips Atlanta", "fire damage guide", "storm damage insurance claim", "mold prevention Georgia"},
			Path:        "/blog",
			Crumbs:      []Crumb{{"Blog", "/blog"}},
			Extra: []map[string]any{{
				"@type": "Blog", "@id": s.Abs("/blog#blog"), "name": "Restoration Tips & Guides", "url": s.Abs("/blog"),
				"publisher": map[string]any{"@id": s.Abs("/#organization")}, "blogPost": posts,
			}},
		},
	}, nil
}

// ArticleView is a full article as the post page shows it.
type ArticleView struct {
	ArticleCard
	Content string `json:"content"`
}

// BlogPostData is a blog post's data.
type BlogPostData struct {
	Article ArticleView `json:"article"`
	// Related are up to 3 other articles of the same category.
	Related []ArticleCard `json:"related"`
	// More are the latest other articles, shown when the category has no
	// other article so the reader is never left at a dead end.
	More         []ArticleCard `json:"more"`
	RelatedLinks RelatedData   `json:"relatedLinks"`
	// Cover is the post's photo (nil: none).
	Cover *HeroImage `json:"cover"`
}

func loadBlogPost(ctx context.Context, s *Site, p Params) (Page, error) {
	a, ok := s.content().Article(p["slug"])
	if !ok {
		return Page{}, &NotFoundError{
			Title: "Blog Post Not Found", Message: "The blog post you're looking for doesn't exist.",
			LinkHref: "/", LinkText: "Back to Home",
		}
	}
	var same, others []content.Article
	for _, o := range s.content().Articles {
		if o.Slug == a.Slug {
			continue
		}
		if o.Category == a.Category {
			if len(same) < RelatedArticles {
				same = append(same, o)
			}
		} else if len(others) < RelatedArticles {
			others = append(others, o)
		}
	}
	card := s.articleCards([]content.Article{*a})[0]
	data := BlogPostData{Article: ArticleView{ArticleCard: card, Content: a.Content}, Related: s.articleCards(same), More: []ArticleCard{}, RelatedLinks: s.related(""),
		Cover: s.heroImage(ctx, a.Image)}
	if len(same) == 0 {
		data.More = s.articleCards(others)
	}
	b := s.business(ctx)
	path := "/blog/" + a.Slug
	article := map[string]any{
		"@type": "Article", "@id": s.Abs(path) + "#article",
		"headline": a.Title, "description": a.MetaDescription,
		"datePublished": a.PublishDate, "dateModified": a.PublishDate,
		"author":           map[string]any{"@type": "Organization", "name": b.Name, "url": s.Abs("/about")},
		"publisher":        map[string]any{"@id": s.Abs("/#organization")},
		"mainEntityOfPage": map[string]any{"@type": "WebPage", "@id": s.Abs(path)},
		"image":            orDefault(s.ogImage(data.Cover), s.Abs("/og-image.png")),
		"articleSection":   card.CategoryName,
		"inLanguage":       "en-US",
	}
	if len(a.Keywords) > 0 {
		article["keywords"] = a.Keywords
	}
	return Page{
		Data: data,
		Head: HeadSpec{
			Title: a.SEOTitle, Description: a.MetaDescription, Keywords: a.Keywords, Path: path, OGType: "article",
			Crumbs: []Crumb{{"Blog", "/blog"}, {a.Title, path}},
			Extra:  []map[string]any{article},
			Image:  s.ogImage(data.Cover),
		},
	}, nil
}
