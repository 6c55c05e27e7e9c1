package db

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

func bookingLead(t *testing.T, s *Store, id string) {
	t.Helper()
	now := time.Now().UTC()
	if err := s.CreateLead(context.Background(), Lead{ID: id, CreatedAt: now, UpdatedAt: now, FirstName: "Ann", Email: id + "@example.com", City: "Smyrna", DamageType: "water", Status: "new", Source: "website"}); err != nil {
		t.Fatal(err)
	}
}

var nine = time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)

// parallelBookings books one window for n leads at once, half through
// each store, and returns how many won and how many found it full.
func parallelBookings(t *testing.T, a, b *Store, n, capacity int) (won, full int) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < n; i++ {
		bookingLead(t, a, "lead-p"+string(rune('a'+i)))
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Add(1)
		go func(s *Store, id string) {
			defer wg.Done()
			_, err := s.BookVisit(ctx, id, nine, nine.Add(2*time.Hour), capacity, SystemActor, time.Now(), nil)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case errors.Is(err, ErrSlotFull):
				full++
			default:
				t.Errorf("book %s: %v", id, err)
			}
		}(s, "lead-p"+string(rune('a'+i)))
	}
	wg.Wait()
	return won, full
}

// Parallel bookings of one window: exactly its capacity win, on both
// databases, and the rest are told it is full.
func TestBookVisitParallel(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		won, full := parallelBookings(t, s, s, 8, 2)
		if won != 2 || full != 6 {
			t.Fatalf("%d won, %d full; want 2 and 6", won, full)
		}
		live, err := s.LiveBookings(context.Background(), nine, nine.Add(time.Hour))
		if err != nil || len(live) != 2 {
			t.Fatalf("live %d, %v", len(live), err)
		}
	})
}

// Two instances (two store handles on one database) booking one window
// of capacity one: one wins.
func TestBookVisitAcrossInstances(t *testing.T) {
	ForEachDBPair(t, func(t *testing.T, a, b *Store) {
		won, full := parallelBookings(t, a, b, 6, 1)
		if won != 1 || full != 5 {
			t.Fatalf("%d won, %d full; want 1 and 5", won, full)
		}
	})
}

// Book, move, cancel: one live visit per lead, a move into a full window
// refused and into a free one done (its sequence grown), a cancel frees
// the window; each change is on the lead's timeline, and the change
// hook runs in the same transaction (its error undoes the change).
func TestBookingLifecycle(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		bookingLead(t, s, "lead-1")
		bookingLead(t, s, "lead-2")
		now := time.Now().UTC()
		var told []string
		tell := func(_ context.Context, _ *sqlx.Tx, b Booking, what string) error {
			told = append(told, b.LeadID+" "+what)
			return nil
		}
		b1, err := s.BookVisit(ctx, "lead-1", nine, nine.Add(2*time.Hour), 1, SystemActor, now, tell)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.BookVisit(ctx, "lead-1", nine.Add(4*time.Hour), nine.Add(6*time.Hour), 1, SystemActor, now, tell); !errors.Is(err, ErrAlreadyBooked) {
			t.Errorf("second booking of a lead: %v", err)
		}
		b2, err := s.BookVisit(ctx, "lead-2", nine.Add(2*time.Hour), nine.Add(4*time.Hour), 1, SystemActor, now, tell)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.MoveVisit(ctx, b2.ID, nine.Add(time.Hour), nine.Add(3*time.Hour), 1, SystemActor, now, tell); !errors.Is(err, ErrSlotFull) {
			t.Errorf("move into an overlapping full window: %v", err)
		}
		// Moving within its own window is not blocked by itself.
		if _, err := s.MoveVisit(ctx, b1.ID, nine, nine.Add(2*time.Hour), 1, SystemActor, now, tell); err != nil {
			t.Errorf("move onto itself: %v", err)
		}
		boom := errors.New("outbox down")
		if _, err := s.MoveVisit(ctx, b1.ID, nine.Add(6*time.Hour), nine.Add(8*time.Hour), 1, SystemActor, now,
			func(context.Context, *sqlx.Tx, Booking, string) error { return boom }); !errors.Is(err, boom) {
			t.Errorf("hook error: %v", err)
		}
		if got, _ := s.LeadBooking(ctx, "lead-1"); !got.Start.Equal(nine) {
			t.Errorf("a failed hook left the move: %v", got.Start)
		}
		moved, err := s.MoveVisit(ctx, b1.ID, nine.Add(24*time.Hour), nine.Add(26*time.Hour), 1, Actor{Name: "Owner"}, now, tell)
		if err != nil || moved.Sequence != 2 {
			t.Fatalf("move: %v, sequence %d", err, moved.Sequence)
		}
		if _, err := s.CancelVisit(ctx, b2.ID, SystemActor, now, tell); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CancelVisit(ctx, b2.ID, SystemActor, now, tell); !errors.Is(err, ErrNotFound) {
			t.Errorf("second cancel: %v", err)
		}
		if _, err := s.LeadBooking(ctx, "lead-2"); !errors.Is(err, ErrNotFound) {
			t.Errorf("cancelled booking still live: %v", err)
		}
		if _, err := s.BookVisit(ctx, "lead-2", nine.Add(2*time.Hour), nine.Add(4*time.Hour), 1, SystemActor, now, tell); err != nil {
			t.Errorf("book again after a cancel: %v", err)
		}
		visits, err := s.Visits(ctx, nine.Add(-time.Hour), nine.Add(30*time.Hour))
		if err != nil || len(visits) != 2 || visits[0].LeadID != "lead-2" || visits[0].FirstName != "Ann" || visits[1].LeadID != "lead-1" {
			t.Fatalf("visits %+v %v", visits, err)
		}
		want := []string{"lead-1 booked", "lead-2 booked", "lead-1 moved", "lead-1 moved", "lead-2 cancelled", "lead-2 booked"}
		if len(told) != len(want) {
			t.Fatalf("told %v; want %v", told, want)
		}
		for i := range want {
			if told[i] != want[i] {
				t.Errorf("told %v; want %v", told, want)
				break
			}
		}
		tl, err := s.LeadTimeline(ctx, "lead-1")
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]int{}
		for _, e := range tl {
			if e.Kind == EventBooking {
				kinds[e.To]++
			}
		}
		if len(kinds) != 2 || kinds["booked"] != 1 || kinds["moved"] != 2 {
			t.Errorf("timeline bookings %v; want booked once, moved twice", kinds)
		}
	})
}
