// Package db is the store: plain SQL through jmoiron/sqlx, on SQLite (a
// pure-Go driver, the embedded default) or PostgreSQL (lib/pq) when
// DATABASE_URL is set. Numbered migrations are embedded and applied at open.
package db

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"
	"modernc.org/sqlite"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrNotFound is returned when a record does not exist.
var ErrNotFound = errors.New("not found")

// Store wraps the database handle. Every method takes a context.
type Store struct {
	db      *sqlx.DB
	dialect string // "sqlite" or "postgres"
	// serial holds Serialized's per-name mutexes (SQLite only).
	serialMu sync.Mutex
	serial   map[string]*sync.Mutex
	// live are the lead change hooks (lead_changes.go).
	live leadHooks
}

// Open connects to databaseURL, or to SQLite in dataDir when it is empty,
// and applies pending migrations.
func Open(ctx context.Context, databaseURL, dataDir string) (*Store, error) {
	var (
		x   *sqlx.DB
		err error
	)
	if databaseURL != "" {
		x, err = sqlx.ConnectContext(ctx, "postgres", databaseURL)
		if err != nil {
			return nil, fmt.Errorf("db: connect postgres: %w", err)
		}
		// Ten for the work, and one that the running instance's lock
		// (HoldInstance) keeps for as long as it runs.
		x.SetMaxOpenConns(11)
	} else {
		if err := os.MkdirAll(dataDir, 0o755); err != nil {
			return nil, fmt.Errorf("db: data dir: %w", err)
		}
		x, err = OpenSQLite(ctx, filepath.Join(dataDir, "site.db"))
		if err != nil {
			return nil, err
		}
	}
	s := &Store{db: x, dialect: x.DriverName()}
	if err := s.migrate(ctx); err != nil {
		x.Close()
		return nil, err
	}
	return s, nil
}

// OpenSQLite opens a SQLite file with WAL and a busy timeout, so readers
// never block the single writer.
func OpenSQLite(ctx context.Context, file string) (*sqlx.DB, error) {
	dsn := "file:" + file + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_time_format=sqlite"
	// Writers take the file's write turn in arrival order (sqlitegate.go).
	x := sqlx.NewDb(sql.OpenDB(&turnConnector{dsn: dsn, turn: turnFor(file), drv: &sqlite.Driver{}}), "sqlite")
	if err := x.PingContext(ctx); err != nil {
		x.Close()
		return nil, fmt.Errorf("db: open sqlite %s: %w", file, err)
	}
	x.SetMaxOpenConns(4)
	return x, nil
}

// FromDB wraps an open handle and migrates it (tests).
func FromDB(ctx context.Context, x *sqlx.DB) (*Store, error) {
	s := &Store{db: x, dialect: x.DriverName()}
	return s, s.migrate(ctx)
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Dialect is "sqlite" or "postgres".
func (s *Store) Dialect() string { return s.dialect }

// Ping checks the connection (health checks).
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

func (s *Store) migrate(ctx context.Context) error {
	// Instances that boot together must not race through the migrations:
	// on PostgreSQL one holds a session advisory lock while it migrates
	// and the others wait, then find nothing left to do.
	if s.dialect == "postgres" {
		conn, err := s.db.Connx(ctx)
		if err != nil {
			return fmt.Errorf("db: migrations lock: %w", err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, lockKey("migrations")); err != nil {
			return fmt.Errorf("db: migrations lock: %w", err)
		}
		defer conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, lockKey("migrations"))
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMP NOT NULL)`); err != nil {
		return fmt.Errorf("db: migrations table: %w", err)
	}
	names, _ := migrations.ReadDir("migrations")
	sort.Slice(names, func(i, j int) bool { return names[i].Name() < names[j].Name() })
	for _, n := range names {
		num, _, ok := strings.Cut(n.Name(), "_")
		version, err := strconv.Atoi(num)
		if !ok || err != nil {
			return fmt.Errorf("db: migration %s: name must start with a number and _", n.Name())
		}
		var done int
		if err := s.db.GetContext(ctx, &done, s.db.Rebind(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), version); err != nil {
			return fmt.Errorf("db: migration %d: %w", version, err)
		}
		if done > 0 {
			continue
		}
		body, _ := migrations.ReadFile("migrations/" + n.Name())
		err = s.Transact(ctx, func(tx *sqlx.Tx) error {
			for _, stmt := range splitSQL(string(body)) {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("%w\n%s", err, stmt)
				}
			}
			_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`), version, time.Now().UTC())
			return err
		})
		if err != nil {
			return fmt.Errorf("db: migration %s: %w", n.Name(), err)
		}
	}
	// Data the SQL migrations cannot bring to form portably (012).
	if err := s.normalizeLeadPhones(ctx); err != nil {
		return fmt.Errorf("db: %w", err)
	}
	return nil
}

// splitSQL splits a migration into statements on semicolons at line ends,
// dropping comment lines.
func splitSQL(s string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "--") {
			continue
		}
		cur.WriteString(line)
		cur.WriteString("\n")
		if strings.HasSuffix(t, ";") {
			out = append(out, strings.TrimSuffix(strings.TrimSpace(cur.String()), ";"))
			cur.Reset()
		}
	}
	if strings.TrimSpace(cur.String()) != "" {
		out = append(out, cur.String())
	}
	return out
}

// Transact runs fn in a transaction, rolling back on error or panic.
func (s *Store) Transact(ctx context.Context, fn func(*sqlx.Tx) error) (err error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			tx.Rollback()
			panic(p)
		}
		if err != nil {
			tx.Rollback()
			return
		}
		err = tx.Commit()
	}()
	return fn(tx)
}

func (s *Store) q(query string) string { return s.db.Rebind(query) }

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// lockKey maps a name to a PostgreSQL advisory lock key.
func lockKey(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int64(h.Sum64())
}

// newRowID is a random row id (jobs, submissions, health runs, attempts,
// audit rows, analytics events, the live stream's origin).
func newRowID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}
