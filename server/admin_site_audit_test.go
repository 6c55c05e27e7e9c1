package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/indexnow/indexnowtest"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/securitycheck"
	"github.com/atlanta-restoration/site/seoaudit"
	"github.com/atlanta-restoration/site/web/audits"
	"github.com/atlanta-restoration/site/web/dashboard"
)

func decode[T any](t *testing.T, r *response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(r.Body), &v); err != nil {
		t.Fatalf("%d %s: %v", r.StatusCode, r.Body, err)
	}
	return v
}

type overview struct {
	Tiles []dashboard.Tile `json:"tiles"`
}

func tile(t *testing.T, o overview, label string) dashboard.Tile {
	t.Helper()
	for _, x := range o.Tiles {
		if x.Label == label {
			return x
		}
	}
	t.Fatalf("no %s tile in %+v", label, o.Tiles)
	return dashboard.Tile{}
}

func TestAuditEndpointsRequireToken(t *testing.T) {
	srv, _ := adminServer(t, nil)
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/admin/seo-audit"}, {"POST", "/api/admin/seo-audit/run"}, {"GET", "/api/admin/security"},
		{"POST", "/api/admin/security/scan"}, {"PUT", "/api/admin/security/vulnerabilities/admin-pin"},
		{"GET", "/api/admin/overview"}, {"GET", "/api/admin/locations"},
	} {
		r := jsonReq(t, srv, c.method, c.path, "", map[string]string{"status": "fixed"})
		if r.StatusCode != http.StatusUnauthorized || r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s %s without a token: %d %q", c.method, c.path, r.StatusCode, r.Header.Get("Cache-Control"))
		}
	}
}

// countPaths counts the route table's paths of some page kinds.
func countPaths(srv *Server, kinds ...string) int {
	n := 0
	for _, r := range srv.site.Routes() {
		for _, k := range kinds {
			if r.Page == k {
				n += len(r.Paths(srv.site.Content()))
			}
		}
	}
	return n
}

func TestOverviewBeforeAnyRun(t *testing.T) {
	srv, _ := adminServer(t, nil)
	tok := unlock(t, srv)
	o := decode[overview](t, jsonReq(t, srv, "GET", "/api/admin/overview", tok, nil))
	if len(o.Tiles) != 4 {
		t.Fatalf("tiles %+v", o.Tiles)
	}
	for _, label := range []string{"SEO Score", "Page Speed", "Security Issues"} {
		x := tile(t, o, label)
		if x.Value != "—" || x.Measured || !strings.Contains(x.How, "Fills") {
			t.Errorf("%s before any run: %+v (no invented number; says how it fills)", label, x)
		}
	}
	loc := tile(t, o, "Location Pages")
	counties, cities := countPaths(srv, "county"), countPaths(srv, "city", "city-profile")
	if loc.Value != strconv.Itoa(counties+cities) || !loc.Measured || !strings.Contains(loc.How, strconv.Itoa(counties)+" county pages") {
		t.Errorf("Location Pages %+v, want %d county + %d city pages", loc, counties, cities)
	}
	if counties == 0 || cities == 0 {
		t.Errorf("route table: %d county pages, %d city pages", counties, cities)
	}

	a := decode[audits.SEOAuditReport](t, jsonReq(t, srv, "GET", "/api/admin/seo-audit", tok, nil))
	if a.Run != nil || len(a.Pages) != 0 || a.Routes != len(srv.site.IndexablePaths()) || len(a.Rules) != 13 {
		t.Errorf("seo-audit before a run: %+v", a)
	}
	sec := decode[audits.SecurityReport](t, jsonReq(t, srv, "GET", "/api/admin/security", tok, nil))
	if sec.Scan != nil || sec.NextScanAt != nil || len(sec.Checks) != 0 || len(sec.Vulnerabilities) != 0 {
		t.Errorf("security before a scan: %+v", sec)
	}
	for _, h := range sec.Hardening {
		if strings.HasPrefix(h.Name, "Security headers") && h.State != securitycheck.HardeningNotChecked {
			t.Errorf("hardening before a scan claims %+v", h)
		}
	}
}

