package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// ReserveAttempt takes one attempt for (scope, key) when fewer than max
// were taken within window before now, atomically across every instance
// sharing this database: the count and the insert run under a transaction
// advisory lock on the key (PostgreSQL). It returns the attempt's id (for
// CancelAttempt), or ok=false with the time until the oldest attempt
// leaves the window.
func (s *Store) ReserveAttempt(ctx context.Context, scope, key string, now time.Time, window time.Duration, max int) (id string, ok bool, retry time.Duration, err error) {
	err = s.Transact(ctx, func(tx *sqlx.Tx) error {
		if s.dialect == "postgres" {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(`+pgLockKey+`)`, "attempt:"+scope+":"+key); err != nil {
				return err
			}
		}
		var times []time.Time
		if err := tx.SelectContext(ctx, &times, tx.Rebind(`SELECT at FROM rate_attempts WHERE scope = ? AND key = ? AND at > ? ORDER BY at`), scope, key, now.Add(-window)); err != nil {
			return err
		}
		if len(times) >= max {
			retry = times[0].Add(window).Sub(now)
			return nil
		}
		id = newRowID()
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO rate_attempts (id, scope, key, at) VALUES (?, ?, ?, ?)`), id, scope, key, now); err != nil {
			return err
		}
		ok = true
		return nil
	})
	if err != nil {
		return "", false, 0, fmt.Errorf("reserve attempt %s: %w", scope, err)
	}
	return id, ok, retry, nil
}

// CancelAttempt gives an attempt back (the check it was for succeeded).
func (s *Store) CancelAttempt(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, s.q(`DELETE FROM rate_attempts WHERE id = ?`), id)
	return err
}

// DeleteOldAttempts removes attempts older than before (housekeeping).
func (s *Store) DeleteOldAttempts(ctx context.Context, before time.Time) error {
	_, err := s.db.ExecContext(ctx, s.q(`DELETE FROM rate_attempts WHERE at < ?`), before)
	return err
}

// AttemptTimes lists when (scope, key)'s attempts after since were
// taken, oldest first.
func (s *Store) AttemptTimes(ctx context.Context, scope, key string, since time.Time) ([]time.Time, error) {
	var times []time.Time
	if err := s.db.SelectContext(ctx, &times, s.q(`SELECT at FROM rate_attempts WHERE scope = ? AND key = ? AND at > ? ORDER BY at`), scope, key, since); err != nil {
		return nil, fmt.Errorf("attempts %s: %w", scope, err)
	}
	return times, nil
}
