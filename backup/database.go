package backup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/db"
)

// The database copy: on SQLite VACUUM INTO a file, opened again and
// checked (PRAGMA integrity_check) and counted; on PostgreSQL pg_dump in
// its custom format from an exported snapshot, the tables counted in that
// same snapshot, and the archive read back by pg_restore --list.

// DumpCommand is the documented PostgreSQL backup command, for an
// install that backs up with its own tools (docs/deploying.md).
const DumpCommand = `pg_dump --format=custom --no-owner --no-privileges --file=site.pgdump "$DATABASE_URL"`

// dbFile is the copy's name in a backup.
func dbFile(dialect string) string {
	if dialect == "postgres" {
		return "site.pgdump"
	}
	return "site.db"
}

// copyDatabase writes the live database's copy to file and returns its
// row counts and schema version, read from the copy itself (SQLite) or
// from the dump's snapshot (PostgreSQL).
func (s *Service) copyDatabase(ctx context.Context, file string) (map[string]int64, int, error) {
	if s.o.Store.Dialect() != "postgres" {
		if err := s.o.Store.VacuumInto(ctx, file); err != nil {
			return nil, 0, err
		}
		return checkSQLite(ctx, file)
	}
	pgDump, err := pgTool(s.o.PGBinDir, "pg_dump")
	if err != nil {
		return nil, 0, err
	}
	var counts map[string]int64
	var schema int
	err = s.o.Store.Snapshot(ctx, func(q sqlx.QueryerContext, snapshot string) error {
		var err error
		if counts, err = db.CountRows(ctx, q, "postgres"); err != nil {
			return err
		}
		if schema, err = db.SchemaVersion(ctx, q); err != nil {
			return err
		}
		return runPG(ctx, pgDump, s.o.DatabaseURL, "--format=custom", "--no-owner", "--no-privileges", "--snapshot="+snapshot, "--file="+file)
	})
	if err != nil {
		return nil, 0, err
	}
	if err := checkDump(ctx, s.o.PGBinDir, file); err != nil {
		return nil, 0, err
	}
	return counts, schema, nil
}

// checkSQLite opens a SQLite copy read-only, runs its integrity check and
// counts its rows.
func checkSQLite(ctx context.Context, file string) (map[string]int64, int, error) {
	x, err := sqlx.ConnectContext(ctx, "sqlite", "file:"+file+"?mode=ro&_pragma=busy_timeout(5000)&_time_format=sqlite")
	if err != nil {
		return nil, 0, fmt.Errorf("the database copy does not open: %w", err)
	}
	defer x.Close()
	var res []string
	if err := x.SelectContext(ctx, &res, `PRAGMA integrity_check`); err != nil {
		return nil, 0, fmt.Errorf("the database copy's integrity check failed: %w", err)
	}
	if len(res) != 1 || res[0] != "ok" {
		return nil, 0, fmt.Errorf("the database copy's integrity check found problems: %s", strings.Join(res, "; "))
	}
	counts, err := db.CountRows(ctx, x, "sqlite")
	if err != nil {
		return nil, 0, fmt.Errorf("the database copy cannot be read: %w", err)
	}
	schema, err := db.SchemaVersion(ctx, x)
	if err != nil {
		return nil, 0, fmt.Errorf("the database copy cannot be read: %w", err)
	}
	return counts, schema, nil
}

// checkDump reads a pg_dump archive's table of contents.
func checkDump(ctx context.Context, binDir, file string) error {
	pgRestore, err := pgTool(binDir, "pg_restore")
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, pgRestore, "--list", file)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("the database dump does not read back (pg_restore --list): %v: %s", err, firstLine(out.String()))
	}
	if !strings.Contains(out.String(), "TABLE DATA") {
		return errors.New("the database dump holds no table data")
	}
	return nil
}

// ErrNoPGTool is returned when pg_dump or pg_restore cannot be found.
var ErrNoPGTool = errors.New("not found")

// pgTool finds a PostgreSQL client tool in binDir (PG_BIN_DIR), else in
// PATH.
func pgTool(binDir, name string) (string, error) {
	if binDir != "" {
		p := filepath.Join(binDir, name)
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s %w in PG_BIN_DIR (%s): install the PostgreSQL client tools of the server's major version there", name, ErrNoPGTool, binDir)
		}
		return p, nil
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s %w in PATH: install the PostgreSQL client tools of the server's major version (Debian: postgresql-client), set PG_BIN_DIR, or back up with your database provider's tools: %s", name, ErrNoPGTool, DumpCommand)
	}
	return p, nil
}

// runPG runs a PostgreSQL client tool against databaseURL. The password
// goes in PGPASSWORD, never on the command line (where ps shows it), and
// errors never quote the address.
func runPG(ctx context.Context, tool, databaseURL string, args ...string) error {
	dsn, password := splitPassword(databaseURL)
	cmd := exec.CommandContext(ctx, tool, append([]string{"--dbname=" + dsn}, args...)...)
	cmd.Env = os.Environ()
	if password != "" {
		cmd.Env = append(cmd.Env, "PGPASSWORD="+password)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.ReplaceAll(out.String(), dsn, "DATABASE_URL")
		if password != "" {
			msg = strings.ReplaceAll(msg, password, "[REDACTED]")
		}
		return fmt.Errorf("%s failed: %v: %s", filepath.Base(tool), err, firstLine(msg))
	}
	return nil
}

// splitPassword takes the password out of a postgres:// URL.
func splitPassword(databaseURL string) (dsn, password string) {
	u, err := url.Parse(databaseURL)
	if err != nil || u.User == nil {
		return databaseURL, ""
	}
	password, _ = u.User.Password()
	u.User = url.User(u.User.Username())
	return u.String(), password
}

// restorePostgres empties the site's schema and loads the dump into it.
// The dump was read back (checkDump) before anything is dropped.
func restorePostgres(ctx context.Context, databaseURL, binDir, file string) error {
	pgRestore, err := pgTool(binDir, "pg_restore")
	if err != nil {
		return err
	}
	x, err := sqlx.ConnectContext(ctx, "postgres", databaseURL)
	if err != nil {
		return fmt.Errorf("connect to the database: %w", err)
	}
	defer x.Close()
	if err := db.DropTables(ctx, x); err != nil {
		return fmt.Errorf("empty the database before the restore: %w", err)
	}
	if err := runPG(ctx, pgRestore, databaseURL, "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", file); err != nil {
		return fmt.Errorf("%w (the database's tables were dropped first: run the restore again once the cause is fixed)", err)
	}
	return nil
}

// countPostgres counts the restored database's rows.
func countPostgres(ctx context.Context, databaseURL string) (map[string]int64, error) {
	x, err := sqlx.ConnectContext(ctx, "postgres", databaseURL)
	if err != nil {
		return nil, err
	}
	defer x.Close()
	return db.CountRows(ctx, x, "postgres")
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
