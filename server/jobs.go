package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/health"
	"github.com/atlanta-restoration/site/indexnow"
	"github.com/atlanta-restoration/site/jobs"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/words"
)

// The background jobs (README "Background jobs", ADR 011). The jobs,
// indexnow and health packages hold the work; this file gives them what
// only the server has: the settings toggles, the sitemap's pages, a way
// to run a request through the server's own handler, and the render
// cache's ETags after each warm-up.

// Job names, as recorded in job_runs.
const (
	jobAnalytics = "analytics-rollup"
	jobIndexNow  = "indexnow"
	jobHealth    = "health"
	jobReviews   = "reviews"
)

// jobTitles name the jobs on the dashboard.
var jobTitles = map[string]string{jobAnalytics: "Analytics roll-up", jobIndexNow: "IndexNow auto-submit", jobHealth: "SEO health check", jobReviews: "Review refresh",
	jobSEOAudit: "SEO audit", jobSecurity: "Security scan"}

// ReviewsEvery is how often the reviews job fetches from Google Places.
const ReviewsEvery = 24 * time.Hour

// jobSet is the server's background work.
type jobSet struct {
	runner   *jobs.Runner
	indexNow *indexnow.Service
	health   *health.Monitor
}

// newJobs registers the jobs; StartJobs starts them. The render cache
// reports every completed warm-up (boot, and after each Invalidate: an
// upload, a delete, a settings save, a review refresh) to IndexNow.
func (s *Server) newJobs() *jobSet {
	var (
		rec    jobs.Recorder
		locker jobs.Locker
	)
	if s.store != nil {
		rec = s.store
		if s.store.Dialect() == "postgres" {
			locker = jobs.PostgresLocker{DB: s.store.SQL()}
		}
	}
	js := &jobSet{runner: jobs.New(jobs.Options{Log: s.log, Recorder: rec, Locker: locker})}
	keys := &indexnow.Keys{Fixed: s.cfg.IndexNowKey}
	if s.store != nil {
		keys.Store = s.store
	}
	js.indexNow = &indexnow.Service{Client: indexnow.NewClient(s.cfg.IndexNowEndpoint), Keys: keys, Store: s.store, Base: s.cfg.BaseURL,
		Enabled: s.settings.Toggle(func(st settings.Settings) bool { return st.AutoIndexNow }), Log: s.log}
	js.health = &health.Monitor{Fetch: s.fetchLocal, Pages: s.sitemapPages, SitemapURL: s.site.Abs("/sitemap.xml"), Store: s.store,
		Enabled: s.settings.Toggle(func(st settings.Settings) bool { return st.SEOMonitoring }), Log: s.log}
	if s.store == nil {
		return js
	}
	js.runner.Register(jobs.Job{Name: jobIndexNow, Debounce: s.cfg.IndexNowDebounce, Once: true, Run: js.indexNow.AutoSubmit})
	js.runner.Register(jobs.Job{Name: jobHealth, Every: s.cfg.HealthInterval, Once: true, Run: js.health.Run})
	js.runner.Register(jobs.Job{Name: jobAnalytics, Every: time.Hour, Once: true, Run: s.rollUp})
	if s.cfg.Reviews.APIKey != "" && s.cfg.Reviews.PlaceID != "" {
		js.runner.Register(jobs.Job{Name: jobReviews, Every: ReviewsEvery, Once: true, Run: s.reviewsJob})
	}
	s.Cache().OnWarm(func(etags map[string]string) {
		var pages []indexnow.Page
		for _, p := range s.sitemapPages() {
			if e, ok := etags[p.Path]; ok {
				pages = append(pages, indexnow.Page{Path: p.Path, ETag: e})
			}
		}
		js.indexNow.Observe(pages)
		// In development every save changes the pages and BASE_URL is
		// local: nothing is submitted automatically.
		if !s.cfg.Dev() {
			js.runner.Trigger(jobIndexNow)
		}
	})
	return js
}