func TestLocationsAndBriefsFromTheRouteTable(t *testing.T) {
	srv, store := adminServer(t, nil)
	tok := unlock(t, srv)
	l := decode[audits.LocationsInfo](t, jsonReq(t, srv, "GET", "/api/admin/locations", editorToken(t, srv, store), nil))
	counties, cities := countPaths(srv, "county"), countPaths(srv, "city", "city-profile")
	if l.Summary.Counties != counties || l.Summary.CityPages != cities || l.Summary.SitemapURLs != len(srv.sitemapPages()) || l.Summary.LocalSchema != "Not checked" {
		t.Errorf("summary %+v, want %d counties, %d cities, %d sitemap URLs", l.Summary, counties, cities, len(srv.sitemapPages()))
	}
	listed := 0
	for _, c := range l.Counties {
		if r := get(t, srv, c.Href); r.StatusCode != 200 {
			t.Errorf("%s: %d", c.Href, r.StatusCode)
		}
		for _, ci := range c.Cities {
			listed += len(ci.Pages)
		}
	}
	if len(l.Counties) != counties || listed != cities {
		t.Errorf("listed %d counties and %d cities", len(l.Counties), listed)
	}
	// The editor's answer opens each page in the editor; the PIN's, the
	// same figures, opens none (web/audits tests which item each opens).
	pin := decode[audits.LocationsInfo](t, jsonReq(t, srv, "GET", "/api/admin/locations", tok, nil))
	for i, c := range l.Counties {
		if c.EditID == "" || len(c.Cities) == 0 || c.Cities[0].Pages[0].EditID == "" {
			t.Errorf("%s: no edit ids for the editor: %+v", c.Slug, c)
		}
		if i < len(pin.Counties) && (pin.Counties[i].EditID != "" || pin.Counties[i].Cities[0].Pages[0].EditID != "") {
			t.Errorf("%s: the PIN is given edit ids", c.Slug)
		}
	}
	if pin.Summary != l.Summary || len(pin.Counties) != len(l.Counties) {
		t.Errorf("the PIN's figures %+v, the editor's %+v", pin.Summary, l.Summary)
	}
	for _, k := range []string{"counties", "cities", "sitemapUrls", "localSchema"} {
		if l.How[k] == "" {
			t.Errorf("no 'how computed' for %s", k)
		}
	}

	a := decode[audits.SEOAuditReport](t, jsonReq(t, srv, "GET", "/api/admin/seo-audit", tok, nil))
	if len(a.Briefs) != cities {
		t.Errorf("%d briefs, want one per city page (%d)", len(a.Briefs), cities)
	}
	// Each brief is what its page publishes.
	for _, b := range a.Briefs[:3] {
		r := get(t, srv, b.URL)
		title := text(find(headOf(r.Doc), tag("title"))[0])
		if r.StatusCode != 200 || title != b.SEOTitle || b.County == "" || len(b.Keywords) == 0 {
			t.Errorf("%s: brief %+v, page title %q", b.URL, b, title)
		}
	}
}

