// Package jobs runs the server's background work (IndexNow submission, the
// SEO health monitor, the review refresh) inside the server process: on an
// interval, on an event (Trigger), or when the admin asks (RunNow). Each
// run goes in its own goroutine, never on a request's path, and is recorded
// in job_runs. A failed run is logged at WARN and retried with exponential
// backoff. A job marked Once holds a lock while it runs, so with several
// instances on one PostgreSQL database it runs on one of them at a time.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
)

// Func is a job's work. The summary it returns is recorded with the run
// (a line for the dashboard). Returning Skip(...) records a skipped run;
// NoRetry(err) a failed run that is not retried.
type Func func(ctx context.Context) (summary string, err error)

// Job describes one job.
type Job struct {
	Name string
	// Every runs the job on this interval; 0 runs it only on Trigger and
	// RunNow.
	Every time.Duration
	// Debounce makes Trigger wait this long for further triggers before
	// the run, so a burst of events makes one run.
	Debounce time.Duration
	// Once holds the runner's lock for the job while it runs; when another
	// instance holds it the run is recorded as skipped.
	Once bool
	// Timeout bounds one run (default 10 minutes).
	Timeout time.Duration
	// Quiet is for frequent jobs that usually find nothing to do (publish
	// what is due, write counted 404s): a skipped run is neither logged
	// nor recorded, so they do not fill the log and the dashboard.
	Quiet bool
	Run   Func
}

// Recorder stores runs; *db.Store is one.
type Recorder interface {
	RecordJobRun(ctx context.Context, r db.JobRun) error
	LastJobRun(ctx context.Context, job string) (db.JobRun, error)
}

// Options configure a Runner. Zero values take the defaults.
type Options struct {
	Log      *slog.Logger
	Recorder Recorder // nil: runs are not recorded
	Locker   Locker   // nil: NoLocker (one process)
	// Backoff is the wait before the first retry of a failed run; each
	// further retry waits twice as long, up to MaxBackoff. Defaults 1
	// minute and 1 hour.
	Backoff, MaxBackoff time.Duration
	// MaxRetries is how many times a failing run is retried before the job
	// waits for its next interval or event (default 5).
	MaxRetries int
	// Observe, when set, hears of every run's outcome (ok, failed or
	// skipped) and duration: the server's /metrics counts them by job.
	Observe func(job, outcome string, took time.Duration)
	// StartDelay is the least wait before an interval job's first run
	// after Start (default 1 minute), so boot and warm-up go first. A job
	// that ran less than an interval ago waits for the rest of it.
	StartDelay time.Duration
}

// Runner runs registered jobs. Register every job before Start.
type Runner struct {
	opt  Options
	log  *slog.Logger
	jobs map[string]*job

	mu      sync.Mutex
	started bool
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

type job struct {
	Job
	trigger chan struct{} // an event: debounced
	now     chan struct{} // the admin asked: at once
}

// New returns a runner with no jobs.
func New(o Options) *Runner {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Locker == nil {
		o.Locker = NoLocker{}
	}
	if o.Backoff <= 0 {
		o.Backoff = time.Minute
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = time.Hour
	}
	if o.MaxRetries <= 0 {
		o.MaxRetries = 5
	}
	if o.StartDelay <= 0 {
		o.StartDelay = time.Minute
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Runner{opt: o, log: o.Log, jobs: map[string]*job{}, ctx: ctx, cancel: cancel}
}

// Register adds a job. It panics on a duplicate name or after Start: both
// are wiring mistakes.
func (r *Runner) Register(j Job) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		panic("jobs: Register after Start: " + j.Name)
	}
	if _, dup := r.jobs[j.Name]; dup || j.Name == "" || j.Run == nil {
		panic("jobs: bad or duplicate job " + j.Name)
	}
	if j.Timeout <= 0 {
		j.Timeout = 10 * time.Minute
	}
	r.jobs[j.Name] = &job{Job: j, trigger: make(chan struct{}, 1), now: make(chan struct{}, 1)}
}

// Has reports whether a job is registered.
func (r *Runner) Has(name string) bool {
	_, ok := r.jobs[name]
	return ok
}