// StartJobs starts the background jobs.
func (s *Server) StartJobs() { s.jobs.runner.Start() }

// StopJobs cancels running jobs and waits for them, or for ctx.
func (s *Server) StopJobs(ctx context.Context) error {
	s.insights.Stop(ctx)
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

// fetchLocal runs a GET through the server's own handler, in process:
// the health monitor sees exactly what a crawler would, without the
// network.
func (s *Server) fetchLocal(ctx context.Context, path string) (health.Response, error) {
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, path, nil)
	req.RemoteAddr = "127.0.0.1:0"
	req.Header.Set("User-Agent", "site-health-monitor")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	return health.Response{Status: w.Code, Location: w.Header().Get("Location"), Body: w.Body.Bytes()}, nil
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

// Activity is one line of the dashboard's recent activity: a job run or a
// batch of uploads.
type Activity struct {
	Kind    string    `json:"kind"` // job or upload
	Job     string    `json:"job,omitempty"`
	Title   string    `json:"title"`
	Summary string    `json:"summary"`
	Outcome string    `json:"outcome"`
	At      time.Time `json:"at"`
}

// ActivityShown is how many lines the dashboard's recent activity shows.
const ActivityShown = 15

// adminActivity returns recent job runs (skipped ones left out) merged
// with recent uploads, newest first.
func (s *Server) adminActivity(c echo.Context) error {
	ctx := c.Request().Context()
	runs, err := s.store.RecentJobRuns(ctx, ActivityShown, false)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Recent activity could not be loaded.", Err: err}
	}
	files, err := s.store.RecentMedia(ctx, 200)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Recent activity could not be loaded.", Err: err}
	}
	out := uploadActivity(files)
	for _, r := range runs {
		out = append(out, Activity{Kind: "job", Job: r.Job, Title: jobTitles[r.Job], Summary: r.Summary, Outcome: r.Outcome, At: r.FinishedAt})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	if len(out) > ActivityShown {
		out = out[:ActivityShown]
	}
	return c.JSON(http.StatusOK, ActivityList{Activity: out})
}

// uploadActivity folds uploads (newest first) into one line per project
// per batch: files of one project less than 10 minutes apart.
func uploadActivity(files []db.Media) []Activity {
	var out []Activity
	var photos, videos int
	flush := func(m db.Media) {
		what := []string{}
		if photos > 0 {
			what = append(what, words.Count(photos, "photo", "photos"))
		}
		if videos > 0 {
			what = append(what, words.Count(videos, "video", "videos"))
		}
		title := what[0]
		if len(what) == 2 {
			title += " and " + what[1]
		}
		out[len(out)-1].Title = title + " uploaded to " + media.ProjectDisplayName(m.Project)
		photos, videos = 0, 0
	}
	for i, m := range files {
		if i == 0 || m.Project != files[i-1].Project || files[i-1].CreatedAt.Sub(m.CreatedAt) > 10*time.Minute {
			if i > 0 {
				flush(files[i-1])
			}
			out = append(out, Activity{Kind: "upload", Outcome: db.OutcomeOK, At: m.CreatedAt})
		}
		if m.Kind == "video" {
			videos++
		} else {
			photos++
		}
	}
	if len(files) > 0 {
		flush(files[len(files)-1])
	}
	return out
}

// rollUp folds finished days' raw analytics events into daily counts and
// drops raw events past db.RawDays.
func (s *Server) rollUp(ctx context.Context) (string, error) {
	now := time.Now()
	days, err := s.store.RollUp(ctx, analytics.Day(now), analytics.Day(now.AddDate(0, 0, -db.RawDays)), now.UTC())
	if err != nil {
		return "", err
	}
	if len(days) == 0 {
		return "nothing to roll up", nil
	}
	return fmt.Sprintf("rolled up %d day(s): %s", len(days), strings.Join(days, ", ")), nil
}
