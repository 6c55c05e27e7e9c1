package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/health"
	"github.com/atlanta-restoration/site/indexnow"
	"github.com/atlanta-restoration/site/jobs"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/schemacheck"
	"github.com/atlanta-restoration/site/securitycheck"
	"github.com/atlanta-restoration/site/seoaudit"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/ssr"
	analyticsweb "github.com/atlanta-restoration/site/web/analytics"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/dashboard"
	"github.com/atlanta-restoration/site/words"
)

// The background jobs (docs/operations.md, ADR 011, ADR 014, ADR
// 022), wired in one place. The jobs, indexnow, health, seoaudit,
// securitycheck and schemacheck packages hold the work; this file gives
// them what only the application has: the settings switches, the
// sitemap's pages, a way to run a request through the site's own
// handler, and the render cache's ETags after each warm-up.

// Job names, as recorded in job_runs.
const (
	jobAnalytics = "analytics-rollup"
	jobIndexNow  = "indexnow"
	jobHealth    = "health"
	jobReviews   = "reviews"
	jobSEOAudit  = "seo-audit"
	jobSecurity  = "security-scan"
	jobSchema    = "schema-check"
	jobPublish   = "content-publish"
	jobNotFound  = "not-found-flush"
	jobEscalate  = "lead-escalation"
	jobBackup    = "backup"
	jobRetention = "retention"
)

// jobTitles name the jobs on the dashboard.
var jobTitles = map[string]string{jobAnalytics: "Analytics roll-up", jobIndexNow: "IndexNow auto-submit", jobHealth: "SEO health check", jobReviews: "Review refresh",
	jobSEOAudit: "SEO audit", jobSecurity: "Security scan", jobSchema: "Schema check", jobPublish: "Scheduled publishing",
	jobNotFound: "404 monitor", jobEscalate: "Emergency lead escalation", jobBackup: "Backup", jobRetention: "Data retention"}

// PublishEvery is how often scheduled content is published: a post
// scheduled for 6:00 is live by 6:00:30. NotFoundFlushEvery is how often
// each instance writes the 404s it counted. EscalateEvery is how often
// the escalation job looks for emergency leads still new after
// LEAD_ESCALATE_AFTER.
const (
	PublishEvery       = 30 * time.Second
	NotFoundFlushEvery = 30 * time.Second
	EscalateEvery      = time.Minute
)

// ReviewsEvery is how often the reviews job fetches from Google Places.
const ReviewsEvery = 24 * time.Hour

// SecurityScanEvery is the automated scan's interval (spec 9: the next
// automated scan is 24 hours after the last).
const SecurityScanEvery = 24 * time.Hour

// SEOAuditDebounce gathers the warm-ups of several content changes in a
// row into one audit (and one schema check).
const SEOAuditDebounce = 5 * time.Second

// jobSet is the application's background work.
type jobSet struct {
	runner   *jobs.Runner
	indexNow *indexnow.Service
	health   *health.Monitor
	seo      *seoaudit.Auditor
	security *securitycheck.Scanner
	schema   *schemacheck.Checker
	bootScan sync.Once
}