// Start starts every job's loop. Triggers that came before Start are kept.
func (r *Runner) Start() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		return
	}
	r.started = true
	for _, j := range r.jobs {
		r.wg.Add(1)
		go r.loop(j)
	}
}

// Stop cancels running jobs and waits for their loops to end, or for ctx.
func (r *Runner) Stop(ctx context.Context) error {
	r.cancel()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("jobs: stop: %w", ctx.Err())
	}
}

// Trigger signals an event for a job: it runs after its Debounce, once
// for any number of triggers within it. It never blocks, and reports
// whether the job exists.
func (r *Runner) Trigger(name string) bool { return r.signal(name, false) }

// RunNow asks for a run at once (the admin pressed a button); the job sees
// IsManual(ctx). It never blocks: the run happens in the job's goroutine.
func (r *Runner) RunNow(name string) bool { return r.signal(name, true) }

func (r *Runner) signal(name string, now bool) bool {
	j, ok := r.jobs[name]
	if !ok {
		return false
	}
	ch := j.trigger
	if now {
		ch = j.now
	}
	select {
	case ch <- struct{}{}:
	default: // one is pending already
	}
	return true
}

type manualKey struct{}

// IsManual reports whether a run was asked for with RunNow.
func IsManual(ctx context.Context) bool {
	v, _ := ctx.Value(manualKey{}).(bool)
	return v
}

// skipError marks a run as skipped.
type skipError struct{ reason string }

func (e *skipError) Error() string { return e.reason }

// Skip returns an error that records the run as skipped with reason as
// its summary (a switch is off, nothing to do): no WARN, no retry.
func Skip(reason string) error { return &skipError{reason} }

// noRetryError marks a failure that retrying cannot fix.
type noRetryError struct{ err error }

func (e *noRetryError) Error() string { return e.err.Error() }
func (e *noRetryError) Unwrap() error { return e.err }

// NoRetry marks err as permanent: the run is recorded as failed but not
// retried (a refused key, a bad request).
func NoRetry(err error) error { return &noRetryError{err} }

// Backoff is the wait before retry number attempt (1-based): base doubled
// for each earlier retry, at most max.
func Backoff(base, max time.Duration, attempt int) time.Duration {
	d := base
	for i := 1; i < attempt; i++ {
		d *= 2
		if d >= max || d <= 0 {
			return max
		}
	}
	return min(d, max)
}

// firstWait is how long an interval job waits after Start: the rest of
// its interval since its last recorded run, at least StartDelay.
func (r *Runner) firstWait(j *job) time.Duration {
	wait := r.opt.StartDelay
	if r.opt.Recorder == nil {
		return wait
	}
	ctx, cancel := context.WithTimeout(r.ctx, 5*time.Second)
	defer cancel()
	last, err := r.opt.Recorder.LastJobRun(ctx, j.Name)
	if err != nil {
		if !errors.Is(err, db.ErrNotFound) {
			r.log.Warn("jobs: last run unknown", "job", j.Name, "err", err)
		}
		return wait
	}
	if rest := time.Until(last.StartedAt.Add(j.Every)); rest > wait {
		wait = min(rest, j.Every)
	}
	return wait
}

