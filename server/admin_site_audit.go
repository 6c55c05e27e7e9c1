package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/jobs"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/securitycheck"
	"github.com/atlanta-restoration/site/seoaudit"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/words"
)

// The SEO audit and the Security Scanner (issue 10, ADR 014). The
// seoaudit and securitycheck packages hold the rules; this file gives
// them what only the server has (its own handler, the route table, the
// configuration, the store), runs them as jobs and answers the admin
// screens. (Not to be confused with the leads audit log of issue 8.)

// Job names, as recorded in job_runs.
const (
	jobSEOAudit = "seo-audit"
	jobSecurity = "security-scan"
)

// SecurityScanEvery is the automated scan's interval (spec 9: the next
// automated scan is 24 hours after the last).
const SecurityScanEvery = 24 * time.Hour

// SEOAuditDebounce gathers the warm-ups of several content changes in a
// row into one audit.
const SEOAuditDebounce = 5 * time.Second

// auditSet is the server's two audits.
type auditSet struct {
	seo      *seoaudit.Auditor
	sec      *securitycheck.Scanner
	schema   *schemaSet // Schema Management (admin_schema.go)
	bootScan sync.Once
}

// newAudits builds the audits and registers their jobs: the SEO audit
// after every complete warm-up of the render cache (the boot of a new
// deploy, and every content change) and on Run Audit; the security scan
// after the first warm-up, every 24 hours and on Run Full Scan.
func (s *Server) newAudits() *auditSet {
	a := &auditSet{
		seo: &seoaudit.Auditor{Fetch: s.fetchPage, Pages: s.auditPaths, Base: s.cfg.BaseURL, Business: s.napContext, Store: s.store, Log: s.log},
		sec: &securitycheck.Scanner{Env: s.securityEnv(), Store: s.store, Log: s.log},
	}
	a.schema = s.newSchemaCheck()
	if s.store == nil {
		return a
	}
	s.jobs.runner.Register(jobs.Job{Name: jobSEOAudit, Debounce: SEOAuditDebounce, Once: true, Run: a.seo.Run})
	s.jobs.runner.Register(jobs.Job{Name: jobSecurity, Every: SecurityScanEvery, Once: true, Run: a.sec.Run})
	s.Cache().OnWarm(func(map[string]string) {
		s.jobs.runner.Trigger(jobSEOAudit)
		a.bootScan.Do(func() { s.jobs.runner.Trigger(jobSecurity) })
	})
	return a
}

// fetchPage runs a GET through the server's own handler (fetchLocal).
func (s *Server) fetchPage(ctx context.Context, path string) (int, []byte, error) {
	r, err := s.fetchLocal(ctx, path)
	return r.Status, r.Body, err
}

// auditPaths are the pages the SEO audit checks: every indexable route of
// the table. Admin screens and search results are noindex: search
// engines never rank them, so the page rules do not apply.
func (s *Server) auditPaths() []string {
	var out []string
	for _, r := range s.site.Routes() {
		if r.Indexable {
			out = append(out, r.Paths(s.site.Content())...)
		}
	}
	return out
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
		Limits: securitycheck.Limits{PINAttempts: cfg.Admin.MaxAttempts, PINWindow: cfg.Admin.Lockout, EstimateAttempts: EstimatesPerWindow,
			EstimatePosts: EstimatePostsPerWindow, EstimateWindow: EstimateWindow, MaxConns: cfg.Limits.MaxConns, MaxConnsPerIP: cfg.Limits.MaxConnsPerIP, TrustProxy: cfg.TrustProxy},
		MediaStore: "an S3-compatible bucket (" + cfg.Storage.Bucket + ")",
		Sniff: func(head []byte) (string, error) {
			t, err := media.Sniff(head)
			return t.MIME, err
		},
		GoVersion: runtime.Version(),
	}
	if cfg.Storage.Kind != "s3" {
		e.MediaDir, _ = filepath.Abs(filepath.Join(cfg.DataDir, "media"))
	}
	if s.store != nil {
		e.DB, e.DBKind, e.Accounts = s.store, s.store.Dialect(), s.store
		e.MediaSample = func(ctx context.Context) (string, error) {
			m, err := s.store.RecentMedia(ctx, 1)
			if err != nil || len(m) == 0 {
				return "", err
			}
			return media.URL(m[0].Path), nil
		}
	}
	return e
}

