package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

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
	if problems := analyticstest.Check(out, analyticstest.Oracle(analyticstest.StoredEvents(t, store), out.From, out.To, analyticsweb.Places(srv.site).Label)); len(problems) > 0 {
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

// TestAnalyticsAdminEndpointsUnderAttack: the three admin endpoints refuse
// callers without a session (401) and staff accounts (403: the tools are
// the PIN's and admins'), open to an admin account, answer no-store, and
// refuse goals over BODY_LIMIT before reading them, without touching the
// saved goals. (The room's refusals of ranges and hostile goals, and 100
// parallel saves, are web/analytics' TestAnalyticsHostileInput.)
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
	if r := jsonReq(t, h, "PUT", "/api/admin/analytics/goals", tok, good); r.StatusCode != 200 {
		t.Fatalf("goals: %d %s", r.StatusCode, r.Body)
	}
	req := httptest.NewRequest("PUT", "/api/admin/analytics/goals", strings.NewReader(`{"visitors":10,"leads":1,"conversion":1,"x":"`+strings.Repeat("a", 2<<20)+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	if r := do(t, h, req); r.StatusCode != 413 {
		t.Errorf("oversized: %d %.200s", r.StatusCode, r.Body)
	}
	if g := savedGoals(t, h, tok); g.Visitors != 4000 || g.Leads != 120 || g.Conversion != 3 {
		t.Errorf("hostile input changed the saved goals: %+v", g)
	}
}

// refusedCount is the events this instance did not store because the
// database refused them.
func refusedCount(srv *Server) int64 { _, r, _ := srv.analyticsRoom.Counts(); return r }

// savedGoals reads the goals the Analytics screen measures against.
func savedGoals(t *testing.T, h http.Handler, tok string) analyticsweb.Goals {
	t.Helper()
	return decode[struct{ Goals analyticsweb.Goals }](t, jsonReq(t, h, "GET", "/api/admin/analytics", tok, nil)).Goals
}
