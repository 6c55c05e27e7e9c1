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

// TestBlogTopicHostileAddresses: the topic route answers a real topic and
// nothing else: an encoded climb, a huge slug, markup, an extra segment or
// another case is the not-found page (404, never a redirect or a 500),
// and the markup never comes back unescaped; a trailing slash is the
// site's usual 301 to the same address on this site.
func TestBlogTopicHostileAddresses(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	if r := get(t, h, "/blog/category/insurance"); r.StatusCode != http.StatusOK {
		t.Fatalf("a real topic: %d", r.StatusCode)
	}
	for _, path := range []string{
		"/blog/category/%2e%2e%2fadmin",
		"/blog/category/..%2F..%2Fadmin",
		"/blog/category/" + strings.Repeat("a", 5000),
		"/blog/category/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
		"/blog/category/insurance/extra",
		"/blog/category/Insurance",
		"/blog/category/insurance%00",
		"/blog/category/",
	} {
		r := get(t, h, path)
		if r.StatusCode == http.StatusMovedPermanently {
			loc := r.Header.Get("Location")
			if !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.Contains(loc, "\\") {
				t.Errorf("%.60s: redirect off the site to %q", path, loc)
			}
			continue
		}
		if r.StatusCode != http.StatusNotFound {
			t.Errorf("%.60s: %d, want 404", path, r.StatusCode)
		}
		if strings.Contains(r.Body, "<script>alert(1)") {
			t.Errorf("%.60s: the address's markup came back unescaped", path)
		}
	}
	r := get(t, h, "/blog/category/insurance/")
	if r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/blog/category/insurance" {
		t.Errorf("trailing slash: %d to %q, want 301 to /blog/category/insurance", r.StatusCode, r.Header.Get("Location"))
	}
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	slices.Sort(out)
	return out
}