// newJobs builds the jobs and registers them; StartJobs starts them. The
// render cache reports every completed warm-up (boot, and after each
// change: an upload, a delete, a settings save, a review refresh) to
// IndexNow, and asks for an SEO audit and a schema check; the first one
// also asks for a security scan.
func (s *Server) newJobs() *jobSet {
	locker := s.locker
	cfg := s.cfg
	js := &jobSet{runner: jobs.New(jobs.Options{Log: s.log, Recorder: s.store, Locker: locker,
		Observe: func(job, outcome string, took time.Duration) { s.metrics.ObserveJob(job, outcome, took) }})}
	js.indexNow = &indexnow.Service{Client: indexnow.NewClient(cfg.IndexNowEndpoint), Keys: &indexnow.Keys{Fixed: cfg.IndexNowKey, Store: s.store},
		Store: s.store, Base: cfg.BaseURL, Enabled: s.settings.Toggle(func(st settings.Settings) bool { return st.AutoIndexNow }), Log: s.log}
	js.health = &health.Monitor{Fetch: s.fetchLocal, Pages: s.sitemapPages, SitemapURL: s.site.Abs("/sitemap.xml"), Store: s.store,
		Enabled: s.settings.Toggle(func(st settings.Settings) bool { return st.SEOMonitoring }), Log: s.log}
	js.seo = &seoaudit.Auditor{Fetch: s.fetchPage, Pages: s.site.IndexablePaths, Base: cfg.BaseURL, Business: s.napContext, Store: s.store, Log: s.log}
	js.security = &securitycheck.Scanner{Env: s.securityEnv(), Store: s.store, Log: s.log}
	js.schema = &schemacheck.Checker{Fetch: s.fetchPage, Pages: s.schemaPages, Base: cfg.BaseURL,
		Options: schemacheck.Options{FAQItemClass: site.FAQItemClass}, Store: s.store, Log: s.log}

	js.runner.Register(jobs.Job{Name: jobIndexNow, Debounce: cfg.IndexNowDebounce, Once: true, Run: js.indexNow.AutoSubmit})
	js.runner.Register(jobs.Job{Name: jobHealth, Every: cfg.HealthInterval, Once: true, Run: js.health.Run})
	js.runner.Register(jobs.Job{Name: jobAnalytics, Every: time.Hour, Once: true, Run: s.rollUp})
	if cfg.Reviews.APIKey != "" && cfg.Reviews.PlaceID != "" {
		js.runner.Register(jobs.Job{Name: jobReviews, Every: ReviewsEvery, Once: true, Run: s.reviewsJob})
	}
	js.runner.Register(jobs.Job{Name: jobSEOAudit, Debounce: SEOAuditDebounce, Once: true, Run: js.seo.Run})
	js.runner.Register(jobs.Job{Name: jobSecurity, Every: SecurityScanEvery, Once: true, Run: js.security.Run})
	js.runner.Register(jobs.Job{Name: jobSchema, Debounce: SEOAuditDebounce, Once: true, Run: js.schema.Run})
	js.runner.Register(jobs.Job{Name: jobPublish, Every: PublishEvery, Once: true, Quiet: true, Run: s.editor.PublishDue})
	// Each instance counts its own 404s, so each flushes its own.
	js.runner.Register(jobs.Job{Name: jobNotFound, Every: NotFoundFlushEvery, Quiet: true, Run: func(ctx context.Context) (string, error) {
		return "", s.notFound.Flush(ctx, time.Now())
	}})
	// The daily backup (BACKUP_EVERY, with its retention) and
	// the retention job (RETAIN_*_DAYS; the 404 log's prune is part of
	// it), each on one instance.
	if cfg.Backup.Every > 0 {
		js.runner.Register(jobs.Job{Name: jobBackup, Every: cfg.Backup.Every, Once: true, Timeout: 4 * time.Hour, Run: s.backups.Job})
	}
	js.runner.Register(jobs.Job{Name: jobRetention, Every: 24 * time.Hour, Once: true, Run: s.retention.Run})
	// Emergency leads still new after LEAD_ESCALATE_AFTER notify every
	// admin again. The store escalates each lead once whatever
	// runs it; Once keeps the work on one instance at a time.
	js.runner.Register(jobs.Job{Name: jobEscalate, Every: EscalateEvery, Once: true, Quiet: true, Timeout: time.Minute, Run: s.escalate})
	s.Cache().OnWarm(func(etags map[string]string) {
		var pages []indexnow.Page
		var missing []string
		for _, p := range s.site.SitemapPaths() {
			if e, ok := etags[p]; ok {
				pages = append(pages, indexnow.Page{Path: p, ETag: e})
			} else {
				missing = append(missing, p)
			}
		}
		js.indexNow.ObserveWarm(pages, missing)
		// In development every save changes the pages and BASE_URL is
		// local: nothing is submitted automatically.
		if !cfg.Dev() {
			js.runner.Trigger(jobIndexNow)
		}
		js.runner.Trigger(jobSEOAudit)
		js.runner.Trigger(jobSchema)
		js.bootScan.Do(func() { js.runner.Trigger(jobSecurity) })
	})
	return js
}

