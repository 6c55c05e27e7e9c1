package server

import (
	"time"

	"github.com/atlanta-restoration/site/guard"
)

// The application's limits and the services that enforce them across
// instances.

// HashConcurrency is how many PIN or password hash comparisons run at
// once, server-wide: one, so a burst of guesses uses at most one core and
// the other keeps serving pages. HashWait is how long a sign-in waits for
// its turn before it gets 503.
const (
	HashConcurrency = 1
	HashWait        = 10 * time.Second
)

// Estimate requests stored per client IP per window, and posts of the
// form (valid or not) per client IP per window. Only stored leads count
// toward the first: a visitor who fumbles the form, or an office behind
// one address, is not told to wait. The second is the flood guard: a
// person never sends 30 forms in 10 minutes, and past it every post gets
// the small fixed 429 page instead of a render.
const (
	EstimatesPerWindow     = 5
	EstimatePostsPerWindow = 30
	EstimateWindow         = 10 * time.Minute
	// FeedbackPostsPerWindow bounds the feedback page's posts per client
	// per EstimateWindow (ADR 063).
	FeedbackPostsPerWindow = 20
	// PortalLookupsPerWindow bounds the requests for the job pages
	// (/my/{token}, /claim/{token}) per client per EstimateWindow: a
	// homeowner reloading now and then is far below it, and a guesser gets
	// 120 tries in ten minutes at 2^128 tokens (ADR 065).
	PortalLookupsPerWindow = 120
	// LeadFileLookupsPerWindow bounds the private pages' file downloads
	// per client per EstimateWindow: a job's page shows a few dozen
	// photos, a guesser needs far more (ADR 067). LeadFilePostsPerWindow
	// bounds the homeowner's photo and message posts.
	LeadFileLookupsPerWindow = 600
	LeadFilePostsPerWindow   = 20
	// BookingLookupsPerWindow bounds a client's requests to the booking
	// pages (each looks a link's token up) per EstimateWindow (ADR 066):
	// a homeowner books, moves and cancels in a few dozen; a guesser of
	// tokens gets nowhere at this rate.
	BookingLookupsPerWindow = 120
)

// newAttempts returns the limiter of a secret check (PIN, password,
// code): shared through the database on PostgreSQL (several instances
// count together), in memory on SQLite (one process). While the shared
// count cannot be read the check fails closed (503): no guess is checked
// uncounted, and the bound across instances stays exact.
func (s *Server) newAttempts(scope string, max int, window time.Duration) guard.Attempts {
	if s.store.Dialect() == "postgres" {
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
	if s.store.Dialect() == "postgres" {
		return guard.NewFallback(s.store, scope, max, window, func(scope string, err error) {
			s.log.Warn("rate limit counted in this process: the database cannot be read", "limit", scope, "err", err)
		})
	}
	return guard.NewLimiter(max, window)
}
