package db

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func reviewLead(id, email, phone string, now time.Time) Lead {
	l := outboxLead(id, now)
	l.Email, l.Phone, l.City = email, phone, "Marietta"
	return l
}

// reviewRows is the sender's choice of rows: an email and a text for
// every contact that may be asked.
func reviewRows(l ReviewLead) []OutboxRow {
	var out []OutboxRow
	if l.Email != "" {
		out = append(out, OutboxRow{Kind: OutboxReview, Target: l.Email, Payload: `{"requestId":"` + l.RequestID + `"}`})
	}
	if l.Phone != "" {
		out = append(out, OutboxRow{Kind: OutboxReviewSMS, Target: l.Phone, Payload: `{"requestId":"` + l.RequestID + `"}`})
	}
	return out
}

func reviewEvents(t *testing.T, s *Store, leadID string) []LeadEvent {
	t.Helper()
	evs, err := s.LeadTimeline(context.Background(), leadID)
	if err != nil {
		t.Fatal(err)
	}
	var out []LeadEvent
	for _, e := range evs {
		if e.Kind == EventNotified && reviewKind(e.Channel) {
			out = append(out, e)
		}
	}
	return out
}

// A completed lead is asked once, after the owner's delay, even when its
// status goes completed -> scheduled -> completed; the request is on
// the timeline when scheduled and when sent.
func TestReviewRequestOncePerLead(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		if err := s.CreateLead(ctx, reviewLead("L1", "ann@example.com", "+17705550101", t0)); err != nil {
			t.Fatal(err)
		}
		if err := s.SetSettings(ctx, map[string]string{ReviewDelaySetting: "30"}, t0); err != nil {
			t.Fatal(err)
		}
		for i, st := range []string{"completed", "scheduled", "completed"} {
			if _, err := s.ChangeLeadStatus(ctx, "L1", st, SystemActor, t0.Add(time.Duration(i)*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		r, err := s.ReviewRequestOf(ctx, "L1")
		if err != nil || r.State != ReviewStateScheduled || !r.DueAt.Equal(t0.Add(30*time.Minute)) {
			t.Fatalf("request %+v %v; want scheduled, due 30 minutes after the first completion", r, err)
		}
		if evs := reviewEvents(t, s, "L1"); len(evs) != 1 || evs[0].To != ReviewScheduled {
			t.Fatalf("timeline %+v; want one 'scheduled'", evs)
		}
		if n, err := s.ClaimReviewRequests(ctx, t0.Add(29*time.Minute), 10, reviewRows); err != nil || n != 0 {
			t.Fatalf("before the delay: %d %v", n, err)
		}
		if n, err := s.ClaimReviewRequests(ctx, t0.Add(30*time.Minute), 10, reviewRows); err != nil || n != 1 {
			t.Fatalf("at the delay: %d %v", n, err)
		}
		if n, err := s.ClaimReviewRequests(ctx, t0.Add(time.Hour), 10, reviewRows); err != nil || n != 0 {
			t.Fatalf("again: %d %v", n, err)
		}
		rows, err := s.ClaimOutbox(ctx, t0.Add(time.Hour), time.Minute, 10)
		if err != nil || len(rows) != 2 {
			t.Fatalf("outbox %+v %v; want the email and the text", rows, err)
		}
		if err := s.OutboxDelivered(ctx, rows[0].ID, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.OutboxFailed(ctx, rows[1].ID, "refused", t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		evs := reviewEvents(t, s, "L1")
		if len(evs) != 3 || evs[1].To == evs[2].To || (evs[1].To != ReviewSent && evs[1].To != ReviewFailed) {
			t.Fatalf("timeline %+v; want scheduled, then one sent and one failed", evs)
		}
	})
}

// Two instances claiming the same due requests at once write each
// request's rows once.
func TestReviewRequestOnceAcrossInstances(t *testing.T) {
	ForEachDBPair(t, func(t *testing.T, a, b *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		if err := a.SetSettings(ctx, map[string]string{ReviewDelaySetting: "0"}, t0); err != nil {
			t.Fatal(err)
		}
		ids := []string{"L1", "L2", "L3", "L4", "L5", "L6"}
		for _, id := range ids {
			if err := a.CreateLead(ctx, reviewLead(id, id+"@example.com", "", t0)); err != nil {
				t.Fatal(err)
			}
		}
		// Both instances complete every lead, at the same time.
		var wg sync.WaitGroup
		for _, s := range []*Store{a, b} {
			for _, id := range ids {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := s.ChangeLeadStatus(ctx, id, "completed", SystemActor, t0); err != nil {
						t.Error(err)
					}
				}()
			}
		}
		wg.Wait()
		var mu sync.Mutex
		total := 0
		for _, s := range []*Store{a, b, a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					n, err := s.ClaimReviewRequests(ctx, t0.Add(time.Minute), 2, reviewRows)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					total += n
					mu.Unlock()
					if n == 0 {
						return
					}
				}
			}()
		}
		wg.Wait()
		if total != len(ids) {
			t.Errorf("claimed %d requests; want %d", total, len(ids))
		}
		var n int
		if err := a.db.Get(&n, `SELECT COUNT(*) FROM outbox WHERE kind = 'review'`); err != nil || n != len(ids) {
			t.Errorf("%d review emails (%v); want %d", n, err, len(ids))
		}
		if err := a.db.Get(&n, `SELECT COUNT(*) FROM lead_events WHERE channel = 'review'`); err != nil || n != len(ids) {
			t.Errorf("%d 'scheduled' events (%v); want %d", n, err, len(ids))
		}
	})
}

