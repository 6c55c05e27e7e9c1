package server

import (
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/guard"
)

// newAttempts returns the limiter for one kind of attempt: shared through
// the database on PostgreSQL (several instances count together), in
// memory on SQLite (one process). The shared one never fails open: while
// the database cannot be read it counts in this process (guard.Fallback).
func (s *Server) newAttempts(scope string, max int, window time.Duration) guard.Attempts {
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
