package jobs

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

// runsOf waits until the store holds at least n runs of job and returns
// them oldest first.
func runsOf(t *testing.T, s *db.Store, job string, n int) []db.JobRun {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		all, err := s.RecentJobRuns(context.Background(), 100, true)
		if err != nil {
			t.Fatal(err)
		}
		var out []db.JobRun
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].Job == job {
				out = append(out, all[i])
			}
		}
		if len(out) >= n {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d runs recorded, want %d: %+v", job, len(out), n, out)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func outcomes(runs []db.JobRun) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.Outcome+": "+r.Summary)
	}
	return out
}

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func newRunner(t *testing.T, o Options) (*Runner, *db.Store, *syncBuffer) {
	t.Helper()
	s := db.NewTestSQLite(t)
	logs := &syncBuffer{}
	o.Log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	o.Recorder = s
	if o.Backoff == 0 {
		o.Backoff, o.MaxBackoff = time.Millisecond, 4*time.Millisecond
	}
	r := New(o)
	t.Cleanup(func() { r.Stop(context.Background()) })
	return r, s, logs
}

func TestBackoff(t *testing.T) {
	for _, c := range []struct {
		attempt int
		want    time.Duration
	}{{1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {6, 32 * time.Second}, {7, time.Minute}, {200, time.Minute}} {
		if got := Backoff(time.Second, time.Minute, c.attempt); got != c.want {
			t.Errorf("Backoff(1s, 1m, %d) = %v, want %v", c.attempt, got, c.want)
		}
	}
}

func TestRunIsRecorded(t *testing.T) {
	r, s, _ := newRunner(t, Options{})
	r.Register(Job{Name: "hello", Run: func(ctx context.Context) (string, error) {
		if IsManual(ctx) {
			return "manual", nil
		}
		return "event", nil
	}})
	if r.Trigger("nope") || r.RunNow("nope") {
		t.Error("unknown job accepted")
	}
	// A trigger before Start is kept.
	r.Trigger("hello")
	r.Start()
	runsOf(t, s, "hello", 1)
	r.RunNow("hello")
	runs := runsOf(t, s, "hello", 2)
	if diff := cmp.Diff([]string{"ok: event", "ok: manual"}, outcomes(runs)); diff != "" {
		t.Errorf("runs (-want, +got):\n%s", diff)
	}
	for _, run := range runs {
		if run.ID == "" || run.StartedAt.IsZero() || run.FinishedAt.Before(run.StartedAt) {
			t.Errorf("run row %+v", run)
		}
	}
}

func TestPanicIsRecoveredAndRecordedAsFailed(t *testing.T) {
	r, s, logs := newRunner(t, Options{MaxRetries: 1})
	var calls atomic.Int32
	r.Register(Job{Name: "boom", Run: func(context.Context) (string, error) {
		if calls.Add(1) == 1 {
			panic("boom")
		}
		return "fine", nil
	}})
	r.Start()
	r.RunNow("boom")
	// The panic is a failed run; the retry (1 ms later) succeeds.
	runs := runsOf(t, s, "boom", 2)
	if diff := cmp.Diff([]string{"failed: panic: boom", "ok: fine"}, outcomes(runs)); diff != "" {
		t.Errorf("runs (-want, +got):\n%s", diff)
	}
	if l := logs.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "goroutine") {
		t.Errorf("panic not logged at WARN with its stack:\n%s", l)
	}
}

func TestFailureRetriesWithBackoffThenGivesUp(t *testing.T) {
	r, s, logs := newRunner(t, Options{MaxRetries: 3})
	var calls atomic.Int32
	r.Register(Job{Name: "flaky", Run: func(context.Context) (string, error) {
		return "", errors.New("HTTP 503 #" + string(rune('0'+calls.Add(1))))
	}})
	r.Start()
	r.Trigger("flaky")
	runs := runsOf(t, s, "flaky", 4)
	if diff := cmp.Diff([]string{"failed: HTTP 503 #1", "failed: HTTP 503 #2", "failed: HTTP 503 #3", "failed: HTTP 503 #4"}, outcomes(runs)); diff != "" {
		t.Errorf("runs (-want, +got):\n%s", diff)
	}
	// After MaxRetries it waits for the next event instead of retrying.
	time.Sleep(30 * time.Millisecond)
	if n := calls.Load(); n != 4 {
		t.Errorf("%d calls, want 4 (1 + 3 retries)", n)
	}
	l := logs.String()
	for _, want := range []string{`level=WARN msg="jobs: run failed" job=flaky err="HTTP 503 #1"`, `msg="jobs: retrying" job=flaky attempt=3`, `msg="jobs: giving up until the next run"`} {
		if !strings.Contains(l, want) {
			t.Errorf("log lacks %q:\n%s", want, l)
		}
	}
	// The next event starts afresh.
	r.Trigger("flaky")
	runsOf(t, s, "flaky", 5)
}

