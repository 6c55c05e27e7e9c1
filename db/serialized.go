package db

import (
	"context"
	"fmt"
	"sync"

	"github.com/jmoiron/sqlx"
)

// DB is the sqlx handle, for the store packages that live outside package
// db (db/contentdb) and write their own SQL: Rebind, GetContext,
// SelectContext, ExecContext. Transactions still go through Transact or
// Serialized.
func (s *Store) DB() *sqlx.DB { return s.db }

// Serialized runs fn in a transaction that no other Serialized call with
// the same name overlaps, so a check made inside fn (read, decide, write)
// still holds when it commits. On PostgreSQL the transaction first takes
// a transaction advisory lock on the name, which serialises every instance
// sharing the database. On SQLite (one process) a per-name mutex is held
// around the whole transaction, commit included, and the transaction takes
// SQLite's write lock at once: a transaction that reads and then writes
// would otherwise fail with SQLITE_BUSY_SNAPSHOT whenever any other
// connection committed a write in between, whatever the table.
func (s *Store) Serialized(ctx context.Context, name string, fn func(*sqlx.Tx) error) error {
	if s.dialect != "postgres" {
		mu := s.serialLock(name)
		mu.Lock()
		defer mu.Unlock()
	}
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		if s.dialect == "postgres" {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(`+pgLockKey+`)`, name); err != nil {
				return fmt.Errorf("lock %s: %w", name, err)
			}
		} else {
			// A write statement takes the write lock even when it
			// matches no row; schema_migrations always exists.
			if _, err := tx.ExecContext(ctx, `UPDATE schema_migrations SET version = version WHERE 1 = 0`); err != nil {
				return fmt.Errorf("lock %s: %w", name, err)
			}
		}
		return fn(tx)
	})
}

func (s *Store) serialLock(name string) *sync.Mutex {
	s.serialMu.Lock()
	defer s.serialMu.Unlock()
	if s.serial == nil {
		s.serial = map[string]*sync.Mutex{}
	}
	mu, ok := s.serial[name]
	if !ok {
		mu = &sync.Mutex{}
		s.serial[name] = mu
	}
	return mu
}
