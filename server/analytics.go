package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
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
	"github.com/atlanta-restoration/site/site"
)

// First-party analytics and real-user Core Web Vitals (issue 10, ADR
// 015): POST /api/collect takes the beacon's events, the admin reads
// /api/admin/analytics and /api/admin/vitals. The rules are in package
// analytics; these handlers are thin.

// analyticsSet is the collector, its per-client limits (per minute and
// per day), the intake that checks every beacon and the places of the
// Geography table.
type analyticsSet struct {
	c       *analytics.Collector
	limit   *guard.Limiter
	budget  *analytics.Budget
	intake  *analytics.Intake
	places  *analytics.Places
	runOnce sync.Once
	stop    context.CancelFunc
	done    chan struct{}
}

// CollectMaxBody bounds a beacon (bytes), CollectPerIP the events one
// client (an IPv4 address or an IPv6 /64) may send per minute; the
// per-day limits are analytics.Budget's.
const (
	CollectMaxBody = 2048
	CollectPerIP   = 300
	jobAnalytics   = "analytics-rollup"
)

func (s *Server) newAnalytics() *analyticsSet {
	if s.store == nil {
		return nil
	}
	places := s.places()
	budget := analytics.NewBudget()
	budget.OnFull = func(network string, private bool) {
		if private {
			// Every visitor behind a proxy shares its address when the
			// server does not read X-Forwarded-For.
			s.log.Warn("analytics: more visitors today from one private or loopback address than are counted from one client; if the site is behind a proxy, set TRUST_PROXY", "network", network, "limit", analytics.MaxVisitorsPerNetwork)
		}
	}
	return &analyticsSet{c: analytics.NewCollector(s.store, s.log), limit: guard.NewLimiter(CollectPerIP, time.Minute), budget: budget,
		intake: &analytics.Intake{Pages: s.site.ServedPages(), Places: places, SiteHost: s.siteURL().Hostname()}, places: places, done: make(chan struct{})}
}

// places are the service area's cities, for the Geography table: a city
// page and its profile page are one place.
func (s *Server) places() *analytics.Places {
	p := analytics.NewPlaces()
	for _, ci := range s.site.Content().Cities {
		label := ci.City
		if co, ok := s.site.Content().County(ci.County); ok {
			label += ", " + co.Name + " County"
		}
		paths := []string{site.CityPath(ci.County, ci.Slug)}
		for _, k := range site.CityProfileKeys() {
			if pr, ok := s.site.Content().CityProfiles[k]; ok && strings.HasPrefix(k, ci.County+"/") && strings.EqualFold(pr.CityName, ci.City) {
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
		days, err := s.store.RollUp(ctx, analytics.Day(now), analytics.Day(now.AddDate(0, 0, -db.RawDays)), now.UTC())
		if err != nil {
			return "", err
		}
		if len(days) == 0 {
			return "nothing to roll up", nil
		}
		return fmt.Sprintf("rolled up %d day(s): %s", len(days), strings.Join(days, ", ")), nil
	}})
}

// collect records one beacon. Whatever happens it answers 204 with no
// body (a beacon's answer is never read): opted-out visitors (DNT, GPC),
// bots, admin pages, other origins, malformed or over-limit beacons and
// events over a client's daily limits are simply not stored. Every field
// is checked by analytics.Intake (ADR 029).
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
	var b analytics.Beacon
	if json.Unmarshal(body, &b) != nil {
		return nothing()
	}
	now := time.Now()
	e, ok := a.intake.Event(b, now)
	if !ok {
		return nothing()
	}
	ip := c.RealIP()
	network := analytics.Network(ip)
	if _, ok, _ := a.limit.Reserve(network, now); !ok {
		return nothing()
	}
	salt, err := a.c.Salt(req.Context(), e.Day)
	if err != nil {
		s.log.Warn("analytics salt unavailable", "err", err)
		return nothing()
	}
	e.Visitor = analytics.Visitor(salt, ip, req.UserAgent(), e.Day)
	if !a.budget.Admit(network, e) {
		return nothing()
	}
	a.run()
	a.c.Add(e)
	return nothing()
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
	// The page the form was sent from, when it is one the site serves
	// (the Referer is the client's to write).
	path := "/estimate"
	if u, err := url.Parse(req.Referer()); err == nil && u.Host == s.siteURL().Host {
		if p, ok := analytics.BeaconPath(u.Path); ok {
			if _, served := a.intake.Pages[p]; served {
				path = p
			}
		}
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
// (analytics.Report), the goals they are measured against and, since this
// instance started, the events it did not store: dropped by a full queue
// (or lost in an outage at shutdown), refused by the database (each
// alone, the rest of its batch stored) and over a client's daily limits
// (ADR 029).
type analyticsAnswer struct {
	analytics.Report
	Goals   Goals `json:"goals"`
	Dropped int64 `json:"dropped"`
	Refused int64 `json:"refused"`
	Capped  int64 `json:"capped"`
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
	var dropped, refused, capped int64
	if a := s.analytics; a != nil {
		places, dropped, refused, capped = a.places, a.c.Dropped.Load(), a.c.Refused.Load(), a.budget.Capped.Load()
	}
	r, err := analytics.BuildReport(ctx, s.store, places, time.Now(), days)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Analytics could not be loaded.", Err: err}
	}
	return c.JSON(http.StatusOK, analyticsAnswer{Report: r, Goals: s.goals(ctx), Dropped: dropped, Refused: refused, Capped: capped})
}

// Vital thresholds are Google's (good at or below, poor above).
var vitalThresholds = map[string][2]float64{"LCP": {2500, 4000}, "INP": {200, 500}, "CLS": {0.1, 0.25}, "FCP": {1800, 3000}, "TTFB": {800, 1800}}

var vitalOrder = analytics.Metrics

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
	return c.JSON(http.StatusOK, VitalsReport{Overall: overall, ByKind: byKind, Samples: len(samples), Days: 28})
}

func indexOf(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return len(list)
}
