package server

import (
	"sync"
	"time"
)

// RateLimiter allows at most Max events per key within Window (a sliding
// window kept in memory). Keys are client IPs.
type RateLimiter struct {
	Max    int
	Window time.Duration

	mu     sync.Mutex
	events map[string][]time.Time
	sweep  time.Time
}

// NewRateLimiter returns a limiter of max events per window.
func NewRateLimiter(max int, window time.Duration) *RateLimiter {
	return &RateLimiter{Max: max, Window: window, events: map[string][]time.Time{}}
}

// Allow records an event for key at now and reports whether it is within
// the limit. When it is not, retry says when the oldest event expires.
func (r *RateLimiter) Allow(key string, now time.Time) (ok bool, retry time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gc(now)
	ev := r.recent(key, now)
	if len(ev) >= r.Max {
		r.events[key] = ev
		return false, ev[0].Add(r.Window).Sub(now)
	}
	r.events[key] = append(ev, now)
	return true, 0
}

// Blocked reports whether key is over the limit without recording.
func (r *RateLimiter) Blocked(key string, now time.Time) (bool, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev := r.recent(key, now)
	if len(ev) >= r.Max {
		return true, ev[0].Add(r.Window).Sub(now)
	}
	return false, 0
}

// Reset forgets a key (a successful login clears its failures).
func (r *RateLimiter) Reset(key string) {
	r.mu.Lock()
	delete(r.events, key)
	r.mu.Unlock()
}

func (r *RateLimiter) recent(key string, now time.Time) []time.Time {
	ev := r.events[key]
	i := 0
	for i < len(ev) && now.Sub(ev[i]) >= r.Window {
		i++
	}
	return ev[i:]
}

// gc drops idle keys once per window so the map stays bounded.
func (r *RateLimiter) gc(now time.Time) {
	if now.Sub(r.sweep) < r.Window {
		return
	}
	r.sweep = now
	for k := range r.events {
		if len(r.recent(k, now)) == 0 {
			delete(r.events, k)
		}
	}
}