// adminRunJob asks for a run now and answers at once with the id of the
// run it will replace; the screen polls until a newer one appears.
func (s *Server) adminRunJob(job string, latest func(context.Context) string) echo.HandlerFunc {
	return func(c echo.Context) error {
		after := latest(c.Request().Context())
		if !s.jobs.runner.RunNow(job) {
			return &StatusError{Status: http.StatusServiceUnavailable, Message: "Background jobs are not available on this server."}
		}
		return c.JSON(http.StatusAccepted, Queued{Queued: true, After: after})
	}
}

// SEOAuditReport is GET /api/admin/seo-audit.
type SEOAuditReport struct {
	// Run is the latest audit (null before the first).
	Run   *db.SEOAuditRun       `json:"run"`
	Pages []seoaudit.PageResult `json:"pages"`
	// Routes is how many pages an audit checks now.
	Routes int             `json:"routes"`
	Rules  []string        `json:"rules"`
	Briefs []LocationBrief `json:"briefs"`
	How    string          `json:"how"`
}

func (s *Server) adminSEOAudit(c echo.Context) error {
	out := SEOAuditReport{Pages: []seoaudit.PageResult{}, Routes: len(s.auditPaths()), Rules: seoaudit.CheckNames(), Briefs: s.locationBriefs(), How: seoHow}
	run, pages, err := s.store.LatestSEOAudit(c.Request().Context())
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The SEO audit could not be loaded.", Err: err}
	}
	if err == nil {
		out.Run = &run
		for _, p := range pages {
			out.Pages = append(out.Pages, seoaudit.Decode(p, run.BaseURL))
		}
	}
	return c.JSON(http.StatusOK, out)
}

// adminSEOAuditPage audits one of the site's own pages now (?path=/contact),
// through the server's own handler: never another host.
func (s *Server) adminSEOAuditPage(c echo.Context) error {
	p := c.QueryParam("path")
	if p == "" {
		p = "/"
	}
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsAny(p, "\\\r\n") || len(p) > 512 {
		return &StatusError{Status: http.StatusBadRequest, Message: "Give the path of one of the site's pages, such as /contact."}
	}
	return c.JSON(http.StatusOK, s.audits.seo.AuditPath(c.Request().Context(), p))
}

// seoHow says how the site-wide score is computed.
const seoHow = "Spec 5's page rules are run on the server over every indexable page of the route table, as search engines receive it. " +
	"The score is the share of passing checks across all those pages (a warning does not pass)."

// SecurityReport is GET /api/admin/security.
type SecurityReport struct {
	Scan            *db.SecurityScan              `json:"scan"`
	NextScanAt      *time.Time                    `json:"nextScanAt"`
	Score           int                           `json:"score"`
	Checks          []db.SecurityResult           `json:"checks"`
	Vulnerabilities []db.Vulnerability            `json:"vulnerabilities"`
	Monitoring      []MonitoringItem              `json:"monitoring"`
	Hardening       []securitycheck.HardeningItem `json:"hardening"`
	Config          securitycheck.ConfigPanel     `json:"config"`
}

func (s *Server) adminSecurity(c echo.Context) error {
	ctx := c.Request().Context()
	out := SecurityReport{Checks: []db.SecurityResult{}}
	scan, results, err := s.store.LatestSecurityScan(ctx)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The security scan could not be loaded.", Err: err}
	}
	if err == nil {
		next := scan.StartedAt.Add(SecurityScanEvery)
		out.Scan, out.NextScanAt, out.Checks = &scan, &next, results
	}
	if out.Vulnerabilities, err = s.store.ListVulnerabilities(ctx); err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The vulnerabilities could not be loaded.", Err: err}
	}
	out.Score = securityScore(out.Checks)
	out.Monitoring = s.securityMonitoring(ctx, out.Scan, out.Vulnerabilities)
	run := s.runningSecurity()
	out.Hardening = securitycheck.Hardening(out.Checks, run)
	out.Config = securitycheck.Configuration(run)
	return c.JSON(http.StatusOK, out)
}

// securityScore is the share of passing checks among those run.
func securityScore(rs []db.SecurityResult) int {
	conv := make([]securitycheck.Result, len(rs))
	for i, r := range rs {
		conv[i].Status = securitycheck.Status(r.Status)
	}
	return securitycheck.Score(conv)
}

