package securitycheck

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
)

const goodCSP = "default-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'"

// site is a fake server: every answer carries the given headers; media
// files add the sandbox policy unless noSandbox; admin API answers are
// 401 with no-store unless open.
type site struct {
	headers   map[string]string
	noSandbox bool
	noStore   bool
	open      string // an admin path that answers 200
	robots    string
}

func (s site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for k, v := range s.headers {
		w.Header().Set(k, v)
	}
	switch p := r.URL.Path; {
	case p == "/robots.txt":
		w.Write([]byte(s.robots))
	case strings.HasPrefix(p, "/api/admin/"):
		if !s.noStore {
			w.Header().Set("Cache-Control", "no-store")
		}
		if p == s.open {
			w.WriteHeader(http.StatusOK)
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
	case strings.HasPrefix(p, "/media/projects/"):
		if !s.noSandbox {
			w.Header().Set("Content-Security-Policy", "sandbox; default-src 'none'")
		}
		w.WriteHeader(http.StatusPartialContent)
	case strings.HasPrefix(p, "/media/"):
		w.WriteHeader(http.StatusNotFound)
	case p == "/admin":
		w.Write([]byte(`<meta name="robots" content="noindex, nofollow">`))
	default:
		w.Write([]byte("<h1>home</h1>"))
	}
}

func goodSite() site {
	return site{headers: map[string]string{"Content-Security-Policy": goodCSP, "X-Content-Type-Options": "nosniff",
		"Referrer-Policy": "strict-origin-when-cross-origin", "X-Frame-Options": "DENY"}, robots: "User-agent: *\nDisallow: /admin\n"}
}

func env(h http.Handler) *Env {
	return &Env{Handler: h, BaseURL: "https://www.example.com", Now: time.Now, MediaSample: func(context.Context) (string, error) { return "", nil }}
}

func run(c func(context.Context, *Env) verdict, e *Env) verdict { return c(context.Background(), e) }

func TestHeaderChecks(t *testing.T) {
	without := func(k string) site {
		s := goodSite()
		h := map[string]string{}
		for kk, v := range s.headers {
			if kk != k {
				h[kk] = v
			}
		}
		s.headers = h
		return s
	}
	noFraming := goodSite()
	noFraming.headers = map[string]string{"Content-Security-Policy": "default-src 'self'", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
	noStore := goodSite()
	noStore.noStore = true
	tests := []struct {
		name  string
		check func(context.Context, *Env) verdict
		h     http.Handler
		want  Status
		says  string
	}{
		{"public ok", checkHeadersPublic, goodSite(), Pass, "Content-Security-Policy"},
		{"public without CSP", checkHeadersPublic, without("Content-Security-Policy"), Fail, "no Content-Security-Policy"},
		{"public without nosniff", checkHeadersPublic, without("X-Content-Type-Options"), Fail, "nosniff"},
		{"X-Frame-Options alone forbids framing", checkHeadersPublic, without("X-Frame-Options"), Pass, ""},
		{"framing allowed", checkHeadersPublic, noFraming, Fail, "framing"},
		{"admin page ok", checkHeadersAdmin, goodSite(), Pass, "/admin"},
		{"admin page without referrer policy", checkHeadersAdmin, without("Referrer-Policy"), Fail, "Referrer-Policy"},
		{"admin API ok", checkHeadersAdminAPI, goodSite(), Pass, "no-store"},
		{"admin API cacheable", checkHeadersAdminAPI, noStore, Fail, "no-store"},
		{"no media: the 404 answer", checkHeadersMedia, goodSite(), Pass, "No media are stored yet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := run(tt.check, env(tt.h))
			if v.status != tt.want || !strings.Contains(v.description, tt.says) {
				t.Errorf("%s %q, want %s saying %q", v.status, v.description, tt.want, tt.says)
			}
		})
	}
	t.Run("stored media", func(t *testing.T) {
		e := env(goodSite())
		e.MediaSample = func(context.Context) (string, error) { return "/media/projects/a/1.webp", nil }
		if v := run(checkHeadersMedia, e); v.status != Pass {
			t.Errorf("with sandbox: %s %q", v.status, v.description)
		}
		s := goodSite()
		s.noSandbox = true
		e.Handler = s
		if v := run(checkHeadersMedia, e); v.status != Fail || !strings.Contains(v.description, "sandbox") {
			t.Errorf("without sandbox: %s %q", v.status, v.description)
		}
		e.MediaSample = func(context.Context) (string, error) { return "", errors.New("db down") }
		if v := run(checkHeadersMedia, e); v.status != NotChecked {
			t.Errorf("media list unreadable: %s", v.status)
		}
	})
}

func TestHSTS(t *testing.T) {
	with := func(v string) site {
		s := goodSite()
		s.headers["Strict-Transport-Security"] = v
		return s
	}
	tests := []struct {
		base string
		h    http.Handler
		want Status
	}{
		{"https://www.example.com", with("max-age=31536000; includeSubDomains"), Pass},
		{"https://www.example.com", goodSite(), Fail},
		{"https://www.example.com", with("max-age=300"), Warning},
		{"http://127.0.0.1:8080", goodSite(), Warning},
		{"http://localhost:8080", goodSite(), Warning},
		{"http://www.example.com", with("max-age=31536000"), Fail},
	}
	for _, tt := range tests {
		e := env(tt.h)
		e.BaseURL = tt.base
		if v := run(checkHSTS, e); v.status != tt.want {
			t.Errorf("%s: %s %q, want %s", tt.base, v.status, v.description, tt.want)
		}
	}
}

func TestPIN(t *testing.T) {
	tests := []struct{ pin, why string }{
		{"1234", "shorter than 6 characters"},
		{"12345", "shorter than 6 characters"},
		{"482915", "a PIN published in this project's tests"},
		{"777777", "one character repeated"},
		{"00000000", "one character repeated"},
		{"123456", "a run of consecutive digits"},
		{"654321", "a run of consecutive digits"},
		{"34567890", "a run of consecutive digits"},
		{"121212", "one of the most common PINs"},
		{"159753", "one of the most common PINs"},
		{"112233", "one of the most common PINs"},
		{"Password", "one of the most common PINs"},
		{"40718266", ""},
		{"930417", ""},
	}
	for _, tt := range tests {
		if got := PINWeakness(tt.pin); got != tt.why {
			t.Errorf("PINWeakness(%q) = %q, want %q", tt.pin, got, tt.why)
		}
	}
	e := env(goodSite())
	e.PIN = "482915"
	v := run(checkPIN, e)
	if v.status != Fail || strings.Contains(v.description+v.recommendation, "482915") {
		t.Errorf("test PIN: %s %q (the PIN must never be reported)", v.status, v.description)
	}
	e.PIN, e.PINGenerated = "", true
	if v := run(checkPIN, e); v.status != Pass || !strings.Contains(v.description, "made up a random 8-digit PIN") {
		t.Errorf("generated PIN: %s %q", v.status, v.description)
	}
	e.PIN, e.PINGenerated = "40718266", false
	if v := run(checkPIN, e); v.status != Pass {
		t.Errorf("strong PIN: %s", v.status)
	}
}

func TestAdminGateAndNoindex(t *testing.T) {
	if v := run(checkAdminGate, env(goodSite())); v.status != Pass {
		t.Errorf("gate: %s %q", v.status, v.description)
	}
	s := goodSite()
	s.open = "/api/admin/settings"
	if v := run(checkAdminGate, env(s)); v.status != Fail || !strings.Contains(v.description, "/api/admin/settings answered 200") {
		t.Errorf("open settings: %s %q", v.status, v.description)
	}
	if v := run(checkAdminNoindex, env(goodSite())); v.status != Pass {
		t.Errorf("noindex: %s %q", v.status, v.description)
	}
	s = goodSite()
	s.robots = "User-agent: *\nAllow: /\n"
	if v := run(checkAdminNoindex, env(s)); v.status != Fail {
		t.Errorf("robots without /admin: %s", v.status)
	}
}

type fakeAccounts struct {
	st  db.AccountStats
	err error
}

func (f fakeAccounts) AccountStats(context.Context, time.Time) (db.AccountStats, error) {
	return f.st, f.err
}

func TestAccounts(t *testing.T) {
	tests := []struct {
		a    Accounts
		want Status
		says string
	}{
		{nil, NotChecked, "accounts are not set up"},
		{fakeAccounts{err: db.ErrAccountsNotSetUp}, NotChecked, "accounts are not set up"},
		{fakeAccounts{err: errors.New("connection refused")}, NotChecked, "connection refused"},
		{fakeAccounts{st: db.AccountStats{Accounts: 3, Admins: 1}}, Pass, "3 enabled accounts, 1 admin"},
		{fakeAccounts{st: db.AccountStats{Accounts: 3, Admins: 1, Inactive: 2}}, Warning, "2 accounts without a sign-in in 90 days"},
		{fakeAccounts{st: db.AccountStats{Accounts: 2}}, Warning, "No enabled account is an admin"},
	}
	for _, tt := range tests {
		e := env(goodSite())
		e.Accounts = tt.a
		if v := run(checkAccounts, e); v.status != tt.want || !strings.Contains(v.description, tt.says) {
			t.Errorf("%+v: %s %q, want %s saying %q", tt.a, v.status, v.description, tt.want, tt.says)
		}
	}
}

func TestLifetimeAndLimits(t *testing.T) {
	e := env(goodSite())
	e.SessionMax = 12 * time.Hour
	for ttl, want := range map[time.Duration]Status{30 * time.Minute: Pass, time.Hour: Pass, 4 * time.Hour: Warning, 0: Fail} {
		e.TokenTTL = ttl
		if v := run(checkTokenLifetime, e); v.status != want {
			t.Errorf("TTL %v: %s, want %s", ttl, v.status, want)
		}
	}
	good := Limits{PINAttempts: 5, PINWindow: 15 * time.Minute, EstimateAttempts: 5, EstimateWindow: 10 * time.Minute, MaxConns: 2048, MaxConnsPerIP: 64}
	tests := []struct {
		change func(*Limits)
		want   Status
	}{
		{func(*Limits) {}, Pass},
		{func(l *Limits) { l.PINAttempts = 0 }, Fail},
		{func(l *Limits) { l.TrustProxy = true }, Warning},
		{func(l *Limits) { l.MaxConnsPerIP = 0 }, Warning},
	}
	for i, tt := range tests {
		l := good
		tt.change(&l)
		e.Limits = l
		if v := run(checkRateLimits, e); v.status != tt.want {
			t.Errorf("case %d: %s %q, want %s", i, v.status, v.description, tt.want)
		}
	}
	e.Limits = good
	if v := run(checkRateLimits, e); !strings.Contains(v.description, "5 wrong PINs per client IP per 15 minutes") {
		t.Errorf("description %q", v.description)
	}
}

func TestSniffing(t *testing.T) {
	e := env(goodSite())
	e.Sniff = func(h []byte) (string, error) {
		ty, err := media.Sniff(h)
		return ty.MIME, err
	}
	if v := run(checkSniffing, e); v.status != Pass {
		t.Errorf("media.Sniff: %s %q", v.status, v.description)
	}
	e.Sniff = func([]byte) (string, error) { return "image/jpeg", nil } // trusts everything
	if v := run(checkSniffing, e); v.status != Fail || !strings.Contains(v.description, "HTML page") {
		t.Errorf("permissive: %s %q", v.status, v.description)
	}
	e.Sniff = nil
	if v := run(checkSniffing, e); v.status != NotChecked {
		t.Errorf("no sniffer: %s", v.status)
	}
}

type fakeDB struct {
	ping             error
	pending, unknown []int
}

func (f fakeDB) Ping(context.Context) error { return f.ping }
func (f fakeDB) MigrationStatus(context.Context) (int, []int, []int, error) {
	return 7, f.pending, f.unknown, nil
}

func TestDatabase(t *testing.T) {
	e := env(goodSite())
	e.DBKind = "sqlite"
	for _, tt := range []struct {
		db   Database
		want Status
	}{
		{fakeDB{}, Pass},
		{fakeDB{ping: errors.New("connection refused")}, Fail},
		{fakeDB{pending: []int{10}}, Fail},
		{fakeDB{unknown: []int{12}}, Warning},
		{nil, NotChecked},
	} {
		e.DB = tt.db
		if v := run(checkDatabase, e); v.status != tt.want {
			t.Errorf("%+v: %s %q, want %s", tt.db, v.status, v.description, tt.want)
		}
	}
	// A real store: current, then down.
	s := db.NewTestSQLite(t)
	e.DB = s
	if v := run(checkDatabase, e); v.status != Pass || !strings.Contains(v.description, "migrations of this build are applied") {
		t.Errorf("real store: %s %q", v.status, v.description)
	}
	s.Close()
	if v := run(checkDatabase, e); v.status != Fail || !strings.Contains(v.description, "does not answer") {
		t.Errorf("closed store: %s %q", v.status, v.description)
	}
}

func TestMediaDir(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "projects", "kitchen")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(sub, "1.jpg"), []byte("x"), 0o644)
	e := env(goodSite())
	e.MediaDir = dir
	if v := run(checkMediaDir, e); v.status != Pass {
		t.Errorf("0755: %s %q", v.status, v.description)
	}
	if err := os.Chmod(sub, 0o777); err != nil {
		t.Fatal(err)
	}
	if v := run(checkMediaDir, e); v.status != Fail || !strings.Contains(v.description, filepath.Join("projects", "kitchen")) {
		t.Errorf("world-writable subfolder: %s %q", v.status, v.description)
	}
	os.Chmod(sub, 0o755)
	os.Chmod(dir, 0o777)
	if v := run(checkMediaDir, e); v.status != Fail {
		t.Errorf("world-writable root: %s %q", v.status, v.description)
	}
	os.Chmod(dir, 0o755)
	e.MediaDir, e.MediaStore = "", "an S3-compatible bucket (project-photos)"
	if v := run(checkMediaDir, e); v.status != NotChecked || !strings.Contains(v.description, "project-photos") {
		t.Errorf("bucket: %s %q", v.status, v.description)
	}
}

