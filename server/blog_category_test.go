package server

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// The blog's topic cards are links, each to its topic's page (ADR 051):
// a real page with its title, description, canonical, breadcrumb, the
// topic's articles and no other's; in sitemap.xml and on /sitemap; an
// unknown topic is a 404.
func TestBlogTopicPages(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	c := srv.site.Content()

	blog := get(t, h, "/blog")
	var hrefs []string
	for _, li := range find(blog.Doc, func(n *html.Node) bool { return n.Data == "li" && strings.Contains(attr(n, "class"), "category-card") }) {
		for _, a := range find(li, tag("a")) {
			hrefs = append(hrefs, attr(a, "href"))
		}
	}
	var want []string
	for _, cat := range c.Categories {
		want = append(want, "/blog/category/"+cat.Slug)
	}
	if diff := cmp.Diff(want, hrefs); diff != "" {
		t.Errorf("topic cards' links on /blog (-want, +got):\n%s", diff)
	}

	sitemap := get(t, h, "/sitemap.xml").Body
	htmlSitemap := text(bodyOf(get(t, h, "/sitemap").Doc))
	for _, cat := range c.Categories {
		path := "/blog/category/" + cat.Slug
		r := get(t, h, path)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", path, r.StatusCode)
		}
		if got := canonicalOf(r.Doc); got != testBase+path {
			t.Errorf("%s: canonical %q", path, got)
		}
		if got := headMeta(r.Doc, "description"); got != cat.Description {
			t.Errorf("%s: description %q", path, got)
		}
		if got := titleOf(r.Doc); !strings.Contains(got, cat.Name) {
			t.Errorf("%s: title %q", path, got)
		}
		if !ldTypes(jsonLDBlocks(t, r.Doc))["BreadcrumbList"] {
			t.Errorf("%s: no breadcrumb", path)
		}
		var gotPosts, wantPosts []string
		for _, a := range c.Articles {
			if a.Category == cat.Slug {
				wantPosts = append(wantPosts, "/blog/"+a.Slug)
			}
		}
		section := find(r.Doc, func(n *html.Node) bool {
			return n.Data == "section" && attr(n, "aria-labelledby") == "topic-articles-title"
		})
		if len(section) != 1 {
			t.Fatalf("%s: no articles section", path)
		}
		for _, a := range find(section[0], tag("a")) {
			if strings.HasPrefix(attr(a, "href"), "/blog/") {
				gotPosts = append(gotPosts, attr(a, "href"))
			}
		}
		if !cmp.Equal(sortedCopy(wantPosts), sortedCopy(gotPosts)) {
			t.Errorf("%s: articles %v, want %v", path, gotPosts, wantPosts)
		}
		if len(wantPosts) > 0 {
			if !strings.Contains(sitemap, "<loc>"+testBase+path+"</loc>") {
				t.Errorf("%s not in sitemap.xml", path)
			}
			if !strings.Contains(htmlSitemap, "Topic: "+cat.Name) {
				t.Errorf("%s not on /sitemap", path)
			}
		}
	}

	if r := get(t, h, "/blog/category/no-such-topic"); r.StatusCode != http.StatusNotFound || !strings.Contains(text(bodyOf(r.Doc)), "The blog topic you're looking for doesn't exist.") {
		t.Errorf("unknown topic: status %d", r.StatusCode)
	}
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	slices.Sort(out)
	return out
}
