package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/analytics/analyticstest"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/ssr"
	analyticsweb "github.com/atlanta-restoration/site/web/analytics"
)

const browserUA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"

func beaconReq(t testing.TB, h http.Handler, ip string, body any, hdr ...string) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req := httptest.NewRequest("POST", "/api/collect", bytes.NewReader(b))
	req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
	req.Header.Set("User-Agent", browserUA)
	req.RemoteAddr = ip + ":5000"
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

func flushAnalytics(t testing.TB, srv *Server) {
	t.Helper()
	if err := srv.analyticsRoom.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func countEvents(t testing.TB, store *db.Store, where string) int {
	t.Helper()
	var n int
	if err := store.SQL().QueryRow(`SELECT COUNT(*) FROM analytics_events WHERE ` + where).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestCollectStoresOnlyWhatItShould(t *testing.T) {
	srv, store := newTestServer(t, nil)
	h := srv.Handler()
	pv := map[string]any{"t": "pageview", "p": "/services", "r": "https://www.google.com/", "w": 390, "us": "", "um": ""}
	if code := beaconReq(t, h, "198.51.100.1", pv); code != http.StatusNoContent {
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
		{"oversized", map[string]any{"t": "pageview", "p": "/", "r": strings.Repeat("x", analyticsweb.CollectMaxBody)}, nil},
	} {
		if code := beaconReq(t, h, "198.51.100.2", c.body, c.hdr...); code != http.StatusNoContent {
			t.Errorf("%s: status %d", c.name, code)
		}
	}
	flushAnalytics(t, srv)
	if n := countEvents(t, store, "1=1"); n != 1 {
		rows, _ := store.SQL().Query(`SELECT kind, path, source, metric FROM analytics_events`)
		for rows.Next() {
			var a, b, c, d string
			rows.Scan(&a, &b, &c, &d)
			t.Log(a, b, c, d)
		}
		t.Fatalf("%d events stored, want only the first page view", n)
	}
	var e db.Event
	store.SQL().QueryRow(`SELECT path, source, width, referrer, visitor FROM analytics_events`).Scan(&e.Path, &e.Source, &e.Width, &e.Referrer, &e.Visitor)
	if e.Path != "/services" || e.Source != "Organic Search" || e.Width != "mobile" || e.Referrer != "www.google.com" || len(e.Visitor) != 32 || strings.Contains(e.Visitor, "198.51") {
		t.Errorf("stored %+v", e)
	}
	// No cookie is ever set.
	req := httptest.NewRequest("POST", "/api/collect", strings.NewReader(`{"t":"pageview","p":"/"}`))
	req.Header.Set("User-Agent", browserUA)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Header().Get("Set-Cookie") != "" {
		t.Error("collect sets a cookie")
	}
}

// estimateFrom posts the native estimate form from ip for a city, with
// extra headers.
func estimateFrom(t *testing.T, h http.Handler, ip, city string, hdr ...string) {
	t.Helper()
	f := validForm()
	f.Set("city", city)
	req := httptest.NewRequest("POST", "/estimate", strings.NewReader(f.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", browserUA)
	req.Header.Set("Referer", testBase+"/estimate")
	req.RemoteAddr = ip + ":5000"
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	if r := do(t, h, req); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("estimate from %s: %d", ip, r.StatusCode)
	}
}

// analyticsReport reads GET /api/admin/analytics?days=n.
func analyticsReport(t *testing.T, h http.Handler, tok string, days int) analytics.Report {
	t.Helper()
	r := jsonReq(t, h, "GET", fmt.Sprintf("/api/admin/analytics?days=%d", days), tok, nil)
	var out analytics.Report
	if err := json.Unmarshal([]byte(r.Body), &out); err != nil || r.StatusCode != 200 {
		t.Fatalf("analytics: %d %s", r.StatusCode, r.Body)
	}
	return out
}

// storedEvents reads back every analytics event, for the oracle.
func storedEvents(t *testing.T, store *db.Store) []db.Event {
	t.Helper()
	rows, err := store.SQL().Query(`SELECT id, at, day, kind, path, source, visitor, area FROM analytics_events`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var evs []db.Event
	for rows.Next() {
		var e db.Event
		if err := rows.Scan(&e.ID, &e.At, &e.Day, &e.Kind, &e.Path, &e.Source, &e.Visitor, &e.Area); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	return evs
}

// A visitor counts once a day under the source of their first page view,
// however many pages they view and wherever they come back from; their
// call and estimate make one converted visit. Estimates from a browser
// with JavaScript off and from one that asks not to be tracked are
// leads from uncounted visits: in Leads and Geography, not in the
// conversion rate.
func TestAnalyticsEndToEnd(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	beaconReq(t, h, "198.51.100.9", map[string]any{"t": "pageview", "p": "/", "r": "https://www.facebook.com/", "w": 1280})
	beaconReq(t, h, "198.51.100.10", map[string]any{"t": "pageview", "p": "/", "w": 1280})
	for _, p := range []string{"/services", "/areas/cobb/smyrna"} {
		beaconReq(t, h, "198.51.100.9", map[string]any{"t": "pageview", "p": p, "r": testBase + "/", "w": 1280})
	}
	// Back later the same day from Google: still one visit, from Social.
	beaconReq(t, h, "198.51.100.9", map[string]any{"t": "pageview", "p": "/", "r": "https://www.google.com/", "w": 1280})
	beaconReq(t, h, "198.51.100.9", map[string]any{"t": "tel_click", "p": "/services"})
	beaconReq(t, h, "198.51.100.9", map[string]any{"t": "vital", "p": "/", "m": "LCP", "v": 1200})
	beaconReq(t, h, "198.51.100.10", map[string]any{"t": "vital", "p": "/", "m": "LCP", "v": 5000})
	estimateFrom(t, h, "198.51.100.9", "Marietta")
	estimateFrom(t, h, "198.51.100.11", "smyrna, GA") // JavaScript off: no page view
	beaconReq(t, h, "198.51.100.12", map[string]any{"t": "pageview", "p": "/"}, "DNT", "1")
	estimateFrom(t, h, "198.51.100.12", "Macon", "DNT", "1")
	flushAnalytics(t, srv)
	if n := countEvents(t, store, "kind = 'lead' AND visitor = ''"); n != 1 {
		t.Errorf("%d leads without a visitor id, want the opted-out one", n)
	}
	if n := countEvents(t, store, "kind = 'pageview' AND area = 'cobb/smyrna'"); n != 1 {
		t.Errorf("%d page views of the Smyrna page with its area", n)
	}
	tok := unlock(t, h)
	out := analyticsReport(t, h, tok, 30)
	if problems := analyticstest.Check(out, analyticstest.Oracle(storedEvents(t, store), out.From, out.To, analyticsweb.Places(srv.site).Label)); len(problems) > 0 {
		t.Errorf("figures disagree:\n%s", strings.Join(problems, "\n"))
	}
	got := fmt.Sprintf("%d visitors, %d page views, %d conversions, %.1f%%, %d leads = %d estimates + %d calls, uncounted %+v",
		out.Visitors, out.Pageviews, out.Conversions, out.ConversionRate, out.Leads, out.Estimates, out.Calls, out.Uncounted)
	if want := "2 visitors, 5 page views, 1 conversions, 50.0%, 4 leads = 3 estimates + 1 calls, uncounted {Leads:2 Estimates:2 Calls:0}"; got != want || out.Empty {
		t.Errorf("totals:\n got %s\nwant %s", got, want)
	}
	bySource := map[string]analytics.SourceRow{}
	for _, s := range out.Sources {
		bySource[s.Source] = s
	}
	if s := bySource["Social"]; s.Visitors != 1 || s.Percentage != 50 || s.Conversions != 1 || s.Leads != 2 || s.Calls != 1 || s.ConversionRate != 100 {
		t.Errorf("Social: %+v", s)
	}
	if s := bySource["Organic Search"]; s.Visitors != 0 || s.Leads != 0 {
		t.Errorf("the return from Google counted again: %+v", s)
	}
	geo := fmt.Sprint(out.Geography)
	if want := "[{Smyrna, Cobb County 1 1 33.4} {Marietta, Cobb County 0 1 33.3} {Other areas 0 1 33.3}]"; geo != want || out.AreaVisitors != 1 {
		t.Errorf("geography:\n got %s (area visitors %d)\nwant %s", geo, out.AreaVisitors, want)
	}
	r := jsonReq(t, h, "GET", "/api/admin/analytics", tok, nil)
	var extra struct {
		Goals   analyticsweb.Goals
		Dropped *int64
	}
	json.Unmarshal([]byte(r.Body), &extra)
	if extra.Goals != (analyticsweb.Goals{Visitors: 3000, Leads: 200, Conversion: 8.0}) || extra.Dropped == nil {
		t.Errorf("goals and dropped: %s", r.Body)
	}
	// Goals can be edited, within reason.
	if r := jsonReq(t, h, "PUT", "/api/admin/analytics/goals", tok, map[string]any{"visitors": 5000, "leads": 250, "conversion": 5.5}); r.StatusCode != 200 {
		t.Errorf("goals: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "PUT", "/api/admin/analytics/goals", tok, map[string]any{"visitors": -1, "leads": 250, "conversion": 5.5}); r.StatusCode != 400 {
		t.Errorf("bad goals: %d", r.StatusCode)
	}
	saved := decode[struct{ Goals analyticsweb.Goals }](t, jsonReq(t, h, "GET", "/api/admin/analytics", tok, nil))
	if g := saved.Goals; g.Visitors != 5000 || g.Conversion != 5.5 {
		t.Errorf("saved goals %+v", g)
	}
	v := jsonReq(t, h, "GET", "/api/admin/vitals", tok, nil)
	if !strings.Contains(v.Body, `"metric":"LCP","p75":5000,"status":"poor","samples":2`) || !strings.Contains(v.Body, `"pageKind":"home"`) {
		t.Errorf("vitals: %s", v.Body)
	}
	// The dashboard's Page Speed is the spec's score of the p75s: LCP
	// alone, poor (5 s) -> 20.
	ps := tile(t, decode[overview](t, jsonReq(t, h, "GET", "/api/admin/overview", tok, nil)), "Page Speed")
	if ps.Value != "20" || !ps.Measured || !strings.Contains(ps.How, "2 measurements") {
		t.Errorf("Page Speed tile: %+v", ps)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/analytics", "", nil); r.StatusCode != 401 {
		t.Errorf("analytics without a token: %d", r.StatusCode)
	}
}

// TestAnalyticsFiguresAgree: random histories (analyticstest.Generate)
// read through the handler agree with every invariant and definition,
// for ranges of raw days and, once older days are rolled up and pruned,
// ranges spanning rolled-up and raw days, with the same answer.
func TestAnalyticsFiguresAgree(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	ctx := context.Background()
	label := analyticsweb.Places(srv.site).Label
	for seed := int64(1); seed <= 6; seed++ {
		for _, q := range []string{`DELETE FROM analytics_events`, `DELETE FROM analytics_daily`, `DELETE FROM analytics_rollups`} {
			if _, err := store.SQL().Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		now := time.Now()
		evs := analyticstest.Generate(rand.New(rand.NewSource(seed)), now, 20)
		if err := store.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		raw := map[int]analytics.Report{}
		for _, days := range []int{1, 4, 10} {
			r := analyticsReport(t, h, tok, days)
			if problems := analyticstest.Check(r, analyticstest.Oracle(evs, r.From, r.To, label)); len(problems) > 0 {
				t.Fatalf("seed %d, %d raw days:\n%s", seed, days, strings.Join(problems, "\n"))
			}
			raw[days] = r
		}
		if _, err := store.RollUp(ctx, analytics.Day(now.AddDate(0, 0, -2)), analytics.Day(now.AddDate(0, 0, -5)), now.UTC()); err != nil {
			t.Fatal(err)
		}
		for _, days := range []int{1, 4, 10} {
			r := analyticsReport(t, h, tok, days)
			if problems := analyticstest.Check(r, analyticstest.Oracle(evs, r.From, r.To, label)); len(problems) > 0 {
				t.Fatalf("seed %d, %d days, partly rolled up:\n%s", seed, days, strings.Join(problems, "\n"))
			}
			if diff := cmp.Diff(raw[days], r); diff != "" {
				t.Errorf("seed %d, %d days: rolling up changed the answer (-raw, +rolled up):\n%s", seed, days, diff)
			}
		}
	}
}

// Reads while the roll-up job runs and events arrive: every answer is
// 200 and its figures agree (a day is read either rolled up or raw,
// never both or neither).
func TestAnalyticsReadsDuringRollUp(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	ctx := context.Background()
	now := time.Now()
	evs := analyticstest.Generate(rand.New(rand.NewSource(7)), now, 12)
	if err := store.AddEvents(ctx, evs); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for d := 10; d >= 1; d-- {
			if _, err := store.RollUp(ctx, analytics.Day(now.AddDate(0, 0, -d)), analytics.Day(now.AddDate(0, 0, -30)), now.UTC()); err != nil {
				t.Error(err)
			}
		}
	}()
	errs := make(chan string, 40)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := jsonReq(t, h, "GET", "/api/admin/analytics?days=12", tok, nil)
			var out analytics.Report
			if err := json.Unmarshal([]byte(r.Body), &out); err != nil || r.StatusCode != 200 {
				errs <- fmt.Sprintf("%d %s", r.StatusCode, r.Body)
				return
			}
			if p := analyticstest.Check(out, analyticstest.Oracle(evs, out.From, out.To, analyticsweb.Places(srv.site).Label)); len(p) > 0 {
				errs <- strings.Join(p, "\n")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestAnalyticsEmptyState(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	r := jsonReq(t, h, "GET", "/api/admin/analytics", tok, nil)
	if !strings.Contains(r.Body, `"empty":true`) || !strings.Contains(r.Body, `"visitors":0`) {
		t.Errorf("a new site: %s", r.Body)
	}
	if v := jsonReq(t, h, "GET", "/api/admin/vitals", tok, nil); !strings.Contains(v.Body, `"samples":0`) {
		t.Errorf("vitals on a new site: %s", v.Body)
	}
}

// The beacon (client/beacon.ts, minified, web-vitals left as its own
// chunk) stays within 1 KB gzip.
func TestBeaconSize(t *testing.T) {
	root, err := ssr.FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	res := api.Build(api.BuildOptions{EntryPoints: []string{"client/beacon.ts"}, AbsWorkingDir: root, Bundle: true, Write: false,
		MinifySyntax: true, MinifyWhitespace: true, MinifyIdentifiers: true, Format: api.FormatESModule, Target: api.ES2020,
		External: []string{"./vitals"}})
	if len(res.Errors) > 0 {
		t.Fatalf("%v", res.Errors)
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(res.OutputFiles[0].Contents)
	w.Close()
	t.Logf("beacon: %d bytes, %d gzip", len(res.OutputFiles[0].Contents), gz.Len())
	if gz.Len() > 1024 {
		t.Errorf("beacon is %d bytes gzip, over 1 KB", gz.Len())
	}
}

// BenchmarkCollect measures the collect endpoint (events/s in parallel).
func BenchmarkCollect(b *testing.B) {
	srv, _ := newTestServer(b, nil)
	h := srv.Handler()
	body := []byte(`{"t":"pageview","p":"/services","r":"https://www.google.com/","w":390}`)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			req := httptest.NewRequest("POST", "/api/collect", bytes.NewReader(body))
			req.Header.Set("User-Agent", browserUA)
			req.RemoteAddr = fmt.Sprintf("10.%d.%d.%d:1", i%250, (i/250)%250, i%7)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// 2x analyticsweb.CollectPerIP beacons at once from one IP (ten browsers behind it,
// each within its daily limits): at most analyticsweb.CollectPerIP are stored,
// however they interleave. Path tricks are refused; markup in a path is
// not a page the site serves: a not-found view, its path not kept.
func TestCollectLimitHoldsUnderConcurrency(t *testing.T) {
	srv, store := newTestServer(t, nil)
	h := srv.Handler()
	var wg sync.WaitGroup
	for i := 0; i < 2*analyticsweb.CollectPerIP; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			beaconReq(t, h, "198.51.100.77", map[string]any{"t": "pageview", "p": "/", "w": 390}, "User-Agent", fmt.Sprintf("%s %d", browserUA, i%10))
		}(i)
	}
	wg.Wait()
	flushAnalytics(t, srv)
	if n := countEvents(t, store, "1=1"); n != analyticsweb.CollectPerIP {
		t.Errorf("%d events stored from one IP, want exactly %d", n, analyticsweb.CollectPerIP)
	}
	for _, p := range []string{"//evil.example/x", "/%2e%2e/admin/leads", "/admin", "javascript:alert(1)"} {
		beaconReq(t, h, "198.51.100.78", map[string]any{"t": "pageview", "p": p})
	}
	beaconReq(t, h, "198.51.100.78", map[string]any{"t": "pageview", "p": "/<script>alert(1)</script>"})
	flushAnalytics(t, srv)
	var got []string
	rows, _ := store.SQL().Query(`SELECT kind, path FROM analytics_events WHERE path <> '/'`)
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

// TestAnalyticsAdminEndpointsUnderAttack: the three admin endpoints refuse
// callers without a session (401) and staff accounts (403: the tools are
// the PIN's and admins'), open to an admin account, answer no-store, refuse hostile
// goals with the one clear message without touching the saved goals, and
// stay consistent under 100 parallel saves.
func TestAnalyticsAdminEndpointsUnderAttack(t *testing.T) {
	_, _, h := accountServer(t)
	tok := unlock(t, h)
	staff := signIn(t, h, staffEmail, staffPass)
	owner := signIn(t, h, adminEmail, adminPass)
	good := map[string]any{"visitors": 4000, "leads": 120, "conversion": 3}
	for _, ep := range []struct{ method, path string }{{"GET", "/api/admin/analytics"}, {"PUT", "/api/admin/analytics/goals"}, {"GET", "/api/admin/vitals"}} {
		for name, who := range map[string]string{"no token": "", "forged": "not-a-token"} {
			if r := jsonReq(t, h, ep.method, ep.path, who, good); r.StatusCode != 401 {
				t.Errorf("%s %s with %s: %d", ep.method, ep.path, name, r.StatusCode)
			}
		}
		if r := jsonReq(t, h, ep.method, ep.path, staff, good); r.StatusCode != 403 {
			t.Errorf("%s %s with a staff account: %d, want 403", ep.method, ep.path, r.StatusCode)
		}
		if r := jsonReq(t, h, ep.method, ep.path, owner, good); r.StatusCode != 200 {
			t.Errorf("%s %s with an admin account: %d, want 200", ep.method, ep.path, r.StatusCode)
		}
		if ep.method == "GET" {
			if r := jsonReq(t, h, ep.method, ep.path, tok, nil); r.StatusCode != 200 || r.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("%s: %d, Cache-Control %q", ep.path, r.StatusCode, r.Header.Get("Cache-Control"))
			}
		}
	}
	for _, days := range []string{"0", "367", "-1", "abc", "1e3", "30.5", "99999999999999999999", "%3Cscript%3E"} {
		if r := jsonReq(t, h, "GET", "/api/admin/analytics?days="+days, tok, nil); r.StatusCode != 400 || !strings.Contains(r.Body, "days must be between 1 and 366.") || strings.Contains(r.Body, "<script>") {
			t.Errorf("days=%s: %d %s", days, r.StatusCode, r.Body)
		}
	}
	if r := jsonReq(t, h, "PUT", "/api/admin/analytics/goals", tok, good); r.StatusCode != 200 {
		t.Fatalf("goals: %d %s", r.StatusCode, r.Body)
	}
	const msg = "Goals must be positive: visitors and leads as whole numbers, conversion as a percentage up to 100."
	for name, body := range map[string]string{
		"markup":     `{"visitors":"<script>alert(1)</script>","leads":1,"conversion":1}`,
		"formula":    `{"visitors":"=HYPERLINK(\"http://x\")","leads":1,"conversion":1}`,
		"fraction":   `{"visitors":10.5,"leads":1,"conversion":1}`,
		"huge":       `{"visitors":1e300,"leads":1,"conversion":1}`,
		"zero":       `{"visitors":0,"leads":1,"conversion":1}`,
		"over 100 %": `{"visitors":10,"leads":1,"conversion":101}`,
		"missing":    `{"visitors":10}`,
		"not JSON":   `visitors=10`,
		"oversized":  `{"visitors":10,"leads":1,"conversion":1,"x":"` + strings.Repeat("a", 2<<20) + `"}`,
	} {
		req := httptest.NewRequest("PUT", "/api/admin/analytics/goals", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		r := do(t, h, req)
		if r.StatusCode != 400 && r.StatusCode != 413 {
			t.Errorf("%s: %d %s", name, r.StatusCode, r.Body)
		}
		if r.StatusCode == 400 && !strings.Contains(r.Body, msg) {
			t.Errorf("%s: unclear message %s", name, r.Body)
		}
		if strings.Contains(r.Body, "<script>") {
			t.Errorf("%s: markup echoed: %s", name, r.Body)
		}
	}
	if g := savedGoals(t, h, tok); g.Visitors != 4000 || g.Leads != 120 || g.Conversion != 3 {
		t.Errorf("hostile input changed the saved goals: %+v", g)
	}
	// 100 parallel saves: every one answered 200, and what is stored is
	// one of them, whole.
	var wg sync.WaitGroup
	codes := make(chan int, 100)
	for i := 1; i <= 100; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			codes <- jsonReq(t, h, "PUT", "/api/admin/analytics/goals", tok, map[string]any{"visitors": i * 100, "leads": i, "conversion": 1}).StatusCode
		}(i)
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != 200 {
			t.Errorf("parallel save: %d", c)
		}
	}
	if g := savedGoals(t, h, tok); g.Visitors != g.Leads*100 || g.Leads < 1 || g.Leads > 100 {
		t.Errorf("parallel saves left mixed goals: %+v", g)
	}
}

// A page view of an area page (a city page or a city's profile page,
// with or without a trailing slash) names its place; other pages none. A
// path the route pattern matches but no city has is a not-found view.
func TestCollectNamesAreaPages(t *testing.T) {
	srv, store := newTestServer(t, nil)
	h := srv.Handler()
	sent := []string{"/areas/cobb/smyrna", "/areas/cobb/smyrna/", "/areas/fulton/atlanta-service", "/areas/cobb/nowhere", "/services", "/service-areas/cobb"}
	for i, p := range sent {
		beaconReq(t, h, fmt.Sprintf("198.51.100.%d", 30+i), map[string]any{"t": "pageview", "p": p})
	}
	flushAnalytics(t, srv)
	got := map[string]int{}
	for _, e := range storedEvents(t, store) {
		got[e.Kind+" "+e.Path+" "+e.Area]++
	}
	want := map[string]int{"pageview /areas/cobb/smyrna cobb/smyrna": 2, "pageview /areas/fulton/atlanta-service fulton/atlanta": 1,
		"not_found  ": 1, "pageview /services ": 1, "pageview /service-areas/cobb ": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kind, path, area (-want, +got):\n%s", diff)
	}
}

// refusedCount and cappedCount are the events this instance did not
// store: refused by the database, over a client's daily limits.
func refusedCount(srv *Server) int64 { _, r, _ := srv.analyticsRoom.Counts(); return r }
func cappedCount(srv *Server) int64  { _, _, c := srv.analyticsRoom.Counts(); return c }

// savedGoals reads the goals the Analytics screen measures against.
func savedGoals(t *testing.T, h http.Handler, tok string) analyticsweb.Goals {
	t.Helper()
	return decode[struct{ Goals analyticsweb.Goals }](t, jsonReq(t, h, "GET", "/api/admin/analytics", tok, nil)).Goals
}
