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
	"os"
	"path/filepath"
	"slices"
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
	// statusTold runs in a status change's own transaction (the
	// homeowner's message, lead_links.go); nil: nothing.
	statusTold func(ctx context.Context, tx *sqlx.Tx, e LeadEvent) error
}

// PostgresPool is how many connections a store opens to PostgreSQL at
// most: ten for the work, and one that the running instance's lock
// (HoldInstance) keeps for as long as it runs. Several instances share
// one server (100 connections by default), and so do the tests: a
// request that finds the pool busy waits for a connection rather than
// being refused by the server ("too many clients").
const PostgresPool = 11

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
		x.SetMaxOpenConns(PostgresPool)
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

// migration is one file of db/migrations and the version it records.
type migration struct {
	name    string
	version int
}

// migrationList orders the migration files by name and reads their
// versions (the number before the first _). Two files with one number
// are refused: a version is applied once, so the second file would
// never run, silently (two branches that each took the next number).
func migrationList(files []string) ([]migration, error) {
	files = slices.Clone(files)
	sort.Strings(files)
	out := make([]migration, 0, len(files))
	by := map[int]string{}
	for _, f := range files {
		num, _, ok := strings.Cut(f, "_")
		version, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("db: migration %s: name must start with a number and _", f)
		}
		if other, dup := by[version]; dup {
			return nil, fmt.Errorf("db: migrations %s and %s share the number %d: renumber the newer one above the highest", other, f, version)
		}
		by[version] = f
		out = append(out, migration{name: f, version: version})
	}
	return out, nil
}

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
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(`+pgLockKey+`)`, "migrations"); err != nil {
			return fmt.Errorf("db: migrations lock: %w", err)
		}
		defer conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock(`+pgLockKey+`)`, "migrations")
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMP NOT NULL)`); err != nil {
		return fmt.Errorf("db: migrations table: %w", err)
	}
	entries, _ := migrations.ReadDir("migrations")
	files := make([]string, len(entries))
	for i, e := range entries {
		files[i] = e.Name()
	}
	list, err := migrationList(files)
	if err != nil {
		return err
	}
	// What is applied, in one query: a boot (and every store test's
	// copy of a migrated database) finds everything applied.
	var applied []int
	if err := s.db.SelectContext(ctx, &applied, `SELECT version FROM schema_migrations`); err != nil {
		return fmt.Errorf("db: migrations applied: %w", err)
	}
	for _, n := range list {
		version := n.version
		if slices.Contains(applied, version) {
			continue
		}
		body, _ := migrations.ReadFile("migrations/" + n.name)
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
			return fmt.Errorf("db: migration %s: %w", n.name, err)
		}
	}
	// Data the SQL migrations cannot bring to form portably (012).
	if err := s.normalizeLeadPhones(ctx); err != nil {
		return fmt.Errorf("db: %w", err)
	}
	if err := s.fillLeadSearch(ctx); err != nil {
		return fmt.Errorf("db: %w", err)
	}
	if err := s.fillLeadSourceKey(ctx); err != nil {
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

// pgLockKey is the SQL of the advisory lock key of the name in $1 within
// the current schema. Instances of one site share a schema, so they
// exclude each other; sites in other schemas of the same database (every
// store test has its own) never wait for each other's locks, which are
// keyed by the whole database otherwise.
const pgLockKey = `hashtextextended(current_schema() || '/' || $1::text, 0)`

// newRowID is a random row id (jobs, submissions, health runs, attempts,
// audit rows, analytics events, the live stream's origin).
func newRowID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}
