package dashboard

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/words"
)

// ToolsStore is what the tool cards read besides Store (db.Store).
type ToolsStore interface {
	LatestSchemaCheckRun(ctx context.Context) (db.SchemaCheckRun, error)
	ListIndexNowSubmissions(ctx context.Context, limit, offset int) ([]db.IndexNowSubmission, int, error)
	Counts(ctx context.Context, from, to string) ([]db.Count, error)
}

// IndexNowState says whether IndexNow can submit: the key in force ("":
// none) and whether System Settings' auto-submit switch is on.
type IndexNowState func(ctx context.Context) (key string, auto bool, err error)

// ToolStatus is one dashboard tool card: its status, computed
// from the running site, in the spec's words (Secure, Ready, Active,
// Monitoring, Available, Optimized) only when they are true, and a plain
// alternative ("Needs a key", "12 warnings") otherwise. Priority (high,
// medium, low) follows what there is to do: high when something is
// failing or missing, medium when there are warnings, low when nothing
// needs the owner. Detail says why, in a sentence.
type ToolStatus struct {
	Slug     string `json:"slug"`
	Status   string `json:"status"`
	Tone     string `json:"tone" tstype:"'good' | 'info' | 'warn' | 'bad' | 'neutral'"`
	Detail   string `json:"detail"`
	Priority string `json:"priority" tstype:"'high' | 'medium' | 'low'"`
}

// Tools is GET /api/admin/tools.
type Tools struct {
	Tools []ToolStatus `json:"tools"`
}

// ScanFresh is how old the latest security scan may be for the card to
// say Secure: the scan runs every 24 hours, so two days means it stopped.
const ScanFresh = 48 * time.Hour

// Tools answers the dashboard's tool cards. A figure that cannot be read
// says so on its card; it does not fail the others.
func (h *Handler) Tools(c echo.Context) error {
	ctx := c.Request().Context()
	now := time.Now()
	cards := []func() ToolStatus{
		func() ToolStatus { return h.uploadTool(ctx) },
		func() ToolStatus { return h.seoTool(ctx) },
		func() ToolStatus { return h.indexNowTool(ctx) },
		func() ToolStatus { return h.securityTool(ctx, now) },
		func() ToolStatus { return h.performanceTool(ctx, now) },
		func() ToolStatus { return h.analyticsTool(ctx, now) },
		func() ToolStatus { return h.schemaTool(ctx) },
		h.locationsTool,
	}
	// The cards read independently; Page Speed (28 days of vitals) and
	// Analytics (7 days of visits) take most of the answer's time, so they
	// are read side by side, each on a connection of its own, rather than
	// one after the other (ADR 071).
	out := make([]ToolStatus, len(cards), len(cards)+2)
	var wg sync.WaitGroup
	for i, card := range cards {
		wg.Go(func() { out[i] = card() })
	}
	wg.Wait()
	out = append(out,
		ToolStatus{Slug: "content", Status: "Available", Tone: "neutral", Priority: "low", Detail: "Pages, services and blog posts are edited and published here."},
		ToolStatus{Slug: "settings", Status: "Available", Tone: "neutral", Priority: "low", Detail: "Business details, phone numbers and switches."})
	return c.JSON(http.StatusOK, Tools{Tools: out})
}

// unread is a card whose figure could not be read.
func unread(slug, what string) ToolStatus {
	return ToolStatus{Slug: slug, Status: "Could not be read", Tone: "warn", Priority: "medium", Detail: what + " could not be read just now; open the screen to try again."}
}

func (h *Handler) uploadTool(ctx context.Context) ToolStatus {
	files, err := h.Store.RecentMedia(ctx, 1)
	if err != nil {
		return unread("upload", "The photo library")
	}
	t := ToolStatus{Slug: "upload", Status: "Ready", Tone: "info", Priority: "low", Detail: "No photos or videos uploaded yet."}
	if len(files) > 0 {
		t.Detail = "Last upload " + words.When(files[0].CreatedAt) + "."
	}
	return t
}

