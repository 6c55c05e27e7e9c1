package server

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// biPage checks what every blog and info page must have: status 200,
// exactly one h1, an absolute self canonical, title and description within
// limits, parsing JSON-LD with the site nodes and breadcrumbs. It returns
// the response, the head title and the JSON-LD types.
func biPage(t *testing.T, h http.Handler, path string) (*response, string, map[string]bool) {
	t.Helper()
	r := get(t, h, path)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d", path, r.StatusCode)
	}
	if n := len(find(r.Doc, tag("h1"))); n != 1 {
		t.Errorf("%s: %d h1, want 1", path, n)
	}
	head := headOf(r.Doc)
	canon := find(head, func(n *html.Node) bool { return n.Data == "link" && attr(n, "rel") == "canonical" })
	if len(canon) != 1 || attr(canon[0], "href") != testBase+path {
		t.Errorf("%s: canonical not %s", path, testBase+path)
	}
	titles := find(head, tag("title"))
	title := ""
	if len(titles) == 1 {
		title = text(titles[0])
	}
	if title == "" || utf8.RuneCountInString(title) > 60 {
		t.Errorf("%s: title %q empty or over 60 characters", path, title)
	}
	desc := biMeta(head, "description")
	if desc == "" || utf8.RuneCountInString(desc) > 160 {
		t.Errorf("%s: description %q empty or over 160 characters", path, desc)
	}
	if robots := biMeta(head, "robots"); !strings.HasPrefix(robots, "index, follow") {
		t.Errorf("%s: robots %q", path, robots)
	}
	types := ldTypes(jsonLDBlocks(t, r.Doc))
	for _, want := range []string{"LocalBusiness", "Organization", "WebSite", "BreadcrumbList"} {
		if !types[want] {
			t.Errorf("%s: JSON-LD lacks %s", path, want)
		}
	}
	if len(find(bodyOf(r.Doc), func(n *html.Node) bool { return n.Data == "nav" && attr(n, "aria-label") == "Breadcrumb" })) != 1 {
		t.Errorf("%s: no visible breadcrumb trail", path)
	}
	// No empty paragraphs anywhere in main.
	for _, p := range find(biMain(r.Doc), tag("p")) {
		if strings.TrimSpace(text(p)) == "" && len(find(p, tag("a"))) == 0 {
			t.Errorf("%s: empty <p>", path)
			break
		}
	}
	return r, title, types
}

func biMeta(head *html.Node, name string) string {
	for _, m := range find(head, tag("meta")) {
		if attr(m, "name") == name || attr(m, "property") == name {
			return attr(m, "content")
		}
	}
	return ""
}

func biMain(doc *html.Node) *html.Node { return find(doc, tag("main"))[0] }

// biGraphNode returns the first @graph node of a type.
func biGraphNode(t *testing.T, doc *html.Node, typ string) map[string]any {
	t.Helper()
	for _, b := range jsonLDBlocks(t, doc) {
		g, _ := b["@graph"].([]any)
		for _, e := range g {
			if m, ok := e.(map[string]any); ok && m["@type"] == typ {
				return m
			}
		}
	}
	return nil
}

// biSectionLinks lists the hrefs of links under the section labelled by id.
func biSectionLinks(doc *html.Node, labelID, prefix string) []string {
	var out []string
	for _, s := range find(doc, func(n *html.Node) bool { return n.Data == "section" && attr(n, "aria-labelledby") == labelID }) {
		for _, a := range find(s, tag("a")) {
			if h := attr(a, "href"); strings.HasPrefix(h, prefix) {
				out = append(out, h)
			}
		}
	}
	return out
}

