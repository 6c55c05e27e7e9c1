package backup

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// What started a backup (backup_runs.triggered_by).
const (
	TriggerSchedule = "schedule"
	TriggerCommand  = "site backup"
	TriggerManual   = "manual"
)

// lockName is the backup's lock across instances. The scheduled job also
// holds the job runner's lock "backup"; this one is the backup's own, so
// 'Back up now', the schedule and site backup exclude each other.
const lockName = "backup-run"

// How often a running backup writes how far it got (when that changed),
// and writes at all (so the others can tell it is alive); a row not
// written for StaleAfter is an instance that died mid-backup.
const (
	progressEvery = time.Second
	heartbeat     = 15 * time.Second
	StaleAfter    = time.Minute
	// manualTimeout bounds a backup started from the admin, as the
	// scheduled job's Timeout does.
	manualTimeout = 4 * time.Hour
)

// ErrStopping is returned by Start once the server is stopping.
var ErrStopping = errors.New("the site is stopping; try again once it is back")

// acquire takes this process's and the instances' backup lock without
// waiting: ok is false when a backup runs here or on another instance.
func (s *Service) acquire(ctx context.Context) (release func(), ok bool, err error) {
	if !s.busy.TryLock() {
		return nil, false, nil
	}
	rel, ok, err := s.o.Locker.TryLock(ctx, lockName)
	if err != nil || !ok {
		s.busy.Unlock()
		return nil, false, err
	}
	return func() { rel(); s.busy.Unlock() }, true, nil
}

// runLocked makes one backup now under the lock, and waits for it;
// started is false (with no error) when another backup was running.
func (s *Service) runLocked(ctx context.Context, trigger, requestedBy string) (res Result, started bool, err error) {
	release, ok, err := s.acquire(ctx)
	if err != nil || !ok {
		return Result{}, false, err
	}
	defer release()
	a, err := s.begin(ctx, trigger, requestedBy)
	if err != nil {
		return Result{}, true, err
	}
	res, err = s.runActive(ctx, a)
	return res, true, err
}

// begin records the backup that starts now (the lock is held).
func (s *Service) begin(ctx context.Context, trigger, requestedBy string) (db.ActiveBackup, error) {
	now := s.o.Now().UTC()
	b := make([]byte, 12)
	rand.Read(b)
	a := db.ActiveBackup{ID: hex.EncodeToString(b), StartedAt: now, TriggeredBy: trigger, RequestedBy: requestedBy, Progress: "Starting", UpdatedAt: now}
	return a, s.o.Store.StartBackup(ctx, a)
}

// runActive makes the backup a, keeps its row in backup_active current
// (its progress, and a heartbeat), records the run under a's id and
// forgets the row.
func (s *Service) runActive(ctx context.Context, a db.ActiveBackup) (Result, error) {
	var mu sync.Mutex
	latest, changed := a.Progress, false
	progress := func(p string) {
		mu.Lock()
		latest, changed = p, true
		mu.Unlock()
	}
	done := make(chan struct{})
	var beat sync.WaitGroup
	beat.Add(1)
	go func() {
		defer beat.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		last := time.Now()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			mu.Lock()
			p, ch := latest, changed
			changed = false
			mu.Unlock()
			if !ch && time.Since(last) < heartbeat {
				continue
			}
			last = time.Now()
			wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := s.o.Store.SetBackupProgress(wctx, a.ID, p, s.o.Now().UTC()); err != nil {
				s.o.Log.Warn("backup progress not written", "err", err)
			}
			cancel()
		}
	}()
	res, err := s.record(ctx, a.StartedAt, db.BackupRun{ID: a.ID, TriggeredBy: a.TriggeredBy, RequestedBy: a.RequestedBy}, progress)
	close(done)
	beat.Wait()
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if eerr := s.o.Store.EndBackup(ectx, a.ID); eerr != nil {
		s.o.Log.Error("running backup not cleared", "err", eerr)
	}
	return res, err
}

// Started answers 'Back up now': a backup that began (Started), or the
// one already running here or on another instance. Backup is nil only
// when one is running but has not been recorded within a few seconds.
type Started struct {
	Started bool        `json:"started"`
	Backup  *InProgress `json:"backup"`
}

// Start begins a backup asked for by an account (requestedBy: its email)
// in the background, unless one is running: then it answers with that
// one. The backup outlives the request; Stop ends it.
func (s *Service) Start(ctx context.Context, requestedBy string) (Started, error) {
	if s.life.Err() != nil {
		return Started{}, ErrStopping
	}
	// The lock is held from before a backup's row is written until after
	// it is cleared: a press that finds the lock taken but no row within
	// a few seconds met a backup as it ended, and tries once more.
	var release func()
	for try := 0; ; try++ {
		r, ok, err := s.acquire(ctx)
		if err != nil {
			return Started{}, err
		}
		if ok {
			release = r
			break
		}
		a, err := s.waitRunning(ctx)
		if err != nil || a != nil || try == 1 {
			return Started{Backup: inProgressOf(a)}, err
		}
	}
	a, err := s.begin(ctx, TriggerManual, requestedBy)
	if err != nil {
		release()
		return Started{}, err
	}
	s.running.Add(1)
	go func() {
		defer s.running.Done()
		defer release()
		bctx, cancel := context.WithTimeout(s.life, manualTimeout)
		defer cancel()
		if _, err := s.runActive(bctx, a); err != nil {
			s.o.Log.Warn("backup asked for from the admin failed", "by", requestedBy, "err", err)
		}
	}()
	return Started{Started: true, Backup: inProgressOf(&a)}, nil
}

// waitRunning reads the running backup. The lock is taken before the row
// is written, so a press that lands in between waits a little for it.
func (s *Service) waitRunning(ctx context.Context) (*db.ActiveBackup, error) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		a, err := s.o.Store.RunningBackup(ctx)
		if err != nil || a != nil || time.Now().After(deadline) {
			return a, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Running is the backup running now on any instance, or nil: a row not
// written for StaleAfter was left by an instance that stopped mid-backup.
func (s *Service) Running(ctx context.Context) (*db.ActiveBackup, error) {
	a, err := s.o.Store.RunningBackup(ctx)
	if err != nil || a == nil {
		return nil, err
	}
	if s.o.Now().Sub(a.UpdatedAt) > StaleAfter {
		return nil, nil
	}
	return a, nil
}

// Stop cancels the backups started from the admin and waits for them to
// clean up (a cut-short backup is removed), or for ctx.
func (s *Service) Stop(ctx context.Context) error {
	s.stop()
	done := make(chan struct{})
	go func() { s.running.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("backup still stopping: %w", ctx.Err())
	}
}
