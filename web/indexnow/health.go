package indexnow

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/health"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/runjob"
)

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
	Run        *health.Run     `json:"run"`
	Results    []health.Result `json:"results"`
	Summary    HealthSummary   `json:"summary"`
	Interval   string          `json:"interval"`
	Monitoring *bool           `json:"monitoring,omitempty"`
}

// Health returns the latest health run with the summary cards.
func (h *Handler) Health(c echo.Context) error {
	ctx := c.Request().Context()
	run, results, err := h.Store.LatestHealthRun(ctx)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable("The health results could not be loaded.", err)
	}
	out := HealthReport{Results: []health.Result{}, Summary: HealthSummary{URLsInSitemap: len(h.Site.SitemapPaths())}, Interval: h.HealthInterval.String()}
	for _, r := range h.Site.Routes() {
		n := len(h.Site.PathsOf(r))
		out.Summary.TotalRoutes += n
		if r.Indexable {
			out.Summary.IndexableRoutes += n
		}
	}
	if err == nil {
		out.Summary.Issues, out.Summary.LastUpdated = run.Issues, &run.FinishedAt
		r := health.RunOf(run)
		out.Run, out.Results = &r, health.ResultsOf(results)
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
