// Package analytics (web/analytics) is the HTTP side of first-party
// analytics and real-user Core Web Vitals (ADR 015, ADR 023, ADR
// 029): POST /api/collect takes the beacon's events, the estimate intake
// records each stored lead, and the Analytics and Performance Monitor
// screens read /api/admin/analytics and /api/admin/vitals. The rules are
// the domain package analytics'; these handlers parse, call it and answer.
// The routes and their guards are in server/install.go.
package analytics

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/errgroup"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/httperr"
)

// CollectMaxBody bounds a beacon (bytes), CollectPerIP the events one
// client (an IPv4 address or an IPv6 /64) may send per minute; the
// per-day limits are analytics.Budget's.
const (
	CollectMaxBody = 2048
	CollectPerIP   = 300
)

// Store is what the analytics screens and the collector read and write
// (db.Store).
type Store interface {
	analytics.Store
	analytics.CountStore
	analytics.LeadSourceStore
	GetSetting(ctx context.Context, key string) (string, error)
	SetSettings(ctx context.Context, kv map[string]string, now time.Time) error
	VitalCounts(ctx context.Context, from, to string) ([]db.VitalCount, error)
}

// Options are the room's dependencies.
type Options struct {
	Store Store
	// Site gives the pages the site serves and the places of its area.
	Site *site.Site
	Log  *slog.Logger
}

// Handler collects beacons and answers the analytics screens. The
// collector's batch writer starts on the first event and stops with Stop.
type Handler struct {
	store   Store
	c       *analytics.Collector
	limit   *guard.Limiter
	budget  *analytics.Budget
	pages   *site.Site
	now     atomic.Pointer[served]
	site    *url.URL
	log     *slog.Logger
	runOnce sync.Once
	stop    context.CancelFunc
	done    chan struct{}
}

// served are the site's pages and places as the current content has them.
type served struct {
	intake *analytics.Intake
	places *analytics.Places
}

// New builds the collector over the site's served pages; Refresh follows
// a content change.
func New(o Options) *Handler {
	budget := analytics.NewBudget()
	budget.OnFull = func(network string, private bool) {
		if private {
			// Every visitor behind a proxy shares its address when the
			// server does not read X-Forwarded-For.
			o.Log.Warn("analytics: more visitors today from one private or loopback address than are counted from one client; if the site is behind a proxy, set TRUST_PROXY", "network", network, "limit", analytics.MaxVisitorsPerNetwork)
		}
	}
	u, err := url.Parse(o.Site.BaseURL())
	if err != nil {
		u = &url.URL{}
	}
	h := &Handler{store: o.Store, c: analytics.NewCollector(o.Store, o.Log), limit: guard.NewLimiter(CollectPerIP, time.Minute), budget: budget,
		pages: o.Site, site: u, log: o.Log, done: make(chan struct{})}
	h.Refresh()
	return h
}

// Refresh reads the pages the site serves and the places of its area
// again (a page published, a city added or retired).
func (h *Handler) Refresh() {
	places := Places(h.pages)
	h.now.Store(&served{intake: &analytics.Intake{Pages: h.pages.ServedPages(), Places: places, SiteHost: h.site.Hostname()}, places: places})
}

// Places are the service area's cities, for the Geography table: a city
// page and its fixed city page are one place.
func Places(s *site.Site) *analytics.Places {
	p := analytics.NewPlaces()
	c := s.Content()
	for _, ci := range c.Cities {
		label := ci.City
		if co, ok := c.County(ci.County); ok {
			label += ", " + co.Name + " County"
		}
		paths := []string{site.CityPath(ci.County, ci.Slug)}
		for _, k := range site.CityProfileKeys() {
			if pr, ok := c.CityProfiles[k]; ok && strings.HasPrefix(k, ci.County+"/") && strings.EqualFold(pr.CityName, ci.City) {
				paths = append(paths, "/areas/"+k)
			}
		}
		p.Add(ci.County+"/"+ci.Slug, label, ci.City, paths...)
	}
	return p
}

// run starts the batch writer on first use.
func (h *Handler) run() {
	h.runOnce.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		h.stop = cancel
		ended := h.c.Start(ctx)
		go func() { <-ended; close(h.done) }()
	})
}

