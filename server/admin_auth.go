package server

import (
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/guard"
)

// newAttempts returns the limiter of a secret check (PIN, password,
// code): shared through the database on PostgreSQL (several instances
// count together), in memory on SQLite (one process). While the shared
// count cannot be read the check fails closed (503): no guess is checked
// uncounted, and the bound across instances stays exact.
func (s *Server) newAttempts(scope string, max int, window time.Duration) guard.Attempts {
	if s.store != nil && s.store.Dialect() == "postgres" {
		return &guard.SharedLimiter{Store: s.store, Scope: scope, Max: max, Window: window}
	}
	return guard.NewLimiter(max, window)
}

// newLeadAttempts returns the estimate form's limiter: shared like
// newAttempts, but while the database cannot be read it counts in this
// process (guard.Fallback) instead of refusing, since refusing would
// turn away the leads the spool is there to keep. It never fails open:
// during an outage the bound is the limit per instance.
func (s *Server) newLeadAttempts(scope string, max int, window time.Duration) guard.Attempts {
	if s.store != nil && s.store.Dialect() == "postgres" {
		return guard.NewFallback(s.store, scope, max, window, func(scope string, err error) {
			s.log.Warn("rate limit counted in this process: the database cannot be read", "limit", scope, "err", err)
		})
	}
	return guard.NewLimiter(max, window)
}

// bearer returns the request's bearer token, or "".
func bearer(c echo.Context) string {
	token, ok := strings.CutPrefix(c.Request().Header.Get("Authorization"), "Bearer ")
	if !ok {
		return ""
	}
	return strings.TrimSpace(token)
}
