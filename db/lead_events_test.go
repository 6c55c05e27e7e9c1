package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// workFixture is a lead and two accounts: an admin and a staff member.
func workFixture(t *testing.T, s *Store, now time.Time) {
	t.Helper()
	ctx := context.Background()
	for _, u := range []User{testUser("adm", "owner@example.com", "admin", now), testUser("crew", "crew@example.com", "staff", now)} {
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateLead(ctx, outboxLead("L1", now)); err != nil {
		t.Fatal(err)
	}
}

// The timeline shows the lead's creation, then each status change, note
// and assignment with who and when; the first person's response ends
// the first response time, and only the first.
func TestLeadTimeline(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		workFixture(t, s, t0)
		admin, crew := Actor{UserID: "adm", Name: "The Owner"}, Actor{UserID: "crew", Name: "crew@example.com"}

		if ev, err := s.AssignLead(ctx, "L1", "crew", admin, t0.Add(time.Minute)); err != nil || ev.Body != "crew" || ev.To != "crew" || ev.From != "" {
			t.Fatalf("assign: %+v %v", ev, err)
		}
		l, _ := s.GetLead(ctx, "L1")
		if l.AssignedTo == nil || *l.AssignedTo != "crew" || l.FirstResponseAt != nil {
			t.Fatalf("after assigning: assigned %v, first response %v (assigning is no response)", l.AssignedTo, l.FirstResponseAt)
		}
		if ev, err := s.AssignLead(ctx, "L1", "crew", admin, t0.Add(2*time.Minute)); err != nil || ev.ID != "" {
			t.Errorf("assigning again: %+v %v; want no event", ev, err)
		}
		if _, err := s.AddLeadNote(ctx, "L1", crew, "Left a voicemail.", t0.Add(4*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChangeLeadStatus(ctx, "L1", "contacted", admin, t0.Add(9*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if ev, err := s.ChangeLeadStatus(ctx, "L1", "contacted", admin, t0.Add(10*time.Minute)); err != nil || ev.ID != "" {
			t.Errorf("same status: %+v %v; want no event", ev, err)
		}
		if _, err := s.AssignLead(ctx, "L1", "", admin, t0.Add(11*time.Minute)); err != nil {
			t.Fatal(err)
		}
		l, _ = s.GetLead(ctx, "L1")
		if l.AssignedTo != nil || l.FirstResponseAt == nil || !l.FirstResponseAt.Equal(t0.Add(4*time.Minute)) ||
			l.Status != "contacted" || !l.UpdatedAt.Equal(t0.Add(10*time.Minute)) {
			t.Errorf("lead: assigned %v, first response %v, status %s, updated %v", l.AssignedTo, l.FirstResponseAt, l.Status, l.UpdatedAt)
		}
		got, err := s.LeadTimeline(ctx, "L1")
		if err != nil {
			t.Fatal(err)
		}
		want := []LeadEvent{
			{LeadID: "L1", At: t0, Kind: EventCreated, Actor: "website"},
			{LeadID: "L1", At: t0.Add(time.Minute), Kind: EventAssigned, UserID: "adm", Actor: "The Owner", To: "crew", Body: "crew"},
			{LeadID: "L1", At: t0.Add(4 * time.Minute), Kind: EventNote, UserID: "crew", Actor: "crew@example.com", Body: "Left a voicemail."},
			{LeadID: "L1", At: t0.Add(9 * time.Minute), Kind: EventStatus, UserID: "adm", Actor: "The Owner", From: "new", To: "contacted"},
			{LeadID: "L1", At: t0.Add(11 * time.Minute), Kind: EventAssigned, UserID: "adm", Actor: "The Owner", From: "crew"},
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(LeadEvent{}, "ID"), cmpopts.EquateApproxTime(0)); diff != "" {
			t.Errorf("timeline (-want, +got):\n%s", diff)
		}
		for _, e := range got[1:] {
			if e.ID == "" {
				t.Errorf("event without id: %+v", e)
			}
		}
	})
}

// The server's own work never counts as a response; a missing lead, a
// bad status, an account that cannot take leads and an empty note are
// refused and change nothing.
func TestLeadWorkRefusals(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		workFixture(t, s, now)
		admin := Actor{UserID: "adm", Name: "The Owner"}
		if _, err := s.ChangeLeadStatus(ctx, "L1", "contacted", SystemActor, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.GetLead(ctx, "L1"); l.FirstResponseAt != nil {
			t.Errorf("the server's status change counted as a response at %v", l.FirstResponseAt)
		}
		if _, err := s.ChangeLeadStatus(ctx, "nope", "contacted", admin, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("status of a missing lead: %v", err)
		}
		if _, err := s.AddLeadNote(ctx, "nope", admin, "x", now); !errors.Is(err, ErrNotFound) {
			t.Errorf("note on a missing lead: %v", err)
		}
		if _, err := s.AssignLead(ctx, "nope", "adm", admin, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("assigning a missing lead: %v", err)
		}
		if _, err := s.ChangeLeadStatus(ctx, "L1", "lost", admin, now); err == nil {
			t.Error("an unknown status was taken")
		}
		if _, err := s.AddLeadNote(ctx, "L1", admin, " \n ", now); err == nil {
			t.Error("an empty note was taken")
		}
		disabled := true
		if err := s.CreateUser(ctx, testUser("gone", "gone@example.com", "staff", now)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChangeUser(ctx, "gone", UserChange{Disabled: &disabled}, now); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"gone", "no-such-user"} {
			if _, err := s.AssignLead(ctx, "L1", id, admin, now); !errors.Is(err, ErrCannotAssign) {
				t.Errorf("assign to %s: %v, want ErrCannotAssign", id, err)
			}
		}
		tl, err := s.LeadTimeline(ctx, "L1")
		if err != nil || len(tl) != 2 || tl[1].Actor != "system" || tl[1].UserID != "" {
			t.Errorf("timeline %+v %v; want the creation and the system's status change", tl, err)
		}
		if _, err := s.LeadTimeline(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("timeline of a missing lead: %v", err)
		}
	})
}

// Two people answering at the same moment, on two instances: the first
// response time is one of theirs, set once, and both events are kept.
func TestFirstResponseUnderConcurrency(t *testing.T) {
	ForEachDBPair(t, func(t *testing.T, a, b *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		workFixture(t, a, t0)
		var wg sync.WaitGroup
		errs := make(chan error, 20)
		for i := range 10 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				_, err := a.AddLeadNote(ctx, "L1", Actor{UserID: "adm", Name: "a"}, fmt.Sprint("note ", i), t0.Add(time.Duration(i+1)*time.Minute))
				errs <- err
			}()
			go func() {
				defer wg.Done()
				status := []string{"contacted", "scheduled"}[i%2]
				_, err := b.ChangeLeadStatus(ctx, "L1", status, Actor{UserID: "crew", Name: "b"}, t0.Add(time.Duration(i+1)*time.Minute+time.Second))
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		tl, err := b.LeadTimeline(ctx, "L1")
		if err != nil {
			t.Fatal(err)
		}
		notes, changes := 0, 0
		for _, e := range tl {
			switch e.Kind {
			case EventNote:
				notes++
			case EventStatus:
				changes++
			}
		}
		// The status alternates, but a goroutine can find the status it
		// sets already there (no event then): at least one change.
		if notes != 10 || changes < 1 || changes > 10 {
			t.Errorf("%d notes, %d status changes", notes, changes)
		}
		l, _ := a.GetLead(ctx, "L1")
		if l.FirstResponseAt == nil || l.FirstResponseAt.Before(t0.Add(time.Minute)) || l.FirstResponseAt.After(t0.Add(11*time.Minute)) {
			t.Errorf("first response %v", l.FirstResponseAt)
		}
	})
}

// Median and 90th percentile by nearest rank, over the leads created in
// the last 7 and 30 days, on both databases.
func TestLeadResponseTimes(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		if err := s.CreateUser(ctx, testUser("adm", "owner@example.com", "admin", now)); err != nil {
			t.Fatal(err)
		}
		by := Actor{UserID: "adm", Name: "The Owner"}
		add := func(id string, age, response time.Duration) {
			t.Helper()
			created := now.Add(-age)
			if err := s.CreateLead(ctx, outboxLead(id, created)); err != nil {
				t.Fatal(err)
			}
			if response >= 0 {
				if _, err := s.AddLeadNote(ctx, id, by, "called", created.Add(response)); err != nil {
					t.Fatal(err)
				}
			}
		}
		// This week: 1..10 minutes, and one never answered.
		for i := 1; i <= 10; i++ {
			add(fmt.Sprint("w", i), time.Duration(i)*time.Hour, time.Duration(i)*time.Minute)
		}
		add("w-open", 2*time.Hour, -1)
		// Earlier this month: two slow ones.
		add("m1", 10*24*time.Hour, 2*time.Hour)
		add("m2", 20*24*time.Hour, 3*time.Hour)
		// Older than 30 days: not counted.
		add("old", 40*24*time.Hour, 100*time.Hour)
		got, err := s.LeadResponseTimes(ctx, now)
		if err != nil {
			t.Fatal(err)
		}
		want := ResponseTimes{
			// 10 answered: median rank 5 (5 min), p90 rank 9 (9 min).
			Last7Days: ResponseStats{Leads: 11, Answered: 10, Median: 5 * time.Minute, P90: 9 * time.Minute},
			// 12 answered: median rank 6 (6 min), p90 rank ceil(10.8) = 11 (2 h).
			Last30Days: ResponseStats{Leads: 13, Answered: 12, Median: 6 * time.Minute, P90: 2 * time.Hour},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("response times (-want, +got):\n%s", diff)
		}
		empty, err := s.LeadResponseStats(ctx, now.Add(time.Hour), now.Add(2*time.Hour))
		if err != nil || empty != (ResponseStats{}) {
			t.Errorf("no leads: %+v %v", empty, err)
		}
	})
}

