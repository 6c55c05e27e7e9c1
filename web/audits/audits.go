// Package audits is the HTTP side of the admin's audit screens: the SEO
// audit (spec 5's page rules over every indexable page), the Security
// Scanner with its Monitoring and Hardening tabs, Schema Management (the
// JSON-LD every page serves) and Location Pages. The seoaudit,
// securitycheck and schemacheck packages hold the rules and run as jobs
// (server/jobs.go registers them); these handlers read their latest runs,
// ask for new ones and answer. The routes and their guards are in
// server/install.go. (Not to be confused with the leads audit log.)
package audits

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/schemacheck"
	"github.com/atlanta-restoration/site/securitycheck"
	"github.com/atlanta-restoration/site/seoaudit"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/runjob"
	"github.com/atlanta-restoration/site/words"
)

// Store is what the audit screens read and write (db.Store).
type Store interface {
	LatestSEOAudit(ctx context.Context) (db.SEOAuditRun, []db.SEOAuditPage, error)
	LatestSEOAuditRun(ctx context.Context) (db.SEOAuditRun, error)
	LatestSecurityScan(ctx context.Context) (db.SecurityScan, []db.SecurityResult, error)
	ListVulnerabilities(ctx context.Context) ([]db.Vulnerability, error)
	SetVulnerabilityStatus(ctx context.Context, checkID, status string, now time.Time) (db.Vulnerability, error)
	ListSessions(ctx context.Context, now time.Time) ([]db.Session, error)
	LatestHealthRun(ctx context.Context) (db.HealthRun, []db.HealthResult, error)
	LatestSchemaCheck(ctx context.Context) (db.SchemaCheckRun, []db.SchemaCheckPage, error)
	LatestSchemaCheckRun(ctx context.Context) (db.SchemaCheckRun, error)
}

// Job names the run buttons ask for.
type Jobs struct {
	Runner                     runjob.Runner
	SEOAudit, Security, Schema string
}

// Handler answers the audit screens.
type Handler struct {
	Store Store
	Site  *site.Site
	// SEO audits one page now (the SEO & IndexNow screen's compliance
	// check); Checker lists the pages the schema check covers.
	SEO     *seoaudit.Auditor
	Checker *schemacheck.Checker
	// Fetch runs a GET through the site's own handler, in process.
	Fetch schemacheck.Fetch
	// Running is what the Hardening tab reads from the running
	// configuration: the headers this server sends and the limits in force.
	Running securitycheck.Running
	// ScanEvery is the automated security scan's interval.
	ScanEvery time.Duration
	// Backups says how backups stand (backup.Service), for the Hardening
	// tab; nil: no backup service.
	Backups Backups
	Jobs    Jobs
	Log     *slog.Logger
	// Proof are the thin-pages audit's sources of local proof (published
	// jobs near a city, its testimonials); a nil one is not counted.
	Proof seoaudit.LocalProof
	// Content lists the content items behind the location pages, for
	// Location Pages' edit links and the cities not on the site yet.
	Content Contents
}

// SEOAuditReport is GET /api/admin/seo-audit.
type SEOAuditReport struct {
	// Run is the latest audit (null before the first).
	Run   *seoaudit.Run         `json:"run"`
	Pages []seoaudit.PageResult `json:"pages"`
	// Routes is how many pages an audit checks now.
	Routes int             `json:"routes"`
	Rules  []string        `json:"rules"`
	Briefs []LocationBrief `json:"briefs"`
	How    string          `json:"how"`
}

// seoHow says how the site-wide score is computed.
const seoHow = "The server runs the page rules over every page of the site that search engines may list, as search engines receive it. " +
	"The score is the share of passing checks across all those pages (a warning does not pass)."

// SEOAudit answers the latest audit with every page's checks.
func (h *Handler) SEOAudit(c echo.Context) error {
	out := SEOAuditReport{Pages: []seoaudit.PageResult{}, Routes: len(h.Site.IndexablePaths()), Rules: seoaudit.CheckNames(), Briefs: h.locationBriefs(), How: seoHow}
	run, pages, err := h.Store.LatestSEOAudit(c.Request().Context())
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable("The SEO audit could not be loaded.", err)
	}
	if err == nil {
		r := seoaudit.RunOf(run)
		out.Run = &r
		for _, p := range pages {
			out.Pages = append(out.Pages, seoaudit.Decode(p, run.BaseURL))
		}
	}
	return c.JSON(http.StatusOK, out)
}

