package db

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

// NewTestPostgres opens a migrated store of its own on the test server
// and drops it when the test ends.
func NewTestPostgres(t testing.TB) (*Store, error) {
	t.Helper()
	s, _, err := newTestPostgres(t)
	return s, err
}

// NewTestPostgresURL is the address of a store NewTestPostgres opened,
// for a test that connects its own way (through a proxy it stops).
func NewTestPostgresURL(t testing.TB) (string, error) {
	t.Helper()
	_, dsn, err := newTestPostgres(t)
	return dsn, err
}

// newTestPostgres is NewTestPostgres, and the address of its database.
//
// Each store is a database copied from a template migrated once, by the
// first test binary that needed it (CREATE DATABASE ... TEMPLATE;
// pgTemplate): one statement where
// migrating a fresh schema takes hundreds of round trips. On a machine
// busy with the browser tests those round trips, each waiting for a
// turn on a core, made the store tests ten times slower than on a quiet
// one (the db package passed Go's ten minutes). A server that refuses
// CREATE DATABASE gets a schema of its own instead, migrated.
func newTestPostgres(t testing.TB) (*Store, string, error) {
	t.Helper()
	base := testPostgresURL()
	if err := reachable(base); err != nil {
		return nil, "", err
	}
	tpl, err := postgresTemplate(base)
	if err != nil {
		t.Logf("a schema of its own instead of a database copied from a template: %v", err)
		return newTestPostgresSchema(t)
	}
	ctx := context.Background()
	name := fmt.Sprintf("t_%d_%s", time.Now().Unix(), randomHex(4))
	if _, err := tpl.admin.ExecContext(ctx, `CREATE DATABASE `+name+` TEMPLATE `+tpl.name); err != nil {
		// A checkout at other migrations dropped it (dropStale).
		t.Logf("a schema of its own: the template %s: %v", tpl.name, err)
		return newTestPostgresSchema(t)
	}
	dsn := tpl.dsn(name)
	x, err := sqlx.ConnectContext(ctx, "postgres", dsn)
	if err != nil {
		tpl.admin.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
		return nil, "", err
	}
	// The pool the site opens (Open): tests that fire a hundred requests
	// at once wait for connections as the site does, instead of taking
	// the server's every connection from the tests running beside them.
	x.SetMaxOpenConns(PostgresPool)
	t.Cleanup(func() {
		x.Close()
		tpl.admin.ExecContext(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
	})
	// The migrations run again on the copy and find nothing to do.
	s, err := FromDB(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	return s, dsn, nil
}

// newTestPostgresSchema opens a migrated store on a schema of its own in
// the test database, for the tests of what schemas keep apart (two sites
// on one database) and for a server that refuses CREATE DATABASE.
func newTestPostgresSchema(t testing.TB) (*Store, string, error) {
	t.Helper()
	base := testPostgresURL()
	if err := reachable(base); err != nil {
		return nil, "", err
	}
	ctx := context.Background()
	admin, err := sqlx.ConnectContext(ctx, "postgres", base)
	if err != nil {
		return nil, "", err
	}
	schema := "t_" + randomHex(6)
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

func testPostgresURL() string {
	if base := os.Getenv("TEST_DATABASE_URL"); base != "" {
		return base
	}
	return DefaultTestPostgres
}

// reachable says whether the test server answers, asked once per test
// binary. Its ceiling is generous: a server that is not there refuses at
// once, and one that is there but slow to accept (a postmaster waiting
// for a core on a machine at a load of 27) once failed a CI run with a
// one-second "i/o timeout".
func reachable(base string) error {
	v, _ := reachability.LoadOrStore(base, &probe{})
	p := v.(*probe)
	p.once.Do(func() {
		c, err := net.DialTimeout("tcp", hostOf(base), 30*time.Second)
		if err == nil {
			c.Close()
		}
		p.err = err
	})
	return p.err
}

type probe struct {
	once sync.Once
	err  error
}

var reachability sync.Map // base URL -> *probe

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// pgTemplate is the migrated database every store of a test binary
// starts as a copy of. It is named after the migrations (tt_, their
// hash, the time it was made), so the packages of a run and later runs
// share one, and a change to a migration makes a new one.
type pgTemplate struct {
	once  sync.Once
	err   error
	name  string
	url   *url.URL
	admin *sqlx.DB // on the base database: CREATE and DROP DATABASE
}

func (p *pgTemplate) dsn(database string) string {
	u := *p.url
	u.Path = "/" + database
	return u.String()
}

var pgTemplates sync.Map // base URL -> *pgTemplate

func postgresTemplate(base string) (*pgTemplate, error) {
	v, _ := pgTemplates.LoadOrStore(base, &pgTemplate{})
	p := v.(*pgTemplate)
	p.once.Do(func() { p.err = p.find(base) })
	return p, p.err
}

// migrationsHash names the migrations' content.
func migrationsHash() string {
	h := sha256.New()
	entries, _ := migrations.ReadDir("migrations")
	for _, e := range entries {
		body, _ := migrations.ReadFile("migrations/" + e.Name())
		fmt.Fprintf(h, "%s %d\n", e.Name(), len(body))
		h.Write(body)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// find finds this migrations' template on the server or makes it. Test
// binaries run side by side, so one makes it while the others wait on an
// advisory lock; it is made under another name and renamed when
// migrated, so a binary killed halfway never leaves a template that
// looks whole.
func (p *pgTemplate) find(base string) error {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return fmt.Errorf("TEST_DATABASE_URL is not a postgres:// URL")
	}
	p.url = u
	ctx := context.Background()
	admin, err := sqlx.ConnectContext(ctx, "postgres", base)
	if err != nil {
		return err
	}
	if err := p.findOrMake(ctx, admin); err != nil {
		admin.Close()
		return err
	}
	p.admin = admin
	return nil
}

func (p *pgTemplate) findOrMake(ctx context.Context, admin *sqlx.DB) error {
	conn, err := admin.Connx(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	const lock = `hashtext('site store tests: template')`
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(`+lock+`)`); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock(`+lock+`)`)
	hash := migrationsHash()
	var found []string
	if err := conn.SelectContext(ctx, &found, `SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname DESC`, "tt_"+hash+"_"); err != nil {
		return err
	}
	if len(found) > 0 {
		p.name = found[0]
		return nil
	}
	dropStale(ctx, conn)
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	building, name := "tb_"+hash+"_"+stamp, "tt_"+hash+"_"+stamp
	if _, err := conn.ExecContext(ctx, `CREATE DATABASE `+building); err != nil {
		return err
	}
	x, err := sqlx.ConnectContext(ctx, "postgres", p.dsn(building))
	if err == nil {
		_, err = FromDB(ctx, x)
		// No session may stay on a database that is renamed or copied.
		x.Close()
	}
	if err == nil {
		_, err = conn.ExecContext(ctx, `ALTER DATABASE `+building+` RENAME TO `+name)
	}
	if err != nil {
		conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+building+` WITH (FORCE)`)
		return err
	}
	p.name = name
	return nil
}

// dropStale drops, after three hours, what test binaries leave behind:
// the stores of a binary that crashed or was killed before its cleanups
// (t_), a template it was still making (tb_), and the templates of other
// migrations (tt_; a checkout at another commit may still be using its
// own, so not at once).
func dropStale(ctx context.Context, conn *sqlx.Conn) {
	var names []string
	if err := conn.SelectContext(ctx, &names, `SELECT datname FROM pg_database`); err != nil {
		return
	}
	cutoff := time.Now().Add(-3 * time.Hour).Unix()
	for _, n := range names {
		if staleTestDatabase(n, cutoff) {
			conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+n+` WITH (FORCE)`)
		}
	}
}

// testDatabaseName is what newTestPostgres (t_, stamp, random) and
// findOrMake (tb_ or tt_, the migrations' hash, stamp) name databases.
var testDatabaseName = regexp.MustCompile(`^(?:t_([0-9]{10})_[0-9a-f]{8}|t[bt]_[0-9a-f]{12}_([0-9]{10}))$`)

// staleTestDatabase: name is a test database or template made before
// cutoff (Unix seconds).
func staleTestDatabase(name string, cutoff int64) bool {
	m := testDatabaseName.FindStringSubmatch(name)
	if m == nil {
		return false
	}
	stamp, err := strconv.ParseInt(m[1]+m[2], 10, 64)
	return err == nil && stamp < cutoff
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
