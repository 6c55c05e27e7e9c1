package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// SchemaCheckRun is a row of schema_check_runs: one check of the
// structured data of every indexable page. Items are what the Validation
// Score weighs (validated items, missing expected types, unreadable
// blocks); Valid those without an error.
type SchemaCheckRun struct {
	ID         string    `db:"id"`
	StartedAt  time.Time `db:"started_at"`
	FinishedAt time.Time `db:"finished_at"`
	// TriggeredBy is deploy, content or manual.
	TriggeredBy string `db:"triggered_by"`
	BaseURL     string `db:"base_url"`
	Pages       int    `db:"pages"`
	// Covered counts pages carrying readable structured data.
	Covered int `db:"covered"`
	// Unreadable counts pages that could not be checked (not 200).
	Unreadable int `db:"unreadable"`
	Items      int `db:"items"`
	Valid      int `db:"valid"`
	Errors     int `db:"errors"`
	Warnings   int `db:"warnings"`
	Score      int `db:"score"`
}

// SchemaCheckPage is a row of schema_check_pages: one page of a run.
// Result is the page's result as JSON (types, expected, findings).
type SchemaCheckPage struct {
	RunID      string `db:"run_id"`
	Seq        int    `db:"seq"`
	Path       string `db:"path"`
	Kind       string `db:"kind"`
	StatusCode int    `db:"status_code"`
	Result     string `db:"result"`
	Error      string `db:"error"`
}

// SchemaCheckRunsKept is how many schema checks are kept.
const SchemaCheckRunsKept = 10

// SaveSchemaCheck stores a run with its pages in one transaction (an
// empty run ID is generated) and drops all but the latest
// SchemaCheckRunsKept runs. A reader sees a run whole or not at all.
func (s *Store) SaveSchemaCheck(ctx context.Context, run SchemaCheckRun, pages []SchemaCheckPage) (SchemaCheckRun, error) {
	if run.ID == "" {
		run.ID = newRowID()
	}
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO schema_check_runs (id, started_at, finished_at, triggered_by, base_url, pages, covered, unreadable, items, valid, errors, warnings, score)
			VALUES (:id, :started_at, :finished_at, :triggered_by, :base_url, :pages, :covered, :unreadable, :items, :valid, :errors, :warnings, :score)`, run); err != nil {
			return err
		}
		for i, p := range pages {
			p.RunID, p.Seq = run.ID, i
			if _, err := tx.NamedExecContext(ctx, `INSERT INTO schema_check_pages (run_id, seq, path, kind, status_code, result, error)
				VALUES (:run_id, :seq, :path, :kind, :status_code, :result, :error)`, p); err != nil {
				return fmt.Errorf("%s: %w", p.Path, err)
			}
		}
		keep := `SELECT id FROM schema_check_runs ORDER BY started_at DESC, id DESC LIMIT ?`
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM schema_check_pages WHERE run_id NOT IN (`+keep+`)`), SchemaCheckRunsKept); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM schema_check_runs WHERE id NOT IN (`+keep+`)`), SchemaCheckRunsKept)
		return err
	})
	if err != nil {
		return run, fmt.Errorf("save schema check: %w", err)
	}
	return run, nil
}

const schemaRunColumns = `id, started_at, finished_at, triggered_by, base_url, pages, covered, unreadable, items, valid, errors, warnings, score`

// LatestSchemaCheck returns the newest run and its pages in check order,
// or ErrNotFound before the first run.
func (s *Store) LatestSchemaCheck(ctx context.Context) (SchemaCheckRun, []SchemaCheckPage, error) {
	run, err := s.LatestSchemaCheckRun(ctx)
	if err != nil {
		return run, nil, err
	}
	pages := []SchemaCheckPage{}
	err = s.db.SelectContext(ctx, &pages, s.q(`SELECT run_id, seq, path, kind, status_code, result, error
		FROM schema_check_pages WHERE run_id = ? ORDER BY seq`), run.ID)
	if err != nil {
		return run, nil, fmt.Errorf("schema check pages %s: %w", run.ID, err)
	}
	return run, pages, nil
}

// LatestSchemaCheckRun returns the newest run without its pages, or
// ErrNotFound before the first run.
func (s *Store) LatestSchemaCheckRun(ctx context.Context) (SchemaCheckRun, error) {
	var run SchemaCheckRun
	err := s.db.GetContext(ctx, &run, `SELECT `+schemaRunColumns+` FROM schema_check_runs ORDER BY started_at DESC, id DESC LIMIT 1`)
	if err != nil {
		return run, fmt.Errorf("latest schema check: %w", notFound(err))
	}
	return run, nil
}
