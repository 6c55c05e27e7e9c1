package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// TestCrawlWholeSite walks every route of the table and every internal
// link found in the rendered HTML, the way a crawler does, and checks each
// page: status, one H1, head texts within limits and unique, an absolute
// self-referencing canonical, and structured data that parses.
func TestCrawlWholeSite(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	queue := append([]string{}, srv.site.AllPaths()...)
	seen := map[string]bool{}
	for _, p := range queue {
		seen[p] = true
	}
	titles := map[string]string{}
	descs := map[string]string{}
	pages := 0
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		r := get(t, h, p)
		switch r.StatusCode {
		case http.StatusMovedPermanently:
			loc := r.Header.Get("Location")
			if t2 := get(t, h, loc); t2.StatusCode != http.StatusOK {
				t.Errorf("%s: redirects to %s, which answers %d", p, loc, t2.StatusCode)
			}
			continue
		case http.StatusOK:
		default:
			t.Errorf("%s: status %d", p, r.StatusCode)
			continue
		}
		if r.Doc == nil {
			continue
		}
		pages++
		head, body := headOf(r.Doc), bodyOf(r.Doc)
		if n := len(find(body, tag("h1"))); n != 1 {
			t.Errorf("%s: %d h1, want 1", p, n)
		}
		robots := metaContent(head, "name", "robots")
		indexable := !strings.Contains(robots, "noindex")
		title := ""
		if ts := find(head, tag("title")); len(ts) == 1 && ts[0].FirstChild != nil {
			title = ts[0].FirstChild.Data
		}
		desc := metaContent(head, "name", "description")
		if title == "" || utf8.RuneCountInString(title) > 60 {
			t.Errorf("%s: title %q (%d chars), want 1-60", p, title, utf8.RuneCountInString(title))
		}
		if desc == "" || utf8.RuneCountInString(desc) > 160 {
			t.Errorf("%s: description %d chars, want 1-160", p, utf8.RuneCountInString(desc))
		}
		canon := ""
		for _, l := range find(head, func(n *html.Node) bool { return n.Data == "link" && attr(n, "rel") == "canonical" }) {
			canon = attr(l, "href")
		}
		u, _ := url.Parse(p)
		if indexable {
			if canon != testBase+u.Path {
				t.Errorf("%s: canonical %q, want %q", p, canon, testBase+u.Path)
			}
			if prev, ok := titles[title]; ok && prev != u.Path {
				t.Errorf("%s: title %q repeats %s", p, title, prev)
			}
			if prev, ok := descs[desc]; ok && prev != u.Path {
				t.Errorf("%s: description repeats %s", p, prev)
			}
			titles[title], descs[desc] = u.Path, u.Path
		} else if !strings.HasPrefix(canon, testBase+"/") {
			t.Errorf("%s: canonical %q is not absolute", p, canon)
		}
		types := ldTypes(jsonLDBlocks(t, r.Doc)) // fails on any block that does not parse
		if !types["LocalBusiness"] {
			t.Errorf("%s: no LocalBusiness JSON-LD", p)
		}
		if u.Path != "/" && !types["BreadcrumbList"] && indexable {
			t.Errorf("%s: no BreadcrumbList", p)
		}
		if len(find(body, func(n *html.Node) bool { return n.Data == "section" && strings.Contains(attr(n, "class"), "faq ") })) > 0 && !types["FAQPage"] {
			t.Errorf("%s: FAQ shown without FAQPage JSON-LD", p)
		}
		for _, a := range find(r.Doc, tag("a")) {
			href := attr(a, "href")
			if !strings.HasPrefix(href, "/") || strings.HasPrefix(href, "//") {
				continue
			}
			if i := strings.Index(href, "#"); i >= 0 {
				href = href[:i]
			}
			if href == "" || seen[href] || strings.HasPrefix(href, "/assets/") || strings.HasPrefix(href, "/media/") {
				continue
			}
			seen[href] = true
			queue = append(queue, href)
		}
	}
	if pages < 100 {
		t.Errorf("crawled %d pages, want the whole site (100+)", pages)
	}
	t.Logf("crawled %d pages, %d distinct URLs", pages, len(seen))
}

func metaContent(head *html.Node, key, val string) string {
	for _, m := range find(head, func(n *html.Node) bool { return n.Data == "meta" && attr(n, key) == val }) {
		return attr(m, "content")
	}
	return ""
}
