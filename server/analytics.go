package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	pathpkg "path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/jobs"
)

// First-party analytics and real-user Core Web Vitals (issue 10, ADR
// 015): POST /api/collect takes the beacon's events, the admin reads
// /api/admin/analytics and /api/admin/vitals. The rules are in package
// analytics; these handlers are thin.

// analyticsSet is the collector, its per-IP limit and the places of the
// Geography table.
type analyticsSet struct {
	c       *analytics.Collector
	limit   *guard.Limiter
	places  *analytics.Places
	runOnce sync.Once
	stop    context.CancelFunc
	done    chan struct{}
}

// CollectMaxBody bounds a beacon (bytes), CollectPerIP the events one
// client may send per minute.
const (
	CollectMaxBody = 2048
	CollectPerIP   = 300
	jobAnalytics   = "analytics-rollup"
)

func (s *Server) newAnalytics() *analyticsSet {
	if s.store == nil {
		return nil
	}
	return &analyticsSet{c: analytics.NewCollector(s.store, s.log), limit: guard.NewLimiter(CollectPerIP, time.Minute), places: s.places(), done: make(chan struct{})}
}

// places are the service area's cities, for the Geography table: a city
// page and its profile page are one place.
func (s *Server) places() *analytics.Places {
	p := analytics.NewPlaces()
	if s.content == nil {
		return p
	}
	for _, ci := range s.content.Cities {
		label := ci.City
		if co, ok := s.content.County(ci.County); ok {
			label += ", " + co.Name + " County"
		}
		paths := []string{cityPath(ci.County, ci.Slug)}
		for _, k := range cityProfileKeys() {
			if pr, ok := s.content.CityProfiles[k]; ok && strings.HasPrefix(k, ci.County+"/") && strings.EqualFold(pr.CityName, ci.City) {
				paths = append(paths, "/areas/"+k)
			}
		}
		p.Add(ci.County+"/"+ci.Slug, label, ci.City, paths...)
	}
	return p
}

// run starts the batch writer on first use.
func (a *analyticsSet) run() {
	a.runOnce.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		a.stop = cancel
		go func() { a.c.Run(ctx); close(a.done) }()
	})
}

// stopAnalytics writes what is queued (shutdown).
func (s *Server) stopAnalytics(ctx context.Context) {
	if s.analytics == nil || s.analytics.stop == nil {
		return
	}
	s.analytics.stop()
	select {
	case <-s.analytics.done:
	case <-ctx.Done():
	}
}

func (s *Server) registerAnalyticsJob(r *jobs.Runner) {
	r.Register(jobs.Job{Name: jobAnalytics, Every: time.Hour, Once: true, Run: func(ctx context.Context) (string, error) {
		now := time.Now()
		days, err := s.store.RollUp(ctx, analytics.Day(now), analytics.Day(now.AddDate(0, 0, -30)), now.UTC())
		if err != nil {
			return "", err
		}
		if len(days) == 0 {
			return "nothing to roll up", nil
		}
		return fmt.Sprintf("rolled up %d day(s): %s", len(days), strings.Join(days, ", ")), nil
	}})
}

// beacon is what client/beacon.ts sends.
type beacon struct {
	Type        string  `json:"t"`
	Path        string  `json:"p"`
	Referrer    string  `json:"r"`
	Width       int     `json:"w"`
	UTMSource   string  `json:"us"`
	UTMMedium   string  `json:"um"`
	UTMCampaign string  `json:"uc"`
	Metric      string  `json:"m"`
	Value       float64 `json:"v"`
}

