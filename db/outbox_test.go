package db

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func outboxLead(id string, now time.Time) Lead {
	return Lead{ID: id, CreatedAt: now, UpdatedAt: now, FirstName: "Ann", Phone: "(770) 555-0101", Status: "new", Source: "website"}
}

func outboxRows(now time.Time, kinds ...string) []OutboxRow {
	var out []OutboxRow
	for _, k := range kinds {
		out = append(out, OutboxRow{Kind: k, Payload: `{"event":"lead.created"}`, NextAttemptAt: now, CreatedAt: now})
	}
	return out
}

func countRows(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.Get(&n, `SELECT COUNT(*) FROM `+table); err != nil {
		t.Fatal(err)
	}
	return n
}

// A lead and its notifications are stored together, once: the same id
// again (a spool replay) stores nothing more.
func TestCreateLeadWithOutboxIsIdempotent(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		for i, want := range []bool{true, false, false} {
			got, err := s.CreateLeadWithOutbox(ctx, outboxLead("l1", now), outboxRows(now, OutboxEmail, OutboxWebhook))
			if err != nil || got != want {
				t.Fatalf("insert %d: %v, %v; want %v", i, got, err, want)
			}
		}
		if n := countRows(t, s, "avatar_leads"); n != 1 {
			t.Errorf("%d leads", n)
		}
		if n := countRows(t, s, "outbox"); n != 2 {
			t.Errorf("%d outbox rows", n)
		}
		rows, _ := s.RecentOutbox(ctx, 10)
		for _, r := range rows {
			if r.LeadID != "l1" || r.Payload != "" || r.Attempts != 0 || r.DeliveredAt != nil {
				t.Errorf("row %+v", r)
			}
		}
	})
}

// If an outbox row cannot be written, the lead is not stored either.
func TestCreateLeadWithOutboxIsAtomic(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		// The second row breaks the kind CHECK.
		if _, err := s.CreateLeadWithOutbox(ctx, outboxLead("l2", now), outboxRows(now, OutboxEmail, "fax")); err == nil {
			t.Fatal("a bad outbox row was accepted")
		}
		if _, err := s.GetLead(ctx, "l2"); err == nil {
			t.Error("the lead was stored without its notifications")
		}
		if n := countRows(t, s, "outbox"); n != 0 {
			t.Errorf("%d outbox rows", n)
		}
		// The same lead goes in once the rows are right.
		if ok, err := s.CreateLeadWithOutbox(ctx, outboxLead("l2", now), outboxRows(now, OutboxEmail)); !ok || err != nil {
			t.Fatalf("retry: %v %v", ok, err)
		}
	})
}

func TestOutboxLifecycle(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		for i := 0; i < 3; i++ {
			if _, err := s.CreateLeadWithOutbox(ctx, outboxLead(fmt.Sprint("l", i), now.Add(time.Duration(i)*time.Second)), outboxRows(now.Add(time.Duration(i)*time.Second), OutboxEmail)); err != nil {
				t.Fatal(err)
			}
		}
		if _, ok, _ := s.NextOutboxAttempt(ctx); !ok {
			t.Fatal("nothing pending")
		}
		claimed, err := s.ClaimOutbox(ctx, now.Add(time.Minute), time.Minute, 10)
		if err != nil || len(claimed) != 3 {
			t.Fatalf("claimed %d: %v", len(claimed), err)
		}
		for _, r := range claimed {
			if r.Attempts != 1 || !r.NextAttemptAt.Equal(now.Add(2*time.Minute)) || r.Payload == "" {
				t.Errorf("claimed row %+v", r)
			}
		}
		// Leased: not claimed again before the lease ends.
		if again, _ := s.ClaimOutbox(ctx, now.Add(time.Minute), time.Minute, 10); len(again) != 0 {
			t.Errorf("claimed %d leased rows", len(again))
		}
		byLead := map[string]OutboxRow{}
		for _, r := range claimed {
			byLead[r.LeadID] = r
		}
		if err := s.OutboxDelivered(ctx, byLead["l0"].ID, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.OutboxRetry(ctx, byLead["l1"].ID, "smtp: 451 try later", now.Add(10*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.OutboxFailed(ctx, byLead["l2"].ID, "webhook answered 400 Bad Request", now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.OutboxDelivered(ctx, "no-such-row", now); err == nil {
			t.Error("unknown row updated")
		}
		st, err := s.OutboxStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		delivered := now.Add(time.Minute)
		want := OutboxStats{Pending: 1, Retrying: 1, Failed: 1, LastError: "webhook answered 400 Bad Request", LastDeliveredAt: &delivered}
		if diff := cmp.Diff(want, st); diff != "" {
			t.Errorf("status (-want, +got):\n%s", diff)
		}
		if next, ok, _ := s.NextOutboxAttempt(ctx); !ok || !next.Equal(now.Add(10*time.Minute)) {
			t.Errorf("next attempt %v %v", next, ok)
		}
		// Only the retried row comes back, when it is due.
		if got, _ := s.ClaimOutbox(ctx, now.Add(9*time.Minute), time.Minute, 10); len(got) != 0 {
			t.Errorf("claimed %d rows early", len(got))
		}
		got, _ := s.ClaimOutbox(ctx, now.Add(10*time.Minute), time.Minute, 10)
		if len(got) != 1 || got[0].LeadID != "l1" || got[0].Attempts != 2 {
			t.Errorf("claimed %+v", got)
		}
		// Pruning drops delivered and failed rows older than the cut.
		if _, err := s.PruneOutbox(ctx, now.Add(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, s, "outbox"); n != 1 {
			t.Errorf("%d rows after pruning", n)
		}
	})
}

// Concurrent claims never hand out the same row twice (PostgreSQL: FOR
// UPDATE SKIP LOCKED; SQLite: one writer at a time).
func TestClaimOutboxConcurrently(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		const leads = 40
		for i := 0; i < leads; i++ {
			if _, err := s.CreateLeadWithOutbox(ctx, outboxLead(fmt.Sprint("c", i), now), outboxRows(now, OutboxEmail)); err != nil {
				t.Fatal(err)
			}
		}
		var (
			mu  sync.Mutex
			ids []string
			wg  sync.WaitGroup
		)
		for w := 0; w < 4; w++ {
			wg.Go(func() {
				for {
					rows, err := s.ClaimOutbox(ctx, now, time.Minute, 3)
					if err != nil {
						t.Error(err)
						return
					}
					if len(rows) == 0 {
						return
					}
					mu.Lock()
					for _, r := range rows {
						ids = append(ids, r.ID)
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		sort.Strings(ids)
		for i := 1; i < len(ids); i++ {
			if ids[i] == ids[i-1] {
				t.Fatalf("row %s claimed twice", ids[i])
			}
		}
		if len(ids) != leads {
			t.Errorf("claimed %d of %d", len(ids), leads)
		}
	})
}
