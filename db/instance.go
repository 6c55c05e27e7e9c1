package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// A running instance holds its database, so that `site restore` cannot
// replace the data under it. On PostgreSQL each instance holds
// a shared advisory lock on a connection of its own for as long as it
// runs, and a restore needs the same lock exclusively; on SQLite the
// same is a shared and an exclusive flock on DATA_DIR/site.db.lock.
// Locks die with their process, so a crashed instance never blocks a
// restore.

// ErrInUse is returned when a running instance holds the database.
var ErrInUse = errors.New("a running instance of the site holds this database: stop every instance before a restore")

// ErrRestoring is returned to an instance that starts while a restore
// holds the database.
var ErrRestoring = errors.New("a restore is replacing this database: start the site when it has finished")

// instanceLockClass is the first key of the instance lock; the second is
// a hash of the schema, so sites in different schemas of one database
// (and the store tests) do not hold each other.
const instanceLockClass = 240024

// InstanceLockFile is the SQLite install's lock file.
func InstanceLockFile(dataDir string) string { return filepath.Join(dataDir, "site.db.lock") }

// HoldInstance marks the database as used by this running instance until
// release is called (or the process ends). dataDir is DATA_DIR (SQLite's
// lock file lives there).
func (s *Store) HoldInstance(ctx context.Context, dataDir string) (release func(), err error) {
	if s.dialect != "postgres" {
		return flockFile(InstanceLockFile(dataDir), false)
	}
	return advisoryLock(ctx, s.db.DB, false)
}

// Exclusive takes the database for a restore: ErrInUse when a running
// instance holds it. databaseURL is DATABASE_URL ("" for SQLite in
// dataDir). release gives it back.
func Exclusive(ctx context.Context, databaseURL, dataDir string) (release func(), err error) {
	if databaseURL == "" {
		return flockFile(InstanceLockFile(dataDir), true)
	}
	x, err := sql.Open("postgres", databaseURL)
	if err != nil {
		return nil, fmt.Errorf("db: connect postgres: %w", err)
	}
	rel, err := advisoryLock(ctx, x, true)
	if err != nil {
		x.Close()
		return nil, err
	}
	return func() { rel(); x.Close() }, nil
}

// advisoryLock takes the instance lock, shared or exclusive, without
// waiting, on a connection kept for it.
func advisoryLock(ctx context.Context, x *sql.DB, exclusive bool) (func(), error) {
	conn, err := x.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("db: instance lock: %w", err)
	}
	take, give := `SELECT pg_try_advisory_lock_shared($1, hashtext(current_schema()))`, `SELECT pg_advisory_unlock_shared($1, hashtext(current_schema()))`
	if exclusive {
		take, give = `SELECT pg_try_advisory_lock($1, hashtext(current_schema()))`, `SELECT pg_advisory_unlock($1, hashtext(current_schema()))`
	}
	var ok bool
	if err := conn.QueryRowContext(ctx, take, instanceLockClass).Scan(&ok); err != nil {
		conn.Close()
		return nil, fmt.Errorf("db: instance lock: %w", err)
	}
	if !ok {
		conn.Close()
		if exclusive {
			return nil, ErrInUse
		}
		return nil, ErrRestoring
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn.ExecContext(ctx, give, instanceLockClass)
		conn.Close()
	}, nil
}
