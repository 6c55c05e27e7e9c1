package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/atlanta-restoration/site/failure"
)

// JobRun is a row of job_runs: one run of a background job.
type JobRun struct {
	ID         string    `db:"id" json:"id"`
	Job        string    `db:"job" json:"job"`
	StartedAt  time.Time `db:"started_at" json:"startedAt"`
	FinishedAt time.Time `db:"finished_at" json:"finishedAt"`
	// Outcome is ok, failed or skipped.
	Outcome string `db:"outcome" json:"outcome"`
	Summary string `db:"summary" json:"summary"`
}

// Job run outcomes.
const (
	OutcomeOK      = "ok"
	OutcomeFailed  = "failed"
	OutcomeSkipped = "skipped"
)

// JobRunRetention is how long job runs are kept.
const JobRunRetention = 30 * 24 * time.Hour

// scrub shows a failure recorded before summaries were scrubbed as
// RecordJobRun would store it now.
func (r *JobRun) scrub() {
	if r.Outcome == OutcomeFailed {
		r.Summary = failure.Scrub(r.Summary)
	}
}

const jobRunColumns = `id, job, started_at, finished_at, outcome, summary`

// SQL is the underlying pool. PostgreSQL advisory locks need a dedicated
// connection taken from it (jobs.PostgresLocker).
func (s *Store) SQL() *sql.DB { return s.db.DB }

// RecordJobRun stores a finished run (an empty ID is generated) and drops
// the job's runs older than JobRunRetention.
func (s *Store) RecordJobRun(ctx context.Context, r JobRun) error {
	if r.ID == "" {
		r.ID = newRowID()
	}
	if r.Outcome == OutcomeFailed {
		// A failure's summary is shown on the dashboard: the kind of
		// failure, never the address the error named.
		r.Summary = failure.Scrub(r.Summary)
	}
	r.Summary = cleanText(r.Summary, 2000)
	_, err := s.db.NamedExecContext(ctx, `INSERT INTO job_runs (`+jobRunColumns+`) VALUES (:id, :job, :started_at, :finished_at, :outcome, :summary)`, r)
	if err != nil {
		return fmt.Errorf("record job run %s: %w", r.Job, err)
	}
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM job_runs WHERE job = ? AND started_at < ?`), r.Job, r.StartedAt.Add(-JobRunRetention)); err != nil {
		return fmt.Errorf("prune job runs %s: %w", r.Job, err)
	}
	return nil
}

// LastJobRun returns a job's latest run, or ErrNotFound.
func (s *Store) LastJobRun(ctx context.Context, job string) (JobRun, error) {
	var r JobRun
	err := s.db.GetContext(ctx, &r, s.q(`SELECT `+jobRunColumns+` FROM job_runs WHERE job = ? ORDER BY started_at DESC, id DESC LIMIT 1`), job)
	if err != nil {
		return r, fmt.Errorf("last run of %s: %w", job, notFound(err))
	}
	r.scrub()
	return r, nil
}

// RecentJobRuns returns the latest runs of every job, newest first. With
// skipped false, skipped runs (a switched-off job, another instance
// holding the lock) are left out.
func (s *Store) RecentJobRuns(ctx context.Context, limit int, skipped bool) ([]JobRun, error) {
	out := []JobRun{}
	q := `SELECT ` + jobRunColumns + ` FROM job_runs ORDER BY started_at DESC, id DESC LIMIT ?`
	args := []any{limit}
	if !skipped {
		q = `SELECT ` + jobRunColumns + ` FROM job_runs WHERE outcome <> ? ORDER BY started_at DESC, id DESC LIMIT ?`
		args = []any{OutcomeSkipped, limit}
	}
	if err := s.db.SelectContext(ctx, &out, s.q(q), args...); err != nil {
		return nil, fmt.Errorf("recent job runs: %w", err)
	}
	for i := range out {
		out[i].scrub()
	}
	return out, nil
}
