package db

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// What operations read from the database: the row counts a
// backup's manifest records, the schema version it was made at, and the
// figures /metrics shows (live sessions, the outbox per channel).

// Tables lists the site's tables (schema_migrations included), sorted.
func Tables(ctx context.Context, q sqlx.QueryerContext, dialect string) ([]string, error) {
	query := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if dialect == "postgres" {
		query = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	}
	var names []string
	if err := sqlx.SelectContext(ctx, q, &names, query); err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	sort.Strings(names)
	return names, nil
}

// CountRows counts every table's rows through q (a transaction, for a
// count that matches a snapshot).
func CountRows(ctx context.Context, q sqlx.QueryerContext, dialect string) (map[string]int64, error) {
	names, err := Tables(ctx, q, dialect)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(names))
	for _, n := range names {
		var c int64
		// Table names come from the catalogue, quoted as identifiers.
		if err := sqlx.GetContext(ctx, q, &c, `SELECT COUNT(*) FROM "`+strings.ReplaceAll(n, `"`, `""`)+`"`); err != nil {
			return nil, fmt.Errorf("count %s: %w", n, err)
		}
		out[n] = c
	}
	return out, nil
}

// SchemaVersion is the newest migration applied through q.
func SchemaVersion(ctx context.Context, q sqlx.QueryerContext) (int, error) {
	var v int
	if err := sqlx.GetContext(ctx, q, &v, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	return v, nil
}

// LatestMigration is the newest migration this build knows: a backup
// made by a newer build cannot be restored by this one.
func LatestMigration() int {
	names, _ := migrations.ReadDir("migrations")
	latest := 0
	for _, n := range names {
		num, _, _ := strings.Cut(n.Name(), "_")
		if v, err := strconv.Atoi(num); err == nil && v > latest {
			latest = v
		}
	}
	return latest
}

// CountLiveSessions counts the admin sessions that have not ended.
func (s *Store) CountLiveSessions(ctx context.Context, now time.Time) (int, error) {
	var n int
	if err := s.db.GetContext(ctx, &n, s.q(`SELECT COUNT(*) FROM admin_sessions WHERE expires_at > ? AND hard_expires_at > ?`), now, now); err != nil {
		return 0, fmt.Errorf("count sessions: %w", err)
	}
	return n, nil
}

// OutboxChannel is the outbox's state for one channel (kind).
type OutboxChannel struct {
	Kind     string `db:"kind"`
	Pending  int    `db:"pending"`
	Retrying int    `db:"retrying"`
	Failed   int    `db:"failed"`
}

// OutboxByChannel counts pending, retrying and given-up rows per channel,
// and says when the oldest undelivered row was queued (zero: none).
func (s *Store) OutboxByChannel(ctx context.Context) ([]OutboxChannel, time.Time, error) {
	var out []OutboxChannel
	if err := s.db.SelectContext(ctx, &out, `SELECT kind,
		COUNT(CASE WHEN delivered_at IS NULL AND failed_at IS NULL THEN 1 END) AS pending,
		COUNT(CASE WHEN delivered_at IS NULL AND failed_at IS NULL AND last_error <> '' THEN 1 END) AS retrying,
		COUNT(CASE WHEN failed_at IS NOT NULL THEN 1 END) AS failed
		FROM outbox GROUP BY kind ORDER BY kind`); err != nil {
		return nil, time.Time{}, fmt.Errorf("outbox by channel: %w", err)
	}
	var oldest []time.Time
	if err := s.db.SelectContext(ctx, &oldest, `SELECT created_at FROM outbox WHERE delivered_at IS NULL AND failed_at IS NULL ORDER BY created_at LIMIT 1`); err != nil {
		return nil, time.Time{}, fmt.Errorf("oldest undelivered notification: %w", err)
	}
	if len(oldest) == 0 {
		return out, time.Time{}, nil
	}
	return out, oldest[0], nil
}

// Snapshot runs fn inside a read-only, repeatable-read transaction whose
// snapshot is exported (PostgreSQL only): pg_dump --snapshot reads the
// very state fn counts, so a backup's row counts match its dump even
// while leads keep arriving.
func (s *Store) Snapshot(ctx context.Context, fn func(q sqlx.QueryerContext, snapshot string) error) error {
	if s.dialect != "postgres" {
		return fmt.Errorf("db: exported snapshots need PostgreSQL")
	}
	tx, err := s.db.BeginTxx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return fmt.Errorf("db: snapshot: %w", err)
	}
	defer tx.Rollback()
	var id string
	if err := tx.GetContext(ctx, &id, `SELECT pg_export_snapshot()`); err != nil {
		return fmt.Errorf("db: export snapshot: %w", err)
	}
	return fn(tx, id)
}

// VacuumInto writes a consistent copy of the SQLite database to file
// (VACUUM INTO): one read transaction, so writers are not held up.
func (s *Store) VacuumInto(ctx context.Context, file string) error {
	if s.dialect != "sqlite" {
		return fmt.Errorf("db: VACUUM INTO needs SQLite")
	}
	if _, err := s.db.ExecContext(ctx, `VACUUM INTO ?`, file); err != nil {
		return fmt.Errorf("db: copy the database: %w", err)
	}
	return nil
}

// DropTables drops every table of the current schema (a PostgreSQL
// restore empties the site's schema before pg_restore fills it).
func DropTables(ctx context.Context, x *sqlx.DB) error {
	names, err := Tables(ctx, x, "postgres")
	if err != nil {
		return err
	}
	tx, err := x.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, n := range names {
		if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS "`+strings.ReplaceAll(n, `"`, `""`)+`" CASCADE`); err != nil {
			return fmt.Errorf("drop %s: %w", n, err)
		}
	}
	return tx.Commit()
}

// RowCounts counts every table's rows (CountRows on the store).
func (s *Store) RowCounts(ctx context.Context) (map[string]int64, error) {
	return CountRows(ctx, s.db, s.dialect)
}