func (h *Handler) seoTool(ctx context.Context) ToolStatus {
	run, err := h.Store.LatestSEOAuditRun(ctx)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return ToolStatus{Slug: "seo-audit", Status: "Not run yet", Tone: "neutral", Priority: "medium", Detail: "The first audit runs once the pages are rendered after the site starts."}
	case err != nil:
		return unread("seo-audit", "The latest SEO audit")
	}
	detail := fmt.Sprintf("Score %d%% across %s, %s.", run.Score, words.Count(run.Pages, "page", "pages"), words.When(run.FinishedAt))
	switch {
	case run.Failed > 0:
		return ToolStatus{Slug: "seo-audit", Status: words.Count(run.Failed, "failing check", "failing checks"), Tone: "bad", Priority: "high", Detail: detail}
	case run.Warnings > 0:
		return ToolStatus{Slug: "seo-audit", Status: words.Count(run.Warnings, "warning", "warnings"), Tone: "warn", Priority: "medium", Detail: detail}
	}
	return ToolStatus{Slug: "seo-audit", Status: "Active", Tone: "good", Priority: "low", Detail: detail}
}

func (h *Handler) indexNowTool(ctx context.Context) ToolStatus {
	if h.IndexNow == nil {
		return unread("indexnow", "The IndexNow key")
	}
	key, auto, err := h.IndexNow(ctx)
	if err != nil {
		return unread("indexnow", "The IndexNow key")
	}
	if key == "" {
		return ToolStatus{Slug: "indexnow", Status: "Needs a key", Tone: "bad", Priority: "high", Detail: "Search engines are not told of changed pages until a key is set on the SEO & IndexNow screen."}
	}
	subs, _, err := h.More.ListIndexNowSubmissions(ctx, 1, 0)
	if err != nil {
		return unread("indexnow", "The latest submission")
	}
	last := "Nothing submitted yet."
	if len(subs) > 0 {
		s := subs[0]
		last = "Last submission " + words.When(s.CreatedAt) + ": " + words.Count(s.URLCount, "page", "pages") + ", accepted."
		if s.Outcome != db.OutcomeOK {
			last = "Last submission " + words.When(s.CreatedAt) + ": " + words.Count(s.URLCount, "page", "pages") + ", refused or unanswered."
			return ToolStatus{Slug: "indexnow", Status: "Last submission failed", Tone: "bad", Priority: "high", Detail: last}
		}
	}
	if !auto {
		return ToolStatus{Slug: "indexnow", Status: "Auto-submit off", Tone: "neutral", Priority: "medium", Detail: "Changed pages are submitted only when you press Submit; the switch is in System Settings. " + last}
	}
	return ToolStatus{Slug: "indexnow", Status: "Active", Tone: "good", Priority: "low", Detail: "Changed pages are submitted by themselves. " + last}
}

func (h *Handler) securityTool(ctx context.Context, now time.Time) ToolStatus {
	scan, _, err := h.Store.LatestSecurityScan(ctx)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return ToolStatus{Slug: "security", Status: "Not scanned yet", Tone: "neutral", Priority: "medium", Detail: "The first scan runs shortly after the site starts, then every 24 hours."}
	case err != nil:
		return unread("security", "The latest security scan")
	}
	open, err := h.Store.CountOpenVulnerabilities(ctx)
	if err != nil {
		return unread("security", "The open findings")
	}
	detail := "Latest scan " + words.When(scan.FinishedAt) + ": " + words.Count(scan.Passed, "check passed", "checks passed") + ", " +
		words.Count(scan.Warnings, "warning", "warnings") + ", " + words.Count(scan.Failed, "failed", "failed") + "."
	switch {
	case open > 0:
		return ToolStatus{Slug: "security", Status: words.Count(open, "open issue", "open issues"), Tone: "bad", Priority: "high", Detail: detail}
	case now.Sub(scan.FinishedAt) > ScanFresh:
		return ToolStatus{Slug: "security", Status: "Scan overdue", Tone: "warn", Priority: "high", Detail: detail + " Scans should run every 24 hours."}
	case scan.Warnings > 0:
		return ToolStatus{Slug: "security", Status: "Monitoring", Tone: "info", Priority: "medium", Detail: detail}
	}
	return ToolStatus{Slug: "security", Status: "Secure", Tone: "good", Priority: "low", Detail: detail}
}