func (s *Server) adminSetVulnerability(c echo.Context) error {
	var in struct {
		Status string `json:"status"`
	}
	if err := c.Bind(&in); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the status as JSON: {\"status\": \"acknowledged\"}."}
	}
	v, err := s.store.SetVulnerabilityStatus(c.Request().Context(), c.Param("id"), in.Status, time.Now().UTC())
	switch {
	case errors.Is(err, db.ErrBadStatus):
		return &StatusError{Status: http.StatusBadRequest, Message: "Status must be one of open, acknowledged, fixed."}
	case errors.Is(err, db.ErrNotFound):
		return &StatusError{Status: http.StatusNotFound, Message: "No such vulnerability."}
	case err != nil:
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The status could not be saved.", Err: err}
	}
	s.log.Info("security: vulnerability status set", "id", v.CheckID, "status", v.Status, "by", c.RealIP())
	return c.JSON(http.StatusOK, VulnerabilityAnswer{Vulnerability: v})
}

// Tile is one dashboard stat tile. Value is "—" when nothing has been
// measured yet; How says how the figure is computed or how it will fill.
type Tile struct {
	Label    string `json:"label"`
	Value    string `json:"value"`
	Hint     string `json:"hint"`
	How      string `json:"how"`
	Measured bool   `json:"measured"`
}

// adminOverview answers the dashboard's four tiles.
func (s *Server) adminOverview(c echo.Context) error {
	ctx := c.Request().Context()
	seo := Tile{Label: "SEO Score", Value: "—", Hint: "No audit yet",
		How: "Fills after the first SEO audit: it runs once the pages are rendered at boot, after every content change, and when you press Run Audit on the SEO Audit screen."}
	if run, err := s.store.LatestSEOAuditRun(ctx); err == nil {
		seo = Tile{Label: "SEO Score", Value: strconv.Itoa(run.Score) + "%", Hint: "Site-wide audit", Measured: true,
			How: "Passing checks across " + words.Count(run.Pages-run.Errors, "page", "pages") + " in the latest SEO audit (" + run.FinishedAt.Format(time.RFC3339) + "): " + strconv.Itoa(run.Passed) + " of " + strconv.Itoa(run.Passed+run.Warnings+run.Failed) + "."}
	} else if !errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The dashboard could not be loaded.", Err: err}
	}
	loc := s.locationFigures()
	sec := Tile{Label: "Security Issues", Value: "—", Hint: "No scan yet",
		How: "Fills after the first security scan: it runs at boot, every 24 hours, and when you press Run Full Scan on the Security screen."}
	if _, _, err := s.store.LatestSecurityScan(ctx); err == nil {
		n, err := s.store.CountOpenVulnerabilities(ctx)
		if err != nil {
			return &StatusError{Status: http.StatusServiceUnavailable, Message: "The dashboard could not be loaded.", Err: err}
		}
		sec = Tile{Label: "Security Issues", Value: strconv.Itoa(n), Hint: "Open findings", Measured: true,
			How: "Failed security checks whose vulnerability is open (not acknowledged or fixed), from the latest scan."}
	}
	tiles := []Tile{seo, s.pageSpeedTile(ctx),
		{Label: "Location Pages", Value: strconv.Itoa(loc.counties + loc.cities), Hint: "County and city pages", Measured: true,
			How: words.Count(loc.counties, "county page", "county pages") + " (/service-areas/{county}) and " + words.Count(loc.cities, "city page", "city pages") + " (/areas/{county}/{city}) in the route table."},
		sec}
	return c.JSON(http.StatusOK, Overview{Tiles: tiles})
}

// pageSpeedTile is the dashboard's Page Speed: spec 5's performance score
// (100 good, 60 needs improvement, 20 poor, averaged) of the site-wide 75th
// percentile of each Core Web Vital real visitors reported in the last 28
// days. Until any are reported it says how it will fill.
func (s *Server) pageSpeedTile(ctx context.Context) Tile {
	empty := Tile{Label: "Page Speed", Value: "—", Hint: "No data yet",
		How: "Fills from real visitors' Core Web Vitals (75th percentile) once they are collected; no figure is shown until then."}
	now := time.Now()
	samples, err := s.store.VitalSamples(ctx, analytics.Day(now.AddDate(0, 0, -(analytics.VitalDays-1))), analytics.Day(now))
	if err != nil {
		return empty
	}
	score, n, ok := analytics.PageSpeed(samples)
	if !ok {
		return empty
	}
	return Tile{Label: "Page Speed", Value: strconv.Itoa(score), Hint: "Real visitors, last 28 days", Measured: true,
		How: fmt.Sprintf("Spec 5's performance score (100 good, 60 needs improvement, 20 poor, averaged) of the 75th percentile of %d Core Web Vitals over %d measurements from real visits.", n, len(samples))}
}

