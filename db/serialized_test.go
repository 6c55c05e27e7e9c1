package db

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

// Twenty read-modify-write transactions under one name never interleave,
// and a write by anyone else while one is open waits instead of breaking
// it (SQLite's SQLITE_BUSY_SNAPSHOT).
func TestSerialized(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
		if _, err := s.DB().ExecContext(ctx, s.DB().Rebind(`INSERT INTO settings (key, value, updated_at) VALUES ('counter', '0', ?)`), now); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 40)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- s.Serialized(ctx, "counter", func(tx *sqlx.Tx) error {
					var v string
					if err := tx.GetContext(ctx, &v, `SELECT value FROM settings WHERE key = 'counter'`); err != nil {
						return err
					}
					n, _ := strconv.Atoi(v)
					// Someone else writes another table meanwhile.
					wg.Add(1)
					go func() {
						defer wg.Done()
						_, err := s.DB().ExecContext(ctx, s.DB().Rebind(`INSERT INTO rate_attempts (id, scope, key, at) VALUES (?, 'test', 'k', ?)`), fmt.Sprint(i), now)
						errs <- err
					}()
					time.Sleep(5 * time.Millisecond)
					_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE settings SET value = ? WHERE key = 'counter'`), strconv.Itoa(n+1))
					return err
				})
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		var v string
		if err := s.DB().GetContext(ctx, &v, `SELECT value FROM settings WHERE key = 'counter'`); err != nil || v != "20" {
			t.Errorf("counter %q %v, want 20", v, err)
		}
	})
}
