package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// CreateSession stores an admin session by token hash.
func (s *Store) CreateSession(ctx context.Context, tokenHash string, now, expires time.Time) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO admin_sessions (token_hash, created_at, expires_at) VALUES (?, ?, ?)`), tokenHash, now, expires)
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// SessionValid reports whether a session exists and has not expired.
func (s *Store) SessionValid(ctx context.Context, tokenHash string, now time.Time) (bool, error) {
	var n int
	err := s.db.GetContext(ctx, &n, s.q(`SELECT COUNT(*) FROM admin_sessions WHERE token_hash = ? AND expires_at > ?`), tokenHash, now)
	if err != nil {
		return false, fmt.Errorf("session: %w", err)
	}
	return n > 0, nil
}

// DeleteExpiredSessions removes sessions past their expiry.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) error {
	_, err := s.db.ExecContext(ctx, s.q(`DELETE FROM admin_sessions WHERE expires_at <= ?`), now)
	return err
}

// GetSetting returns a setting's value, or ErrNotFound.
func (s *Store) GetSetting(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.GetContext(ctx, &v, s.q(`SELECT value FROM settings WHERE key = ?`), key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("setting %s: %w", key, err)
	}
	return v, nil
}

// Settings returns every setting.
func (s *Store) Settings(ctx context.Context) (map[string]string, error) {
	rows := []struct {
		Key   string `db:"key"`
		Value string `db:"value"`
	}{}
	if err := s.db.SelectContext(ctx, &rows, `SELECT key, value FROM settings`); err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	m := map[string]string{}
	for _, r := range rows {
		m[r.Key] = r.Value
	}
	return m, nil
}

// SetSettings writes several settings in one transaction.
func (s *Store) SetSettings(ctx context.Context, kv map[string]string, now time.Time) error {
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		for k, v := range kv {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM settings WHERE key = ?`), k); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)`), k, v, now); err != nil {
				return fmt.Errorf("setting %s: %w", k, err)
			}
		}
		return nil
	})
}

// SetSettingIfAbsent stores a setting only when none exists and reports
// whether it did (first boot generates the admin PIN exactly once, even
// with several instances starting together).
func (s *Store) SetSettingIfAbsent(ctx context.Context, key, value string, now time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, s.q(`INSERT INTO settings (key, value, updated_at) SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM settings WHERE key = ?)`), key, value, now, key)
	if err != nil {
		return false, fmt.Errorf("setting %s: %w", key, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
