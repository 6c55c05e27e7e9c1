package guard

import (
	"context"
	"sync"
	"time"
)

// Fallback is a shared limit that never fails open. Every attempt the
// shared store grants is also recorded in an in-process Limiter of the
// same size; while the shared store cannot be read (the database is
// down), the in-process one decides alone, so it already knows this
// instance's recent attempts. With N instances the bound during an
// outage is Max per instance, never unlimited.
type Fallback struct {
	Shared *SharedLimiter
	Local  *Limiter
	// OnError hears of each failed shared read (for a log line); nil
	// ignores them.
	OnError func(scope string, err error)

	mu       sync.Mutex
	degraded bool
}

// NewFallback returns a shared limiter with its in-process fallback.
func NewFallback(store AttemptStore, scope string, max int, window time.Duration, onError func(string, error)) *Fallback {
	return &Fallback{
		Shared:  &SharedLimiter{Store: store, Scope: scope, Max: max, Window: window},
		Local:   NewLimiter(max, window),
		OnError: onError,
	}
}

// ReserveAttempt implements Attempts: the shared store decides when it
// answers, the in-process count when it does not. It never returns an
// error.
func (f *Fallback) ReserveAttempt(ctx context.Context, key string, now time.Time) (Canceler, bool, time.Duration, error) {
	r, ok, retry, err := f.Shared.ReserveAttempt(ctx, key, now)
	if err != nil {
		f.failed(err)
		return f.Local.ReserveAttempt(ctx, key, now)
	}
	f.recovered()
	if !ok {
		return nil, false, retry, nil
	}
	return both{r, f.Local.record(key, now)}, true, 0, nil
}

// Check implements Attempts.
func (f *Fallback) Check(ctx context.Context, key string, now time.Time) (bool, time.Duration, error) {
	blocked, retry, err := f.Shared.Check(ctx, key, now)
	if err != nil {
		f.failed(err)
		return f.Local.Check(ctx, key, now)
	}
	return blocked, retry, nil
}

// Degraded reports whether the last shared read failed: the limit is
// then counted in this process only.
func (f *Fallback) Degraded() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.degraded
}

func (f *Fallback) failed(err error) {
	f.mu.Lock()
	first := !f.degraded
	f.degraded = true
	f.mu.Unlock()
	if first && f.OnError != nil {
		f.OnError(f.Shared.Scope, err)
	}
}

func (f *Fallback) recovered() {
	f.mu.Lock()
	f.degraded = false
	f.mu.Unlock()
}

// both cancels a shared attempt and its in-process copy.
type both [2]Canceler

func (b both) Cancel() {
	for _, c := range b {
		if c != nil {
			c.Cancel()
		}
	}
}
