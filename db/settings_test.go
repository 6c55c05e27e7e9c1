package db

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// Instances booting together write the same settings at once (the PIN in
// use, a generated PIN). Every writer must succeed, exactly one
// SetSettingIfAbsent must win, and the stored value must be one of those
// written. The old DELETE-then-INSERT failed here on PostgreSQL with a
// duplicate primary key.
func TestSettingsHoldUnderConcurrentWriters(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		const writers = 16
		for round := 0; round < 5; round++ {
			key := fmt.Sprintf("race_%d", round)
			start := make(chan struct{})
			errs := make(chan error, 2*writers)
			wins := make(chan string, writers)
			var wg sync.WaitGroup
			for i := 0; i < writers; i++ {
				wg.Add(2)
				v := fmt.Sprintf("v%d", i)
				go func() {
					defer wg.Done()
					<-start
					errs <- s.SetSettings(ctx, map[string]string{key: v, key + "_b": v}, now)
				}()
				go func() {
					defer wg.Done()
					<-start
					ok, err := s.SetSettingIfAbsent(ctx, key+"_once", v, now)
					if ok {
						wins <- v
					}
					errs <- err
				}()
			}
			close(start)
			wg.Wait()
			close(errs)
			close(wins)
			for err := range errs {
				if err != nil {
					t.Fatalf("round %d: concurrent write failed: %v", round, err)
				}
			}
			var won []string
			for v := range wins {
				won = append(won, v)
			}
			if len(won) != 1 {
				t.Fatalf("round %d: SetSettingIfAbsent won %d times (%v), want once", round, len(won), won)
			}
			if got, _ := s.GetSetting(ctx, key+"_once"); got != won[0] {
				t.Errorf("round %d: stored %q, the winner wrote %q", round, got, won[0])
			}
			a, _ := s.GetSetting(ctx, key)
			b, _ := s.GetSetting(ctx, key+"_b")
			// One save's keys land together: both come from the same writer.
			if !strings.HasPrefix(a, "v") || a != b {
				t.Errorf("round %d: stored %q and %q, want one writer's pair", round, a, b)
			}
		}
	})
}