// loop is one job's goroutine: it waits for the interval, a trigger, a
// manual request or a retry, and runs the job; runs of one job never
// overlap.
func (r *Runner) loop(j *job) {
	defer r.wg.Done()
	var (
		interval, debounce, retry *time.Timer
		attempt                   int
	)
	ch := func(t *time.Timer) <-chan time.Time {
		if t == nil {
			return nil
		}
		return t.C
	}
	stop := func(t *time.Timer) {
		if t != nil {
			t.Stop()
		}
	}
	defer func() { stop(interval); stop(debounce); stop(retry) }()
	if j.Every > 0 {
		interval = time.NewTimer(r.firstWait(j))
	}
	for {
		manual := false
		select {
		case <-r.ctx.Done():
			return
		case <-j.trigger:
			if j.Debounce > 0 {
				if debounce == nil {
					debounce = time.NewTimer(j.Debounce)
				} else {
					debounce.Reset(j.Debounce)
				}
				continue
			}
		case <-ch(debounce):
			debounce = nil
		case <-j.now:
			manual = true
		case <-ch(interval):
		case <-ch(retry):
			retry = nil
		}
		outcome, retryable := r.run(j, manual)
		if r.ctx.Err() != nil {
			return
		}
		if j.Every > 0 {
			interval.Reset(j.Every)
		}
		stop(retry)
		retry = nil
		if outcome == db.OutcomeFailed && retryable && attempt < r.opt.MaxRetries {
			attempt++
			wait := Backoff(r.opt.Backoff, r.opt.MaxBackoff, attempt)
			r.log.Warn("jobs: retrying", "job", j.Name, "attempt", attempt, "in", wait.String())
			retry = time.NewTimer(wait)
			continue
		}
		if outcome == db.OutcomeFailed && retryable {
			r.log.Warn("jobs: giving up until the next run", "job", j.Name, "retries", attempt)
		}
		attempt = 0
	}
}

// run runs the job once (under its lock when Once), recovers a panic,
// records the run and reports its outcome and whether a failure may be
// retried.
func (r *Runner) run(j *job, manual bool) (outcome string, retryable bool) {
	ctx, cancel := context.WithTimeout(r.ctx, j.Timeout)
	defer cancel()
	ctx = context.WithValue(ctx, manualKey{}, manual)
	rec := db.JobRun{Job: j.Name, StartedAt: time.Now().UTC()}
	summary, err := r.locked(ctx, j)
	rec.FinishedAt = time.Now().UTC()
	var skip *skipError
	var permanent *noRetryError
	if r.opt.Observe != nil {
		outcome := db.OutcomeOK
		switch {
		case errors.As(err, &skip):
			outcome = db.OutcomeSkipped
		case err != nil:
			outcome = db.OutcomeFailed
		}
		r.opt.Observe(j.Name, outcome, rec.FinishedAt.Sub(rec.StartedAt))
	}
	switch {
	case errors.As(err, &skip) && j.Quiet:
		return db.OutcomeSkipped, false
	case errors.As(err, &skip):
		rec.Outcome, rec.Summary = db.OutcomeSkipped, skip.reason
		r.log.Info("jobs: skipped", "job", j.Name, "reason", skip.reason)
	case err != nil:
		// The dashboard shows the kind of failure; the log keeps the
		// detail (an address, a port, a URL's path).
		rec.Outcome, rec.Summary = db.OutcomeFailed, failure.Text(err)
		retryable = !errors.As(err, &permanent)
		r.log.Warn("jobs: run failed", "job", j.Name, "err", err, "took", rec.FinishedAt.Sub(rec.StartedAt).Round(time.Millisecond).String())
	default:
		rec.Outcome, rec.Summary = db.OutcomeOK, summary
		r.log.Info("jobs: run ok", "job", j.Name, "summary", summary, "took", rec.FinishedAt.Sub(rec.StartedAt).Round(time.Millisecond).String())
	}
	if r.opt.Recorder != nil {
		// Recorded even when shutdown cancelled the run.
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		if err := r.opt.Recorder.RecordJobRun(rctx, rec); err != nil {
			r.log.Warn("jobs: run not recorded", "job", j.Name, "err", err)
		}
		rcancel()
	}
	return rec.Outcome, retryable
}

// locked runs the job, under its lock when it is Once. The lock is
// released before the run is recorded, so a run that sees the record can
// take it.
func (r *Runner) locked(ctx context.Context, j *job) (string, error) {
	if !j.Once {
		return r.safeRun(ctx, j)
	}
	release, ok, err := r.opt.Locker.TryLock(ctx, j.Name)
	if err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	if !ok {
		return "", Skip("another instance is running this job")
	}
	defer release()
	return r.safeRun(ctx, j)
}

// safeRun turns a panic in the job into an error; the stack goes to the
// log, not into the recorded summary.
func (r *Runner) safeRun(ctx context.Context, j *job) (summary string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
			r.log.Warn("jobs: panic", "job", j.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	return j.Run(ctx)
}
