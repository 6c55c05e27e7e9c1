package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/analytics"
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

// storableText reports whether s is text both databases keep as sent and
// the screen can show: valid UTF-8 without control or format characters.
func storableText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsGraphic(r) {
			return false
		}
	}
	return true
}

// checkStoredText fails t for any stored text field that is not
// storableText.
func checkStoredText(t *testing.T, store *db.Store) {
	t.Helper()
	rows, err := store.SQL().Query(`SELECT id, kind, path, page_kind, source, referrer, utm_source, utm_medium, utm_campaign, width, visitor, metric, area FROM analytics_events`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		f := make([]string, 13)
		p := make([]any, 13)
		for i := range f {
			p[i] = &f[i]
		}
		if err := rows.Scan(p...); err != nil {
			t.Fatal(err)
		}
		for i, s := range f {
			if !storableText(s) || len(s) > 300 {
				t.Errorf("event %s: field %d stored as %q", f[0], i, s)
			}
		}
	}
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
		checkStoredText(t, store)
		if n := refusedCount(srv); n != 0 {
			t.Errorf("%d events reached the database and were refused", n)
		}
		tok := unlock(t, h)
		r := analyticsReport(t, h, tok, 1)
		if problems := analyticstest.Check(r, analyticstest.Oracle(storedEvents(t, store), r.From, r.To, analyticsweb.Places(srv.site).Label)); len(problems) > 0 {
			t.Errorf("figures disagree:\n%s", strings.Join(problems, "\n"))
		}
		if r.Pageviews < 200 || r.Visitors != 5 {
			t.Errorf("%d page views, %d visitors: want the 200 good ones and 5 visitors (4 good browsers and the hostile one)", r.Pageviews, r.Visitors)
		}
	})
}