var vitalRange = map[string]float64{"LCP": 120000, "INP": 60000, "FCP": 120000, "TTFB": 120000, "CLS": 100}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// collect records one beacon. Whatever happens it answers 204 with no
// body (a beacon's answer is never read): opted-out visitors (DNT, GPC),
// bots, admin pages, other origins and malformed or over-limit beacons
// are simply not stored.
func (s *Server) collect(c echo.Context) error {
	a := s.analytics
	req := c.Request()
	nothing := func() error { return c.NoContent(http.StatusNoContent) }
	if a == nil || !tracked(req) {
		return nothing()
	}
	site := s.siteURL()
	if fetchSite := req.Header.Get("Sec-Fetch-Site"); fetchSite != "" && fetchSite != "same-origin" {
		return nothing()
	}
	if o := req.Header.Get("Origin"); o != "" && o != site.Scheme+"://"+site.Host {
		return nothing()
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, CollectMaxBody+1))
	if err != nil || len(body) > CollectMaxBody {
		return nothing()
	}
	var b beacon
	if json.Unmarshal(body, &b) != nil {
		return nothing()
	}
	if !strings.HasPrefix(b.Path, "/") || strings.HasPrefix(b.Path, "//") {
		return nothing()
	}
	path := b.Path
	if u, err := url.Parse(path); err == nil {
		path = u.Path
	}
	// Dot segments ("/%2e%2e/admin/…") resolve before the checks, as a
	// browser would resolve them; a path that needed resolving is not one
	// a page reports.
	if clean := pathpkg.Clean(path); clean != path && clean+"/" != path {
		return nothing()
	}
	if !strings.HasPrefix(path, "/") || len(path) > 300 || path == "/admin" || strings.HasPrefix(path, "/admin/") {
		return nothing()
	}
	now := time.Now()
	ip := c.RealIP()
	if _, ok, _ := a.limit.Reserve(guard.ClientKey(ip), now); !ok {
		return nothing()
	}
	e := db.Event{At: now.UTC(), Day: analytics.Day(now), Path: path, Width: analytics.WidthClass(b.Width)}
	switch b.Type {
	case db.EventPageview:
		// Each page view keeps its own source; a visit's source is its
		// first page view's, decided when the figures are counted (ADR
		// 023), so a click within the site or a second arrival the same
		// day does not count the visitor twice.
		e.Kind = b.Type
		e.Referrer = clip(refHost(b.Referrer), 200)
		e.UTMSource, e.UTMMedium, e.UTMCampaign = clip(b.UTMSource, 100), clip(b.UTMMedium, 100), clip(b.UTMCampaign, 100)
		e.Source = analytics.Classify(b.Referrer, b.UTMSource, b.UTMMedium, site.Hostname())
		e.Area = a.places.OfPath(path)
	case db.EventTelClick, db.EventFormView:
		e.Kind = b.Type
	case db.EventVital:
		max, ok := vitalRange[b.Metric]
		if !ok || b.Value < 0 || b.Value > max || math.IsNaN(b.Value) {
			return nothing()
		}
		e.Kind, e.Metric, e.Value = b.Type, b.Metric, b.Value
		if r, _, ok := s.routeFor(path); ok {
			e.PageKind = r.Page
		} else {
			return nothing()
		}
	default:
		return nothing()
	}
	ctx := req.Context()
	salt, err := a.c.Salt(ctx, e.Day)
	if err != nil {
		s.log.Warn("analytics salt unavailable", "err", err)
		return nothing()
	}
	e.Visitor = analytics.Visitor(salt, ip, req.UserAgent(), e.Day)
	a.run()
	a.c.Add(e)
	return nothing()
}

// refHost keeps only the referrer's host: the path of another site may
// carry someone's search or personal data.
func refHost(r string) string {
	u, err := url.Parse(r)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// siteURL is BASE_URL parsed: its origin checks the beacon's Origin, its
// host tells internal referrers from outside ones.
func (s *Server) siteURL() *url.URL {
	u, err := url.Parse(s.cfg.BaseURL)
	if err != nil {
		return &url.URL{}
	}
	return u
}

// tracked reports whether a request may be counted: not opted out (DNT,
// GPC) and not a bot.
func tracked(req *http.Request) bool {
	return !analytics.OptedOut(req.Header.Get("DNT"), req.Header.Get("Sec-GPC")) && !analytics.IsBot(req.UserAgent())
}

// recordLead records a stored estimate request: every one, so the
// Analytics screen's Leads and Geography add up to the requests received
// (ADR 023). Its page is the Referer's path, its area the city typed. The
// visitor id, which links it to the same visitor's visit of the day, is
// computed only for a tracked request: an opted-out (DNT, GPC) or bot
// request's lead is counted with no id, among the leads from uncounted
// visits.
func (s *Server) recordLead(c echo.Context) {
	a := s.analytics
	if a == nil {
		return
	}
	req := c.Request()
	path := "/estimate"
	if u, err := url.Parse(req.Referer()); err == nil && u.Host == s.siteURL().Host && strings.HasPrefix(u.Path, "/") {
		path = clip(u.Path, 300)
	}
	now := time.Now()
	e := db.Event{At: now.UTC(), Day: analytics.Day(now), Kind: db.EventLead, Path: path, Area: a.places.OfCity(c.FormValue("city"))}
	if tracked(req) {
		if salt, err := a.c.Salt(req.Context(), e.Day); err == nil {
			e.Visitor = analytics.Visitor(salt, c.RealIP(), req.UserAgent(), e.Day)
		}
	}
	a.run()
	a.c.Add(e)
}

// Goals are the Goals & KPIs targets; the spec's figures are the defaults.
type Goals struct {
	Visitors   int     `json:"visitors"`
	Leads      int     `json:"leads"`
	Conversion float64 `json:"conversion"`
}

var defaultGoals = Goals{Visitors: 3000, Leads: 200, Conversion: 8.0}

const goalsKey = "analytics_goals"

func (s *Server) goals(ctx context.Context) Goals {
	g := defaultGoals
	if v, err := s.store.GetSetting(ctx, goalsKey); err == nil && v != "" {
		json.Unmarshal([]byte(v), &g)
	}
	return g
}

func (s *Server) putAnalyticsGoals(c echo.Context) error {
	var g Goals
	if err := c.Bind(&g); err != nil || g.Visitors < 1 || g.Visitors > 10_000_000 || g.Leads < 1 || g.Leads > 1_000_000 || g.Conversion <= 0 || g.Conversion > 100 {
		return &StatusError{Status: http.StatusBadRequest, Message: "Goals must be positive: visitors and leads as whole numbers, conversion as a percentage up to 100."}
	}
	b, _ := json.Marshal(g)
	if err := s.store.SetSettings(c.Request().Context(), map[string]string{goalsKey: string(b)}, time.Now().UTC()); err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The goals could not be saved. Try again.", Err: err}
	}
	return c.JSON(http.StatusOK, g)
}

