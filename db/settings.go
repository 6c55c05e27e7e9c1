package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
)

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
		// One upsert per key (a DELETE then INSERT raced on PostgreSQL:
		// two instances booting together both found no row, and the
		// second INSERT failed on the primary key), in sorted key order so
		// that two saves lock rows in the same order and cannot deadlock.
		for _, k := range slices.Sorted(maps.Keys(kv)) {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`), k, kv[k], now); err != nil {
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
	// ON CONFLICT, not WHERE NOT EXISTS: under READ COMMITTED two
	// concurrent inserts both pass the NOT EXISTS check.
	res, err := s.db.ExecContext(ctx, s.q(`INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`), key, value, now)
	if err != nil {
		return false, fmt.Errorf("setting %s: %w", key, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