func (h *Handler) performanceTool(ctx context.Context, now time.Time) ToolStatus {
	samples, err := h.Store.VitalCounts(ctx, analytics.Day(now.AddDate(0, 0, -(analytics.VitalDays-1))), analytics.Day(now))
	if err != nil {
		return unread("performance", "Page speed")
	}
	score, _, ok := analytics.PageSpeed(samples)
	if !ok {
		return ToolStatus{Slug: "performance", Status: "No visits measured yet", Tone: "neutral", Priority: "low", Detail: "Page speed fills from real visitors' browsers as they come."}
	}
	detail := fmt.Sprintf("Page speed %d from %s in the last %d days.", score, words.Count(analytics.Measurements(samples), "measurement", "measurements"), analytics.VitalDays)
	switch {
	case score < 60:
		return ToolStatus{Slug: "performance", Status: "Slow", Tone: "bad", Priority: "high", Detail: detail}
	case score < 90:
		return ToolStatus{Slug: "performance", Status: "Needs improvement", Tone: "warn", Priority: "medium", Detail: detail}
	}
	return ToolStatus{Slug: "performance", Status: "Monitoring", Tone: "good", Priority: "low", Detail: detail}
}

func (h *Handler) analyticsTool(ctx context.Context, now time.Time) ToolStatus {
	counts, err := h.More.Counts(ctx, analytics.Day(now.AddDate(0, 0, -6)), analytics.Day(now))
	if err != nil {
		return unread("analytics", "Visits")
	}
	var views, visits int64
	for _, c := range counts {
		if c.Kind == db.EventPageview && c.Dim == db.DimTotal {
			views, visits = c.Events, c.Visitors
		}
	}
	if views == 0 {
		return ToolStatus{Slug: "analytics", Status: "No visits yet", Tone: "neutral", Priority: "low", Detail: "No page views counted in the last 7 days."}
	}
	return ToolStatus{Slug: "analytics", Status: "Monitoring", Tone: "info", Priority: "low",
		Detail: words.Count(int(visits), "visit", "visits") + " and " + words.Count(int(views), "page view", "page views") + " in the last 7 days."}
}

func (h *Handler) schemaTool(ctx context.Context) ToolStatus {
	run, err := h.More.LatestSchemaCheckRun(ctx)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return ToolStatus{Slug: "schema", Status: "Not checked yet", Tone: "neutral", Priority: "medium", Detail: "The first check runs once the pages are rendered after the site starts."}
	case err != nil:
		return unread("schema", "The latest structured data check")
	}
	detail := fmt.Sprintf("%d%% of items valid across %s, checked %s.", run.Score, words.Count(run.Pages, "page", "pages"), words.When(run.FinishedAt))
	switch {
	case run.Errors > 0 || run.Unreadable > 0:
		n := run.Errors + run.Unreadable
		return ToolStatus{Slug: "schema", Status: words.Count(n, "error", "errors"), Tone: "bad", Priority: "high", Detail: detail}
	case run.Warnings > 0:
		return ToolStatus{Slug: "schema", Status: words.Count(run.Warnings, "warning", "warnings"), Tone: "warn", Priority: "medium", Detail: detail}
	}
	return ToolStatus{Slug: "schema", Status: "Optimized", Tone: "good", Priority: "low", Detail: detail}
}

func (h *Handler) locationsTool() ToolStatus {
	loc := h.Site.Locations()
	if loc.Counties+loc.Cities == 0 {
		return ToolStatus{Slug: "locations", Status: "No pages yet", Tone: "warn", Priority: "medium", Detail: "Add the counties and cities the crews serve."}
	}
	return ToolStatus{Slug: "locations", Status: "Active", Tone: "good", Priority: "low",
		Detail: words.Count(loc.Counties, "county page", "county pages") + " and " + words.Count(loc.Cities, "city page", "city pages") + " published."}
}
