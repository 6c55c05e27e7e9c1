package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// SEOAuditRun is a row of seo_audit_runs: one audit of every public page.
// Score is the site-wide score: passing checks over all checks of the
// pages that could be audited.
type SEOAuditRun struct {
	ID         string    `db:"id"`
	StartedAt  time.Time `db:"started_at"`
	FinishedAt time.Time `db:"finished_at"`
	// TriggeredBy is deploy, content or manual.
	TriggeredBy string `db:"triggered_by"`
	BaseURL     string `db:"base_url"`
	Pages       int    `db:"pages"`
	// Errors counts pages that could not be audited (not 200).
	Errors   int `db:"errors"`
	Passed   int `db:"passed"`
	Warnings int `db:"warnings"`
	Failed   int `db:"failed"`
	Score    int `db:"score"`
}

// SEOAuditPage is a row of seo_audit_pages: one page of a run. Checks is
// the JSON array of the page's audit checks.
type SEOAuditPage struct {
	RunID      string `db:"run_id"`
	Seq        int    `db:"seq"`
	Path       string `db:"path"`
	StatusCode int    `db:"status_code"`
	Score      int    `db:"score"`
	Passed     int    `db:"passed"`
	Warnings   int    `db:"warnings"`
	Failed     int    `db:"failed"`
	Checks     string `db:"checks"`
	Error      string `db:"error"`
}

// SEOAuditRunsKept is how many audit runs are kept.
const SEOAuditRunsKept = 10

// SaveSEOAudit stores a run with its pages (an empty run ID is generated)
// and drops all but the latest SEOAuditRunsKept runs.
func (s *Store) SaveSEOAudit(ctx context.Context, run SEOAuditRun, pages []SEOAuditPage) (SEOAuditRun, error) {
	if run.ID == "" {
		run.ID = newRowID()
	}
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO seo_audit_runs (id, started_at, finished_at, triggered_by, base_url, pages, errors, passed, warnings, failed, score)
			VALUES (:id, :started_at, :finished_at, :triggered_by, :base_url, :pages, :errors, :passed, :warnings, :failed, :score)`, run); err != nil {
			return err
		}
		for i, p := range pages {
			p.RunID, p.Seq = run.ID, i
			if _, err := tx.NamedExecContext(ctx, `INSERT INTO seo_audit_pages (run_id, seq, path, status_code, score, passed, warnings, failed, checks, error)
				VALUES (:run_id, :seq, :path, :status_code, :score, :passed, :warnings, :failed, :checks, :error)`, p); err != nil {
				return fmt.Errorf("%s: %w", p.Path, err)
			}
		}
		keep := `SELECT id FROM seo_audit_runs ORDER BY started_at DESC, id DESC LIMIT ?`
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM seo_audit_pages WHERE run_id NOT IN (`+keep+`)`), SEOAuditRunsKept); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM seo_audit_runs WHERE id NOT IN (`+keep+`)`), SEOAuditRunsKept)
		return err
	})
	if err != nil {
		return run, fmt.Errorf("save SEO audit: %w", err)
	}
	return run, nil
}

const seoRunColumns = `id, started_at, finished_at, triggered_by, base_url, pages, errors, passed, warnings, failed, score`

// LatestSEOAudit returns the newest run and its pages in audit order, or
// ErrNotFound before the first run.
func (s *Store) LatestSEOAudit(ctx context.Context) (SEOAuditRun, []SEOAuditPage, error) {
	run, err := s.LatestSEOAuditRun(ctx)
	if err != nil {
		return run, nil, err
	}
	pages := []SEOAuditPage{}
	err = s.db.SelectContext(ctx, &pages, s.q(`SELECT run_id, seq, path, status_code, score, passed, warnings, failed, checks, error
		FROM seo_audit_pages WHERE run_id = ? ORDER BY seq`), run.ID)
	if err != nil {
		return run, nil, fmt.Errorf("SEO audit pages %s: %w", run.ID, err)
	}
	return run, pages, nil
}

// LatestSEOAuditRun returns the newest run without its pages (the
// dashboard's SEO Score), or ErrNotFound before the first run.
func (s *Store) LatestSEOAuditRun(ctx context.Context) (SEOAuditRun, error) {
	var run SEOAuditRun
	err := s.db.GetContext(ctx, &run, `SELECT `+seoRunColumns+` FROM seo_audit_runs ORDER BY started_at DESC, id DESC LIMIT 1`)
	if err != nil {
		return run, fmt.Errorf("latest SEO audit: %w", notFound(err))
	}
	return run, nil
}