// SEOAuditPage audits one of the site's own pages now (?path=/contact),
// through the site's own handler: never another host.
func (h *Handler) SEOAuditPage(c echo.Context) error {
	p := c.QueryParam("path")
	if p == "" {
		p = "/"
	}
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsAny(p, "\\\r\n") || len(p) > 512 {
		return httperr.New(http.StatusBadRequest, "Give the path of one of the site's pages, such as /contact.")
	}
	return c.JSON(http.StatusOK, h.SEO.AuditPath(c.Request().Context(), p))
}

// RunSEOAudit asks for an audit now.
func (h *Handler) RunSEOAudit() echo.HandlerFunc {
	return runjob.Handler(h.Jobs.Runner, h.Jobs.SEOAudit, func(ctx context.Context) string {
		if r, err := h.Store.LatestSEOAuditRun(ctx); err == nil {
			return r.ID
		}
		return ""
	}, "Background jobs are not available on this server.")
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
func (h *Handler) locationBriefs() []LocationBrief {
	out := []LocationBrief{}
	pages := h.Site.CityPages()
	for _, co := range h.Site.Content().Counties {
		for _, p := range pages[co.Slug] {
			name, seo, ok := h.Site.CityPage(co.Slug, p)
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

// SecurityReport is GET /api/admin/security.
type SecurityReport struct {
	Scan            *securitycheck.Scan           `json:"scan"`
	NextScanAt      *time.Time                    `json:"nextScanAt"`
	Score           int                           `json:"score"`
	Checks          []securitycheck.CheckResult   `json:"checks"`
	Vulnerabilities []securitycheck.Vulnerability `json:"vulnerabilities"`
	Monitoring      []MonitoringItem              `json:"monitoring"`
	Hardening       []securitycheck.HardeningItem `json:"hardening"`
	Config          securitycheck.ConfigPanel     `json:"config"`
}

// Backups says how backups stand (backup.Service).
type Backups interface {
	Status(ctx context.Context) (backup.Status, error)
}

// backups reads the backup status as the Hardening tab says it, the way
// the dashboard reads it (web/dashboard).
func (h *Handler) backups(ctx context.Context) securitycheck.Backups {
	if h.Backups == nil {
		return securitycheck.Backups{Off: true}
	}
	st, err := h.Backups.Status(ctx)
	if err != nil {
		if h.Log != nil {
			h.Log.Warn("security: backup status", "err", err)
		}
		return securitycheck.Backups{Error: "try again in a moment."}
	}
	out := securitycheck.Backups{Location: st.Location, EveryHours: st.EveryHours, Alarm: st.Alarm}
	if st.LastGood != nil {
		at := st.LastGood.FinishedAt
		out.LastGoodAt = &at
	}
	return out
}

// Security answers the Security screen: the latest scan, the
// vulnerabilities, and the Monitoring and Hardening tabs.
func (h *Handler) Security(c echo.Context) error {
	ctx := c.Request().Context()
	out := SecurityReport{Checks: []securitycheck.CheckResult{}}
	scan, results, err := h.Store.LatestSecurityScan(ctx)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable("The security scan could not be loaded.", err)
	}
	scanned := err == nil
	if scanned {
		next := scan.StartedAt.Add(h.ScanEvery)
		s := securitycheck.ScanOf(scan)
		out.Scan, out.NextScanAt, out.Checks = &s, &next, securitycheck.CheckResultsOf(results)
	}
	vulns, err := h.Store.ListVulnerabilities(ctx)
	if err != nil {
		return httperr.Unavailable("The vulnerabilities could not be loaded.", err)
	}
	out.Vulnerabilities = securitycheck.VulnerabilitiesOf(vulns)
	out.Score = securityScore(results)
	out.Monitoring = h.monitoring(ctx, scanned, vulns)
	run := h.Running
	run.Backup = h.backups(ctx)
	out.Hardening = securitycheck.Hardening(results, run)
	out.Config = securitycheck.Configuration(run)
	return c.JSON(http.StatusOK, out)
}

// RunSecurityScan asks for a scan now.
func (h *Handler) RunSecurityScan() echo.HandlerFunc {
	return runjob.Handler(h.Jobs.Runner, h.Jobs.Security, func(ctx context.Context) string {
		if sc, _, err := h.Store.LatestSecurityScan(ctx); err == nil {
			return sc.ID
		}
		return ""
	}, "Background jobs are not available on this server.")
}

// securityScore is the share of passing checks among those run.
func securityScore(rs []db.SecurityResult) int {
	conv := make([]securitycheck.Result, len(rs))
	for i, r := range rs {
		conv[i].Status = securitycheck.Status(r.Status)
	}
	return securitycheck.Score(conv)
}

// VulnerabilityAnswer is a vulnerability status change's answer.
type VulnerabilityAnswer struct {
	Vulnerability securitycheck.Vulnerability `json:"vulnerability"`
}

// SetVulnerability marks a vulnerability open, acknowledged or fixed.
func (h *Handler) SetVulnerability(c echo.Context) error {
	var in struct {
		Status string `json:"status"`
	}
	if err := c.Bind(&in); err != nil {
		return httperr.New(http.StatusBadRequest, "Send the status as JSON: {\"status\": \"acknowledged\"}.")
	}
	v, err := h.Store.SetVulnerabilityStatus(c.Request().Context(), c.Param("id"), in.Status, time.Now().UTC())
	switch {
	case errors.Is(err, db.ErrBadStatus):
		return httperr.New(http.StatusBadRequest, "Status must be one of open, acknowledged, fixed.")
	case errors.Is(err, db.ErrNotFound):
		return httperr.New(http.StatusNotFound, "No such vulnerability.")
	case err != nil:
		return httperr.Unavailable("The status could not be saved.", err)
	}
	h.Log.Info("security: vulnerability status set", "id", v.CheckID, "status", v.Status, "by", c.RealIP())
	return c.JSON(http.StatusOK, VulnerabilityAnswer{Vulnerability: securitycheck.VulnerabilityOf(v)})
}

// MonitoringItem is one figure of the Monitoring tab.
type MonitoringItem struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Status      string `json:"status" tstype:"'good' | 'warn' | 'bad'"`
	Description string `json:"description"`
}

// monitoring is the Monitoring tab, from measured facts only: what the
// latest scan found, the live sessions, the latest health and SEO runs.
func (h *Handler) monitoring(ctx context.Context, scanned bool, vulns []db.Vulnerability) []MonitoringItem {
	open := 0
	for _, v := range vulns {
		if v.Status == db.VulnOpen {
			open++
		}
	}
	out := []MonitoringItem{}
	if scanned {
		st := "good"
		if open > 0 {
			st = "bad"
		}
		out = append(out, MonitoringItem{"Open vulnerabilities", strconv.Itoa(open), st, "Failed checks nobody has acknowledged or fixed yet."})
	}
	if list, err := h.Store.ListSessions(ctx, time.Now().UTC()); err == nil {
		out = append(out, MonitoringItem{"Active sessions", strconv.Itoa(len(list)), "good", "Unlocked admin and account sessions right now (listed below)."})
	}
	if run, _, err := h.Store.LatestHealthRun(ctx); err == nil {
		st := "good"
		if run.Issues > 0 {
			st = "warn"
		}
		out = append(out, MonitoringItem{"SEO health issues", strconv.Itoa(run.Issues), st, "URLs with a problem in the health check of " + run.FinishedAt.Format("Jan 2, 15:04 MST") + "."})
	}
	if run, err := h.Store.LatestSEOAuditRun(ctx); err == nil {
		st := "good"
		if run.Score < 70 {
			st = "bad"
		} else if run.Score < 90 {
			st = "warn"
		}
		out = append(out, MonitoringItem{"SEO audit score", strconv.Itoa(run.Score) + "%", st, "Site-wide, from the audit of " + run.FinishedAt.Format("Jan 2, 15:04 MST") + "."})
	}
	out = append(out, MonitoringItem{"Automated scan", "Every 24 hours", "good", "Also at every start of the server; Run Full Scan runs one now."})
	return out
}

// localSchema reads the latest SEO audit: Active when every audited
// county and city page carries LocalBusiness structured data, with how
// the figure was found.
func (h *Handler) localSchema(ctx context.Context) (string, string) {
	run, pages, err := h.Store.LatestSEOAudit(ctx)
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
	how := strconv.Itoa(with) + " of " + words.Count(total, "county and city page", "county and city pages") + " carry LocalBusiness structured data in the latest SEO audit (" + words.When(run.FinishedAt) + ")."
	if total > 0 && with == total {
		return "Active", how
	}
	return "Inactive", how
}