func TestNearestRank(t *testing.T) {
	m := func(ns ...int) []time.Duration {
		var out []time.Duration
		for _, n := range ns {
			out = append(out, time.Duration(n)*time.Minute)
		}
		return out
	}
	for _, tc := range []struct {
		in   []time.Duration
		p    int
		want time.Duration
	}{
		{nil, 50, 0},
		{m(7), 50, 7 * time.Minute},
		{m(7), 90, 7 * time.Minute},
		{m(1, 2), 50, time.Minute},
		{m(1, 2), 90, 2 * time.Minute},
		{m(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 90, 9 * time.Minute},
		{m(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), 90, 10 * time.Minute},
		{m(1, 2, 3), 100, 3 * time.Minute},
	} {
		if got := NearestRank(tc.in, tc.p); got != tc.want {
			t.Errorf("NearestRank(%v, %d) = %v, want %v", tc.in, tc.p, got, tc.want)
		}
	}
}

// An emergency still new after the threshold is escalated once: two
// instances running the escalation at the same moment, many times, write
// one escalation each lead, with its outbox rows and its timeline entry.
// Leads that are not emergencies, not new, or too recent are left alone.
func TestEscalateLeadsOnceAcrossInstances(t *testing.T) {
	ForEachDBPair(t, func(t *testing.T, a, b *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		mk := func(id string, age time.Duration, emergency bool, status string) {
			l := outboxLead(id, now.Add(-age))
			l.IsEmergency, l.Status = emergency, status
			if err := a.CreateLead(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 5 {
			mk(fmt.Sprint("due", i), 15*time.Minute+time.Duration(i)*time.Second, true, "new")
		}
		mk("recent", 5*time.Minute, true, "new")
		mk("calm", time.Hour, false, "new")
		mk("handled", time.Hour, true, "contacted")
		cutoff := now.Add(-10 * time.Minute)
		rows := func(l Lead) ([]OutboxRow, error) {
			return []OutboxRow{{Kind: OutboxPush, Target: "dev1", Payload: "{}", NextAttemptAt: now, CreatedAt: now},
				{Kind: OutboxEmail, Target: "owner@example.com", Payload: "{}", NextAttemptAt: now, CreatedAt: now}}, nil
		}
		var (
			wg  sync.WaitGroup
			mu  sync.Mutex
			got = map[string]int{}
		)
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := []*Store{a, b}[i%2]
				ls, err := s.EscalateLeads(ctx, cutoff, now, 2, rows)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, l := range ls {
					got[l.ID]++
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
		// Whatever the goroutines left (each takes at most 2), a last run
		// takes; nothing is escalated twice.
		rest, err := b.EscalateLeads(ctx, cutoff, now, 10, rows)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range rest {
			got[l.ID]++
		}
		want := map[string]int{"due0": 1, "due1": 1, "due2": 1, "due3": 1, "due4": 1}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("escalations per lead (-want, +got):\n%s", diff)
		}
		if again, err := a.EscalateLeads(ctx, now, now.Add(time.Hour), 10, rows); err != nil || len(again) != 1 || again[0].ID != "recent" {
			t.Errorf("later, only the recent one is due: %v %v", again, err)
		}
		var n int
		if err := a.db.Get(&n, `SELECT COUNT(*) FROM outbox WHERE event = 'escalated'`); err != nil || n != 12 {
			t.Errorf("%d escalation rows (%v), want 12", n, err)
		}
		tl, err := a.LeadTimeline(ctx, "due0")
		if err != nil || len(tl) != 2 || tl[1].Kind != EventEscalated || tl[1].Actor != "system" {
			t.Errorf("timeline %+v %v", tl, err)
		}
		l, _ := a.GetLead(ctx, "due0")
		if l.EscalatedAt == nil || !l.EscalatedAt.Equal(now) {
			t.Errorf("escalated_at %v", l.EscalatedAt)
		}
	})
}

// If the escalation's notifications cannot be written, the lead is not
// marked: the next run tries again.
func TestEscalateLeadsIsAtomic(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		l := outboxLead("E1", now.Add(-time.Hour))
		l.IsEmergency = true
		if err := s.CreateLead(ctx, l); err != nil {
			t.Fatal(err)
		}
		bad := func(Lead) ([]OutboxRow, error) {
			return []OutboxRow{{Kind: "fax", Payload: "{}", NextAttemptAt: now, CreatedAt: now}}, nil
		}
		if _, err := s.EscalateLeads(ctx, now, now, 10, bad); err == nil {
			t.Fatal("a bad row was accepted")
		}
		failing := func(Lead) ([]OutboxRow, error) { return nil, errors.New("no recipients readable") }
		if _, err := s.EscalateLeads(ctx, now, now, 10, failing); err == nil {
			t.Fatal("the builder's error was dropped")
		}
		if got, _ := s.GetLead(ctx, "E1"); got.EscalatedAt != nil {
			t.Fatalf("marked escalated at %v without its notifications", got.EscalatedAt)
		}
		ok := func(Lead) ([]OutboxRow, error) { return nil, nil }
		if ls, err := s.EscalateLeads(ctx, now, now, 10, ok); err != nil || len(ls) != 1 {
			t.Fatalf("retry: %v %v", ls, err)
		}
	})
}

// A delivery is on the timeline once, with its channel, even when it is
// recorded twice (at least once delivery).
func TestDeliveryOnTimeline(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		rows := []OutboxRow{{Kind: OutboxPush, Target: "d1", Payload: "{}", NextAttemptAt: now, CreatedAt: now},
			{Kind: OutboxPush, Target: "d2", Payload: "{}", NextAttemptAt: now, CreatedAt: now},
			{Kind: OutboxSMS, Target: "+17705550101", Payload: "{}", NextAttemptAt: now, CreatedAt: now}}
		if _, err := s.CreateLeadWithOutbox(ctx, outboxLead("L1", now), rows); err != nil {
			t.Fatal(err)
		}
		claimed, err := s.ClaimOutbox(ctx, now, time.Minute, 10)
		if err != nil || len(claimed) != 3 {
			t.Fatalf("claimed %d %v", len(claimed), err)
		}
		for _, r := range claimed {
			if r.Event != OutboxCreated || r.Target == "" {
				t.Errorf("claimed %+v", r)
			}
			if r.Kind == OutboxSMS {
				for range 2 {
					if err := s.OutboxDelivered(ctx, r.ID, now.Add(time.Second)); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if err := s.OutboxDelivered(ctx, "no-such-row", now); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing row: %v", err)
		}
		tl, _ := s.LeadTimeline(ctx, "L1")
		if len(tl) != 2 || tl[1].Kind != EventNotified || tl[1].Channel != OutboxSMS || !tl[1].At.Equal(now.Add(time.Second)) {
			t.Errorf("timeline %+v", tl)
		}
	})
}

// A lead's attribution is stored with it and read back, by every path
// that stores a lead.
func TestLeadAttributionStored(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		at := Attribution{LandingPage: "/water-damage-restoration-atlanta", ReferrerHost: "www.google.com", UTMSource: "google",
			UTMMedium: "cpc", UTMCampaign: "Burst pipes – winter", UTMTerm: "water damage", UTMContent: "ad 2", GCLID: "Cj0KCQ-abc_123",
			GBRAID: "0AAAAA", WBRAID: "CjgKEA", FBCLID: "IwAR0x", MSCLKID: "0123456789abcdef0123456789abcdef", DeviceClass: "mobile", VisitID: "v-1234abcd"}
		l1, l2 := outboxLead("A1", now), outboxLead("A2", now)
		l1.Attribution, l2.Attribution = at, at
		if err := s.CreateLead(ctx, l1); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateLeadWithOutbox(ctx, l2, nil); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"A1", "A2"} {
			got, err := s.GetLead(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(at, got.Attribution); diff != "" {
				t.Errorf("%s attribution (-want, +got):\n%s", id, diff)
			}
		}
	})
}

// A lead takes at most MaxLeadNotes notes, however many are added at once.
func TestLeadNotesBounded(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		if err := s.CreateLead(ctx, outboxLead("full", now)); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < MaxLeadNotes-2; i++ {
			if _, err := s.AddLeadNote(ctx, "full", SystemActor, "n", now); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, full := 0, 0
		for i := 0; i < 6; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.AddLeadNote(ctx, "full", SystemActor, "racing", now)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, ErrTooManyNotes):
					full++
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if ok != 2 || full != 4 {
			t.Errorf("6 racing notes with room for 2: %d added, %d refused", ok, full)
		}
	})
}