// locationFigures counts the location pages of the route table.
type locationCounts struct{ counties, cities, sitemap int }

func (s *Server) locationFigures() locationCounts {
	var out locationCounts
	for _, r := range s.site.Routes() {
		switch r.Page {
		case "county":
			out.counties += len(r.Paths(s.site.Content()))
		case "city", "city-profile":
			out.cities += len(r.Paths(s.site.Content()))
		}
	}
	out.sitemap = len(s.sitemapPages())
	return out
}

// cityPages lists the city pages of the route table by county slug, in
// table order (the four fixed city pages first).
func (s *Server) cityPages() map[string][]string {
	out := map[string][]string{}
	for _, r := range s.site.Routes() {
		if r.Page != "city" && r.Page != "city-profile" {
			continue
		}
		for _, p := range r.Paths(s.site.Content()) {
			parts := strings.Split(strings.TrimPrefix(p, "/areas/"), "/")
			if len(parts) == 2 {
				out[parts[0]] = append(out[parts[0]], p)
			}
		}
	}
	return out
}

// LocationBrief is spec 3's location brief: what a city page publishes.
type LocationBrief struct {
	City            string   `json:"city"`
	County          string   `json:"county"`
	URL             string   `json:"url"`
	SEOTitle        string   `json:"seoTitle"`
	MetaDescription string   `json:"metaDescription"`
	Keywords        []string `json:"keywords"`
}

// locationBriefs are the briefs of every city page, from the content the
// pages are rendered from (a fixed city page's own texts where it has
// one), grouped by county in content order.
func (s *Server) locationBriefs() []LocationBrief {
	out := []LocationBrief{}
	pages := s.cityPages()
	for _, co := range s.site.Content().Counties {
		for _, p := range pages[co.Slug] {
			name, seo, ok := s.cityPage(co.Slug, p)
			if !ok {
				continue
			}
			kw := seo.Keywords
			if kw == nil {
				kw = []string{}
			}
			out = append(out, LocationBrief{City: name, County: co.Name, URL: p, SEOTitle: seo.SEOTitle, MetaDescription: seo.MetaDescription, Keywords: kw})
		}
	}
	return out
}

// cityPage names a city page and gives the texts it publishes: a fixed
// city page's own, else its city record's.
func (s *Server) cityPage(county, path string) (string, content.SEO, bool) {
	slug := path[strings.LastIndex(path, "/")+1:]
	if pr, ok := s.site.Content().CityProfiles[county+"/"+slug]; ok {
		return pr.CityName, pr.SEO, true
	}
	if ci, ok := s.site.Content().City(county, slug); ok {
		return ci.City, ci.SEO, true
	}
	return "", content.SEO{}, false
}

// localSchema reads the latest SEO audit: Active when every audited
// county and city page carries LocalBusiness structured data.
func (s *Server) localSchema(ctx context.Context) (string, string) {
	run, pages, err := s.store.LatestSEOAudit(ctx)
	if err != nil {
		return "Not checked", "Fills after the first SEO audit, which checks every page for LocalBusiness structured data."
	}
	total, with := 0, 0
	for _, p := range pages {
		if !strings.HasPrefix(p.Path, "/areas/") && !strings.HasPrefix(p.Path, "/service-areas/") {
			continue
		}
		total++
		for _, ch := range seoaudit.Decode(p, run.BaseURL).Checks {
			if ch.Check == "LocalBusiness structured data" && ch.Status == seoaudit.Pass {
				with++
			}
		}
	}
	how := strconv.Itoa(with) + " of " + words.Count(total, "county and city page", "county and city pages") + " carry LocalBusiness structured data in the latest SEO audit (" + run.FinishedAt.Format(time.RFC3339) + ")."
	if total > 0 && with == total {
		return "Active", how
	}
	return "Inactive", how
}