func TestSkipAndNoRetry(t *testing.T) {
	r, s, logs := newRunner(t, Options{})
	var calls atomic.Int32
	r.Register(Job{Name: "off", Run: func(context.Context) (string, error) { return "", Skip("switched off") }})
	r.Register(Job{Name: "refused", Run: func(context.Context) (string, error) {
		calls.Add(1)
		return "", NoRetry(errors.New("HTTP 403: key not valid"))
	}})
	r.Start()
	r.RunNow("off")
	r.RunNow("refused")
	if diff := cmp.Diff([]string{"skipped: switched off"}, outcomes(runsOf(t, s, "off", 1))); diff != "" {
		t.Errorf("(-want, +got):\n%s", diff)
	}
	runsOf(t, s, "refused", 1)
	time.Sleep(30 * time.Millisecond) // a retry would come after 1 ms
	if n := calls.Load(); n != 1 {
		t.Errorf("permanent failure ran %d times, want 1", n)
	}
	if strings.Contains(logs.String(), "job=off err") {
		t.Error("a skipped run was logged as a failure")
	}
}

func TestTriggersAreDebounced(t *testing.T) {
	r, s, _ := newRunner(t, Options{})
	var calls atomic.Int32
	r.Register(Job{Name: "batch", Debounce: 40 * time.Millisecond, Run: func(context.Context) (string, error) {
		calls.Add(1)
		return "", nil
	}})
	r.Start()
	for i := 0; i < 20; i++ {
		r.Trigger("batch")
	}
	runsOf(t, s, "batch", 1)
	time.Sleep(80 * time.Millisecond)
	if n := calls.Load(); n != 1 {
		t.Errorf("20 triggers in a burst made %d runs, want 1", n)
	}
}

func TestIntervalRunsAndFirstWait(t *testing.T) {
	r, s, _ := newRunner(t, Options{StartDelay: time.Millisecond})
	// A job that ran a minute ago waits for the rest of its hour.
	now := time.Now().UTC()
	if err := s.RecordJobRun(context.Background(), db.JobRun{Job: "hourly", StartedAt: now.Add(-time.Minute), FinishedAt: now, Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	r.Register(Job{Name: "hourly", Every: time.Hour, Run: func(context.Context) (string, error) { return "", nil }})
	r.Register(Job{Name: "often", Every: 5 * time.Millisecond, Run: func(context.Context) (string, error) { return "tick", nil }})
	if w := r.firstWait(r.jobs["hourly"]); w < 58*time.Minute || w > time.Hour {
		t.Errorf("first wait after a run a minute ago = %v, want about 59m", w)
	}
	if w := r.firstWait(r.jobs["often"]); w != time.Millisecond {
		t.Errorf("first wait of a job that never ran = %v, want StartDelay", w)
	}
	r.Start()
	runsOf(t, s, "often", 3)
}

func TestStopCancelsARunningJob(t *testing.T) {
	r, s, _ := newRunner(t, Options{})
	started := make(chan struct{})
	r.Register(Job{Name: "long", Run: func(ctx context.Context) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	}})
	r.Start()
	r.RunNow("long")
	<-started
	// A ceiling, not a wait: Stop returns as soon as the job has ended
	// and its run is recorded (seconds on a machine at a load of 27).
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	runs := runsOf(t, s, "long", 1)
	if runs[0].Outcome != "failed" || runs[0].Summary != "cancelled" {
		t.Errorf("cancelled run recorded as %+v", runs[0])
	}
	// Triggers after Stop are accepted and ignored.
	r.Trigger("long")
}

// postgres returns a store on the test PostgreSQL, skipping the test when
// none is reachable (failing it in CI), as db.ForEachDB does.
func postgres(t *testing.T) *db.Store {
	t.Helper()
	s, err := db.NewTestPostgres(t)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is required in CI: %v", err)
		}
		t.Skipf("PostgreSQL not reachable: %v", err)
	}
	return s
}

