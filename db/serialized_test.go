package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
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

// A Serialized lock is the schema's: a second store on the same schema
// (another instance) waits for it, and a store on another schema of the
// same PostgreSQL database (another site, or another store test) does
// not. Keyed by the database, every store test in every package waited
// on every other's migrations and settings.
func TestSerializedLockIsTheSchemas(t *testing.T) {
	// Two schemas of one database, as two sites sharing a server.
	a, _, err := newTestPostgresSchema(t)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	other, _, err := newTestPostgresSchema(t)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	held, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- a.Serialized(ctx, "settings", func(*sqlx.Tx) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	// Another schema: not held. A deadline, so that a regression fails
	// here instead of hanging the package.
	c, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := other.Serialized(c, "settings", func(*sqlx.Tx) error { return nil }); err != nil {
		t.Errorf("another schema waited for this one's lock: %v", err)
	}
	// The same schema through a second store (a second instance): it
	// waits for a's transaction, so its deadline passes first.
	b, err := FromDB(ctx, sqlx.NewDb(a.SQL(), "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	short, stop := context.WithTimeout(ctx, time.Second)
	defer stop()
	if err := b.Serialized(short, "settings", func(*sqlx.Tx) error { return nil }); !errors.Is(err, context.DeadlineExceeded) && (err == nil || !strings.Contains(err.Error(), "canceling statement")) {
		t.Errorf("a second instance did not wait for the lock: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
