// Package guard holds the server's defences against guessing and floods:
// a sliding-window limiter whose attempts are reserved before they are
// checked (so concurrency cannot buy extra guesses), and a gate that bounds
// how many password or PIN hash comparisons run at once, server-wide.
//
// Every secret check (the admin PIN, account sign-in, and any later one)
// follows the same rule:
//
//	r, ok, retry := limiter.Reserve(key, now)   // before the hash
//	if !ok { answer 429 with retry }
//	match := gate.Compare(ctx, hash, secret)    // bounded concurrency
//	if match { r.Cancel(); limiter.Reset(key) } // success gives the slot back
//	// a failure keeps the slot: it counts
package guard

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Limiter allows at most Max events per key within Window (a sliding
// window kept in memory). Keys are client IPs or account emails.
type Limiter struct {
	Max    int
	Window time.Duration

	mu     sync.Mutex
	events map[string][]*slot
	sweep  time.Time
}

type slot struct{ at time.Time }

// NewLimiter returns a limiter of max events per window.
func NewLimiter(max int, window time.Duration) *Limiter {
	return &Limiter{Max: max, Window: window, events: map[string][]*slot{}}
}

// Reservation is one attempt taken from a limiter before it was checked.
// Cancel gives it back (the attempt succeeded and must not count).
type Reservation struct {
	l   *Limiter
	key string
	s   *slot
}

// Cancel returns the reserved attempt. Calling it twice, or on a nil
// reservation, does nothing.
func (r *Reservation) Cancel() {
	if r == nil || r.l == nil {
		return
	}
	l := r.l
	r.l = nil
	l.mu.Lock()
	defer l.mu.Unlock()
	ev := l.events[r.key]
	for i, s := range ev {
		if s == r.s {
			l.events[r.key] = append(ev[:i:i], ev[i+1:]...)
			break
		}
	}
	if len(l.events[r.key]) == 0 {
		delete(l.events, r.key)
	}
}

// Reserve takes one attempt for key at now, atomically with the check
// that one is left: however many requests race, at most Max reservations
// per key exist within a window. When none is left it returns ok=false
// and the time until the oldest attempt expires.
func (l *Limiter) Reserve(key string, now time.Time) (r *Reservation, ok bool, retry time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gc(now)
	ev := l.recent(key, now)
	if len(ev) >= l.Max {
		l.events[key] = ev
		return nil, false, ev[len(ev)-l.Max].at.Add(l.Window).Sub(now)
	}
	s := &slot{at: now}
	l.events[key] = append(ev, s)
	return &Reservation{l: l, key: key, s: s}, true, 0
}

// record takes an attempt for key at now whatever the count: the copy
// of an attempt another limiter granted (Fallback).
func (l *Limiter) record(key string, now time.Time) *Reservation {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gc(now)
	s := &slot{at: now}
	l.events[key] = append(l.recent(key, now), s)
	return &Reservation{l: l, key: key, s: s}
}

// Allow records an event for key at now and reports whether it is within
// the limit (a reservation that is never cancelled).
func (l *Limiter) Allow(key string, now time.Time) (ok bool, retry time.Duration) {
	_, ok, retry = l.Reserve(key, now)
	return ok, retry
}

// Blocked reports whether key is over the limit, without recording.
func (l *Limiter) Blocked(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ev := l.recent(key, now)
	if len(ev) >= l.Max {
		return true, ev[len(ev)-l.Max].at.Add(l.Window).Sub(now)
	}
	return false, 0
}

// Reset forgets a key (a successful sign-in clears its failures).
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	delete(l.events, key)
	l.mu.Unlock()
}

func (l *Limiter) recent(key string, now time.Time) []*slot {
	ev := l.events[key]
	i := 0
	for i < len(ev) && now.Sub(ev[i].at) >= l.Window {
		i++
	}
	return ev[i:]
}

// gc drops idle keys once per window so the map stays bounded.
func (l *Limiter) gc(now time.Time) {
	if now.Sub(l.sweep) < l.Window {
		return
	}
	l.sweep = now
	for k := range l.events {
		if len(l.recent(k, now)) == 0 {
			delete(l.events, k)
		}
	}
}

// ErrBusy is returned when no hash slot freed up before the request gave up.
var ErrBusy = errors.New("guard: too many sign-in checks at once")

// HashGate bounds the number of slow hash comparisons (bcrypt, argon2id)
// running at once, server-wide, so a burst of sign-in attempts cannot take
// the CPU from visitors. Waiters queue until their context ends or MaxWait
// passes.
type HashGate struct {
	slots   chan struct{}
	MaxWait time.Duration
}

// NewHashGate allows n comparisons at once (at least 1).
func NewHashGate(n int, maxWait time.Duration) *HashGate {
	if n < 1 {
		n = 1
	}
	return &HashGate{slots: make(chan struct{}, n), MaxWait: maxWait}
}

// Do runs fn when a slot is free. It returns ErrBusy when none frees up
// within MaxWait or before ctx ends; fn has then not run.
func (g *HashGate) Do(ctx context.Context, fn func()) error {
	t := time.NewTimer(g.MaxWait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
	case <-ctx.Done():
		return ErrBusy
	case <-t.C:
		return ErrBusy
	}
	defer func() { <-g.slots }()
	fn()
	return nil
}

// Size is the number of comparisons allowed at once.
func (g *HashGate) Size() int { return cap(g.slots) }

// ValidText reports whether s can be stored as text on both databases:
// valid UTF-8 with no NUL (PostgreSQL refuses a NUL in text; invalid UTF-8
// would be stored mangled or refused later, away from whoever could fix
// it).
func ValidText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}
