package seoaudit

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/jobs"
	sitewords "github.com/atlanta-restoration/site/words"
)

// Fetch runs a GET for a site path through the server's own handler and
// returns the status and body.
type Fetch func(ctx context.Context, path string) (status int, body []byte, err error)

// Store keeps audit runs; *db.Store is one.
type Store interface {
	SaveSEOAudit(ctx context.Context, run db.SEOAuditRun, pages []db.SEOAuditPage) (db.SEOAuditRun, error)
}

// Triggers recorded with a run.
const (
	TriggerDeploy  = "deploy"  // the first run after boot: a new deploy's pages
	TriggerContent = "content" // after a content change re-rendered the pages
	TriggerManual  = "manual"  // the admin pressed Run Audit
)

// Auditor audits every page the route table lists.
type Auditor struct {
	Fetch Fetch
	// Pages lists the paths to audit: the route table's indexable pages.
	Pages func() []string
	// Base is BASE_URL; a page's public address is Base + path.
	Base string
	// Business returns the name, address and phone pages must show.
	Business func(ctx context.Context) Context
	Store    Store
	Log      *slog.Logger
	// Pause is waited between two pages, so an audit stays a background
	// trickle next to live traffic (default none: pages come from the
	// render cache, about a millisecond each).
	Pause time.Duration

	ran atomic.Bool
	// last is each page's checks in the last run with the bytes and the
	// business details they were made on: a page whose bytes and details
	// have not changed since is not parsed again (a publish changes a
	// few pages of many, and each change re-runs the audit).
	mu   sync.Mutex
	last map[string]audited
}

// audited is a page's checks and what they were made on.
type audited struct {
	sum    [sha256.Size]byte
	nap    Context
	checks []Check
}

// PageResult is one audited page.
type PageResult struct {
	Path       string  `json:"path"`
	URL        string  `json:"url"`
	StatusCode int     `json:"statusCode"`
	Score      int     `json:"score"`
	Checks     []Check `json:"checks"`
	// Error says why a page could not be audited (not 200, unreadable).
	Error string `json:"error,omitempty"`
}

// Run audits every page, one at a time, stores the run and summarises
// it. It is the SEO audit job's body.
func (a *Auditor) Run(ctx context.Context) (string, error) {
	trigger := TriggerContent
	if jobs.IsManual(ctx) {
		trigger = TriggerManual
	} else if !a.ran.Load() {
		trigger = TriggerDeploy
	}
	run, err := a.Audit(ctx, trigger)
	if err != nil {
		return "", err
	}
	a.ran.Store(true)
	return Summary(run), nil
}

// Summary is the run's line for the dashboard's recent activity.
func Summary(r db.SEOAuditRun) string {
	s := fmt.Sprintf("SEO audit: %d%% site-wide across %s (%d passed, %s, %d failed)", r.Score, sitewords.Count(r.Pages, "page", "pages"), r.Passed, sitewords.Count(r.Warnings, "warning", "warnings"), r.Failed)
	if r.Errors > 0 {
		s += fmt.Sprintf("; %s could not be audited", sitewords.Count(r.Errors, "page", "pages"))
	}
	return s
}

