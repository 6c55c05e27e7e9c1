package server

import (
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/search"
	"github.com/atlanta-restoration/site/ssr"
)

// searchQueries are the queries the results page is checked with:
// results, one result, no results, and hostile text (markup, quotes,
// ampersands, entities, the marks' own shape, unicode, runs of spaces,
// control characters, very long).
var searchQueries = []string{
	"mold remediation",
	"Marietta",
	"Reinhardt",
	"water damage",
	"mold",
	"zzzqqq",
	"water xkcdqwerty",
	`<script>alert("x")</script>`,
	`"><img src=x onerror=alert(1)>`,
	`mold <b>"x'&`,
	"a & b &amp; c &#x27; d",
	"--><!-- mold",
	"{{.}} ${x} </textarea>",
	"café 💧 crème brûlée",
	"مياه water",
	"  water \t\n damage  ",
	"water\x01damage",
	"srchq0000 srchs0000",
	strings.Repeat("a ", 300),
	strings.Repeat("mold", 40),
	"d",
}

// searchPath is the URL of a search for q.
func searchPath(q string) string { return "/search?" + url.Values{"q": {q}}.Encode() }

// reactSearchPage renders the results page for the query a request for q
// asks for the slow way, kept as the reference: the whole page in
// React, per query.
func reactSearchPage(t *testing.T, srv *Server, q string) string {
	t.Helper()
	body, err := srv.pages.RenderDoc(context.Background(), "search", "/search", srv.site.SearchPage(search.Clean(q)))
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// A results page is the same document, byte for byte, as React renders
// for the query: results, no results and hostile queries alike, so the
// page looks the same and the navigation island hydrates as before. The
// gzip variant holds the same bytes.
func TestSearchPageIsReactsRender(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	sawResults, sawNone, sawOne := false, false, false
	for _, q := range searchQueries {
		want := reactSearchPage(t, srv, q)
		r := get(t, h, searchPath(q))
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%q: status %d", q, r.StatusCode)
		}
		if r.Body != want {
			t.Errorf("%q: the page differs from React's render\n%s", q, firstDiff(r.Body, want))
			continue
		}
		switch n := len(srv.site.Search(search.Clean(q))); {
		case n == 0:
			sawNone = true
		case n == 1:
			sawOne = true
		default:
			sawResults = true
		}
		z := get(t, h, searchPath(q), "Accept-Encoding", "br, gzip")
		if z.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%q: Content-Encoding %q, want gzip", q, z.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(strings.NewReader(z.Body))
		if err != nil {
			t.Fatal(err)
		}
		unz, _ := io.ReadAll(zr)
		if string(unz) != want {
			t.Errorf("%q: gzip variant differs", q)
		}
	}
	if !sawResults || !sawNone || !sawOne {
		t.Errorf("queries cover results %v, one result %v, none %v: want all three", sawResults, sawOne, sawNone)
	}
}

func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-120)
	return "got:  …" + got[from:min(len(got), i+120)] + "\nwant: …" + want[from:min(len(want), i+120)]
}

// What a visitor sees: the query shown back escaped in the heading and
// the search box, the results as links, the empty state, noindex, no
// caching, and the hostile query inert.
func TestSearchPageContent(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	q := `mold <b>"x'& </p><script>`
	r := get(t, h, searchPath(q))
	if r.StatusCode != http.StatusOK || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("status %d, Cache-Control %q", r.StatusCode, r.Header.Get("Cache-Control"))
	}
	h1 := find(r.Doc, func(n *html.Node) bool { return n.Data == "h1" })
	if len(h1) != 1 || rawText(h1[0]) != "Search results for “"+q+"”" {
		t.Errorf("heading %q", rawText(h1[0]))
	}
	input := find(r.Doc, func(n *html.Node) bool { return n.Data == "input" && attr(n, "name") == "q" })
	if len(input) != 1 || attr(input[0], "value") != q {
		t.Errorf("search box holds %q", attr(input[0], "value"))
	}
	for _, sc := range find(bodyOf(r.Doc), tag("script")) { // speculation rules and the islands boot only
		if attr(sc, "type") != "speculationrules" && rawText(sc) != ssr.IslandsBoot {
			t.Errorf("a script in the body: %q", rawText(sc))
		}
	}
	if find(r.Doc, tag("b")) != nil {
		t.Error("the query's markup became an element")
	}
	cards := find(r.Doc, func(n *html.Node) bool { return n.Data == "li" && attr(n, "class") == "card" })
	if want := len(srv.site.Search(search.Clean(q))); want == 0 || len(cards) != want {
		t.Errorf("%d cards, want %d", len(cards), want)
	}
	robots := find(headOf(r.Doc), func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "robots" })
	if len(robots) != 1 || attr(robots[0], "content") != "noindex, nofollow" {
		t.Error("search results are indexable")
	}
	title := find(headOf(r.Doc), tag("title"))
	if len(title) != 1 || rawText(title[0]) != "Search | Restoration Services & Guides" {
		t.Errorf("title %v", title)
	}

	none := get(t, h, searchPath("zzzqqq"))
	status := find(none.Doc, func(n *html.Node) bool { return attr(n, "role") == "status" })
	if len(status) != 1 || rawText(status[0]) != "No results found." || !strings.Contains(none.Body, `<a href="/search?q=water+damage">water damage</a>`) {
		t.Errorf("empty state missing: %v", status)
	}
	if cards := find(none.Doc, func(n *html.Node) bool { return n.Data == "li" && attr(n, "class") == "card" }); len(cards) != 0 {
		t.Errorf("%d cards for no results", len(cards))
	}

	// The same normalised query is the same page; the empty query is the
	// cached search page; HEAD answers like GET without a body.
	a, b := get(t, h, "/search?q=water+damage"), get(t, h, "/search?q=%20water%20%20damage%20")
	if a.Body != b.Body {
		t.Error("spaces changed the page")
	}
	empty := get(t, h, "/search?q=+++")
	if empty.StatusCode != 200 || empty.Header.Get("Cache-Control") == "no-store" || !strings.Contains(empty.Body, `<h1 id="page-title" class="page-hero__title">Search</h1>`) {
		t.Errorf("empty query: %d %q", empty.StatusCode, empty.Header.Get("Cache-Control"))
	}
	head := do(t, h, must(http.NewRequest(http.MethodHead, "/search?q=mold", nil)))
	if head.StatusCode != 200 || head.Body != "" || head.Header.Get("Content-Length") == "" {
		t.Errorf("HEAD: %d, %d bytes, length %q", head.StatusCode, len(head.Body), head.Header.Get("Content-Length"))
	}
	// A 5,000-character query is cut to the search box's 100.
	long := get(t, h, "/search?q="+strings.Repeat("a", 5000))
	in := find(long.Doc, func(n *html.Node) bool { return n.Data == "input" && attr(n, "name") == "q" })
	if long.StatusCode != 200 || len(in) != 1 || attr(in[0], "value") != strings.Repeat("a", search.MaxQuery) {
		t.Errorf("long query: %d", long.StatusCode)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// rawText is a node's text exactly as parsed.
func rawText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