// waitFor polls until ok returns true.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(4 * time.Minute)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSEOAuditAfterWarmUpAndOnRequest: the warm-up at boot triggers an
// audit of every indexable page; Run Audit asks for another; the
// dashboard's SEO Score is the stored site-wide score.
func TestSEOAuditAfterWarmUpAndOnRequest(t *testing.T) {
	fake := indexnowtest.New(t, 200)
	srv, store := warmServer(t, fake, nil)
	srv.Warm()
	// The warm-up renders every page first (slow under -race).
	waitFor(t, "the first audit", func() bool {
		runs, _ := store.RecentJobRuns(context.Background(), 50, true)
		for _, r := range runs {
			if r.Job == jobSEOAudit {
				return true
			}
		}
		return false
	})
	first := waitRun(t, store, jobSEOAudit, 1)
	if first.Outcome != db.OutcomeOK || !strings.Contains(first.Summary, "site-wide across") {
		t.Fatalf("first audit: %+v", first)
	}
	tok := unlock(t, srv)
	a := decode[audits.SEOAuditReport](t, jsonReq(t, srv, "GET", "/api/admin/seo-audit", tok, nil))
	if a.Run == nil || a.Run.TriggeredBy != seoaudit.TriggerDeploy {
		t.Fatalf("run %+v", a.Run)
	}
	paths := srv.site.IndexablePaths()
	if a.Run.Pages != len(paths) || len(a.Pages) != len(paths) || a.Run.Errors != 0 {
		t.Errorf("audited %d pages (%d errors), want every indexable page: %d", a.Run.Pages, a.Run.Errors, len(paths))
	}
	var c seoaudit.Counts
	for i, p := range a.Pages {
		if p.Path != paths[i] || p.StatusCode != 200 || len(p.Checks) != 13 || p.URL != testBase+p.Path {
			t.Errorf("page %d: %+v", i, p)
		}
		x := seoaudit.Count(p.Checks)
		if p.Score != seoaudit.Score(x) {
			t.Errorf("%s: score %d, checks say %d", p.Path, p.Score, seoaudit.Score(x))
		}
		c.Passed, c.Warnings, c.Failed = c.Passed+x.Passed, c.Warnings+x.Warnings, c.Failed+x.Failed
		for _, ch := range p.Checks {
			// BASE_URL is https here, every page carries LocalBusiness and a viewport.
			if (ch.Check == "HTTPS" || ch.Check == "LocalBusiness structured data" || ch.Check == "Viewport") && ch.Status != seoaudit.Pass {
				t.Errorf("%s: %s %s %s", p.Path, ch.Check, ch.Status, ch.Message)
			}
		}
	}
	if a.Run.Score != seoaudit.Score(c) || a.Run.Passed != c.Passed {
		t.Errorf("site-wide score %d (%d passed), pages say %d (%d)", a.Run.Score, a.Run.Passed, seoaudit.Score(c), c.Passed)
	}
	o := decode[overview](t, jsonReq(t, srv, "GET", "/api/admin/overview", tok, nil))
	if seo := tile(t, o, "SEO Score"); seo.Value != strconv.Itoa(a.Run.Score)+"%" || !seo.Measured || !strings.Contains(seo.How, strconv.Itoa(len(paths))+" pages") {
		t.Errorf("SEO Score tile %+v, want %d%%", seo, a.Run.Score)
	}
	l := decode[audits.LocationsInfo](t, jsonReq(t, srv, "GET", "/api/admin/locations", editorToken(t, srv, store), nil))
	if l.Summary.LocalSchema != "Active" {
		t.Errorf("local schema %q: %s", l.Summary.LocalSchema, l.How["localSchema"])
	}

	r := jsonReq(t, srv, "POST", "/api/admin/seo-audit/run", tok, nil)
	queued := decode[map[string]any](t, r)
	if r.StatusCode != http.StatusAccepted || queued["after"] != a.Run.ID {
		t.Fatalf("run: %d %s", r.StatusCode, r.Body)
	}
	waitFor(t, "the manual audit", func() bool {
		run, err := store.LatestSEOAuditRun(context.Background())
		return err == nil && run.ID != a.Run.ID
	})
	run, _ := store.LatestSEOAuditRun(context.Background())
	if run.TriggeredBy != seoaudit.TriggerManual {
		t.Errorf("manual run recorded as %q", run.TriggeredBy)
	}
	// The boot warm-up also started the first security scan.
	scan := waitRun(t, store, jobSecurity, 1)
	if scan.Outcome != db.OutcomeOK || !strings.Contains(scan.Summary, "security scan:") {
		t.Errorf("boot scan: %+v", scan)
	}
}

