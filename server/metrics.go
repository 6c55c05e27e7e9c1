package server

import (
	"context"
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/metrics"
	"github.com/atlanta-restoration/site/notify"
)

// /metrics (ADR 036): Prometheus' text format, for a scraper
// with METRICS_TOKEN as a bearer token or, when no token is set, for a
// request from this machine that no proxy forwarded. What it shows is
// package metrics'; here are its sources, its guard and the route kind
// each request is counted under.

// newMetrics builds the registry over the server's services.
func (s *Server) newMetrics() *metrics.Metrics {
	return metrics.New(metrics.Sources{
		DB: s.store.SQL(),
		Cache: func() (uint64, uint64, int) {
			h, m := s.Cache().Stats()
			return h, m, s.Cache().Len()
		},
		Search: s.pages.SearchStats,
		Spool:  func() (int, int) { return s.leads.Backlog(), s.leads.Refused() },
		ContentVersion: func() int64 {
			return s.sync.Version()
		},
		SignIns: func() (map[string]uint64, map[string]uint64) {
			c := s.auth.Counts()
			return c.Failures, c.Lockouts
		},
		Deliveries:       s.notifier.Deliveries,
		DeliveryOutcomes: notify.DeliveryOutcomes,
		Outbox:           s.store.OutboxByChannel,
		Sessions:         func(ctx context.Context) (int, error) { return s.store.CountLiveSessions(ctx, time.Now().UTC()) },
		Backup:           s.backups.Status,
		Version:          s.build.Version, Commit: s.build.Commit,
	})
}

// serveMetrics answers GET /metrics (its guard is requireMetrics).
func (s *Server) serveMetrics(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	s.metrics.Handler().ServeHTTP(c.Response(), c.Request())
	return nil
}

// requireMetrics is /metrics' guard: with METRICS_TOKEN, that bearer
// token and nothing else (loopback included: a proxy on this machine
// would make every visitor loopback); without one, a request from this
// machine with no forwarding header. Anything else is refused before the
// registry is read.
func (s *Server) requireMetrics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		if t := s.cfg.MetricsToken; t != "" {
			if got := bearer(c); got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(t)) == 1 {
				return next(c)
			}
			c.Response().Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			return &StatusError{Status: http.StatusUnauthorized, Message: "Metrics need the bearer token METRICS_TOKEN."}
		}
		if fromThisMachine(c.Request()) {
			return next(c)
		}
		return &StatusError{Status: http.StatusForbidden, Message: "Metrics are open only to this machine; set METRICS_TOKEN for a scraper elsewhere."}
	}
}

// fromThisMachine reports whether a request came from loopback and no
// proxy forwarded it.
func fromThisMachine(r *http.Request) bool {
	if r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("Forwarded") != "" || r.Header.Get("X-Real-Ip") != "" {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// routeKind is the kind a routed request is counted under: a small fixed
// set read from the route's pattern, never the path itself, so a crawler
// asking for a million addresses adds no series.
func routeKind(c echo.Context) string {
	p := c.Path()
	switch {
	case p == "/*":
		return "page"
	case strings.HasPrefix(p, "/api/admin/"):
		return "admin_api"
	case strings.HasPrefix(p, "/admin/"):
		return "admin_page"
	case p == "/assets/*":
		return "asset"
	case p == "/media/*":
		return "media"
	case p == "/estimate" || p == "/api/estimate":
		return "estimate"
	case p == "/api/collect":
		return "beacon"
	case strings.HasPrefix(p, "/api/"):
		return "api"
	case p == "/healthz":
		return "health"
	case p == "/metrics":
		return "metrics"
	case p == "/sitemap.xml" || p == "/robots.txt":
		return "crawler"
	case p == "":
		return "unrouted"
	}
	return "static"
}

// backupStatus is the backups' state for /healthz, with the alarm.
func (s *Server) backupStatus(ctx context.Context) map[string]any {
	st, err := s.backups.Status(ctx)
	if err != nil {
		return map[string]any{"error": "unavailable"}
	}
	out := map[string]any{"location": st.Location, "alarm": st.Alarm, "ageSeconds": st.AgeSeconds, "lastFailed": st.LastFailed()}
	if st.LastGood != nil {
		out["lastGood"] = map[string]any{"name": st.LastGood.Name, "finishedAt": st.LastGood.FinishedAt, "bytes": st.LastGood.Bytes}
	}
	return out
}
