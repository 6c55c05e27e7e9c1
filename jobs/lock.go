package jobs

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"
)

// Locker gives a job exclusive use across instances. TryLock does not
// wait: ok is false when another holder has the lock. release must be
// called once when the run ends.
type Locker interface {
	TryLock(ctx context.Context, name string) (release func(), ok bool, err error)
}

// NoLocker always grants the lock: with SQLite one process is assumed.
type NoLocker struct{}

// TryLock grants the lock.
func (NoLocker) TryLock(context.Context, string) (func(), bool, error) { return func() {}, true, nil }

// PostgresLocker takes PostgreSQL session advisory locks. A session lock
// belongs to the connection that took it, so each lock holds a dedicated
// connection from the pool until release, which unlocks on that same
// connection. If the process dies the connection closes and PostgreSQL
// frees the lock.
type PostgresLocker struct {
	DB *sql.DB
}

// lockKey is the SQL of a job's advisory lock key: a hash of its name in
// the "job:" namespace of the current schema, so sites in other schemas
// of one database (and the store tests, each in its own) never skip a
// run because another holds the name.
const lockKey = `hashtextextended(current_schema() || '/job:' || $1::text, 0)`

// TryLock takes pg_try_advisory_lock on a dedicated connection.
func (l PostgresLocker) TryLock(ctx context.Context, name string) (func(), bool, error) {
	conn, err := l.DB.Conn(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("advisory lock %s: %w", name, err)
	}
	var ok bool
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(`+lockKey+`)`, name).Scan(&ok); err != nil {
		conn.Close()
		return nil, false, fmt.Errorf("advisory lock %s: %w", name, err)
	}
	if !ok {
		conn.Close()
		return nil, false, nil
	}
	release := func() {
		// The run's context may be done; unlocking must still happen.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var released bool
		if err := conn.QueryRowContext(ctx, `SELECT pg_advisory_unlock(`+lockKey+`)`, name).Scan(&released); err != nil || !released {
			// Closing would not free a lock held by a pooled connection
			// that lives on; discard the connection instead.
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}
	return release, true, nil
}
