package server

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// /healthz: the load balancer's readiness check, and the details a
// monitor reads (database, spool, outbox, render cache, content version).

// healthz answers /healthz (docs/operations.md).
func (s *Server) healthz(c echo.Context) error {
	warm := s.Cache().LastWarm() > 0
	ready := warm && !s.draining.Load()
	c.Response().Header().Set("Cache-Control", "no-store")
	if !s.healthDetailsAllowed(c) {
		// The public answer says up or down, nothing an attacker could
		// time a flood by. Down is "not ready" (warming up, draining):
		// with the database down the site still serves every cached page
		// and spools every lead, so the instance stays in the pool.
		if c.QueryParam("ready") == "1" && !ready {
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "down"})
		}
		return c.JSON(http.StatusOK, map[string]string{"status": "up"})
	}
	status, code := "ok", http.StatusOK
	dbStatus := "ok"
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		dbStatus, status, code = "unavailable", "degraded", http.StatusServiceUnavailable
	}
	out := map[string]any{
		"status": status, "db": dbStatus, "ready": ready, "draining": s.draining.Load(),
		"cache": map[string]any{"pages": s.Cache().Len(), "version": s.Cache().Version(), "lastWarmMs": s.Cache().LastWarm().Milliseconds(), "warm": warm},
	}
	s.leadHealth(c.Request().Context(), out, dbStatus == "ok")
	if dbStatus == "ok" {
		// The backup alarm: a monitor sees it here too.
		b := s.backupStatus(ctx)
		out["backup"] = b
		if a, _ := b["alarm"].(string); a != "" {
			out["status"] = "degraded"
		}
	}
	out["content"] = map[string]any{"version": s.sync.Version(), "shared": s.sync.Shared(), "listening": s.sync.Listening()}
	// ?ready=1 is the load balancer's readiness check: 503 until the
	// first warm-up is done, and from the moment a shutdown begins.
	if c.QueryParam("ready") == "1" && !ready {
		code = http.StatusServiceUnavailable
	}
	return c.JSON(code, out)
}

// healthDetailsAllowed reports whether /healthz may show its details:
// to a monitor with HEALTH_TOKEN as a bearer token, or to a request from
// this machine that no proxy forwarded (a proxy on the same host makes
// every visitor's connection come from loopback, so a forwarding header
// rules it out).
func (s *Server) healthDetailsAllowed(c echo.Context) bool {
	if t := s.cfg.HealthToken; t != "" {
		if got := bearer(c); got != "" {
			return subtle.ConstantTimeCompare([]byte(got), []byte(t)) == 1
		}
	}
	return fromThisMachine(c.Request())
}

// leadHealth adds the spool's backlog and the outbox's counts to /healthz.
// A backlog is reported, not a failure: the leads are safe on disk.
func (s *Server) leadHealth(ctx context.Context, out map[string]any, dbUp bool) {
	out["spool"] = map[string]any{"backlog": s.leads.Backlog(), "refused": s.leads.Refused()}
	if s.leads.Refused() > 0 {
		out["status"] = "degraded"
	}
	if !dbUp {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if st, err := s.store.OutboxCounts(ctx); err == nil {
		out["outbox"] = map[string]any{"pending": st.Pending, "failed": st.Failed}
	}
}

// bearer returns the request's bearer token, or "".
func bearer(c echo.Context) string {
	token, ok := strings.CutPrefix(c.Request().Header.Get("Authorization"), "Bearer ")
	if !ok {
		return ""
	}
	return strings.TrimSpace(token)
}
