package pages

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/search"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/ssr"
)

// searchQueries are queries with results, one result, none, and hostile
// text (the page's own tests are in server/search_test.go).
var searchQueries = []string{"mold", "mold remediation", "Marietta", "water damage", "zzzqqq", `<script>alert("x")</script>`, "water\x01damage"}

func searchPath(q string) string { return "/search?" + url.Values{"q": {q}}.Encode() }

// reactSearchPage renders the results page for the query a request for q
// asks for the way it was rendered before ADR 028: the whole page in
// React, per query.
func reactSearchPage(t *testing.T, h *Handler, q string) string {
	t.Helper()
	body, err := h.RenderDoc(context.Background(), "search", site.SearchPath, h.site.SearchPage(search.Clean(q)))
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
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
	srv, h := newTestHandler(t)
	want := map[string]string{}
	for _, q := range searchQueries {
		want[q] = reactSearchPage(t, srv, q)
	}
	if r := get(t, h, "/search?q=mold"); r.StatusCode != 200 {
		t.Fatalf("first search: %d", r.StatusCode)
	}
	// The wait for a search slot is not what this test is about (under
	// the race detector 200 searches take seconds).
	srv.search.gate = guard.NewPacer(1e6, 1000, searchWorkers(), time.Minute)
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
		}(searchQueries[i%len(searchQueries)])
	}
	wg.Wait()
	if n := failed.Load(); n != 0 {
		t.Errorf("%d of 200 searches failed without a runtime", n)
	}
	// A new content version needs a new shell: with no runtime, it fails.
	srv.search.invalidate()
	if r := get(t, h, "/search?q=mold"); r.StatusCode != http.StatusInternalServerError {
		t.Errorf("search without a shell or a runtime: %d, want 500", r.StatusCode)
	}
	// The failure is remembered for searchRetry; a working engine comes
	// back with an invalidation (Engine.OnReload).
	if r := get(t, h, "/search?q=mold"); r.StatusCode != http.StatusInternalServerError {
		t.Errorf("search right after a failed shell render: %d, want 500", r.StatusCode)
	}
	srv.engine = real
	srv.search.invalidate()
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
	srv, h := newTestHandler(t)
	get(t, h, "/search?q=mold")
	srv.search.mu.Lock()
	before := srv.search.shell
	srv.search.mu.Unlock()
	if before == nil {
		t.Fatal("no shell after a search")
	}
	srv.InvalidateLocal("test")
	srv.search.mu.Lock()
	after := srv.search.shell
	srv.search.mu.Unlock()
	if after != nil {
		t.Error("Invalidate kept the search shell")
	}
}

// The pacing of searches never touches cached pages: with every search
// slot held, a search waits its turn and then answers 503 with
// Retry-After, and one whose turn is too far away is refused at once,
// while cached pages and the empty search page are served at once.
func TestSearchPacingLeavesCachedPages(t *testing.T) {
	srv, h := newTestHandler(t)
	for _, p := range []string{"/", "/services"} { // cache them
		if r := get(t, h, p); r.StatusCode != 200 {
			t.Fatal(p, r.StatusCode)
		}
	}
	get(t, h, "/search")
	get(t, h, "/search?q=mold") // the shell
	if g := srv.search.gate; g.Concurrent() != searchWorkers() || g.Rate() != searchRate || g.MaxWait != searchWait {
		t.Errorf("pacer: %d at once, %v/s, wait %v", g.Concurrent(), g.Rate(), g.MaxWait)
	}
	// The slots stay held until the test releases them, so a page that
	// waited for one would never come back: the bound only has to be
	// finite, and is generous for a loaded machine (not a timing).
	cachedServed := func(when string) {
		for _, p := range []string{"/", "/search", "/services"} {
			start := time.Now()
			if r := get(t, h, p); r.StatusCode != 200 || time.Since(start) > 60*time.Second {
				t.Errorf("%s %s: %d in %v", p, when, r.StatusCode, time.Since(start))
			}
		}
	}

	srv.search.gate = guard.NewPacer(1000, 10, 1, 100*time.Millisecond)
	held, release := make(chan struct{}), make(chan struct{})
	go srv.search.gate.Do(context.Background(), func() { close(held); <-release })
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
	srv.search.gate = guard.NewPacer(1.0/60, 1, 1, time.Second)
	if r := get(t, h, "/search?q=water"); r.StatusCode != 200 {
		t.Fatalf("first search: %d", r.StatusCode)
	}
	start = time.Now()
	if r := get(t, h, "/search?q=fire"); r.StatusCode != http.StatusServiceUnavailable || time.Since(start) > 500*time.Millisecond {
		t.Errorf("search past the rate: %d after %v, want 503 at once", r.StatusCode, time.Since(start))
	}
	cachedServed("past the search rate")
}

// BenchmarkSearchServe is one random no-results search through the
// handler, as make bench's flood sends them (identity).
func BenchmarkSearchServe(b *testing.B) {
	srv, h := newTestHandler(b)
	srv.search.gate = guard.NewPacer(1e9, 1e9, 2, time.Minute)
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