// Audit audits every page and stores the run.
func (a *Auditor) Audit(ctx context.Context, trigger string) (db.SEOAuditRun, error) {
	run := db.SEOAuditRun{StartedAt: time.Now().UTC(), TriggeredBy: trigger, BaseURL: a.Base}
	nap := Context{}
	if a.Business != nil {
		nap = a.Business(ctx)
	}
	var rows []db.SEOAuditPage
	var total Counts
	a.mu.Lock()
	last := a.last
	a.mu.Unlock()
	next := map[string]audited{}
	for i, p := range a.Pages() {
		if err := ctx.Err(); err != nil {
			return run, err
		}
		if i > 0 && a.Pause > 0 {
			select {
			case <-ctx.Done():
				return run, ctx.Err()
			case <-time.After(a.Pause):
			}
		}
		res := a.auditPageSince(ctx, p, nap, last, next)
		checks, _ := json.Marshal(res.Checks)
		c := Count(res.Checks)
		rows = append(rows, db.SEOAuditPage{Path: res.Path, StatusCode: res.StatusCode, Score: res.Score,
			Passed: c.Passed, Warnings: c.Warnings, Failed: c.Failed, Checks: string(checks), Error: res.Error})
		if res.Error != "" {
			run.Errors++
			continue
		}
		total.Passed += c.Passed
		total.Warnings += c.Warnings
		total.Failed += c.Failed
	}
	// A run cut short (a newer change cancels it) keeps the last complete
	// run's memory, as the schema check does.
	a.mu.Lock()
	a.last = next
	a.mu.Unlock()
	run.Pages = len(rows)
	run.Passed, run.Warnings, run.Failed = total.Passed, total.Warnings, total.Failed
	run.Score = Score(total)
	run.FinishedAt = time.Now().UTC()
	saved, err := a.Store.SaveSEOAudit(ctx, run, rows)
	if err != nil {
		return run, err
	}
	if a.Log != nil && run.Failed+run.Errors > 0 {
		a.Log.Info("SEO audit found issues", "score", run.Score, "failed", run.Failed, "unaudited", run.Errors)
	}
	return saved, nil
}

// auditPage fetches one page and runs the rules on it.
// PageAudit is one page audited on demand (the SEO & IndexNow tab's
// compliance and verification checks): the page's checks with both of
// spec 5's scores.
type PageAudit struct {
	// PageResult holds the verification audit: every check, and the
	// share that passes (Score).
	PageResult
	Counts Counts `json:"counts"`
	// Compliance is the compliance audit of the same page and its score.
	Compliance      []ComplianceCheck `json:"compliance"`
	ComplianceScore int               `json:"complianceScore"`
}

// AuditPath audits one path now, as the job audits every page, without
// storing anything. The rules exist once, here: the admin screen shows
// what the server finds.
func (a *Auditor) AuditPath(ctx context.Context, path string) PageAudit {
	nap := Context{}
	if a.Business != nil {
		nap = a.Business(ctx)
	}
	r := a.auditPage(ctx, path, nap)
	comp, score := Compliance(r.Checks)
	return PageAudit{PageResult: r, Counts: Count(r.Checks), Compliance: comp, ComplianceScore: score}
}

func (a *Auditor) auditPage(ctx context.Context, path string, nap Context) PageResult {
	return a.auditPageSince(ctx, path, nap, nil, nil)
}

// auditPageSince is auditPage that parses the page only when its bytes or
// the business details differ from the last run's (last), whose checks
// are then reused; next, when not nil, receives what this run audited.
func (a *Auditor) auditPageSince(ctx context.Context, path string, nap Context, last, next map[string]audited) PageResult {
	nap.URL = strings.TrimSuffix(a.Base, "/") + path
	r := PageResult{Path: path, URL: nap.URL, Checks: []Check{}}
	status, body, err := a.Fetch(ctx, path)
	r.StatusCode = status
	switch {
	case err != nil:
		r.Error = err.Error()
		return r
	case status != http.StatusOK:
		r.Error = fmt.Sprintf("HTTP %d: only pages that answer 200 are audited", status)
		return r
	}
	sum := sha256.Sum256(body)
	if was, ok := last[path]; ok && was.sum == sum && was.nap == nap {
		r.Checks = was.checks
	} else {
		checks, err := AuditHTML(body, nap)
		if err != nil {
			r.Error = "the page could not be parsed: " + err.Error()
			return r
		}
		r.Checks = checks
	}
	if next != nil {
		next[path] = audited{sum: sum, nap: nap, checks: r.Checks}
	}
	r.Score = Score(Count(r.Checks))
	return r
}

// Decode turns a stored page row back into its result.
func Decode(p db.SEOAuditPage, base string) PageResult {
	r := PageResult{Path: p.Path, URL: strings.TrimSuffix(base, "/") + p.Path, StatusCode: p.StatusCode, Score: p.Score, Error: p.Error, Checks: []Check{}}
	if p.Checks != "" {
		if err := json.Unmarshal([]byte(p.Checks), &r.Checks); err != nil && r.Error == "" {
			r.Error = "stored result unreadable: " + err.Error()
		}
	}
	return r
}