// Stop writes what is queued (shutdown), waiting at most until ctx ends.
func (h *Handler) Stop(ctx context.Context) {
	if h.stop == nil {
		return
	}
	h.stop()
	select {
	case <-h.done:
	case <-ctx.Done():
	}
}

// Collect records one beacon. Whatever happens it answers 204 with no
// body (a beacon's answer is never read): opted-out visitors (DNT, GPC),
// bots, admin pages, other origins, malformed or over-limit beacons and
// events over a client's daily limits are simply not stored. Every field
// is checked by analytics.Intake (ADR 029).
func (h *Handler) Collect(c echo.Context) error {
	req := c.Request()
	nothing := func() error { return c.NoContent(http.StatusNoContent) }
	if !tracked(req) {
		return nothing()
	}
	if fetchSite := req.Header.Get("Sec-Fetch-Site"); fetchSite != "" && fetchSite != "same-origin" {
		return nothing()
	}
	if o := req.Header.Get("Origin"); o != "" && o != h.site.Scheme+"://"+h.site.Host {
		return nothing()
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, CollectMaxBody+1))
	if err != nil || len(body) > CollectMaxBody {
		return nothing()
	}
	var b analytics.Beacon
	if json.Unmarshal(body, &b) != nil {
		return nothing()
	}
	now := time.Now()
	e, ok := h.now.Load().intake.Event(b, now)
	if !ok {
		return nothing()
	}
	ip := c.RealIP()
	network := analytics.Network(ip)
	if _, ok, _ := h.limit.Reserve(network, now); !ok {
		return nothing()
	}
	salt, err := h.c.Salt(req.Context(), e.Day)
	if err != nil {
		h.log.Warn("analytics salt unavailable", "err", err)
		return nothing()
	}
	e.Visitor = analytics.Visitor(salt, ip, req.UserAgent(), e.Day)
	if !h.budget.Admit(network, e) {
		return nothing()
	}
	h.run()
	h.c.Add(e)
	return nothing()
}

// tracked reports whether a request may be counted: not opted out (DNT,
// GPC) and not a bot.
func tracked(req *http.Request) bool {
	return !analytics.OptedOut(req.Header.Get("DNT"), req.Header.Get("Sec-GPC")) && !analytics.IsBot(req.UserAgent())
}

// RecordLead records a stored estimate request: every one, so the
// Analytics screen's Leads and Geography add up to the requests received
// (ADR 023). Its page is the Referer's path, its area the city typed. The
// visitor id, which links it to the same visitor's visit of the day, is
// computed only for a tracked request: an opted-out (DNT, GPC) or bot
// request's lead is counted with no id, among the leads from uncounted
// visits.
func (h *Handler) RecordLead(c echo.Context) {
	req := c.Request()
	// The page the form was sent from, when it is one the site serves
	// (the Referer is the client's to write).
	cur := h.now.Load()
	path := "/estimate"
	if u, err := url.Parse(req.Referer()); err == nil && u.Host == h.site.Host {
		if p, ok := analytics.BeaconPath(u.Path); ok {
			if _, served := cur.intake.Pages[p]; served {
				path = p
			}
		}
	}
	now := time.Now()
	e := db.Event{At: now.UTC(), Day: analytics.Day(now), Kind: db.EventLead, Path: path, Area: cur.places.OfCity(c.FormValue("city"))}
	if tracked(req) {
		if salt, err := h.c.Salt(req.Context(), e.Day); err == nil {
			e.Visitor = analytics.Visitor(salt, c.RealIP(), req.UserAgent(), e.Day)
		}
	}
	h.run()
	h.c.Add(e)
}

// Goals are the Goals & KPIs targets; the spec's figures are the defaults.
type Goals struct {
	Visitors   int     `json:"visitors"`
	Leads      int     `json:"leads"`
	Conversion float64 `json:"conversion"`
}

var defaultGoals = Goals{Visitors: 3000, Leads: 200, Conversion: 8.0}

const goalsKey = "analytics_goals"

func (h *Handler) goals(ctx context.Context) Goals {
	g := defaultGoals
	if v, err := h.store.GetSetting(ctx, goalsKey); err == nil && v != "" {
		json.Unmarshal([]byte(v), &g)
	}
	return g
}

