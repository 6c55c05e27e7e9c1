// Package securitycheck is the Security Scanner: small checks run against
// the running server (through its own handler, in process, creating
// nothing) and its configuration, database and media folder. Each check
// answers pass, warning, fail, or not-checked when the facts it needs are
// not available here; the scanner never guesses. A failed check is a
// vulnerability (ADR 014): the store opens it, and marks it fixed when a
// later scan no longer fails.
package securitycheck

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/jobs"
	"github.com/atlanta-restoration/site/words"
)

// Status is a check's outcome. NotChecked is not spec 4's: it says the
// check could not be run here, and never counts as passing or failing.
type Status string

// Check statuses.
const (
	Pass       Status = "pass"
	Warning    Status = "warning"
	Fail       Status = "fail"
	NotChecked Status = "not-checked"
)

// Severity is spec 4's severity of a check.
type Severity string

// Severities.
const (
	Critical Severity = "critical"
	High     Severity = "high"
	Medium   Severity = "medium"
	Low      Severity = "low"
)

// Result is spec 3's security check, with a stable ID (the vulnerability
// a failure opens is keyed by it).
type Result struct {
	ID             string
	Category       string
	Name           string
	Severity       Severity
	Status         Status
	Description    string
	Recommendation string
	LastChecked    time.Time
	// CVE and FixedIn name a known vulnerability (module checks only).
	CVE, FixedIn string
}

// Limits are the server's rate and connection limits.
type Limits struct {
	PINAttempts int
	PINWindow   time.Duration
	// EstimateAttempts are stored leads per client IP per EstimateWindow;
	// EstimatePosts are form posts, valid or not (the flood guard).
	EstimateAttempts int
	EstimatePosts    int
	EstimateWindow   time.Duration
	MaxConns         int
	MaxConnsPerIP    int
	TrustProxy       bool
}

// Database is what the database check needs; *db.Store is one.
type Database interface {
	Ping(ctx context.Context) error
	MigrationStatus(ctx context.Context) (known int, pending, unknown []int, err error)
}

// Accounts counts accounts; *db.Store is one.
type Accounts interface {
	AccountStats(ctx context.Context, since time.Time) (db.AccountStats, error)
}

// Env is everything the checks look at. The server fills it; nothing here
// imports the server.
type Env struct {
	// Handler is the running server's handler: headers are checked on
	// what it answers.
	Handler http.Handler
	// BaseURL is the site's public address (BASE_URL).
	BaseURL string
	// PIN is the configured ADMIN_PIN; PINGenerated says the server
	// generated a random one (PIN is then empty). It is never reported.
	PIN          string
	PINGenerated bool
	// TokenTTL is ADMIN_TOKEN_TTL; SessionMax the hard session limit.
	TokenTTL   time.Duration
	SessionMax time.Duration
	Limits     Limits
	// MediaDir is the local media folder; empty when media live in a
	// bucket (MediaStore names it).
	MediaDir   string
	MediaStore string
	// MediaSample returns the /media/ path of one stored file, "" when
	// there is none.
	MediaSample func(ctx context.Context) (string, error)
	// Sniff is the upload pipeline's type check: the detected MIME type
	// of a file's first bytes, or an error when it is refused.
	Sniff    func(head []byte) (string, error)
	DB       Database
	DBKind   string
	Accounts Accounts
	// Vulns is a vulnerability list shipped with the build; nil when
	// there is none (the version checks are then not checked).
	Vulns *VulnList
	// Build reads the binary's build info (runtime/debug.ReadBuildInfo).
	Build     func() (*debug.BuildInfo, bool)
	GoVersion string
	Now       func() time.Time
}

// InactiveAfter is how long without a sign-in makes an account stale.
const InactiveAfter = 90 * 24 * time.Hour

// check is one check: its identity and the function that judges it.
type check struct {
	id, category, name string
	severity           Severity
	run                func(ctx context.Context, e *Env) verdict
}

// verdict is a check's outcome before its identity is attached.
type verdict struct {
	status                      Status
	description, recommendation string
	cve, fixedIn                string
}

func passed(d string) verdict { return verdict{status: Pass, description: d} }
func warned(d, rec string) verdict {
	return verdict{status: Warning, description: d, recommendation: rec}
}
func failed(d, rec string) verdict { return verdict{status: Fail, description: d, recommendation: rec} }
func notChecked(d, rec string) verdict {
	return verdict{status: NotChecked, description: d, recommendation: rec}
}
func orNone(xs []string) string { return strings.Join(xs, "; ") }

