package db

import (
	"context"
	"fmt"
	"time"
)

// The retention job's deletes (package retention): each
// removes exactly the rows past their time and says how many. The raw
// analytics events are deleted by RollUp (after their day is rolled up)
// and the 404 log by contentdb.PruneNotFound.

// PruneAudit deletes audit log entries from before before.
func (s *Store) PruneAudit(ctx context.Context, before time.Time) (int64, error) {
	return s.deleted(ctx, "prune audit log", `DELETE FROM audit_log WHERE at < ?`, before)
}

// PruneAnalyticsDaily deletes the daily analytics totals of the days
// before beforeDay (YYYY-MM-DD), and the record that those days were
// rolled up (their raw events are long gone).
func (s *Store) PruneAnalyticsDaily(ctx context.Context, beforeDay string) (int64, error) {
	n, err := s.deleted(ctx, "prune analytics totals", `DELETE FROM analytics_daily WHERE day < ?`, beforeDay)
	if err != nil {
		return n, err
	}
	if _, err := s.deleted(ctx, "prune vitals totals", `DELETE FROM analytics_vitals_daily WHERE day < ?`, beforeDay); err != nil {
		return n, err
	}
	_, err = s.deleted(ctx, "prune analytics roll-ups", `DELETE FROM analytics_rollups WHERE day < ? AND day NOT IN (SELECT DISTINCT day FROM analytics_events)`, beforeDay)
	return n, err
}

// PruneEndedSessions deletes the sessions that have ended (expired, or
// past their hard expiry) by now. Revoked sessions are deleted when they
// are revoked.
func (s *Store) PruneEndedSessions(ctx context.Context, now time.Time) (int64, error) {
	return s.deleted(ctx, "prune sessions", `DELETE FROM admin_sessions WHERE expires_at <= ? OR hard_expires_at <= ?`, now, now)
}

func (s *Store) deleted(ctx context.Context, what, query string, args ...any) (int64, error) {
	res, err := s.db.ExecContext(ctx, s.q(query), args...)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}