func buildInfo() (*debug.BuildInfo, bool) {
	return &debug.BuildInfo{Deps: []*debug.Module{
		{Path: "github.com/labstack/echo/v4", Version: "v4.11.0"},
		{Path: "golang.org/x/net", Version: "v0.62.0"},
	}}, true
}

func TestVersions(t *testing.T) {
	e := env(goodSite())
	e.GoVersion, e.Build = "go1.26.8", buildInfo
	for _, c := range []func(context.Context, *Env) verdict{checkGoVersion, checkModules} {
		if v := run(c, e); v.status != NotChecked || !strings.Contains(v.recommendation, "govulncheck") {
			t.Errorf("no list: %s %q %q", v.status, v.description, v.recommendation)
		}
	}
	// A made-up list for this test only: nothing like it ships.
	list, err := ParseVulnList([]byte(`{"source": "test list", "entries": [
		{"id": "TEST-0001", "aliases": ["CVE-0000-0001"], "module": "github.com/labstack/echo/v4", "introduced": "v4.0.0", "fixed": "v4.11.4", "summary": "test entry"},
		{"id": "TEST-0002", "module": "golang.org/x/net", "fixed": "v0.23.0", "summary": "fixed long ago"},
		{"id": "TEST-0003", "module": "stdlib", "introduced": "go1.26.0", "fixed": "go1.26.9", "summary": "test stdlib entry"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	e.Vulns = list
	v := run(checkModules, e)
	if v.status != Fail || !strings.Contains(v.description, "TEST-0001") || strings.Contains(v.description, "TEST-0002") || v.cve != "CVE-0000-0001" || v.fixedIn != "github.com/labstack/echo/v4 v4.11.4" {
		t.Errorf("modules: %s %q cve %q fixed %q", v.status, v.description, v.cve, v.fixedIn)
	}
	if v := run(checkGoVersion, e); v.status != Fail || !strings.Contains(v.description, "TEST-0003") {
		t.Errorf("go version: %s %q", v.status, v.description)
	}
	e.GoVersion = "go1.26.9"
	if v := run(checkGoVersion, e); v.status != Pass {
		t.Errorf("fixed go: %s %q", v.status, v.description)
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"v1.2.3", "v1.2.3", 0}, {"v1.2.3", "v1.10.0", -1}, {"go1.26.8", "go1.26.10", -1}, {"go1.26", "go1.26.0", 0},
		{"v1.0.0-rc1", "v1.0.0", -1}, {"v0.0.0-20240101-abc", "v0.1.0", -1}, {"v2.0.0+incompatible", "v2.0.0", 0},
	} {
		if got := compareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestRunAndScore(t *testing.T) {
	e := env(goodSite())
	e.PINGenerated, e.TokenTTL, e.SessionMax = true, 30*time.Minute, 12*time.Hour
	rs := Run(context.Background(), *e)
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ID)
		if r.Status == "" || r.Description == "" || r.LastChecked.IsZero() || r.Category == "" || r.Severity == "" {
			t.Errorf("%s: incomplete %+v", r.ID, r)
		}
	}
	if diff := cmp.Diff(IDs(), ids); diff != "" {
		t.Errorf("ids (-want, +got):\n%s", diff)
	}
	got := Score([]Result{{Status: Pass}, {Status: Pass}, {Status: Warning}, {Status: NotChecked}, {Status: Fail}})
	if got != 50 {
		t.Errorf("Score = %d, want 50 (not-checked left out)", got)
	}
	if Score(nil) != 0 || Score([]Result{{Status: NotChecked}}) != 0 {
		t.Error("nothing run scores 0")
	}
}

func TestScannerStoresAndOpensVulnerabilities(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, st *db.Store) {
		ctx := context.Background()
		e := env(goodSite())
		e.PIN, e.TokenTTL, e.SessionMax, e.DB, e.DBKind = "1234", 30*time.Minute, 12*time.Hour, st, st.Dialect()
		sc := &Scanner{Env: *e, Store: st}
		sum, err := sc.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		scan, results, err := st.LatestSecurityScan(ctx)
		if err != nil || scan.TriggeredBy != TriggerBoot || len(results) != len(IDs()) {
			t.Fatalf("scan %+v, %d results, %v", scan, len(results), err)
		}
		if !strings.Contains(sum, "security scan:") || scan.Failed == 0 {
			t.Errorf("summary %q, scan %+v", sum, scan)
		}
		vulns, _ := st.ListVulnerabilities(ctx)
		found := false
		for _, v := range vulns {
			if v.CheckID == "admin-pin" && v.Status == db.VulnOpen && v.Severity == "critical" {
				found = true
			}
		}
		if !found {
			t.Errorf("the weak PIN opened no vulnerability: %+v", vulns)
		}
		// The PIN is changed: the next scan marks it fixed.
		sc.Env.PIN = "40718266"
		if _, _, err := sc.Scan(ctx, TriggerManual); err != nil {
			t.Fatal(err)
		}
		vulns, _ = st.ListVulnerabilities(ctx)
		for _, v := range vulns {
			if v.CheckID == "admin-pin" && v.Status != db.VulnFixed {
				t.Errorf("after the fix: %+v", v)
			}
		}
	})
}