// checks are every check, in the order the screen lists them.
var checks = []check{
	{"headers-public", "Headers", "Security headers on public pages", High, checkHeadersPublic},
	{"headers-admin", "Headers", "Security headers on admin pages", High, checkHeadersAdmin},
	{"headers-admin-api", "Headers", "Security headers on admin API answers", High, checkHeadersAdminAPI},
	{"headers-media", "Headers", "Security headers on media files", Medium, checkHeadersMedia},
	{"https-hsts", "Transport", "HTTPS and HSTS", High, checkHSTS},
	{"admin-pin", "Access", "Admin PIN strength", Critical, checkPIN},
	{"admin-gate", "Access", "Admin API requires a session", Critical, checkAdminGate},
	{"admin-accounts", "Access", "Admin accounts", Medium, checkAccounts},
	{"session-lifetime", "Access", "Admin session lifetime", Medium, checkTokenLifetime},
	{"rate-limits", "Access", "Rate limits", High, checkRateLimits},
	{"admin-noindex", "Access", "Admin area hidden from search engines", Low, checkAdminNoindex},
	{"upload-sniffing", "Uploads", "Upload type sniffing", High, checkSniffing},
	{"database", "Data", "Database reachable and migrations current", High, checkDatabase},
	{"media-permissions", "Data", "Media folder not world-writable", Medium, checkMediaDir},
	{"go-version", "Dependencies", "Go version", Medium, checkGoVersion},
	{"go-modules", "Dependencies", "Go module versions", Medium, checkModules},
}

// IDs lists every check's id, in order.
func IDs() []string {
	out := make([]string, len(checks))
	for i, c := range checks {
		out[i] = c.id
	}
	return out
}

// Run runs every check, one at a time. A check that panics is reported
// as not checked, so one broken check cannot hide the others.
func Run(ctx context.Context, e Env) []Result {
	if e.Now == nil {
		e.Now = time.Now
	}
	out := make([]Result, 0, len(checks))
	for _, c := range checks {
		v := safe(ctx, c, &e)
		out = append(out, Result{ID: c.id, Category: c.category, Name: c.name, Severity: c.severity, Status: v.status,
			Description: v.description, Recommendation: v.recommendation, CVE: v.cve, FixedIn: v.fixedIn, LastChecked: e.Now().UTC()})
	}
	return out
}

func safe(ctx context.Context, c check, e *Env) (v verdict) {
	defer func() {
		if p := recover(); p != nil {
			v = notChecked(fmt.Sprintf("The check could not run: %v.", p), "Report this to the developers.")
		}
	}()
	return c.run(ctx, e)
}

// Counts tallies results by status.
func Counts(rs []Result) (pass, warning, fail, notChecked int) {
	for _, r := range rs {
		switch r.Status {
		case Pass:
			pass++
		case Warning:
			warning++
		case Fail:
			fail++
		default:
			notChecked++
		}
	}
	return
}

// Score is the security score: the share of passing checks among those
// that were run (not-checked ones are left out), as a whole percentage.
func Score(rs []Result) int {
	p, w, f, _ := Counts(rs)
	if p+w+f == 0 {
		return 0
	}
	return (p*100 + (p+w+f)/2) / (p + w + f)
}

// Store keeps scans; *db.Store is one.
type Store interface {
	SaveSecurityScan(ctx context.Context, scan db.SecurityScan, results []db.SecurityResult) (db.SecurityScan, error)
}

// Scan triggers recorded with a scan.
const (
	TriggerBoot     = "boot"
	TriggerSchedule = "schedule"
	TriggerManual   = "manual"
)

// Scanner runs the checks as a job and stores each scan.
type Scanner struct {
	Env   Env
	Store Store
	Log   *slog.Logger

	ran atomic.Bool
}

// Run is the security scan job's body: it runs every check, stores the
// scan (which updates the vulnerabilities) and summarises it.
func (s *Scanner) Run(ctx context.Context) (string, error) {
	trigger := TriggerSchedule
	if jobs.IsManual(ctx) {
		trigger = TriggerManual
	} else if !s.ran.Load() {
		trigger = TriggerBoot
	}
	scan, _, err := s.Scan(ctx, trigger)
	if err != nil {
		return "", err
	}
	s.ran.Store(true)
	sum := fmt.Sprintf("security scan: %s passed, %s, %s", words.Count(scan.Passed, "check", "checks"), words.Count(scan.Warnings, "warning", "warnings"), words.Count(scan.Failed, "failure", "failures"))
	if scan.NotChecked > 0 {
		sum += fmt.Sprintf(", %d not checked", scan.NotChecked)
	}
	return sum, nil
}

// Scan runs every check and stores the scan.
func (s *Scanner) Scan(ctx context.Context, trigger string) (db.SecurityScan, []Result, error) {
	scan := db.SecurityScan{StartedAt: time.Now().UTC(), TriggeredBy: trigger}
	rs := Run(ctx, s.Env)
	scan.FinishedAt = time.Now().UTC()
	scan.Passed, scan.Warnings, scan.Failed, scan.NotChecked = Counts(rs)
	rows := make([]db.SecurityResult, len(rs))
	for i, r := range rs {
		rows[i] = db.SecurityResult{CheckID: r.ID, Category: r.Category, Name: r.Name, Severity: string(r.Severity), Status: string(r.Status),
			Description: r.Description, Recommendation: r.Recommendation, CheckedAt: r.LastChecked, CVE: r.CVE, FixedIn: r.FixedIn}
	}
	saved, err := s.Store.SaveSecurityScan(ctx, scan, rows)
	if err != nil {
		return scan, rs, err
	}
	if s.Log != nil && scan.Failed > 0 {
		var names []string
		for _, r := range rs {
			if r.Status == Fail {
				names = append(names, r.ID)
			}
		}
		sort.Strings(names)
		s.Log.Warn("security scan: checks failed", "failed", strings.Join(names, ","))
	}
	return saved, rs, nil
}