// An opt-out is kept across leads: the same address on a later lead is
// not asked, and a lead with nothing to ask is recorded so, once.
func TestReviewOptOutKept(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		if err := s.SetSettings(ctx, map[string]string{ReviewDelaySetting: "0"}, t0); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateLead(ctx, reviewLead("L1", "Ann@Example.com", "", t0)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChangeLeadStatus(ctx, "L1", "completed", SystemActor, t0); err != nil {
			t.Fatal(err)
		}
		// Opted out between completion and the due time: nothing goes.
		if err := s.OptOut(ctx, []string{"ann@example.com"}, t0); err != nil {
			t.Fatal(err)
		}
		if err := s.OptOut(ctx, []string{"ANN@example.com"}, t0); err != nil {
			t.Fatalf("again: %v", err)
		}
		if n, err := s.ClaimReviewRequests(ctx, t0.Add(time.Minute), 10, reviewRows); err != nil || n != 0 {
			t.Fatalf("claimed %d %v; want none: the only contact opted out", n, err)
		}
		if r, _ := s.ReviewRequestOf(ctx, "L1"); r.State != ReviewStateNotAskable {
			t.Errorf("state %q; want not askable", r.State)
		}
		// A later lead with the same address: not askable from the start.
		if err := s.CreateLead(ctx, reviewLead("L2", "ann@EXAMPLE.com", "", t0)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChangeLeadStatus(ctx, "L2", "completed", SystemActor, t0); err != nil {
			t.Fatal(err)
		}
		if evs := reviewEvents(t, s, "L2"); len(evs) != 1 || evs[0].To != ReviewNotAskable {
			t.Fatalf("timeline %+v; want one 'not askable'", evs)
		}
		// No email, no phone: not askable, never an error.
		if err := s.CreateLead(ctx, reviewLead("L3", "", "", t0)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChangeLeadStatus(ctx, "L3", "completed", SystemActor, t0); err != nil {
			t.Fatal(err)
		}
		if r, err := s.ReviewRequestOf(ctx, "L3"); err != nil || r.State != ReviewStateNotAskable {
			t.Errorf("no contact: %+v %v", r, err)
		}
		if ok, err := s.OptedOut(ctx, "ann@example.com"); err != nil || !ok {
			t.Errorf("opted out: %v %v", ok, err)
		}
	})
}

// A pending review email is given up when its address opts out.
func TestReviewOptOutStopsPending(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		if err := s.CreateLead(ctx, reviewLead("L1", "ann@example.com", "", t0)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChangeLeadStatus(ctx, "L1", "completed", SystemActor, t0); err != nil {
			t.Fatal(err)
		}
		if n, err := s.ClaimReviewRequests(ctx, t0.Add(3*time.Hour), 10, reviewRows); err != nil || n != 1 {
			t.Fatalf("claimed %d %v (default delay two hours)", n, err)
		}
		if err := s.OptOut(ctx, []string{"ann@example.com"}, t0); err != nil {
			t.Fatal(err)
		}
		if rows, err := s.ClaimOutbox(ctx, t0.Add(4*time.Hour), time.Minute, 10); err != nil || len(rows) != 0 {
			t.Fatalf("outbox %+v %v; want nothing left to send", rows, err)
		}
	})
}

// Tokens are found by their hash while fresh; the testimonial of a
// request is one row however often it is sent; only approved ones with
// consent are public.
func TestTestimonials(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		if err := s.CreateLead(ctx, reviewLead("L1", "ann@example.com", "", t0)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChangeLeadStatus(ctx, "L1", "completed", SystemActor, t0); err != nil {
			t.Fatal(err)
		}
		r, _ := s.ReviewRequestOf(ctx, "L1")
		if err := s.AddReviewToken(ctx, r.ID, "hash1", t0); err != nil {
			t.Fatal(err)
		}
		got, err := s.ReviewByToken(ctx, "hash1", t0.Add(-time.Hour))
		if err != nil || got.RequestID != r.ID || got.City != "Marietta" || got.FirstName != "Ann" {
			t.Fatalf("by token: %+v %v", got, err)
		}
		if _, err := s.ReviewByToken(ctx, "hash1", t0.Add(time.Hour)); !errors.Is(err, ErrNotFound) {
			t.Errorf("expired: %v", err)
		}
		if _, err := s.ReviewByToken(ctx, "nope", t0.Add(-time.Hour)); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown: %v", err)
		}
		tm := Testimonial{RequestID: r.ID, LeadID: "L1", FirstName: "Ann", City: "Marietta", Body: "Great crew.", Consent: true}
		first, err := s.SaveTestimonial(ctx, tm, t0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.ModerateTestimonial(ctx, first.ID, TestimonialApproved, nil, t0); err != nil {
			t.Fatal(err)
		}
		if pub, _ := s.PublicTestimonials(ctx); len(pub) != 1 {
			t.Fatalf("public %+v", pub)
		}
		tm.Body, tm.Consent = "Great crew, fast.", false
		second, err := s.SaveTestimonial(ctx, tm, t0.Add(time.Minute))
		if err != nil || second.ID != first.ID || second.State != TestimonialPending || second.Body != tm.Body {
			t.Fatalf("second save %+v %v; want the same row, pending again, new words", second, err)
		}
		if all, _ := s.Testimonials(ctx, ""); len(all) != 1 {
			t.Fatalf("rows %d; want 1", len(all))
		}
		fixed := "Great crew, and fast."
		if _, err := s.ModerateTestimonial(ctx, first.ID, TestimonialApproved, &fixed, t0); err != nil {
			t.Fatal(err)
		}
		if pub, _ := s.PublicTestimonials(ctx); len(pub) != 0 {
			t.Errorf("public without consent: %+v", pub)
		}
		if _, err := s.ModerateTestimonial(ctx, "none", TestimonialHidden, nil, t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown: %v", err)
		}
	})
}
