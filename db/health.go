package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// HealthRun is a row of health_runs: one check of every sitemap URL.
type HealthRun struct {
	ID         string    `db:"id"`
	StartedAt  time.Time `db:"started_at"`
	FinishedAt time.Time `db:"finished_at"`
	// TriggeredBy is schedule or manual (the admin's Refresh).
	TriggeredBy string `db:"triggered_by"`
	Checked     int    `db:"checked"`
	Issues      int    `db:"issues"`
}

// HealthResult is a row of health_results: spec 3's URL health result for
// one URL of a run, plus whether its canonical names itself.
type HealthResult struct {
	RunID string `db:"run_id"`
	Seq   int    `db:"seq"`
	// URL is the site path checked (/contact, /sitemap.xml).
	URL string `db:"url"`
	// Status is spec 4's: active, 404, redirect or error.
	Status      string    `db:"status"`
	StatusCode  int       `db:"status_code"`
	RedirectTo  string    `db:"redirect_to"`
	Error       string    `db:"error"`
	CanonicalOK bool      `db:"canonical_ok"`
	CheckedAt   time.Time `db:"checked_at"`
}

// HealthRunsKept is how many runs are kept (two days of hourly checks).
const HealthRunsKept = 48

// SaveHealthRun stores a run with its results (an empty run ID is
// generated) and drops all but the latest HealthRunsKept runs.
func (s *Store) SaveHealthRun(ctx context.Context, run HealthRun, results []HealthResult) (HealthRun, error) {
	if run.ID == "" {
		run.ID = newRowID()
	}
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO health_runs (id, started_at, finished_at, triggered_by, checked, issues)
			VALUES (:id, :started_at, :finished_at, :triggered_by, :checked, :issues)`, run); err != nil {
			return err
		}
		for i, r := range results {
			r.RunID, r.Seq = run.ID, i
			if _, err := tx.NamedExecContext(ctx, `INSERT INTO health_results (run_id, seq, url, status, status_code, redirect_to, error, canonical_ok, checked_at)
				VALUES (:run_id, :seq, :url, :status, :status_code, :redirect_to, :error, :canonical_ok, :checked_at)`, r); err != nil {
				return fmt.Errorf("%s: %w", r.URL, err)
			}
		}
		keep := `SELECT id FROM health_runs ORDER BY started_at DESC, id DESC LIMIT ?`
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM health_results WHERE run_id NOT IN (`+keep+`)`), HealthRunsKept); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM health_runs WHERE id NOT IN (`+keep+`)`), HealthRunsKept)
		return err
	})
	if err != nil {
		return run, fmt.Errorf("save health run: %w", err)
	}
	return run, nil
}

// LatestHealthRun returns the newest run and its results in check order,
// or ErrNotFound before the first run.
func (s *Store) LatestHealthRun(ctx context.Context) (HealthRun, []HealthResult, error) {
	var run HealthRun
	err := s.db.GetContext(ctx, &run, `SELECT id, started_at, finished_at, triggered_by, checked, issues FROM health_runs ORDER BY started_at DESC, id DESC LIMIT 1`)
	if err != nil {
		return run, nil, fmt.Errorf("latest health run: %w", notFound(err))
	}
	results := []HealthResult{}
	err = s.db.SelectContext(ctx, &results, s.q(`SELECT run_id, seq, url, status, status_code, redirect_to, error, canonical_ok, checked_at
		FROM health_results WHERE run_id = ? ORDER BY seq`), run.ID)
	if err != nil {
		return run, nil, fmt.Errorf("health results %s: %w", run.ID, err)
	}
	return run, results, nil
}
