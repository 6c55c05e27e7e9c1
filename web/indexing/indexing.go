package indexing

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/indexnow"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/runjob"
)

// Store is what the screen reads (db.Store).
type Store interface {
	ListIndexNowSubmissions(ctx context.Context, limit, offset int) ([]db.IndexNowSubmission, int, error)
	LatestHealthRun(ctx context.Context) (db.HealthRun, []db.HealthResult, error)
}

// Handler answers the SEO & IndexNow screen.
type Handler struct {
	Store Store
	Site  *site.Site
	// IndexNow submits URLs and keeps the key.
	IndexNow *indexnow.Service
	// Jobs runs the health monitor now (HealthJob); HealthInterval is how
	// often it runs by itself, Monitoring whether it is switched on.
	Jobs           runjob.Runner
	HealthJob      string
	HealthInterval time.Duration
	Monitoring     func(context.Context) (bool, error)
	Log            *slog.Logger
}

// RouteInfo describes a route for the admin health monitor.
type RouteInfo struct {
	Path       string `json:"path"`
	Pattern    string `json:"pattern"`
	Component  string `json:"component"`
	IsDynamic  bool   `json:"isDynamic"`
	Priority   string `json:"priority"`
	ChangeFreq string `json:"changefreq"`
	InSitemap  bool   `json:"includeInSitemap"`
	Indexable  bool   `json:"indexable"`
}

// RoutesInfo is GET /api/admin/routes.
type RoutesInfo struct {
	BaseURL string      `json:"baseUrl"`
	Routes  []RouteInfo `json:"routes"`
}

// Routes lists every concrete route of the table.
func (h *Handler) Routes(c echo.Context) error {
	out := []RouteInfo{}
	for _, r := range h.Site.Routes() {
		for _, p := range r.Paths(h.Site.Content()) {
			out = append(out, RouteInfo{Path: p, Pattern: r.Pattern, Component: r.Page, IsDynamic: r.IsDynamic(), Priority: r.Priority,
				ChangeFreq: r.ChangeFreq, InSitemap: r.InSitemap && r.Indexable, Indexable: r.Indexable})
		}
	}
	return c.JSON(http.StatusOK, RoutesInfo{BaseURL: h.Site.BaseURL(), Routes: out})
}

// IndexNowKey is the IndexNow key in force and where its file is served.
type IndexNowKey struct {
	Key         string `json:"key"`
	KeyLocation string `json:"keyLocation"`
	// Fixed: INDEXNOW_KEY sets it, and the screen cannot replace it.
	Fixed bool `json:"fixed"`
}

// IndexNowSubmitted is a manual submission's answer.
type IndexNowSubmitted struct {
	Submitted int `json:"submitted"`
	Status    int `json:"status"`
}

// SubmissionPage is GET /api/admin/indexnow/submissions.
type SubmissionPage struct {
	Submissions []Submission `json:"submissions"`
	Total       int          `json:"total"`
	Limit       int          `json:"limit"`
	Offset      int          `json:"offset"`
}

// HealthSummary is spec 3's health summary for the latest run.
type HealthSummary struct {
	TotalRoutes     int        `json:"totalRoutes"`
	IndexableRoutes int        `json:"indexableRoutes"`
	URLsInSitemap   int        `json:"urlsInSitemap"`
	Issues          int        `json:"issues"`
	LastUpdated     *time.Time `json:"lastUpdated"`
}

// HealthReport is GET /api/admin/health: the latest run (null before the
// first), every result, the summary cards, how often it runs, and whether
// monitoring is on (absent when the settings cannot be read).
type HealthReport struct {
	Run        *db.HealthRun     `json:"run"`
	Results    []db.HealthResult `json:"results"`
	Summary    HealthSummary     `json:"summary"`
	Interval   string            `json:"interval"`
	Monitoring *bool             `json:"monitoring,omitempty"`
}

// Health returns the latest health run with the summary cards.
func (h *Handler) Health(c echo.Context) error {
	ctx := c.Request().Context()
	run, results, err := h.Store.LatestHealthRun(ctx)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable("The health results could not be loaded.", err)
	}
	out := HealthReport{Results: []db.HealthResult{}, Summary: HealthSummary{URLsInSitemap: len(h.Site.SitemapPaths())}, Interval: h.HealthInterval.String()}
	for _, r := range h.Site.Routes() {
		n := len(r.Paths(h.Site.Content()))
		out.Summary.TotalRoutes += n
		if r.Indexable {
			out.Summary.IndexableRoutes += n
		}
	}
	if err == nil {
		out.Summary.Issues, out.Summary.LastUpdated = run.Issues, &run.FinishedAt
		out.Run, out.Results = &run, results
	}
	if on, err := h.Monitoring(ctx); err == nil {
		out.Monitoring = &on
	}
	return c.JSON(http.StatusOK, out)
}

// RunHealth asks for a health run now; the screen polls GET /health until
// the run after `after` appears.
func (h *Handler) RunHealth() echo.HandlerFunc {
	return runjob.Handler(h.Jobs, h.HealthJob, func(ctx context.Context) string {
		if run, _, err := h.Store.LatestHealthRun(ctx); err == nil {
			return run.ID
		}
		return ""
	}, "The health monitor is not available.")
}
