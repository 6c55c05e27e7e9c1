package spool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Saver stores a lead (with whatever announces it) in the database. Saving
// a lead whose id is stored already must change nothing and succeed:
// that is what makes a replay safe. notify.Notifier is one.
type Saver interface {
	SaveLead(ctx context.Context, l db.Lead) error
}

// Outcome says where a submitted lead went.
type Outcome int

// Outcomes of Submit.
const (
	// Stored: the lead is in the database.
	Stored Outcome = iota + 1
	// Spooled: the database could not take it; it is in the spool, on
	// disk, and goes to the database once it is back.
	Spooled
)

// Timing of the intake.
const (
	// SaveTimeout bounds the database save of a submission: past it the
	// lead is spooled, so a hung database cannot hang the visitor.
	SaveTimeout = 5 * time.Second
	// RetryMin and RetryMax space the replays while the database is down.
	RetryMin = time.Second
	RetryMax = time.Minute
	// Idle is how often the replay loop looks for a backlog.
	Idle = 2 * time.Second
)

// Intake takes submitted leads: into the database, else into the spool.
type Intake struct {
	saver Saver
	spool *Spool
	alive func(context.Context) error
	log   *slog.Logger

	retryMin, retryMax, idle time.Duration
}

// NewIntake returns an intake saving through saver. sp may be nil (no
// spool: a failed save is the caller's error). alive reports whether the
// database is reachable (a ping); nil treats every failed save as an
// outage.
func NewIntake(saver Saver, sp *Spool, alive func(context.Context) error, log *slog.Logger) *Intake {
	return &Intake{saver: saver, spool: sp, alive: alive, log: log, retryMin: RetryMin, retryMax: RetryMax, idle: Idle}
}

// SetTiming changes the replay loop's pace (tests).
func (in *Intake) SetTiming(retryMin, retryMax, idle time.Duration) {
	in.retryMin, in.retryMax, in.idle = retryMin, retryMax, idle
}

// Submit stores l, or spools it when the database cannot take it. A nil
// error means the lead is durable: in the database or fsynced to disk.
// The visitor leaving mid-request does not cancel the save.
func (in *Intake) Submit(ctx context.Context, l db.Lead) (Outcome, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), SaveTimeout)
	defer cancel()
	err := in.saver.SaveLead(ctx, l)
	if err == nil {
		return Stored, nil
	}
	if in.spool == nil {
		return 0, err
	}
	if serr := in.spool.Append(Record{Key: l.ID, At: time.Now().UTC(), Lead: l}); serr != nil {
		return 0, errors.Join(err, serr)
	}
	in.log.Warn("lead spooled: the database could not take it; it will be replayed", "lead", l.ID, "err", err, "backlog", in.spool.Backlog())
	return Spooled, nil
}

// Backlog is how many spooled leads wait for the database.
func (in *Intake) Backlog() int {
	if in.spool == nil {
		return 0
	}
	return in.spool.Backlog()
}

// Refused is how many spooled leads the database kept refusing (moved
// aside, never retried forever): an alarm for the dashboard and /healthz.
func (in *Intake) Refused() int {
	if in.spool == nil {
		return 0
	}
	return in.spool.Refused()
}

// Replay puts the spooled leads into the database now.
func (in *Intake) Replay(ctx context.Context) (int, error) {
	if in.spool == nil {
		return 0, nil
	}
	return in.spool.Replay(ctx, func(ctx context.Context, r Record) error {
		if err := in.saver.SaveLead(ctx, r.Lead); err != nil {
			return fmt.Errorf("save: %w", err)
		}
		return nil
	}, in.alive)
}

// Run replays the backlog until ctx ends: at once (leads an earlier
// process spooled), then whenever there is one, waiting longer after each
// failed replay (RetryMin doubling up to RetryMax).
func (in *Intake) Run(ctx context.Context) {
	if in.spool == nil {
		return
	}
	wait := in.retryMin
	for {
		next := in.idle
		if in.Backlog() > 0 {
			n, err := in.Replay(ctx)
			switch {
			case err != nil && ctx.Err() == nil:
				in.log.Warn("lead spool: replay incomplete; will retry", "replayed", n, "backlog", in.Backlog(), "err", err, "retry_in", wait.String())
				next = wait
				wait = min(2*wait, in.retryMax)
			case n > 0:
				in.log.Info("lead spool: replayed into the database", "leads", n, "backlog", in.Backlog())
				wait = in.retryMin
			}
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}
