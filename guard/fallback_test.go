package guard

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// flakyStore is an AttemptStore in memory that can be taken down.
type flakyStore struct {
	mu   sync.Mutex
	down bool
	ids  int
	at   map[string][]struct {
		id string
		at time.Time
	}
}

var errDown = errors.New("database unreachable")

func (s *flakyStore) setDown(d bool) { s.mu.Lock(); s.down = d; s.mu.Unlock() }

func (s *flakyStore) ReserveAttempt(_ context.Context, scope, key string, now time.Time, window time.Duration, max int) (string, bool, time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return "", false, 0, errDown
	}
	k := scope + "|" + key
	var live []struct {
		id string
		at time.Time
	}
	for _, a := range s.at[k] {
		if now.Sub(a.at) < window {
			live = append(live, a)
		}
	}
	if len(live) >= max {
		s.at[k] = live
		return "", false, live[0].at.Add(window).Sub(now), nil
	}
	s.ids++
	id := k + "#" + time.Duration(s.ids).String()
	s.at[k] = append(live, struct {
		id string
		at time.Time
	}{id, now})
	return id, true, 0, nil
}

func (s *flakyStore) CancelAttempt(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return errDown
	}
	for k, as := range s.at {
		for i, a := range as {
			if a.id == id {
				s.at[k] = append(as[:i:i], as[i+1:]...)
				return nil
			}
		}
	}
	return nil
}

func (s *flakyStore) AttemptTimes(_ context.Context, scope, key string, since time.Time) ([]time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return nil, errDown
	}
	var out []time.Time
	for _, a := range s.at[scope+"|"+key] {
		if a.at.After(since) {
			out = append(out, a.at)
		}
	}
	return out, nil
}

// While the store is down the limit is counted in process, and that
// count already holds the attempts the store granted before: 3 granted
// while up leave 2 while down, whatever the parallelism.
func TestFallbackNeverFailsOpen(t *testing.T) {
	st := &flakyStore{at: map[string][]struct {
		id string
		at time.Time
	}{}}
	var reported atomic.Int32
	f := NewFallback(st, "estimate", 5, 10*time.Minute, func(string, error) { reported.Add(1) })
	ctx := context.Background()
	now := time.Now()
	for i := 0; i < 3; i++ {
		if _, ok, _, err := f.ReserveAttempt(ctx, "ip", now); !ok || err != nil {
			t.Fatalf("attempt %d while up: ok=%v err=%v", i, ok, err)
		}
	}
	st.setDown(true)
	var granted atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, _, err := f.ReserveAttempt(ctx, "ip", now.Add(time.Second))
			if err != nil {
				t.Error("the fallback returned an error")
			}
			if ok {
				granted.Add(1)
			}
		}()
	}
	wg.Wait()
	if g := granted.Load(); g != 2 {
		t.Errorf("granted %d while the store was down, want 2", g)
	}
	if !f.Degraded() || reported.Load() != 1 {
		t.Errorf("degraded %v, reported %d times (want once per outage)", f.Degraded(), reported.Load())
	}
	if blocked, retry, err := f.Check(ctx, "ip", now.Add(time.Second)); !blocked || err != nil || retry <= 0 {
		t.Errorf("Check while down: blocked=%v retry=%v err=%v", blocked, retry, err)
	}
	// Back up: the store decides again.
	st.setDown(false)
	if _, ok, _, _ := f.ReserveAttempt(ctx, "other", now); !ok || f.Degraded() {
		t.Error("the store's answer is not used once it is back")
	}
}

// Cancel gives back both the shared attempt and its in-process copy.
func TestFallbackCancelGivesBothBack(t *testing.T) {
	st := &flakyStore{at: map[string][]struct {
		id string
		at time.Time
	}{}}
	f := NewFallback(st, "login", 1, time.Minute, nil)
	ctx := context.Background()
	now := time.Now()
	r, ok, _, _ := f.ReserveAttempt(ctx, "k", now)
	if !ok {
		t.Fatal("first attempt refused")
	}
	r.Cancel()
	if _, ok, _, _ := f.ReserveAttempt(ctx, "k", now); !ok {
		t.Fatal("the shared attempt was not given back")
	}
	st.setDown(true)
	if _, ok, _, _ := f.ReserveAttempt(ctx, "k", now); ok {
		t.Error("the in-process copy of the second attempt is missing")
	}
}
