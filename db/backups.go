package db

import (
	"context"
	"fmt"
	"time"

	"github.com/atlanta-restoration/site/failure"
)

// BackupRun is a row of backup_runs: one backup, good or failed
// (package backup makes them).
type BackupRun struct {
	ID          string    `db:"id"`
	StartedAt   time.Time `db:"started_at"`
	FinishedAt  time.Time `db:"finished_at"`
	Outcome     string    `db:"outcome"` // OutcomeOK or OutcomeFailed
	TriggeredBy string    `db:"triggered_by"`
	// Name is the backup's folder under Location.
	Name     string `db:"name"`
	Location string `db:"location"`
	Bytes    int64  `db:"bytes"`
	Summary  string `db:"summary"`
	// RequestedBy is the account that pressed 'Back up now' ("" for the
	// schedule and site backup).
	RequestedBy string `db:"requested_by"`
}

// BackupRunRetention is how long backup runs are remembered: longer than
// the weekly backups are kept.
const BackupRunRetention = 90 * 24 * time.Hour

const backupRunColumns = `id, started_at, finished_at, outcome, triggered_by, name, location, bytes, summary, requested_by`

// RecordBackup stores a backup run (an empty ID is generated) and drops
// runs older than BackupRunRetention.
func (s *Store) RecordBackup(ctx context.Context, r BackupRun) error {
	if r.ID == "" {
		r.ID = newRowID()
	}
	if r.Outcome == OutcomeFailed {
		r.Summary = failure.Scrub(r.Summary)
	}
	r.Summary = cleanText(r.Summary, 2000)
	if _, err := s.db.NamedExecContext(ctx, `INSERT INTO backup_runs (`+backupRunColumns+`) VALUES (:id, :started_at, :finished_at, :outcome, :triggered_by, :name, :location, :bytes, :summary, :requested_by)`, r); err != nil {
		return fmt.Errorf("record backup: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM backup_runs WHERE started_at < ?`), r.StartedAt.Add(-BackupRunRetention)); err != nil {
		return fmt.Errorf("prune backup runs: %w", err)
	}
	return nil
}

// LastBackups returns the latest backup run and the latest good one;
// either is nil when there is none.
func (s *Store) LastBackups(ctx context.Context) (last, good *BackupRun, err error) {
	var runs []BackupRun
	if err := s.db.SelectContext(ctx, &runs, `SELECT `+backupRunColumns+` FROM backup_runs ORDER BY started_at DESC, id DESC LIMIT 1`); err != nil {
		return nil, nil, fmt.Errorf("last backup: %w", err)
	}
	if len(runs) > 0 {
		last = &runs[0]
	}
	var goods []BackupRun
	if err := s.db.SelectContext(ctx, &goods, s.q(`SELECT `+backupRunColumns+` FROM backup_runs WHERE outcome = ? ORDER BY started_at DESC, id DESC LIMIT 1`), OutcomeOK); err != nil {
		return nil, nil, fmt.Errorf("last good backup: %w", err)
	}
	if len(goods) > 0 {
		good = &goods[0]
	}
	return last, good, nil
}

// InstalledAt is when the database was made (its first migration): a
// site younger than the backup alarm's age has not missed a backup yet.
func (s *Store) InstalledAt(ctx context.Context) (time.Time, error) {
	var t []time.Time
	if err := s.db.SelectContext(ctx, &t, `SELECT applied_at FROM schema_migrations ORDER BY version LIMIT 1`); err != nil {
		return time.Time{}, fmt.Errorf("installed at: %w", err)
	}
	if len(t) == 0 {
		return time.Time{}, fmt.Errorf("installed at: %w", ErrNotFound)
	}
	return t[0], nil
}

// RecentBackups returns the newest backup runs, newest first.
func (s *Store) RecentBackups(ctx context.Context, limit int) ([]BackupRun, error) {
	runs := []BackupRun{}
	if err := s.db.SelectContext(ctx, &runs, s.q(`SELECT `+backupRunColumns+` FROM backup_runs ORDER BY started_at DESC, id DESC LIMIT ?`), limit); err != nil {
		return nil, fmt.Errorf("recent backups: %w", err)
	}
	return runs, nil
}

// ActiveBackup is a row of backup_active: a backup running now, on any
// instance (package backup writes it under the backup lock).
type ActiveBackup struct {
	ID          string    `db:"id"`
	StartedAt   time.Time `db:"started_at"`
	TriggeredBy string    `db:"triggered_by"`
	RequestedBy string    `db:"requested_by"`
	// Progress says how far it got, in words; UpdatedAt when it last
	// said so.
	Progress  string    `db:"progress"`
	UpdatedAt time.Time `db:"updated_at"`
}

const activeBackupColumns = `id, started_at, triggered_by, requested_by, progress, updated_at`

// StartBackup records a backup that has begun. The caller holds the
// backup lock, so rows left by an instance that died while it ran are
// stale: they are deleted first.
func (s *Store) StartBackup(ctx context.Context, a ActiveBackup) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM backup_active`); err != nil {
		return fmt.Errorf("start backup: %w", err)
	}
	if _, err := s.db.NamedExecContext(ctx, `INSERT INTO backup_active (`+activeBackupColumns+`) VALUES (:id, :started_at, :triggered_by, :requested_by, :progress, :updated_at)`, a); err != nil {
		return fmt.Errorf("start backup: %w", err)
	}
	return nil
}

// SetBackupProgress says how far the running backup id got.
func (s *Store) SetBackupProgress(ctx context.Context, id, progress string, at time.Time) error {
	if _, err := s.db.ExecContext(ctx, s.q(`UPDATE backup_active SET progress = ?, updated_at = ? WHERE id = ?`), cleanText(progress, 300), at, id); err != nil {
		return fmt.Errorf("backup progress: %w", err)
	}
	return nil
}

// EndBackup forgets the running backup id (its run is in backup_runs).
func (s *Store) EndBackup(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM backup_active WHERE id = ?`), id); err != nil {
		return fmt.Errorf("end backup: %w", err)
	}
	return nil
}

// RunningBackup returns the backup running now, or nil. Only a caller
// that found the backup lock taken may trust it: a row is stale when
// nobody holds the lock.
func (s *Store) RunningBackup(ctx context.Context) (*ActiveBackup, error) {
	var rows []ActiveBackup
	if err := s.db.SelectContext(ctx, &rows, `SELECT `+activeBackupColumns+` FROM backup_active ORDER BY started_at DESC, id DESC LIMIT 1`); err != nil {
		return nil, fmt.Errorf("running backup: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &rows[0], nil
}