func uniqueName(prefix string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func TestPostgresLockerExcludes(t *testing.T) {
	s := postgres(t)
	ctx := context.Background()
	l := PostgresLocker{DB: s.SQL()}
	name := uniqueName("lock-")
	release, ok, err := l.TryLock(ctx, name)
	if err != nil || !ok {
		t.Fatalf("first lock: %v %v", ok, err)
	}
	if _, ok, err := l.TryLock(ctx, name); err != nil || ok {
		t.Fatalf("second lock while held: ok=%v err=%v, want refused", ok, err)
	}
	if rel, ok, err := l.TryLock(ctx, uniqueName("other-")); err != nil || !ok {
		t.Fatalf("another job's lock: %v %v", ok, err)
	} else {
		rel()
	}
	release()
	release2, ok, err := l.TryLock(ctx, name)
	if err != nil || !ok {
		t.Fatalf("lock after release: %v %v", ok, err)
	}
	release2()
}

// TestAdvisoryLockTwoRunners is two instances sharing one PostgreSQL: a
// job marked Once runs on one of them; the other records a skipped run.
func TestAdvisoryLockTwoRunners(t *testing.T) {
	s := postgres(t)
	name := uniqueName("excl-")
	var running, entered atomic.Int32
	var maxRunning atomic.Int32
	release := make(chan struct{})
	job := Job{Name: name, Once: true, Run: func(ctx context.Context) (string, error) {
		entered.Add(1)
		n := running.Add(1)
		defer running.Add(-1)
		if n > maxRunning.Load() {
			maxRunning.Store(n)
		}
		select {
		case <-release:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return "done", nil
	}}
	var runners []*Runner
	for i := 0; i < 2; i++ {
		r := New(Options{Recorder: s, Locker: PostgresLocker{DB: s.SQL()}, Backoff: time.Millisecond})
		r.Register(job)
		r.Start()
		t.Cleanup(func() { r.Stop(context.Background()) })
		runners = append(runners, r)
	}
	runners[0].RunNow(name)
	runners[1].RunNow(name)
	// One holds the lock and waits; the other finds it taken and skips.
	runs := runsOf(t, s, name, 1)
	if diff := cmp.Diff([]string{"skipped: another instance is running this job"}, outcomes(runs)); diff != "" {
		t.Fatalf("first recorded run (-want, +got):\n%s", diff)
	}
	close(release)
	runs = runsOf(t, s, name, 2)
	got := outcomes(runs)
	sort.Strings(got) // the ok run started first and finished last
	if diff := cmp.Diff([]string{"ok: done", "skipped: another instance is running this job"}, got); diff != "" {
		t.Errorf("runs (-want, +got):\n%s", diff)
	}
	if entered.Load() != 1 || maxRunning.Load() != 1 {
		t.Errorf("job entered %d times, %d at once; want 1 and 1", entered.Load(), maxRunning.Load())
	}
	// The lock was released: the next run goes through.
	runners[1].RunNow(name)
	if got := outcomes(runsOf(t, s, name, 3)); got[2] != "ok: done" {
		t.Errorf("run after release: %s", got[2])
	}
}

// A quiet job's skipped runs are neither recorded nor logged; its runs
// that did something are.
func TestQuietJobRecordsOnlyWork(t *testing.T) {
	r, s, logs := newRunner(t, Options{})
	var calls atomic.Int32
	r.Register(Job{Name: "due", Quiet: true, Run: func(context.Context) (string, error) {
		if calls.Add(1) == 1 {
			return "", Skip("nothing due")
		}
		return "published 1", nil
	}})
	r.Start()
	r.RunNow("due")
	for calls.Load() < 1 {
		time.Sleep(time.Millisecond)
	}
	r.RunNow("due")
	if diff := cmp.Diff([]string{"ok: published 1"}, outcomes(runsOf(t, s, "due", 1))); diff != "" {
		t.Errorf("(-want, +got):\n%s", diff)
	}
	if strings.Contains(logs.String(), "nothing due") {
		t.Error("a quiet job's skipped run was logged")
	}
}

// Observe hears every run's outcome, quiet skips included (the server's
// /metrics counts runs and failures by job).
func TestObserveHearsEveryOutcome(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	r, s, _ := newRunner(t, Options{MaxRetries: 1, Observe: func(job, outcome string, took time.Duration) {
		mu.Lock()
		seen[job+" "+outcome]++
		mu.Unlock()
	}})
	r.Register(Job{Name: "good", Run: func(context.Context) (string, error) { return "done", nil }})
	r.Register(Job{Name: "bad", Run: func(context.Context) (string, error) { return "", NoRetry(errors.New("refused")) }})
	r.Register(Job{Name: "quiet", Quiet: true, Run: func(context.Context) (string, error) { return "", Skip("nothing to do") }})
	r.Start()
	r.RunNow("good")
	r.RunNow("bad")
	r.RunNow("quiet")
	runsOf(t, s, "good", 1)
	runsOf(t, s, "bad", 1)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := seen["quiet skipped"]
		mu.Unlock()
		if n == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(map[string]int{"good ok": 1, "bad failed": 1, "quiet skipped": 1}, seen); diff != "" {
		t.Errorf("observed (-want, +got):\n%s", diff)
	}
}
