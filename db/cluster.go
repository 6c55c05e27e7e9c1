package db

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
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
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey("attempt:"+scope+":"+key)); err != nil {
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
		id = clusterRandomID()
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

// ContentVersion returns the shared content version (0 before any change).
func (s *Store) ContentVersion(ctx context.Context) (int64, error) {
	var v int64
	err := s.db.GetContext(ctx, &v, `SELECT version FROM content_version WHERE id = 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("content version: %w", err)
	}
	return v, nil
}

// ContentChannel is the PostgreSQL NOTIFY channel of content changes.
const ContentChannel = "content_changed"

// BumpContentVersion records a content change and returns the new
// version. On PostgreSQL it also sends NOTIFY on ContentChannel with the
// version, in the same transaction, so listeners hear of it once it is
// committed.
func (s *Store) BumpContentVersion(ctx context.Context, reason string, now time.Time) (int64, error) {
	var v int64
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if s.dialect == "postgres" {
			if err := tx.GetContext(ctx, &v, `INSERT INTO content_version (id, version, changed_at, reason) VALUES (1, 1, $1, $2)
				ON CONFLICT (id) DO UPDATE SET version = content_version.version + 1, changed_at = EXCLUDED.changed_at, reason = EXCLUDED.reason
				RETURNING version`, now, reason); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, ContentChannel, fmt.Sprint(v))
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO content_version (id, version, changed_at, reason) VALUES (1, 1, ?, ?)
			ON CONFLICT (id) DO UPDATE SET version = content_version.version + 1, changed_at = excluded.changed_at, reason = excluded.reason`, now, reason); err != nil {
			return err
		}
		return tx.GetContext(ctx, &v, `SELECT version FROM content_version WHERE id = 1`)
	})
	if err != nil {
		return 0, fmt.Errorf("bump content version: %w", err)
	}
	return v, nil
}

// lockKey maps a name to a PostgreSQL advisory lock key.
func lockKey(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int64(h.Sum64())
}

func clusterRandomID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
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
