package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/guard"
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
// asks for the way it was rendered before issue 20: the whole page in
// React, per query.
func reactSearchPage(t *testing.T, srv *Server, q string) string {
	t.Helper()
	body, err := srv.renderDoc(context.Background(), "search", "/search", srv.searchPage(search.Clean(q)))
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
		switch n := len(srv.Search(search.Clean(q))); {
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
	if want := len(srv.Search(search.Clean(q))); want == 0 || len(cards) != want {
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

// brokenEngine is an engine whose every render fails at once: no runtime
// can be had from it.
func brokenEngine(t *testing.T) *ssr.Engine {
	t.Helper()
	e, err := ssr.NewEngine(ssr.EngineOptions{Root: t.TempDir(), Kinds: []string{"search"}, PoolSize: 1, Timeout: time.Second, Dev: true, Log: quiet})
	if err != nil || e.BuildErr() == nil {
		t.Fatalf("want an engine with a build error, got %v", err)
	}
	return e
}

// A search never takes a JavaScript runtime: once the content version's
// shell exists, 200 parallel searches answer, byte for byte as before,
// with no runtime to be had at all; only the shell needs one, once per
// content version.
func TestSearchNeedsNoRuntime(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	want := map[string]string{}
	for _, q := range searchQueries[:6] {
		want[q] = reactSearchPage(t, srv, q)
	}
	if r := get(t, h, "/search?q=mold"); r.StatusCode != 200 {
		t.Fatalf("first search: %d", r.StatusCode)
	}
	// The wait for a search slot is not what this test is about (under
	// the race detector 200 searches take seconds).
	srv.searchShells.gate = guard.NewPacer(1e6, 1000, searchWorkers(), time.Minute)
	real := srv.engine
	srv.engine = brokenEngine(t)
	defer func() { srv.engine = real }()
	var wg sync.WaitGroup
	var failed atomic.Int32
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(q string) {
			defer wg.Done()
			r := get(t, h, searchPath(q))
			if r.StatusCode != 200 || r.Body != want[q] {
				failed.Add(1)
				t.Errorf("%q: status %d", q, r.StatusCode)
			}
		}(searchQueries[i%6])
	}
	wg.Wait()
	if n := failed.Load(); n != 0 {
		t.Errorf("%d of 200 searches failed without a runtime", n)
	}
	// A new content version needs a new shell: with no runtime, it fails.
	srv.searchShells.invalidate()
	if r := get(t, h, "/search?q=mold"); r.StatusCode != http.StatusInternalServerError {
		t.Errorf("search without a shell or a runtime: %d, want 500", r.StatusCode)
	}
	// The failure is remembered for searchRetry; a working engine comes
	// back with an invalidation (Engine.OnReload).
	if r := get(t, h, "/search?q=mold"); r.StatusCode != http.StatusInternalServerError {
		t.Errorf("search right after a failed shell render: %d, want 500", r.StatusCode)
	}
	srv.engine = real
	srv.searchShells.invalidate()
	if r := get(t, h, "/search?q=mold"); r.StatusCode != 200 || r.Body != want["mold"] {
		t.Errorf("after the engine is back: %d", r.StatusCode)
	}
}

// The shell is rendered once per content version however many searches
// ask at once, dropped by an invalidation, and a shell whose render
// started before an invalidation is not kept after it.
func TestSearchShellPerContentVersion(t *testing.T) {
	c := newSearchShells()
	var renders atomic.Int32
	release := make(chan struct{})
	render := func(context.Context) (*search.Shell, error) {
		renders.Add(1)
		<-release
		return &search.Shell{}, nil
	}
	var wg sync.WaitGroup
	shells := make([]*search.Shell, 100)
	for i := range shells {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sh, err := c.get(context.Background(), render)
			if err != nil {
				t.Error(err)
			}
			shells[i] = sh
		}()
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := renders.Load(); n != 1 {
		t.Errorf("%d shell renders for 100 searches, want 1", n)
	}
	for _, sh := range shells {
		if sh != shells[0] || sh == nil {
			t.Fatal("searches got different shells")
		}
	}
	if sh, _ := c.get(context.Background(), render); sh != shells[0] || renders.Load() != 1 {
		t.Error("the shell was not kept")
	}
	c.invalidate()
	if sh, _ := c.get(context.Background(), render); sh == shells[0] || renders.Load() != 2 {
		t.Error("invalidation kept the shell")
	}
	// Rendered across an invalidation: answered, not kept.
	c.invalidate()
	slow := func(context.Context) (*search.Shell, error) {
		c.invalidate()
		return &search.Shell{}, nil
	}
	if sh, err := c.get(context.Background(), slow); sh == nil || err != nil {
		t.Fatalf("stale shell not answered: %v", err)
	}
	c.mu.Lock()
	kept := c.shell
	c.mu.Unlock()
	if kept != nil {
		t.Error("a shell rendered before an invalidation was kept")
	}
	// A failed render is answered from memory for searchRetry (no render
	// per search while it fails), then tried again; an invalidation tries
	// again at once.
	c.invalidate()
	boom := errors.New("boom")
	fails := 0
	failing := func(context.Context) (*search.Shell, error) { fails++; return nil, boom }
	for i := 0; i < 10; i++ {
		if _, err := c.get(context.Background(), failing); err != boom {
			t.Fatalf("render error %v", err)
		}
	}
	if fails != 1 {
		t.Errorf("%d renders for 10 searches while failing, want 1", fails)
	}
	c.mu.Lock()
	c.failedAt = time.Now().Add(-searchRetry - time.Millisecond)
	c.mu.Unlock()
	if sh, err := c.get(context.Background(), render); err != nil || sh == nil {
		t.Errorf("after searchRetry: %v", err)
	}
	c.invalidate()
	c.get(context.Background(), failing)
	c.invalidate()
	if sh, err := c.get(context.Background(), render); err != nil || sh == nil {
		t.Errorf("after an invalidation: %v", err)
	}
}

// Content changes reach results pages: Invalidate drops the shell.
func TestSearchShellFollowsInvalidate(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	get(t, srv.Handler(), "/search?q=mold")
	srv.searchShells.mu.Lock()
	before := srv.searchShells.shell
	srv.searchShells.mu.Unlock()
	if before == nil {
		t.Fatal("no shell after a search")
	}
	srv.Invalidate("test")
	srv.searchShells.mu.Lock()
	after := srv.searchShells.shell
	srv.searchShells.mu.Unlock()
	if after != nil {
		t.Error("Invalidate kept the search shell")
	}
}

// The pacing of searches never touches cached pages: with every search
// slot held, a search waits its turn and then answers 503 with
// Retry-After, and one whose turn is too far away is refused at once,
// while cached pages and the empty search page are served at once.
func TestSearchPacingLeavesCachedPages(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	if r := get(t, h, "/"); r.StatusCode != 200 { // cache /
		t.Fatal(r.StatusCode)
	}
	get(t, h, "/search")
	get(t, h, "/search?q=mold") // the shell
	if g := srv.searchShells.gate; g.Concurrent() != searchWorkers() || g.Rate() != searchRate || g.MaxWait != searchWait {
		t.Errorf("pacer: %d at once, %v/s, wait %v", g.Concurrent(), g.Rate(), g.MaxWait)
	}
	cachedServed := func(when string) {
		for _, p := range []string{"/", "/search", "/services"} {
			start := time.Now()
			if r := get(t, h, p); r.StatusCode != 200 || time.Since(start) > 2*time.Second {
				t.Errorf("%s %s: %d in %v", p, when, r.StatusCode, time.Since(start))
			}
		}
	}

	srv.searchShells.gate = guard.NewPacer(1000, 10, 1, 100*time.Millisecond)
	held, release := make(chan struct{}), make(chan struct{})
	go srv.searchShells.gate.Do(context.Background(), func() { close(held); <-release })
	<-held
	start := time.Now()
	r := get(t, h, "/search?q=water")
	if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" {
		t.Errorf("search with every slot held: %d %q", r.StatusCode, r.Header.Get("Retry-After"))
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("refused after %v, before its wait", d)
	}
	cachedServed("with every search slot held")
	close(release)
	if r := get(t, h, "/search?q=water"); r.StatusCode != 200 {
		t.Errorf("search after the slot freed: %d", r.StatusCode)
	}

	// One search a minute: the second one's turn is a minute away.
	srv.searchShells.gate = guard.NewPacer(1.0/60, 1, 1, time.Second)
	if r := get(t, h, "/search?q=water"); r.StatusCode != 200 {
		t.Fatalf("first search: %d", r.StatusCode)
	}
	start = time.Now()
	if r := get(t, h, "/search?q=fire"); r.StatusCode != http.StatusServiceUnavailable || time.Since(start) > 500*time.Millisecond {
		t.Errorf("search past the rate: %d after %v, want 503 at once", r.StatusCode, time.Since(start))
	}
	cachedServed("past the search rate")
}

// ParseShell refuses a render it cannot splice safely.
func TestParseShellRefuses(t *testing.T) {
	m := search.Marks{Query: "QQ", Start: "SS", End: "EE"}
	for name, doc := range map[string]string{
		"no region":         "<h1>QQ</h1>",
		"two starts":        "SS SS <h1>QQ</h1> EE",
		"end first":         "EE <h1>QQ</h1> SS",
		"query in a script": `<script>var q="QQ"</script>SS EE`,
		"query in a style":  `<style>/*QQ*/</style>SS EE`,
		"query in props":    `<div data-island="nav" data-props="{&quot;q&quot;:&quot;QQ&quot;}">SS EE</div>`,
	} {
		if _, err := search.ParseShell([]byte(doc), m); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	sh, err := search.ParseShell([]byte(`<h1>QQ</h1><input value="QQ">SS<p>none</p>EE<footer></footer>`), m)
	if err != nil {
		t.Fatal(err)
	}
	got := string(sh.Page(`a"<b>&'`, nil))
	if want := `<h1>a&quot;&lt;b&gt;&amp;&#x27;</h1><input value="a&quot;&lt;b&gt;&amp;&#x27;"><p>none</p><footer></footer>`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := string(sh.Page("QQ SS", nil)); !bytes.Contains([]byte(got), []byte("<h1>QQ SS</h1>")) {
		t.Errorf("a query that looks like a mark: %s", got)
	}
}

// BenchmarkSearchServe is one random no-results search through the
// handler, as make bench's flood sends them (identity).
func BenchmarkSearchServe(b *testing.B) {
	srv, _ := newTestServer(b, nil)
	srv.searchShells.gate = guard.NewPacer(1e9, 1e9, 2, time.Minute)
	h := srv.Handler()
	get(b, h, "/search?q=mold")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest("GET", fmt.Sprintf("/search?q=water+%010d", i), nil)
		h.ServeHTTP(discard{}, req)
	}
}

type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}