// PutGoals saves the Goals & KPIs targets.
func (h *Handler) PutGoals(c echo.Context) error {
	var g Goals
	if err := c.Bind(&g); err != nil || g.Visitors < 1 || g.Visitors > 10_000_000 || g.Leads < 1 || g.Leads > 1_000_000 || g.Conversion <= 0 || g.Conversion > 100 {
		return httperr.New(http.StatusBadRequest, "Goals must be positive: visitors and leads as whole numbers, conversion as a percentage up to 100.")
	}
	b, _ := json.Marshal(g)
	if err := h.store.SetSettings(c.Request().Context(), map[string]string{goalsKey: string(b)}, time.Now().UTC()); err != nil {
		return httperr.Unavailable("The goals could not be saved. Try again.", err)
	}
	return c.JSON(http.StatusOK, g)
}

// AnalyticsAnswer is GET /api/admin/analytics: the period's figures
// (analytics.Report), the goals they are measured against and, since this
// instance started, the events it did not store: dropped by a full queue
// (or lost in an outage at shutdown), refused by the database (each
// alone, the rest of its batch stored) and over a client's daily limits
// (ADR 029).
type AnalyticsAnswer struct {
	analytics.Report
	// LeadSources are the period's leads by their own source and
	// campaign (the lead records' attribution).
	LeadSources []analytics.LeadSourceRow `json:"leadSources"`
	Goals       Goals                     `json:"goals"`
	Dropped     int64                     `json:"dropped"`
	Refused     int64                     `json:"refused"`
	Capped      int64                     `json:"capped"`
}

// Report is the Analytics screen's data for the last `days` days
// (default 30, today included) and the same span before, for changes.
func (h *Handler) Report(c echo.Context) error {
	ctx := c.Request().Context()
	days := 30
	if v := c.QueryParam("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 366 {
			return httperr.New(http.StatusBadRequest, "days must be between 1 and 366.")
		}
		days = n
	}
	// The visits' figures and the leads by source are independent reads
	// of about the same cost over a year; they run side by side, each on a
	// connection of its own (ADR 071).
	now := time.Now()
	from, to, _, _ := analytics.Span(now, days)
	var (
		r       analytics.Report
		sources []analytics.LeadSourceRow
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		r, err = analytics.BuildReport(gctx, h.store, h.now.Load().places, now, days)
		return err
	})
	g.Go(func() (err error) {
		sources, err = analytics.LeadSources(gctx, h.store, from, to)
		return err
	})
	if err := g.Wait(); err != nil {
		return httperr.Unavailable("Analytics could not be loaded.", err)
	}
	return c.JSON(http.StatusOK, AnalyticsAnswer{Report: r, LeadSources: sources, Goals: h.goals(ctx), Dropped: h.c.Dropped.Load(), Refused: h.c.Refused.Load(), Capped: h.budget.Capped.Load()})
}

// VitalsReport is GET /api/admin/vitals: the 75th percentile of each Core
// Web Vital site-wide and per page kind, over Days days.
type VitalsReport struct {
	// Overall and ByKind are null when nothing was measured.
	Overall []analytics.VitalRow `json:"overall" tstype:"KindRow[] | null"`
	ByKind  []analytics.VitalRow `json:"byKind" tstype:"KindRow[] | null"`
	Samples int                  `json:"samples"`
	Days    int                  `json:"days"`
}

// Vitals is the Performance Monitor's data: the 75th percentile of each
// metric over the last 28 days, site-wide and per page kind.
func (h *Handler) Vitals(c echo.Context) error {
	now := time.Now()
	samples, err := h.store.VitalCounts(c.Request().Context(), analytics.Day(now.AddDate(0, 0, -(analytics.VitalDays-1))), analytics.Day(now))
	if err != nil {
		return httperr.Unavailable("Performance data could not be loaded.", err)
	}
	overall, byKind := analytics.Vitals(samples)
	return c.JSON(http.StatusOK, VitalsReport{Overall: overall, ByKind: byKind, Samples: analytics.Measurements(samples), Days: analytics.VitalDays})
}

// Flush writes the queued events now (tests, and a caller that must see
// them stored before it answers).
func (h *Handler) Flush(ctx context.Context) error { return h.c.Flush(ctx) }

// Counts are the events this instance did not store since it started, as
// the Analytics screen reports them.
func (h *Handler) Counts() (dropped, refused, capped int64) {
	return h.c.Dropped.Load(), h.c.Refused.Load(), h.budget.Capped.Load()
}