// TestSecurityScanThroughTheHandler scans the running test server: it
// starts with the PIN the tests publish, so the PIN check fails and opens
// the one vulnerability the dashboard counts.
func TestSecurityScanThroughTheHandler(t *testing.T) {
	srv, store := adminServer(t, nil)
	ctx := context.Background()
	if _, _, err := srv.jobs.security.Scan(ctx, securitycheck.TriggerManual); err != nil {
		t.Fatal(err)
	}
	tok := unlock(t, srv)
	r := jsonReq(t, srv, "GET", "/api/admin/security", tok, nil)
	if strings.Contains(r.Body, testPIN) {
		t.Fatal("the security report contains the PIN")
	}
	rep := decode[audits.SecurityReport](t, r)
	by := map[string]securitycheck.CheckResult{}
	for _, c := range rep.Checks {
		by[c.ID] = c
	}
	want := map[string]string{
		"headers-public": "pass", "headers-admin": "pass", "headers-admin-api": "pass", "headers-media": "pass",
		"https-hsts": "pass", "admin-pin": "fail", "admin-gate": "pass", "session-lifetime": "pass", "rate-limits": "pass",
		"admin-noindex": "pass", "upload-sniffing": "pass", "database": "pass", "media-permissions": "pass",
		"admin-accounts": "not-checked", "go-version": "not-checked", "go-modules": "not-checked",
	}
	if _, err := store.AccountStats(ctx, time.Now()); err == nil {
		delete(want, "admin-accounts") // the accounts tables exist: counted, pass or warning
	}
	for id, st := range want {
		if by[id].Status != st {
			t.Errorf("%s: %s %q, want %s", id, by[id].Status, by[id].Description, st)
		}
	}
	if !strings.Contains(by["admin-pin"].Description, "published in this project's tests") || !strings.Contains(by["headers-media"].Description, "No media are stored yet") {
		t.Errorf("descriptions: %q / %q", by["admin-pin"].Description, by["headers-media"].Description)
	}
	if len(rep.Vulnerabilities) != 1 || rep.Vulnerabilities[0].ID != "admin-pin" || rep.Vulnerabilities[0].Status != "open" || rep.NextScanAt == nil ||
		!rep.NextScanAt.Equal(rep.Scan.StartedAt.Add(24*time.Hour)) {
		t.Errorf("vulnerabilities %+v, next %v", rep.Vulnerabilities, rep.NextScanAt)
	}
	p, w, f := 0, 0, 0
	for _, c := range rep.Checks {
		switch c.Status {
		case "pass":
			p++
		case "warning":
			w++
		case "fail":
			f++
		}
	}
	if rep.Score != (p*100+(p+w+f)/2)/(p+w+f) {
		t.Errorf("score %d for %d/%d/%d", rep.Score, p, w, f)
	}
	if rep.Config.PINMask != "••••••" || !strings.Contains(rep.Config.SessionTimeout, "30 minutes") || len(rep.Config.RateLimits) == 0 || !strings.Contains(rep.Config.RateLimits[0], "5 wrong PINs per client IP per 15 minutes") {
		t.Errorf("config %+v", rep.Config)
	}
	issues := func() dashboard.Tile {
		return tile(t, decode[overview](t, jsonReq(t, srv, "GET", "/api/admin/overview", tok, nil)), "Security Issues")
	}
	if x := issues(); x.Value != "1" || !x.Measured {
		t.Errorf("Security Issues %+v, want 1", x)
	}
	// The admin acknowledges it: no open issue is left.
	r = jsonReq(t, srv, "PUT", "/api/admin/security/vulnerabilities/admin-pin", tok, map[string]string{"status": "acknowledged"})
	if r.StatusCode != 200 || !strings.Contains(r.Body, `"acknowledged"`) {
		t.Fatalf("acknowledge: %d %s", r.StatusCode, r.Body)
	}
	if x := issues(); x.Value != "0" {
		t.Errorf("after acknowledging: %+v", x)
	}
	if r := jsonReq(t, srv, "PUT", "/api/admin/security/vulnerabilities/admin-pin", tok, map[string]string{"status": "ignored"}); r.StatusCode != 400 {
		t.Errorf("bad status: %d", r.StatusCode)
	}
	if r := jsonReq(t, srv, "PUT", "/api/admin/security/vulnerabilities/nope", tok, map[string]string{"status": "fixed"}); r.StatusCode != 404 {
		t.Errorf("unknown id: %d", r.StatusCode)
	}

	// With a photo stored, the media check looks at the file itself.
	if r := upload(t, srv, tok, "Kitchen", "k.jpg", testJPEG(t, 64, 48)); r.StatusCode != 200 && r.StatusCode != 201 {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	_, rs, err := srv.jobs.security.Scan(ctx, securitycheck.TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := store.RecentMedia(ctx, 1)
	served := get(t, srv, media.URL(m[0].Path))
	_, sandboxed := securityCSPHas(served.Header.Get("Content-Security-Policy"), "sandbox")
	for _, x := range rs {
		if x.ID != "headers-media" {
			continue
		}
		if !strings.Contains(x.Description, media.URL(m[0].Path)) || (x.Status == securitycheck.Pass) != sandboxed {
			t.Errorf("media check %s %q; the file is served sandboxed: %v", x.Status, x.Description, sandboxed)
		}
	}
}

// securityCSPHas reports whether a CSP has a directive.
func securityCSPHas(csp, name string) (string, bool) {
	for _, d := range strings.Split(csp, ";") {
		if f := strings.Fields(d); len(f) > 0 && f[0] == name {
			return strings.Join(f[1:], " "), true
		}
	}
	return "", false
}

func TestSecurityScanRequestIsQueued(t *testing.T) {
	fake := indexnowtest.New(t, 200)
	srv, store := warmServer(t, fake, nil)
	tok := unlock(t, srv)
	r := jsonReq(t, srv, "POST", "/api/admin/security/scan", tok, nil)
	if r.StatusCode != http.StatusAccepted {
		t.Fatalf("scan: %d %s", r.StatusCode, r.Body)
	}
	run := waitRun(t, store, jobSecurity, 1)
	if run.Outcome != db.OutcomeOK {
		t.Errorf("scan run %+v", run)
	}
	sc, _, err := store.LatestSecurityScan(context.Background())
	if err != nil || sc.TriggeredBy != securitycheck.TriggerManual {
		t.Errorf("scan %+v, %v", sc, err)
	}
}

// One page audited on demand by the server's rules (the rules exist
// once: the server judges, the browser displays): the page's 13 checks and both scores, for a PIN
// session; refused without one, for staff, and for anything that is not
// a path of this site.
func TestSEOAuditOnePage(t *testing.T) {
	_, _, h := accountServer(t)
	pin := unlock(t, h)
	r := jsonReq(t, h, "GET", "/api/admin/seo-audit/page?path=/contact", pin, nil)
	var out struct {
		Path            string
		StatusCode      int
		Checks          []struct{ Check, Status, Category string }
		ComplianceScore int
		Compliance      []struct{ Check, Status string }
		Counts          struct{ Passed, Warnings, Failed int }
	}
	if err := json.Unmarshal([]byte(r.Body), &out); err != nil || r.StatusCode != 200 {
		t.Fatalf("%d %s", r.StatusCode, r.Body)
	}
	if out.Path != "/contact" || out.StatusCode != 200 || len(out.Checks) != 13 || out.Counts.Passed == 0 || out.ComplianceScore <= 0 {
		t.Errorf("audit of /contact: %+v", out)
	}
	// The compliance audit is spec 2.4's ten checks, in its own words.
	if len(out.Compliance) != 10 {
		t.Errorf("%d compliance checks, want spec 2.4's 10: %+v", len(out.Compliance), out.Compliance)
	}
	for _, c := range out.Compliance {
		if c.Status != "compliant" && c.Status != "warning" && c.Status != "non-compliant" {
			t.Errorf("compliance status %q", c.Status)
		}
	}
	for _, bad := range []string{"//evil.example/", "https://evil.example/", "/a\\b", "contact", "/" + strings.Repeat("a", 600)} {
		if r := jsonReq(t, h, "GET", "/api/admin/seo-audit/page?path="+url.QueryEscape(bad), pin, nil); r.StatusCode != http.StatusBadRequest {
			t.Errorf("path %q: %d", bad, r.StatusCode)
		}
	}
	if r := jsonReq(t, h, "GET", "/api/admin/seo-audit/page?path=/no-such-page", pin, nil); r.StatusCode != 200 || !strings.Contains(r.Body, `"statusCode":404`) {
		t.Errorf("a missing page: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/seo-audit/page?path=/", "", nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("no session: %d", r.StatusCode)
	}
	staff := signIn(t, h, staffEmail, staffPass)
	if r := jsonReq(t, h, "GET", "/api/admin/seo-audit/page?path=/", staff, nil); r.StatusCode != http.StatusForbidden {
		t.Errorf("staff: %d", r.StatusCode)
	}
}
