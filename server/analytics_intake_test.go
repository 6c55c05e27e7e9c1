package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/analytics/analyticstest"
	"github.com/atlanta-restoration/site/db"
	analyticsweb "github.com/atlanta-restoration/site/web/analytics"
)

// Attacks on the analytics (ADR 029), each through POST
// /api/collect and the admin endpoints, on SQLite and on PostgreSQL.

// analyticsOnEachDB runs fn with an admin server (test PIN) on a fresh
// SQLite store and, when reachable, a fresh PostgreSQL schema.
func analyticsOnEachDB(t *testing.T, fn func(t *testing.T, srv *Server, store *db.Store)) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		newTestServer(t, nil) // the shared engine and content
		cfg := testConfig(t, map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir()})
		srv, err := buildServer(t, testParts{Config: cfg, Store: store})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Close)
		fn(t, srv, store)
	})
}

// rawBeacon posts body as the beacon does, from ip with user agent ua,
// and returns the status.
func rawBeacon(h http.Handler, ip, ua string, body []byte) int {
	req := httptest.NewRequest("POST", "/api/collect", bytes.NewReader(body))
	req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
	req.Header.Set("User-Agent", ua)
	req.RemoteAddr = net.JoinHostPort(ip, "5000")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// One NUL byte wiped analytics on PostgreSQL: five hostile
// beacons a second from one IP, within its rate limit, left 0 of 200
// real page views stored. Now 200 good beacons interleaved with NUL,
// invalid UTF-8, a character cut in half, control and format
// characters, oversized and malformed ones, however encoded, are all
// stored; nothing reaches a database that refuses it or keeps text the
// screen cannot show.
func TestCollectOneBadBeaconNeverCostsAGoodOne(t *testing.T) {
	analyticsOnEachDB(t, func(t *testing.T, srv *Server, store *db.Store) {
		h := srv.Handler()
		const ip = "203.0.113.50"
		hostileUA := browserUA + " hostile"
		long := "a" + strings.Repeat("é", 60) // 121 bytes: cut at 100 bytes, half a character
		hostile := [][]byte{
			[]byte(`{"t":"pageview","p":"/","us":"news\u0000letter"}`),
			[]byte("{\"t\":\"pageview\",\"p\":\"/\",\"um\":\"a\x00b\"}"),
			[]byte("{\"t\":\"pageview\",\"p\":\"/\",\"r\":\"https://x\xff.example/\"}"),
			[]byte(`{"t":"pageview","p":"/\u0000"}`),
			[]byte(`{"t":"pageview","p":"/services%00"}`),
			[]byte(`{"t":"pageview","p":"/caf%C3"}`),
			[]byte(`{"t":"pageview","p":"/%FF%FE"}`),
			mustJSON(map[string]any{"t": "pageview", "p": "/", "us": long, "um": long, "uc": long}),
			mustJSON(map[string]any{"t": "pageview", "p": "/contact", "uc": "spring\u202esale\u200b\u0007\u001b[0m"}),
			mustJSON(map[string]any{"t": "pageview", "p": "/about", "r": "https://" + strings.Repeat("sub.", 70) + "example/"}),
			mustJSON(map[string]any{"t": "pageview", "p": "/", "r": "https://evil\u202ehost.example/"}),
			mustJSON(map[string]any{"t": "pageview", "p": "/", "r": strings.Repeat("x", analyticsweb.CollectMaxBody)}),
			[]byte(`{"t":"pageview","p":123}`),
			[]byte(`{"t":["pageview"],"p":"/"}`),
			[]byte(`{"t":"pageview","p":"/","w":1e400}`),
			[]byte(`{"t":"lead","p":"/estimate"}`),
			[]byte(`{"t":"not_found","p":"/"}`),
			[]byte(`{"t":"vital","p":"/","m":"LCP","v":119000}`),
			[]byte(`{"t":"vital","p":"/","m":"CLS","v":-0.5}`),
			[]byte(`not json at all`),
			[]byte(`{"t":"pageview","p":"/","us":"\ud800"}`), // a lone surrogate
		}
		paths := []string{"/", "/services", "/contact", "/about", "/areas/cobb/smyrna"}
		refs := []string{"https://www.google.com/", "", "https://www.facebook.com/", "https://www.yelp.com/biz/x"}
		for i := 0; i < 200; i++ {
			ua := fmt.Sprintf("%s good-%d", browserUA, i%4)
			b := mustJSON(map[string]any{"t": "pageview", "p": paths[i%len(paths)], "r": refs[i%len(refs)], "w": 390, "uc": fmt.Sprintf("good-%03d", i)})
			if code := rawBeacon(h, ip, ua, b); code != http.StatusNoContent {
				t.Fatalf("good beacon %d: %d", i, code)
			}
			rawBeacon(h, ip, hostileUA, hostile[i%len(hostile)])
		}
		flushAnalytics(t, srv)
		var good, distinct int
		store.SQL().QueryRow(`SELECT COUNT(*), COUNT(DISTINCT utm_campaign) FROM analytics_events WHERE kind = 'pageview' AND utm_campaign LIKE 'good-%'`).Scan(&good, &distinct)
		if good != 200 || distinct != 200 {
			t.Errorf("%d of 200 good page views stored (%d distinct)", good, distinct)
		}
		analyticstest.CheckStoredText(t, store)
		if n := refusedCount(srv); n != 0 {
			t.Errorf("%d events reached the database and were refused", n)
		}
		tok := unlock(t, h)
		r := analyticsReport(t, h, tok, 1)
		if problems := analyticstest.Check(r, analyticstest.Oracle(analyticstest.StoredEvents(t, store), r.From, r.To, analyticsweb.Places(srv.site).Label)); len(problems) > 0 {
			t.Errorf("figures disagree:\n%s", strings.Join(problems, "\n"))
		}
		if r.Pageviews < 200 || r.Visitors != 5 {
			t.Errorf("%d page views, %d visitors: want the 200 good ones and 5 visitors (4 good browsers and the hostile one)", r.Pageviews, r.Visitors)
		}
	})
}

// The served set is the site's pages: every concrete path of the route
// table but admin pages; paths a pattern matches but no content has are
// not in it, and answer 404. The not-found page loads the script that
// sends its beacon.
func TestServedPagesAreTheSitesPages(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	pages := srv.site.ServedPages()
	want := map[string]bool{}
	for _, p := range srv.site.AllPaths() {
		if p != "/admin" && !strings.HasPrefix(p, "/admin/") {
			want[p] = true
		}
	}
	if len(pages) != len(want) || len(pages) < 100 {
		t.Errorf("%d served pages, %d concrete public paths", len(pages), len(want))
	}
	for p := range want {
		if pages[p] == "" {
			t.Errorf("%s is served but not counted as a page", p)
		}
	}
	for _, p := range []string{"/", "/services", "/areas/cobb/smyrna", "/blog", "/estimate", "/search"} {
		if r := get(t, h, p); r.StatusCode != 200 || pages[p] == "" {
			t.Errorf("%s: %d, kind %q", p, r.StatusCode, pages[p])
		}
	}
	for _, p := range []string{"/areas/cobb/nowhere", "/blog/no-such-post", "/services/no-such-service", "/service-areas/nowhere", "/nope"} {
		if r := get(t, h, p); r.StatusCode != 404 || pages[p] != "" {
			t.Errorf("%s: %d, kind %q", p, r.StatusCode, pages[p])
		}
	}
	script := regexp.MustCompile(`<script data-src="(/assets/islands-[^"]+)"`)
	home, nf := script.FindStringSubmatch(get(t, h, "/").Body), script.FindStringSubmatch(get(t, h, "/nope").Body)
	if home == nil || nf == nil || home[1] != nf[1] {
		t.Errorf("the not-found page does not load the beacon's script: %v %v", home, nf)
	}
}

// A lead's page is the page it was sent from when the site serves it;
// any other Referer is the estimate page, so the roll-up's page rows
// stay the site's pages.
func TestLeadPageIsAServedPage(t *testing.T) {
	srv, store := newTestServer(t, nil)
	h := srv.Handler()
	for i, ref := range []string{testBase + "/areas/cobb/smyrna", testBase + "/call-404-555-0199", testBase + "/areas/cobb/smyrna/", "https://evil.example/contact"} {
		f := validForm()
		req := httptest.NewRequest("POST", "/estimate", strings.NewReader(f.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("User-Agent", browserUA)
		req.Header.Set("Referer", ref)
		req.RemoteAddr = fmt.Sprintf("198.51.100.%d:5000", 200+i)
		if r := do(t, h, req); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("estimate: %d", r.StatusCode)
		}
	}
	flushAnalytics(t, srv)
	got := map[string]int{}
	for _, e := range analyticstest.StoredEvents(t, store) {
		got[e.Path]++
	}
	if got["/areas/cobb/smyrna"] != 2 || got["/estimate"] != 2 || len(got) != 2 {
		t.Errorf("lead pages: %v", got)
	}
}