func TestBlogIndex(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	r, _, types := biPage(t, srv.Handler(), "/blog")
	if !types["Blog"] {
		t.Error("/blog: no Blog JSON-LD")
	}
	txt := text(bodyOf(r.Doc))
	for _, want := range []string{"Browse by Topic", "Featured Articles", "All Articles", "Restoration", "Insurance Claims", "Prevention", "Construction & Remodeling"} {
		if !strings.Contains(txt, want) {
			t.Errorf("/blog lacks %q", want)
		}
	}
	if n := len(find(biMain(r.Doc), func(n *html.Node) bool { return n.Data == "li" && strings.Contains(attr(n, "class"), "category-card") })); n != 4 {
		t.Errorf("%d category cards, want 4", n)
	}
	featured := biSectionLinks(r.Doc, "featured-title", "/blog/")
	var wantFeatured []string
	for _, a := range testContent.Articles {
		if a.Featured {
			wantFeatured = append(wantFeatured, "/blog/"+a.Slug)
		}
	}
	if len(wantFeatured) != 3 || strings.Join(featured, " ") != strings.Join(wantFeatured, " ") {
		t.Errorf("featured %v, want the 3 featured %v", featured, wantFeatured)
	}
	all := biSectionLinks(r.Doc, "all-title", "/blog/")
	if len(all) != len(testContent.Articles) {
		t.Fatalf("All Articles lists %d, want %d", len(all), len(testContent.Articles))
	}
	last := "9999-12-31"
	for _, href := range all {
		a, ok := testContent.Article(strings.TrimPrefix(href, "/blog/"))
		if !ok {
			t.Fatalf("All Articles links unknown %s", href)
		}
		if a.PublishDate > last {
			t.Errorf("All Articles not newest first at %s (%s after %s)", href, a.PublishDate, last)
		}
		last = a.PublishDate
	}
	if !strings.Contains(txt, "Dealing With Damage Right Now?") || len(find(biMain(r.Doc), func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "tel:+17705550134" })) == 0 {
		t.Error("/blog: no emergency call to action")
	}
}

func TestBlogPosts(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	titles := map[string]string{}
	var paths []string
	for _, rt := range srv.site.Routes() {
		if rt.Pattern == "/blog/{slug}" {
			paths = rt.Paths(testContent)
		}
	}
	if len(paths) != len(testContent.Articles) || len(paths) != 5 {
		t.Fatalf("/blog/{slug} expands to %d paths, want the 5 articles", len(paths))
	}
	for _, path := range paths {
		a, _ := testContent.Article(strings.TrimPrefix(path, "/blog/"))
		r, title, types := biPage(t, h, path)
		if title != a.SEOTitle || biMeta(headOf(r.Doc), "description") != a.MetaDescription {
			t.Errorf("%s: head not from the article's seoTitle/metaDescription", path)
		}
		if other, dup := titles[title]; dup {
			t.Errorf("%s and %s share the title %q", path, other, title)
		}
		titles[title] = path
		if og := biMeta(headOf(r.Doc), "og:type"); og != "article" {
			t.Errorf("%s: og:type %q", path, og)
		}
		if kw := biMeta(headOf(r.Doc), "keywords"); kw != strings.Join(a.Keywords, ", ") {
			t.Errorf("%s: keywords %q", path, kw)
		}
		if !types["Article"] {
			t.Fatalf("%s: no Article JSON-LD", path)
		}
		art := biGraphNode(t, r.Doc, "Article")
		pub, _ := art["publisher"].(map[string]any)
		author, _ := art["author"].(map[string]any)
		main, _ := art["mainEntityOfPage"].(map[string]any)
		if art["headline"] != a.Title || art["description"] != a.MetaDescription || art["datePublished"] != a.PublishDate ||
			art["dateModified"] != a.PublishDate || pub["@id"] != testBase+"/#organization" ||
			author["@type"] != "Organization" || main["@id"] != testBase+path {
			t.Errorf("%s: Article JSON-LD incomplete: %v", path, art)
		}
		if h1 := text(find(r.Doc, tag("h1"))[0]); h1 != a.Title {
			t.Errorf("%s: h1 %q", path, h1)
		}
		d, _ := time.Parse("2006-01-02", a.PublishDate)
		txt := text(bodyOf(r.Doc))
		cat := ""
		for _, c := range testContent.Categories {
			if c.Slug == a.Category {
				cat = c.Name
			}
		}
		for _, want := range []string{cat, a.Excerpt, d.Format("January 2, 2006"), strconv.Itoa(a.ReadTime) + " min read",
			"By the Avatar Restoration & Construction Team", "Related Services & Resources", "Popular Locations", "Get Free Estimate"} {
			if !strings.Contains(txt, want) {
				t.Errorf("%s lacks %q", path, want)
			}
		}
		// Body, line by line: every heading and list item is rendered as such.
		body := find(r.Doc, func(n *html.Node) bool { return attr(n, "class") == "prose" })
		if len(body) != 1 {
			t.Fatalf("%s: %d .prose bodies", path, len(body))
		}
		h2, h3, li, bold, warn := 0, 0, 0, 0, 0
		for _, line := range strings.Split(a.Content, "\n") {
			line = strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(line, "### "):
				h3++
			case strings.HasPrefix(line, "## "):
				h2++
			case strings.HasPrefix(line, "- "):
				li++
			case strings.HasPrefix(line, "**") && strings.HasSuffix(line, "**") && len(line) > 4:
				bold++
			case strings.HasPrefix(line, "❌"):
				warn++
			}
		}
		count := func(pred func(*html.Node) bool) int { return len(find(body[0], pred)) }
		if got := count(tag("h2")); got != h2 {
			t.Errorf("%s: %d h2, want %d", path, got, h2)
		}
		if got := count(tag("h3")); got != h3 {
			t.Errorf("%s: %d h3, want %d", path, got, h3)
		}
		if got := count(tag("li")); got != li {
			t.Errorf("%s: %d li, want %d", path, got, li)
		}
		if got := count(tag("strong")); got != bold {
			t.Errorf("%s: %d bold lines, want %d", path, got, bold)
		}
		if got := count(func(n *html.Node) bool { return strings.Contains(attr(n, "class"), "warn") && n.Data == "p" }); got != warn {
			t.Errorf("%s: %d warning lines, want %d", path, got, warn)
		}
		// Consecutive list items share one list.
		for _, ul := range find(body[0], tag("ul")) {
			if ul.NextSibling != nil && ul.NextSibling.Data == "ul" {
				t.Errorf("%s: two adjacent lists", path)
			}
		}
		// Related: up to 3 other articles of the same category.
		rel := biSectionLinks(r.Doc, "related-articles-title", "/blog/")
		want := 0
		for _, o := range testContent.Articles {
			if o.Category == a.Category && o.Slug != a.Slug && want < 3 {
				want++
			}
		}
		if len(rel) != want {
			t.Errorf("%s: %d related articles, want %d", path, len(rel), want)
		}
		for _, href := range rel {
			o, _ := testContent.Article(strings.TrimPrefix(href, "/blog/"))
			if o == nil || o.Category != a.Category || o.Slug == a.Slug {
				t.Errorf("%s: related %s is not another article of the category", path, href)
			}
		}
		if want == 0 && len(biSectionLinks(r.Doc, "more-articles-title", "/blog/")) == 0 {
			t.Errorf("%s: no other articles offered", path)
		}
		if !strings.Contains(r.Body, `href="tel:+17705550134"`) {
			t.Errorf("%s: no phone link", path)
		}
	}
}

