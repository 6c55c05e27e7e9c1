package db

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lib/pq"
)

// Every lead writer announces its change after the commit, and a write
// that fails announces nothing.
func TestLeadChangesAnnounced(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		var mu sync.Mutex
		var got []string
		remove := s.OnLeadChange(func(c LeadChange) {
			mu.Lock()
			got = append(got, c.Kind+" "+c.LeadID)
			mu.Unlock()
			if c.Origin != s.Origin() || c.At.IsZero() {
				t.Errorf("change %+v: origin or time missing", c)
			}
		})
		workFixture(t, s, t0) // CreateLead L1
		admin := Actor{UserID: "adm", Name: "The Owner"}
		if _, err := s.CreateLeadWithOutbox(ctx, outboxLead("L2", t0), outboxRows(t0, "email")); err != nil {
			t.Fatal(err)
		}
		// A replay of a stored lead stores nothing and announces nothing.
		if ok, err := s.CreateLeadWithOutbox(ctx, outboxLead("L2", t0), nil); ok || err != nil {
			t.Fatalf("replay: %v %v", ok, err)
		}
		must := func(_ LeadEvent, err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.ChangeLeadStatus(ctx, "L1", "contacted", admin, t0.Add(time.Minute)))
		must(s.AddLeadNote(ctx, "L1", admin, "Called.", t0.Add(2*time.Minute)))
		must(s.AssignLead(ctx, "L1", "crew", admin, t0.Add(3*time.Minute)))
		must(s.AssignLead(ctx, "L1", "crew", admin, t0.Add(4*time.Minute))) // no change
		if err := s.SetLeadStatus(ctx, "L2", "scheduled", t0.Add(5*time.Minute)); err != nil {
			t.Fatal(err)
		}
		// Failures: nothing committed, nothing announced.
		if _, err := s.AddLeadNote(ctx, "nope", admin, "x", t0); err == nil {
			t.Fatal("note on a missing lead")
		}
		if _, err := s.ChangeLeadStatus(ctx, "nope", "contacted", admin, t0); err == nil {
			t.Fatal("status of a missing lead")
		}
		if err := s.DeleteLead(ctx, "nope", AuditEntry{At: t0}); err == nil {
			t.Fatal("delete of a missing lead")
		}
		emergency := outboxLead("L3", t0)
		emergency.IsEmergency = true
		if err := s.CreateLead(ctx, emergency); err != nil {
			t.Fatal(err)
		}
		if ls, err := s.EscalateLeads(ctx, t0.Add(time.Hour), t0.Add(time.Hour), 10, func(Lead) ([]OutboxRow, error) { return nil, nil }); err != nil || len(ls) != 1 {
			t.Fatalf("escalate: %v %v", ls, err)
		}
		if err := s.DeleteLead(ctx, "L2", AuditEntry{At: t0.Add(6 * time.Minute), Actor: "owner"}); err != nil {
			t.Fatal(err)
		}
		remove()
		if err := s.DeleteLead(ctx, "L3", AuditEntry{At: t0}); err != nil {
			t.Fatal(err)
		}
		want := []string{"created L1", "created L2", "status L1", "note L1", "assigned L1", "status L2", "created L3", "escalated L3", "deleted L2"}
		mu.Lock()
		defer mu.Unlock()
		if !slices.Equal(got, want) {
			t.Errorf("announced\n %q\nwant\n %q", got, want)
		}
	})
}

// On PostgreSQL a change is sent with NOTIFY when it commits, so another
// connection (another instance) hears it; a rolled-back write is not.
func TestLeadChangesNotifyPostgres(t *testing.T) {
	s, dsn, err := newTestPostgres(t)
	if err != nil {
		t.Skipf("PostgreSQL not reachable: %v", err)
	}
	l := pq.NewListener(dsn, 10*time.Millisecond, time.Second, nil)
	defer l.Close()
	if err := l.Listen(LeadChannel); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	t0 := time.Now().UTC()
	if err := s.CreateLead(ctx, outboxLead("N1", t0)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddLeadNote(ctx, "missing", Actor{Name: "x"}, "x", t0); err == nil {
		t.Fatal("note on a missing lead")
	}
	if _, err := s.ChangeLeadStatus(ctx, "N1", "contacted", Actor{Name: "x"}, t0); err != nil {
		t.Fatal(err)
	}
	var got []string
	deadline := time.After(10 * time.Second)
	for len(got) < 2 {
		select {
		case n := <-l.NotificationChannel():
			if n == nil {
				continue
			}
			c, err := ParseLeadChange(n.Extra)
			if err != nil {
				t.Fatal(err)
			}
			if c.Origin != s.Origin() { // another test's database
				continue
			}
			got = append(got, c.Kind+" "+c.LeadID)
		case <-deadline:
			t.Fatalf("notifications after 10 s: %q", got)
		}
	}
	if want := []string{"created N1", "status N1"}; !slices.Equal(got, want) {
		t.Errorf("notified %q, want %q", got, want)
	}
}