// randomText is printable and unprintable junk of up to n runes.
func randomText(r *rand.Rand, n int) string {
	alphabet := []rune("abcdefghijklmnopqrstuvwxyz0123456789-_.%/é☔\u202e\u200b\u0007 <>\"'")
	var b strings.Builder
	for i := r.Intn(n + 1); i > 0; i-- {
		b.WriteRune(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

// Analytics could be filled with junk: 5,000 beacons with
// random paths, referrers, UTM tags and user agents from 17 IPs were all
// stored, counted as 5,000 visitors, and an attacker's path became the
// top page. The same attack, in parallel, with paths the site serves
// mixed in, percent-encoded paths, and two of the 17 clients IPv6 /64s
// using a new address for every beacon: the real visitors still count,
// the attackers add at most their networks' daily limits, no attacker
// path is a page, the sources are the known ones and the figures agree.
func TestCollectJunkAttack(t *testing.T) {
	analyticsOnEachDB(t, func(t *testing.T, srv *Server, store *db.Store) {
		h := srv.Handler()
		// 20 people, three pages each, from Google.
		for i := 0; i < 20; i++ {
			ip := fmt.Sprintf("198.51.100.%d", 100+i)
			for k, p := range []string{"/", "/services", "/contact"} {
				ref := ""
				if k == 0 {
					ref = "https://www.google.com/"
				}
				rawBeacon(h, ip, browserUA, mustJSON(map[string]any{"t": "pageview", "p": p, "r": ref, "w": 1280}))
			}
		}
		served := make([]string, 0, len(srv.site.ServedPages()))
		for p := range srv.site.ServedPages() {
			served = append(served, p)
		}
		sort.Strings(served)
		const spam = "/call-404-555-0199-for-cheaper-repairs"
		var wg sync.WaitGroup
		jobs := make(chan int)
		for w := 0; w < 16; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				r := rand.New(rand.NewSource(int64(w)))
				for i := range jobs {
					c := i % 17
					ip := fmt.Sprintf("192.0.2.%d", 10+c)
					if c >= 15 {
						ip = fmt.Sprintf("2001:db8:%x::%x:%x", c, r.Intn(65536), i) // a new address of the same /64 every time
					}
					var p string
					switch r.Intn(5) {
					case 0:
						p = spam
					case 1:
						p = "/call-%34%30%34-555-0199-" + randomText(r, 8) // percent-encoded
					case 2, 3:
						p = "/" + randomText(r, 40)
					default:
						p = served[r.Intn(len(served))]
					}
					b := map[string]any{"t": "pageview", "p": p, "r": "https://" + randomText(r, 20) + ".example/" + randomText(r, 10),
						"us": randomText(r, 150), "um": []string{"cpc", "email", "social", randomText(r, 10)}[r.Intn(4)], "uc": randomText(r, 150), "w": r.Intn(5000)}
					if r.Intn(10) == 0 {
						b = map[string]any{"t": "tel_click", "p": p}
					}
					ua := fmt.Sprintf("Mozilla/5.0 (%s) Chrome/%d", randomText(r, 30), r.Intn(1_000_000))
					rawBeacon(h, ip, ua, mustJSON(b))
				}
			}(w)
		}
		for i := 0; i < 5000; i++ {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		flushAnalytics(t, srv)
		checkStoredText(t, store)

		tok := unlock(t, h)
		rep := analyticsReport(t, h, tok, 1)
		if problems := analyticstest.Check(rep, analyticstest.Oracle(storedEvents(t, store), rep.From, rep.To, analyticsweb.Places(srv.site).Label)); len(problems) > 0 {
			t.Errorf("figures disagree:\n%s", strings.Join(problems, "\n"))
		}
		maxVisitors := int64(20 + 17*analytics.MaxVisitorsPerNetwork)
		if rep.Visitors < 20 || rep.Visitors > maxVisitors {
			t.Errorf("%d visitors: want the 20 real ones and at most %d in all", rep.Visitors, maxVisitors)
		}
		if rep.NotFound == 0 || rep.NotFound > int64(17*analytics.MaxNotFoundPerNetwork) {
			t.Errorf("%d not-found views, want between 1 and %d", rep.NotFound, 17*analytics.MaxNotFoundPerNetwork)
		}
		if rep.Calls > int64(17*analytics.MaxActionsPerNetwork) {
			t.Errorf("%d calls from 17 clients", rep.Calls)
		}
		for _, p := range rep.Pages {
			if _, ok := srv.site.ServedPages()[p.Path]; !ok {
				t.Errorf("Pages lists %q, which the site does not serve", p.Path)
			}
		}
		known := map[string]bool{analytics.SourceOrganic: true, analytics.SourceDirect: true, analytics.SourceSocial: true,
			analytics.SourceReferral: true, analytics.SourceEmail: true, analytics.SourcePaid: true}
		for _, s := range rep.Sources {
			if !known[s.Source] {
				t.Errorf("source %q", s.Source)
			}
		}
		var spamRows int
		store.SQL().QueryRow(`SELECT COUNT(*) FROM analytics_events WHERE path LIKE '%call%' OR path LIKE '%404%'`).Scan(&spamRows)
		if spamRows != 0 {
			t.Errorf("%d events keep the attacker's path", spamRows)
		}
		var stored int
		store.SQL().QueryRow(`SELECT COUNT(*) FROM analytics_events`).Scan(&stored)
		t.Logf("5,000 junk beacons: %d events stored, %d visitors, %d page views, %d not-found views, %d over the limits", stored, rep.Visitors, rep.Pageviews, rep.NotFound, cappedCount(srv))
	})
}

// vitalsAnswer is GET /api/admin/vitals.
type vitalsAnswer struct {
	Overall []analytics.VitalRow `json:"overall"`
	Samples int                  `json:"samples"`
}

// 400 in-range LCP beacons of 119,000 ms from two IPs flipped the
// Performance Monitor's p75 to poor. Now an LCP of minutes is
// not a measurement, and what two clients can add a day in range (59 s
// from random user agents on random pages) is bounded: the p75 of 100
// real visits stays good.
func TestCollectVitalsAttack(t *testing.T) {
	analyticsOnEachDB(t, func(t *testing.T, srv *Server, store *db.Store) {
		h := srv.Handler()
		for i := 0; i < 100; i++ {
			ip := fmt.Sprintf("198.51.100.%d", i+1)
			rawBeacon(h, ip, browserUA, []byte(`{"t":"pageview","p":"/","w":390}`))
			rawBeacon(h, ip, browserUA, mustJSON(map[string]any{"t": "vital", "p": "/", "m": "LCP", "v": 1000 + 10*i}))
		}
		served := []string{"/", "/services", "/contact", "/about", "/areas/cobb/smyrna", "/blog"}
		attack := func(v float64) {
			var wg sync.WaitGroup
			for _, ip := range []string{"192.0.2.66", "192.0.2.67"} {
				for i := 0; i < 200; i++ {
					wg.Add(1)
					go func(ip string, i int) {
						defer wg.Done()
						ua := fmt.Sprintf("%s attacker-%d", browserUA, i)
						p := served[i%len(served)]
						rawBeacon(h, ip, ua, mustJSON(map[string]any{"t": "pageview", "p": p}))
						rawBeacon(h, ip, ua, mustJSON(map[string]any{"t": "vital", "p": p, "m": "LCP", "v": v}))
					}(ip, i)
				}
			}
			wg.Wait()
			flushAnalytics(t, srv)
		}
		tok := unlock(t, h)
		lcp := func() analytics.VitalRow {
			var a vitalsAnswer
			r := jsonReq(t, h, "GET", "/api/admin/vitals", tok, nil)
			if err := json.Unmarshal([]byte(r.Body), &a); err != nil || len(a.Overall) == 0 {
				t.Fatalf("vitals: %d %s", r.StatusCode, r.Body)
			}
			return a.Overall[0]
		}
		attack(119000) // out of range: none stored
		if row := lcp(); row.Status != "good" || row.Samples != 100 {
			t.Errorf("after 400 LCPs of 119 s: %+v", row)
		}
		attack(59000) // in range: at most the two networks' daily limit
		row := lcp()
		if row.Status != "good" || row.Samples > 100+2*analytics.MaxVitalsPerNetwork {
			t.Errorf("after 400 LCPs of 59 s: %+v", row)
		}
		t.Logf("LCP after both attacks: %+v", row)
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
	for _, e := range storedEvents(t, store) {
		got[e.Path]++
	}
	if got["/areas/cobb/smyrna"] != 2 || got["/estimate"] != 2 || len(got) != 2 {
		t.Errorf("lead pages: %v", got)
	}
}

// The admin answer says what was not stored, and why.
func TestAnalyticsAnswerCountsWhatWasNotStored(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	for i := 0; i < 3*analytics.MaxNotFoundPerNetwork; i++ {
		rawBeacon(h, "192.0.2.9", browserUA, []byte(`{"t":"pageview","p":"/missing"}`))
	}
	flushAnalytics(t, srv)
	tok := unlock(t, h)
	r := jsonReq(t, h, "GET", "/api/admin/analytics", tok, nil)
	var a struct {
		NotFound                 int64
		Dropped, Refused, Capped *int64
	}
	if err := json.Unmarshal([]byte(r.Body), &a); err != nil || a.Dropped == nil || a.Refused == nil || a.Capped == nil {
		t.Fatalf("%s", r.Body)
	}
	if a.NotFound != analytics.MaxNotFoundPerNetwork || *a.Capped != 2*analytics.MaxNotFoundPerNetwork || *a.Refused != 0 {
		t.Errorf("not found %d, capped %d, refused %d", a.NotFound, *a.Capped, *a.Refused)
	}
}

// The per-minute limit is per client: an IPv6 client that sends every
// beacon from a new address of its /64 has used up its minute for all of
// them, as one IPv4 address would; another /64 has not.
func TestCollectLimitPerIPv6Network(t *testing.T) {
	srv, store := newTestServer(t, nil)
	h := srv.Handler()
	var wg sync.WaitGroup
	for i := 0; i < 2*analyticsweb.CollectPerIP; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ip := fmt.Sprintf("2001:db8:77:1:%x:%x:%x:1", i, i*3, i*7)
			rawBeacon(h, ip, browserUA, []byte(`{"t":"pageview","p":"/no-such-page"}`))
		}(i)
	}
	wg.Wait()
	rawBeacon(h, "2001:db8:77:1::abcd", browserUA, []byte(`{"t":"pageview","p":"/services"}`))
	rawBeacon(h, "2001:db8:77:2::1", browserUA, []byte(`{"t":"pageview","p":"/contact"}`))
	flushAnalytics(t, srv)
	got := map[string]int{}
	for _, e := range storedEvents(t, store) {
		got[e.Kind+" "+e.Path]++
	}
	want := map[string]int{"not_found ": analytics.MaxNotFoundPerNetwork, "pageview /contact": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stored (-want, +got):\n%s", diff)
	}
}
