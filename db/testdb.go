package db

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

// DefaultTestPostgres is the PostgreSQL that store tests use when
// TEST_DATABASE_URL is unset.
const DefaultTestPostgres = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// ForEachDB runs fn as a subtest on a fresh SQLite store and, when a
// PostgreSQL server is reachable, on a fresh PostgreSQL schema. In CI
// (CI=true) an unreachable PostgreSQL fails the test instead of skipping it.
func ForEachDB(t *testing.T, fn func(t *testing.T, s *Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, NewTestSQLite(t)) })
	t.Run("postgres", func(t *testing.T) {
		s, err := NewTestPostgres(t)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("PostgreSQL is required in CI: %v", err)
			}
			t.Skipf("PostgreSQL not reachable: %v", err)
		}
		fn(t, s)
	})
}

// ForEachDBPair is ForEachDB with two stores on one database, as two
// instances of the server share one: two handles on one SQLite file, and
// two connection pools on one PostgreSQL schema. Races between instances
// are tested with it.
func ForEachDBPair(t *testing.T, fn func(t *testing.T, a, b *Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "test.db")
		fn(t, openTestSQLite(t, file), openTestSQLite(t, file))
	})
	t.Run("postgres", func(t *testing.T) {
		a, dsn, err := newTestPostgres(t)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("PostgreSQL is required in CI: %v", err)
			}
			t.Skipf("PostgreSQL not reachable: %v", err)
		}
		x, err := sqlx.ConnectContext(context.Background(), "postgres", dsn)
		if err != nil {
			t.Fatal(err)
		}
		x.SetMaxOpenConns(PostgresPool)
		b, err := FromDB(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		// Registered after a's cleanup, so it runs first: b's pool is
		// closed before a's drops the schema.
		t.Cleanup(func() { x.Close() })
		fn(t, a, b)
	})
}

// NewTestSQLite opens a migrated SQLite store in a temp folder.
func NewTestSQLite(t testing.TB) *Store {
	t.Helper()
	return openTestSQLite(t, filepath.Join(t.TempDir(), "test.db"))
}

func openTestSQLite(t testing.TB, file string) *Store {
	t.Helper()
	ctx := context.Background()
	if _, err := os.Stat(file); os.IsNotExist(err) {
		b, err := migratedSQLite()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	x, err := OpenSQLite(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromDB(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// sqliteTemplate is a migrated SQLite database, made once per test binary:
// a fresh store starts as a copy of it. Migrating takes about a second
// under the race detector and a few milliseconds to copy, and the store
// tests open hundreds. FromDB still runs the migrations on the copy, and
// finds nothing to do.
var sqliteTemplate struct {
	once  sync.Once
	bytes []byte
	err   error
}

func migratedSQLite() ([]byte, error) {
	sqliteTemplate.once.Do(func() {
		dir, err := os.MkdirTemp("", "site-sqlite-template-")
		if err != nil {
			sqliteTemplate.err = err
			return
		}
		defer os.RemoveAll(dir)
		ctx := context.Background()
		file := filepath.Join(dir, "template.db")
		x, err := OpenSQLite(ctx, file)
		if err != nil {
			sqliteTemplate.err = err
			return
		}
		if _, err := FromDB(ctx, x); err != nil {
			x.Close()
			sqliteTemplate.err = err
			return
		}
		// Everything into the main file, so the copy needs no WAL.
		if _, err := x.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			x.Close()
			sqliteTemplate.err = err
			return
		}
		x.Close()
		sqliteTemplate.bytes, sqliteTemplate.err = os.ReadFile(file)
	})
	return sqliteTemplate.bytes, sqliteTemplate.err
}

// NewTestPostgres creates a private schema on the test server, migrates it
// and drops it when the test ends.
func NewTestPostgres(t testing.TB) (*Store, error) {
	t.Helper()
	s, _, err := newTestPostgres(t)
	return s, err
}

// newTestPostgres is NewTestPostgres, and the address of its schema.
func newTestPostgres(t testing.TB) (*Store, string, error) {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		base = DefaultTestPostgres
	}
	if c, err := net.DialTimeout("tcp", hostOf(base), time.Second); err != nil {
		return nil, "", err
	} else {
		c.Close()
	}
	ctx := context.Background()
	admin, err := sqlx.ConnectContext(ctx, "postgres", base)
	if err != nil {
		return nil, "", err
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	if _, err := admin.ExecContext(ctx, `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		return nil, "", err
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	dsn := base + sep + "search_path=" + schema
	x, err := sqlx.ConnectContext(ctx, "postgres", dsn)
	if err != nil {
		admin.Close()
		return nil, "", err
	}
	// The pool the site opens (Open): tests that fire a hundred requests
	// at once wait for connections as the site does, instead of taking
	// the server's every connection from the tests running beside them.
	x.SetMaxOpenConns(PostgresPool)
	s, err := FromDB(ctx, x)
	t.Cleanup(func() {
		x.Close()
		admin.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
		admin.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, dsn, nil
}

// NewTestPostgresDatabase creates a whole database of its own, named
// prefix and random hex, for tests that need one rather than a schema
// (pg_dump dumps a database; several site processes share one). It is
// dropped when the test ends. TEST_ADMIN_DATABASE_URL names the server
// (the postgres database on 127.0.0.1:5432 by default). Without
// PostgreSQL the test is skipped, or fails with CI=true.
func NewTestPostgresDatabase(t testing.TB, prefix string) string {
	t.Helper()
	admin := os.Getenv("TEST_ADMIN_DATABASE_URL")
	if admin == "" {
		admin = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	adb, err := sqlx.Connect("postgres", admin)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is required in CI: %v", err)
		}
		t.Skipf("PostgreSQL not reachable: %v", err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := prefix + "_" + hex.EncodeToString(b)
	if _, err := adb.Exec("CREATE DATABASE " + name); err != nil {
		adb.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		adb.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		adb.Close()
	})
	u, _ := url.Parse(admin)
	u.Path = "/" + name
	return u.String()
}

func hostOf(dsn string) string {
	rest := dsn[strings.Index(dsn, "://")+3:]
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		rest = rest[at+1:]
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	if !strings.Contains(rest, ":") {
		rest += ":5432"
	}
	return rest
}
