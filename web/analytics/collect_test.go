package analytics

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

// A page view is stored once; a visitor who asks not to be tracked, a
// bot, another site, an admin page, a path that is not one, an unknown
// kind or metric, a vital out of range or of an unknown page, and an
// oversized beacon are answered alike and store nothing. The stored view
// keeps a source, a width class, the referrer's host and a visitor hash
// that is not the address; no cookie is ever set.
func TestCollectStoresOnlyWhatItShould(t *testing.T) {
	t.Parallel()
	r := newRoom(t, db.NewTestSQLite(t))
	pv := map[string]any{"t": "pageview", "p": "/services", "r": "https://www.google.com/", "w": 390, "us": "", "um": ""}
	if code := r.beacon(t, "198.51.100.1", pv); code != http.StatusNoContent {
		t.Fatalf("status %d", code)
	}
	for _, c := range []struct {
		name string
		body any
		hdr  []string
	}{
		{"DNT", pv, []string{"DNT", "1"}},
		{"GPC", pv, []string{"Sec-GPC", "1"}},
		{"bot", pv, []string{"User-Agent", "Googlebot/2.1"}},
		{"headless", pv, []string{"User-Agent", "Mozilla/5.0 HeadlessChrome/120.0"}},
		{"other site", pv, []string{"Origin", "https://evil.example"}},
		{"cross-site fetch", pv, []string{"Sec-Fetch-Site", "cross-site"}},
		{"admin page", map[string]any{"t": "pageview", "p": "/admin/leads"}, nil},
		{"not a path", map[string]any{"t": "pageview", "p": "https://evil.example/"}, nil},
		{"unknown kind", map[string]any{"t": "purchase", "p": "/"}, nil},
		{"vital out of range", map[string]any{"t": "vital", "p": "/", "m": "LCP", "v": -1}, nil},
		{"unknown metric", map[string]any{"t": "vital", "p": "/", "m": "FID", "v": 10}, nil},
		{"vital on an unknown page", map[string]any{"t": "vital", "p": "/no-such-page", "m": "LCP", "v": 10}, nil},
		{"oversized", map[string]any{"t": "pageview", "p": "/", "r": strings.Repeat("x", CollectMaxBody)}, nil},
	} {
		if code := r.beacon(t, "198.51.100.2", c.body, c.hdr...); code != http.StatusNoContent {
			t.Errorf("%s: status %d", c.name, code)
		}
	}
	r.flush(t)
	if n := r.countEvents(t, "1=1"); n != 1 {
		rows, _ := r.store.SQL().Query(`SELECT kind, path, source, metric FROM analytics_events`)
		for rows.Next() {
			var a, b, c, d string
			rows.Scan(&a, &b, &c, &d)
			t.Log(a, b, c, d)
		}
		t.Fatalf("%d events stored, want only the first page view", n)
	}
	var e db.Event
	r.store.SQL().QueryRow(`SELECT path, source, width, referrer, visitor FROM analytics_events`).Scan(&e.Path, &e.Source, &e.Width, &e.Referrer, &e.Visitor)
	if e.Path != "/services" || e.Source != "Organic Search" || e.Width != "mobile" || e.Referrer != "www.google.com" || len(e.Visitor) != 32 || strings.Contains(e.Visitor, "198.51") {
		t.Errorf("stored %+v", e)
	}
	// No cookie is ever set.
	req := httptest.NewRequest("POST", "/api/collect", strings.NewReader(`{"t":"pageview","p":"/"}`))
	req.Header.Set("User-Agent", browserUA)
	if res := r.Serve(req); res.Header.Get("Set-Cookie") != "" {
		t.Error("collect sets a cookie")
	}
}

// 2x CollectPerIP beacons at once from one IP (ten browsers behind it,
// each within its daily limits): at most CollectPerIP are stored,
// however they interleave. Path tricks are refused; markup in a path is
// not a page the site serves: a not-found view, its path not kept.
func TestCollectLimitHoldsUnderConcurrency(t *testing.T) {
	t.Parallel()
	r := newRoom(t, db.NewTestSQLite(t))
	var wg sync.WaitGroup
	for i := 0; i < 2*CollectPerIP; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r.beacon(t, "198.51.100.77", map[string]any{"t": "pageview", "p": "/", "w": 390}, "User-Agent", fmt.Sprintf("%s %d", browserUA, i%10))
		}(i)
	}
	wg.Wait()
	r.flush(t)
	if n := r.countEvents(t, "1=1"); n != CollectPerIP {
		t.Errorf("%d events stored from one IP, want exactly %d", n, CollectPerIP)
	}
	for _, p := range []string{"//evil.example/x", "/%2e%2e/admin/leads", "/admin", "javascript:alert(1)"} {
		r.beacon(t, "198.51.100.78", map[string]any{"t": "pageview", "p": p})
	}
	r.beacon(t, "198.51.100.78", map[string]any{"t": "pageview", "p": "/<script>alert(1)</script>"})
	r.flush(t)
	var got []string
	rows, _ := r.store.SQL().Query(`SELECT kind, path FROM analytics_events WHERE path <> '/'`)
	for rows.Next() {
		var k, p string
		rows.Scan(&k, &p)
		got = append(got, k+" "+p)
	}
	rows.Close()
	if len(got) != 1 || got[0] != "not_found " {
		t.Errorf("stored %q: only the markup path, as a not-found view without its path", got)
	}
}

// A page view of an area page (a city page or a city's profile page,
// with or without a trailing slash) names its place; other pages none. A
// path the route pattern matches but no city has is a not-found view.
func TestCollectNamesAreaPages(t *testing.T) {
	t.Parallel()
	r := newRoom(t, db.NewTestSQLite(t))
	sent := []string{"/areas/cobb/smyrna", "/areas/cobb/smyrna/", "/areas/fulton/atlanta-service", "/areas/cobb/nowhere", "/services", "/service-areas/cobb"}
	for i, p := range sent {
		r.beacon(t, fmt.Sprintf("198.51.100.%d", 30+i), map[string]any{"t": "pageview", "p": p})
	}
	r.flush(t)
	got := map[string]int{}
	for _, e := range r.storedEvents(t) {
		got[e.Kind+" "+e.Path+" "+e.Area]++
	}
	want := map[string]int{"pageview /areas/cobb/smyrna cobb/smyrna": 2, "pageview /areas/fulton/atlanta-service fulton/atlanta": 1,
		"not_found  ": 1, "pageview /services ": 1, "pageview /service-areas/cobb ": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kind, path, area (-want, +got):\n%s", diff)
	}
}
