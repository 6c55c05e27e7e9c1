package guard

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A pacer starts at most its rate (after the burst) and runs at most its
// concurrency at once; every run that was admitted runs.
func TestPacerBoundsRateAndConcurrency(t *testing.T) {
	p := NewPacer(100, 5, 2, 5*time.Second)
	var running, most, ran atomic.Int32
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := p.Do(context.Background(), func() {
				n := running.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				time.Sleep(5 * time.Millisecond)
				running.Add(-1)
				ran.Add(1)
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	// 5 at once, then 35 more at 100 a second: at least 350 ms.
	if d := time.Since(start); d < 330*time.Millisecond {
		t.Errorf("40 runs took %v, faster than the rate allows", d)
	}
	if ran.Load() != 40 || most.Load() > 2 {
		t.Errorf("%d runs, %d at once (limit 2)", ran.Load(), most.Load())
	}
}

// A run whose turn is further than MaxWait is refused at once and gives
// its turn back; one waiting for a slot gives up after MaxWait; a
// cancelled context ends the wait.
func TestPacerRefuses(t *testing.T) {
	p := NewPacer(1, 1, 1, 200*time.Millisecond)
	if err := p.Do(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ran := false
	if err := p.Do(context.Background(), func() { ran = true }); err != ErrPaced || ran || time.Since(start) > 50*time.Millisecond {
		t.Errorf("turn a second away: %v ran=%v after %v, want ErrPaced at once", err, ran, time.Since(start))
	}

	p = NewPacer(1000, 10, 1, 100*time.Millisecond)
	held, release := make(chan struct{}), make(chan struct{})
	go p.Do(context.Background(), func() { close(held); <-release })
	<-held
	start = time.Now()
	if err := p.Do(context.Background(), func() { ran = true }); err != ErrPaced || ran || time.Since(start) < 100*time.Millisecond {
		t.Errorf("slot held: %v ran=%v after %v", err, ran, time.Since(start))
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	start = time.Now()
	if err := p.Do(ctx, func() { ran = true }); err != ErrPaced || ran || time.Since(start) > 90*time.Millisecond {
		t.Errorf("cancelled: %v ran=%v after %v", err, ran, time.Since(start))
	}
	close(release)
	if err := p.Do(context.Background(), func() { ran = true }); err != nil || !ran {
		t.Errorf("after release: %v ran=%v", err, ran)
	}
}

// Stats count the work waiting, running and refused (/metrics' search
// queue and rejections).
func TestPacerStats(t *testing.T) {
	p := NewPacer(1000, 10, 1, 300*time.Millisecond)
	held, release := make(chan struct{}), make(chan struct{})
	go p.Do(context.Background(), func() { close(held); <-release })
	<-held
	waiting := make(chan error, 1)
	go func() { waiting <- p.Do(context.Background(), func() {}) }()
	deadline := time.Now().Add(time.Second)
	for p.Stats().Waiting != 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if st := p.Stats(); st.Waiting != 1 || st.Running != 1 || st.Refused != 0 {
		t.Errorf("one running, one waiting: %+v", st)
	}
	if err := <-waiting; err != ErrPaced {
		t.Fatalf("the waiting one: %v", err)
	}
	close(release)
	for p.Stats().Running != 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if st := p.Stats(); st.Waiting != 0 || st.Running != 0 || st.Refused != 1 {
		t.Errorf("after: %+v", st)
	}
}
