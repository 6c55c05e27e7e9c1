package db

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The leads nobody has answered are the new ones without a person's
// status change or note, emergencies first, then the longest waiting;
// a day's figures count arrivals, emergencies and answers in the window.
func TestLeadsAwaitingAndDayFigures(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
		workFixture(t, s, t0) // L1: new, not an emergency, at t0
		add := func(id string, at time.Time, emergency bool, status string) {
			l := outboxLead(id, at)
			l.IsEmergency, l.Status = emergency, status
			if err := s.CreateLead(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		add("L2", t0.Add(time.Minute), true, "new")          // emergency, waiting
		add("L3", t0.Add(-time.Hour), false, "new")          // oldest, waiting
		add("L4", t0.Add(2*time.Minute), true, "new")        // answered by a note below
		add("L5", t0.Add(3*time.Minute), false, "contacted") // not new
		add("L6", t0.Add(-48*time.Hour), true, "new")        // an emergency from two days ago
		if _, err := s.AddLeadNote(ctx, "L4", Actor{UserID: "crew", Name: "Crew"}, "Called.", t0.Add(6*time.Minute)); err != nil {
			t.Fatal(err)
		}
		// Setting the status a lead has already is no answer: L1 waits on.
		if _, err := s.ChangeLeadStatus(ctx, "L1", "new", Actor{UserID: "adm", Name: "Owner"}, t0.Add(10*time.Minute)); err != nil {
			t.Fatal(err)
		}
		ls, total, err := s.LeadsAwaiting(ctx, 3)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, l := range ls {
			ids = append(ids, l.ID)
		}
		if diff := cmp.Diff([]string{"L6", "L2", "L3"}, ids); diff != "" || total != 4 {
			t.Errorf("awaiting (-want, +got) %s; total %d, want 4", diff, total)
		}
		d, err := s.LeadDayFigures(ctx, t0.Add(-5*time.Hour), t0.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(LeadDay{New: 5, Emergencies: 2, Answered: 1, MedianResponse: 4 * time.Minute}, d); diff != "" {
			t.Errorf("day (-want, +got) %s", diff)
		}
	})
}