func TestBlogPostNotFound(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	r := get(t, srv.Handler(), "/blog/no-such-post")
	if r.StatusCode != http.StatusNotFound {
		t.Fatalf("status %d, want 404", r.StatusCode)
	}
	h1 := find(r.Doc, tag("h1"))
	if len(h1) != 1 || text(h1[0]) != "Blog Post Not Found" {
		t.Errorf("h1 %v", h1)
	}
	if !strings.Contains(text(bodyOf(r.Doc)), "The blog post you're looking for doesn't exist.") {
		t.Error("message missing")
	}
	ok := false
	for _, a := range find(biMain(r.Doc), tag("a")) {
		ok = ok || (attr(a, "href") == "/" && text(a) == "Back to Home")
	}
	if !ok {
		t.Error("no 'Back to Home' link to /")
	}
	if robots := biMeta(headOf(r.Doc), "robots"); !strings.Contains(robots, "noindex") {
		t.Errorf("robots %q", robots)
	}
}

func TestBlogRedirects(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	for from, to := range map[string]string{
		"/blog/water-damage-prevention-tips": "/blog/preventing-water-damage-atlanta-homes",
		"/blog/emergency-restoration-guide":  "/blog/what-to-do-immediately-after-water-damage",
	} {
		r := get(t, srv.Handler(), from)
		if r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != to {
			t.Errorf("%s: %d -> %q, want 301 -> %s", from, r.StatusCode, r.Header.Get("Location"), to)
		}
		if r := get(t, srv.Handler(), to); r.StatusCode != http.StatusOK {
			t.Errorf("%s: target answers %d", to, r.StatusCode)
		}
	}
}

func TestBlogRoutesInTable(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	want := map[string]string{"/blog": "high", "/blog/{slug}": "medium"}
	for _, r := range srv.site.Routes() {
		if p, ok := want[r.Pattern]; ok {
			if r.Priority != p || !r.InSitemap || !r.Indexable {
				t.Errorf("%s: priority %s sitemap %v indexable %v", r.Pattern, r.Priority, r.InSitemap, r.Indexable)
			}
			delete(want, r.Pattern)
		}
	}
	if len(want) > 0 {
		t.Errorf("routes missing: %v", want)
	}
}