// StartJobs starts the background jobs.
func (s *Server) StartJobs() { s.jobs.runner.Start() }

// StopJobs cancels running jobs and waits for them, or for ctx; queued
// analytics events are written first.
func (s *Server) StopJobs(ctx context.Context) error {
	s.analyticsRoom.Stop(ctx)
	// A backup started from the admin is cancelled, removed and recorded.
	if err := s.backups.Stop(ctx); err != nil {
		s.log.Error("backup not stopped", "err", err)
	}
	return s.jobs.runner.Stop(ctx)
}

// sitemapPages are the sitemap's paths with the canonical each declares.
func (s *Server) sitemapPages() []health.Page {
	var out []health.Page
	for _, p := range s.site.SitemapPaths() {
		out = append(out, health.Page{Path: p, Canonical: s.site.Abs(p)})
	}
	return out
}

// schemaPages are the pages the schema check covers: every indexable
// route of the table (the SEO audit's pages), each with its kind's
// expected types.
func (s *Server) schemaPages() []schemacheck.Page {
	var out []schemacheck.Page
	for _, r := range s.site.Routes() {
		if !r.Indexable {
			continue
		}
		for _, p := range s.site.PathsOf(r) {
			out = append(out, schemacheck.Page{Path: p, Kind: r.Page, Expect: site.ExpectedSchema(r.Page)})
		}
	}
	return out
}

// fetchLocal runs a GET through the application's own handler, in
// process: the monitors and audits see exactly what a crawler would,
// without the network. It is background work: a page it finds cold is
// rendered after the visitors' pages (ssr.Background).
func (s *Server) fetchLocal(ctx context.Context, path string) (health.Response, error) {
	req := httptest.NewRequestWithContext(ssr.Background(ctx), http.MethodGet, path, nil)
	req.RemoteAddr = "127.0.0.1:0"
	req.Header.Set("User-Agent", "site-health-monitor")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	return health.Response{Status: w.Code, Location: w.Header().Get("Location"), Body: w.Body.Bytes()}, nil
}

// fetchPage runs a GET through the application's own handler (fetchLocal).
func (s *Server) fetchPage(ctx context.Context, path string) (int, []byte, error) {
	r, err := s.fetchLocal(ctx, path)
	return r.Status, r.Body, err
}

// napContext is the phone and address the pages must show (System
// Settings over the configuration).
func (s *Server) napContext(ctx context.Context) seoaudit.Context {
	b := s.settings.Business(ctx)
	return seoaudit.Context{Phone: b.Phone, Street: b.Street, City: b.City, State: b.State, Zip: b.Zip}
}

// securityEnv is what the security checks look at.
func (s *Server) securityEnv() securitycheck.Env {
	cfg := s.cfg
	e := securitycheck.Env{
		Handler: s, BaseURL: cfg.BaseURL, PIN: cfg.Admin.PIN, PINGenerated: cfg.Admin.PIN == "",
		TokenTTL: cfg.Admin.TokenTTL, SessionMax: auth.HardMax,
		Limits:     s.limits(),
		MediaStore: "an S3-compatible bucket (" + cfg.Storage.Bucket + ")",
		Sniff: func(head []byte) (string, error) {
			t, err := media.Sniff(head)
			return t.MIME, err
		},
		GoVersion: runtime.Version(),
		DB:        s.store, DBKind: s.store.Dialect(), Accounts: s.store,
		MediaSample: func(ctx context.Context) (string, error) {
			m, err := s.store.RecentMedia(ctx, 1)
			if err != nil || len(m) == 0 {
				return "", err
			}
			return media.URL(m[0].Path), nil
		},
	}
	if cfg.Storage.Kind != "s3" {
		e.MediaDir, _ = filepath.Abs(filepath.Join(cfg.DataDir, "media"))
	}
	return e
}

