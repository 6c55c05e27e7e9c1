package guard

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A burst of parallel attempts gets at most Max reservations, whatever the
// interleaving: the check and the reservation are one step.
func TestReserveHoldsUnderConcurrency(t *testing.T) {
	l := NewLimiter(5, time.Minute)
	now := time.Now()
	var granted atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 500; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, ok, _ := l.Reserve("ip", now); ok {
				granted.Add(1)
			}
		}()
	}
	wg.Wait()
	if g := granted.Load(); g != 5 {
		t.Fatalf("granted %d reservations, want 5", g)
	}
	if _, ok, retry := l.Reserve("ip", now.Add(30*time.Second)); ok || retry != 30*time.Second {
		t.Errorf("6th: ok=%v retry=%v, want refused with 30s", ok, retry)
	}
	if _, ok, _ := l.Reserve("other", now); !ok {
		t.Error("another key was limited")
	}
	if _, ok, _ := l.Reserve("ip", now.Add(time.Minute)); !ok {
		t.Error("attempts did not age out after the window")
	}
}

// Cancel gives exactly one attempt back, once.
func TestCancel(t *testing.T) {
	l := NewLimiter(2, time.Minute)
	now := time.Now()
	a, _, _ := l.Reserve("k", now)
	l.Reserve("k", now)
	if _, ok, _ := l.Reserve("k", now); ok {
		t.Fatal("third reservation granted")
	}
	a.Cancel()
	a.Cancel()
	var nilRes *Reservation
	nilRes.Cancel()
	if _, ok, _ := l.Reserve("k", now); !ok {
		t.Fatal("cancelled attempt not given back")
	}
	if _, ok, _ := l.Reserve("k", now); ok {
		t.Fatal("a double cancel gave back two attempts")
	}
	if blocked, _ := l.Blocked("k", now); !blocked {
		t.Error("Blocked disagrees with Reserve")
	}
	l.Reset("k")
	if ok, _ := l.Allow("k", now); !ok {
		t.Error("Reset did not clear the key")
	}
}

// The gate never runs more than its size at once, and a waiter that
// cannot get a slot in time is refused without running.
func TestHashGateBoundsConcurrency(t *testing.T) {
	g := NewHashGate(2, time.Second)
	var cur, peak atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.Do(context.Background(), func() {
				n := cur.Add(1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				time.Sleep(2 * time.Millisecond)
				cur.Add(-1)
			})
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 2 || p < 1 {
		t.Fatalf("peak concurrency %d, want 1..2", p)
	}

	busy := NewHashGate(1, 20*time.Millisecond)
	release := make(chan struct{})
	started := make(chan struct{})
	go busy.Do(context.Background(), func() { close(started); <-release })
	<-started
	ran := false
	if err := busy.Do(context.Background(), func() { ran = true }); !errors.Is(err, ErrBusy) || ran {
		t.Errorf("saturated gate: err=%v ran=%v, want ErrBusy and not run", err, ran)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := busy.Do(ctx, func() { ran = true }); !errors.Is(err, ErrBusy) || ran {
		t.Errorf("cancelled context: err=%v ran=%v", err, ran)
	}
	close(release)
}