// analyticsAnswer is GET /api/admin/analytics: the period's figures
// (analytics.Report), the goals they are measured against and the events
// the collector had to drop.
type analyticsAnswer struct {
	analytics.Report
	Goals   Goals `json:"goals"`
	Dropped int64 `json:"dropped"`
}

// adminAnalytics is the Analytics screen's data for the last `days` days
// (default 30, today included) and the same span before, for changes.
func (s *Server) adminAnalytics(c echo.Context) error {
	ctx := c.Request().Context()
	days := 30
	if v := c.QueryParam("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 366 {
			return &StatusError{Status: http.StatusBadRequest, Message: "days must be between 1 and 366."}
		}
		days = n
	}
	var places *analytics.Places
	var dropped int64
	if s.analytics != nil {
		places, dropped = s.analytics.places, s.analytics.c.Dropped.Load()
	}
	r, err := analytics.BuildReport(ctx, s.store, places, time.Now(), days)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Analytics could not be loaded.", Err: err}
	}
	return c.JSON(http.StatusOK, analyticsAnswer{Report: r, Goals: s.goals(ctx), Dropped: dropped})
}

// Vital thresholds are Google's (good at or below, poor above).
var vitalThresholds = map[string][2]float64{"LCP": {2500, 4000}, "INP": {200, 500}, "CLS": {0.1, 0.25}, "FCP": {1800, 3000}, "TTFB": {800, 1800}}

var vitalOrder = []string{"LCP", "INP", "CLS", "FCP", "TTFB"}

// VitalRow is the 75th percentile of one metric on one page kind.
type VitalRow struct {
	PageKind string  `json:"pageKind"`
	Metric   string  `json:"metric"`
	P75      float64 `json:"p75"`
	Status   string  `json:"status"`
	Samples  int     `json:"samples"`
}

func vitalStatus(metric string, v float64) string {
	t := vitalThresholds[metric]
	switch {
	case v <= t[0]:
		return "good"
	case v > t[1]:
		return "poor"
	}
	return "needs-improvement"
}

// p75 is the nearest-rank 75th percentile.
func p75(vs []float64) float64 {
	sort.Float64s(vs)
	i := int(math.Ceil(0.75*float64(len(vs)))) - 1
	return vs[max(i, 0)]
}

// adminVitals is the Performance Monitor's data: the 75th percentile of
// each metric over the last 28 days, site-wide and per page kind.
func (s *Server) adminVitals(c echo.Context) error {
	now := time.Now()
	samples, err := s.store.VitalSamples(c.Request().Context(), analytics.Day(now.AddDate(0, 0, -27)), analytics.Day(now))
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Performance data could not be loaded.", Err: err}
	}
	site := map[string][]float64{}
	kinds := map[[2]string][]float64{}
	for _, v := range samples {
		site[v.Metric] = append(site[v.Metric], v.Value)
		kinds[[2]string{v.PageKind, v.Metric}] = append(kinds[[2]string{v.PageKind, v.Metric}], v.Value)
	}
	var overall, byKind []VitalRow
	for _, m := range vitalOrder {
		if vs := site[m]; len(vs) > 0 {
			p := p75(vs)
			overall = append(overall, VitalRow{Metric: m, P75: p, Status: vitalStatus(m, p), Samples: len(vs)})
		}
	}
	for k, vs := range kinds {
		p := p75(vs)
		byKind = append(byKind, VitalRow{PageKind: k[0], Metric: k[1], P75: p, Status: vitalStatus(k[1], p), Samples: len(vs)})
	}
	sort.Slice(byKind, func(i, j int) bool {
		if byKind[i].PageKind != byKind[j].PageKind {
			return byKind[i].PageKind < byKind[j].PageKind
		}
		return indexOf(vitalOrder, byKind[i].Metric) < indexOf(vitalOrder, byKind[j].Metric)
	})
	return c.JSON(http.StatusOK, map[string]any{"overall": overall, "byKind": byKind, "samples": len(samples), "days": 28})
}

func indexOf(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return len(list)
}