// limits are the request limits in force, as the security checks and the
// Hardening tab state them.
func (s *Server) limits() securitycheck.Limits {
	cfg := s.cfg
	return securitycheck.Limits{PINAttempts: cfg.Admin.MaxAttempts, PINWindow: cfg.Admin.Lockout, EstimateAttempts: EstimatesPerWindow,
		EstimatePosts: EstimatePostsPerWindow, EstimateWindow: EstimateWindow, MaxConns: cfg.Limits.MaxConns, MaxConnsPerIP: cfg.Limits.MaxConnsPerIP, TrustProxy: cfg.TrustProxy}
}

// runningSecurity is what the Hardening tab reads from the running
// configuration: the headers this server sends and the limits in force.
func (s *Server) runningSecurity() securitycheck.Running {
	cfg := s.cfg
	return securitycheck.Running{
		BaseURL: cfg.BaseURL, HSTS: s.secHeaders.Get("Strict-Transport-Security"), CSP: s.secHeaders.Get("Content-Security-Policy"),
		Limits:     s.limits(),
		PINFromEnv: cfg.Admin.PIN != "", TokenTTL: cfg.Admin.TokenTTL, SessionMax: auth.HardMax,
		LoginsPerAccount: auth.LoginAttemptsPerAccount, AnalyticsPerMinute: analyticsweb.CollectPerIP,
		ReviewsConfigured: s.reviews.Configured(), ReviewsInterval: cfg.Reviews.MinInterval,
	}
}

// reviewsJob is the daily review refresh. The public refresh button and
// this job share the client's minimum interval.
func (s *Server) reviewsJob(ctx context.Context) (string, error) {
	n, err := s.reviews.Refresh(ctx)
	if errors.Is(err, reviews.ErrTooSoon) {
		return "", jobs.Skip("reviews were refreshed recently")
	}
	if err != nil {
		return "", err
	}
	return "fetched " + words.Count(n, "review", "reviews"), nil
}

// escalate is the escalation job's run. A minute with nothing to escalate
// is recorded as skipped, so it stays out of the dashboard's activity.
func (s *Server) escalate(ctx context.Context) (string, error) {
	n, err := s.notifier.Escalate(ctx)
	if err != nil {
		return "", err
	}
	if n == 0 {
		return "", jobs.Skip("no emergency lead waiting")
	}
	return "escalated " + words.Count(n, "emergency lead", "emergency leads") + " still new to every admin", nil
}

// rollUp folds finished days' raw analytics events into daily counts and
// drops raw events past RETAIN_ANALYTICS_RAW_DAYS.
func (s *Server) rollUp(ctx context.Context) (string, error) {
	now := time.Now()
	days, err := s.store.RollUp(ctx, analytics.Day(now), analytics.Day(now.AddDate(0, 0, -s.cfg.Retention.AnalyticsRawDays)), now.UTC())
	if err != nil {
		return "", err
	}
	if len(days) == 0 {
		return "nothing to roll up", nil
	}
	return fmt.Sprintf("rolled up %d day(s): %s", len(days), strings.Join(days, ", ")), nil
}

// indexNowState is what the dashboard's IndexNow card reads: the key in
// force and System Settings' auto-submit switch.
func (s *Server) indexNowState() dashboard.IndexNowState {
	return func(ctx context.Context) (string, bool, error) {
		key, _, err := s.jobs.indexNow.Keys.Key(ctx)
		if err != nil {
			return "", false, err
		}
		auto, err := s.settings.Toggle(func(st settings.Settings) bool { return st.AutoIndexNow })(ctx)
		return key, auto, err
	}
}
