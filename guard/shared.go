package guard

import (
	"context"
	"time"
)

// Attempts is a limiter whose attempts are reserved before they are
// checked: the in-memory Limiter (one process) or a SharedLimiter (every
// instance on one database). Both follow the same race-safe rule.
type Attempts interface {
	// ReserveAttempt takes an attempt for key, or says when one frees up.
	// An error means the limiter could not decide (its store is down).
	ReserveAttempt(ctx context.Context, key string, now time.Time) (Canceler, bool, time.Duration, error)
	// Check reports, without taking an attempt, whether key is out of
	// attempts and when one frees up.
	Check(ctx context.Context, key string, now time.Time) (bool, time.Duration, error)
}

// Canceler gives a reserved attempt back.
type Canceler interface{ Cancel() }

// ReserveAttempt makes the in-memory Limiter an Attempts.
func (l *Limiter) ReserveAttempt(_ context.Context, key string, now time.Time) (Canceler, bool, time.Duration, error) {
	r, ok, retry := l.Reserve(key, now)
	if !ok {
		return nil, false, retry, nil
	}
	return r, true, 0, nil
}

// Check makes the in-memory Limiter an Attempts.
func (l *Limiter) Check(_ context.Context, key string, now time.Time) (bool, time.Duration, error) {
	blocked, retry := l.Blocked(key, now)
	return blocked, retry, nil
}

// AttemptStore keeps attempts where every instance sees them (db.Store).
type AttemptStore interface {
	ReserveAttempt(ctx context.Context, scope, key string, now time.Time, window time.Duration, max int) (id string, ok bool, retry time.Duration, err error)
	CancelAttempt(ctx context.Context, id string) error
	// AttemptTimes lists the times of key's attempts after since, oldest first.
	AttemptTimes(ctx context.Context, scope, key string, since time.Time) ([]time.Time, error)
}

// SharedLimiter counts attempts in a shared store, so that N instances
// behind a load balancer allow Max attempts per key per Window in all,
// not Max each. Scope separates the limits (pin, login, estimate).
type SharedLimiter struct {
	Store  AttemptStore
	Scope  string
	Max    int
	Window time.Duration
}

// ReserveAttempt implements Attempts.
func (l *SharedLimiter) ReserveAttempt(ctx context.Context, key string, now time.Time) (Canceler, bool, time.Duration, error) {
	id, ok, retry, err := l.Store.ReserveAttempt(ctx, l.Scope, key, now, l.Window, l.Max)
	if err != nil || !ok {
		return nil, false, retry, err
	}
	return &sharedReservation{store: l.Store, id: id}, true, 0, nil
}

// Check implements Attempts.
func (l *SharedLimiter) Check(ctx context.Context, key string, now time.Time) (bool, time.Duration, error) {
	times, err := l.Store.AttemptTimes(ctx, l.Scope, key, now.Add(-l.Window))
	if err != nil || len(times) < l.Max {
		return false, 0, err
	}
	return true, times[len(times)-l.Max].Add(l.Window).Sub(now), nil
}

type sharedReservation struct {
	store AttemptStore
	id    string
}

// Cancel deletes the attempt; it outlives the request's context so that a
// success is never counted as a failure because the client went away.
func (r *sharedReservation) Cancel() {
	if r == nil || r.id == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r.store.CancelAttempt(ctx, r.id)
	r.id = ""
}
