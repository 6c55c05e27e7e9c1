package db

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Attempts reserved in the database hold their limit under concurrency,
// as several instances racing on one key would.
func TestReserveAttemptUnderConcurrency(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		workers := 40
		if s.Dialect() == "sqlite" {
			workers = 1 // one writer: SQLite runs one process (memory limits)
		}
		var granted atomic.Int32
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 10/workers+1; i++ {
					_, ok, _, err := s.ReserveAttempt(ctx, "pin", "198.51.100.7", now, 15*time.Minute, 5)
					if err != nil {
						t.Error(err)
						return
					}
					if ok {
						granted.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		if g := granted.Load(); g != 5 {
			t.Fatalf("%d attempts granted, want 5", g)
		}
		_, ok, retry, _ := s.ReserveAttempt(ctx, "pin", "198.51.100.7", now.Add(5*time.Minute), 15*time.Minute, 5)
		if ok || retry < 9*time.Minute || retry > 10*time.Minute {
			t.Errorf("over the limit: ok=%v retry=%v, want refused with ~10m", ok, retry)
		}
		// Another scope or key is separate; cancel gives one back; the
		// window slides.
		if _, ok, _, _ := s.ReserveAttempt(ctx, "login", "198.51.100.7", now, 15*time.Minute, 5); !ok {
			t.Error("scopes are not separate")
		}
		id, ok, _, _ := s.ReserveAttempt(ctx, "estimate", "k", now, time.Minute, 1)
		if !ok {
			t.Fatal("first estimate attempt refused")
		}
		if _, ok, _, _ := s.ReserveAttempt(ctx, "estimate", "k", now, time.Minute, 1); ok {
			t.Fatal("second estimate attempt granted")
		}
		if err := s.CancelAttempt(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, ok, _, _ := s.ReserveAttempt(ctx, "estimate", "k", now, time.Minute, 1); !ok {
			t.Error("cancel did not give the attempt back")
		}
		if _, ok, _, _ := s.ReserveAttempt(ctx, "pin", "198.51.100.7", now.Add(15*time.Minute+time.Second), 15*time.Minute, 5); !ok {
			t.Error("attempts did not leave the window")
		}
		if err := s.DeleteOldAttempts(ctx, now.Add(time.Hour)); err != nil {
			t.Error(err)
		}
	})
}
