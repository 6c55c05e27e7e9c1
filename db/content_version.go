package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

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
