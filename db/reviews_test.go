package db

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Places' rating survives in the store per place id, newest fetch wins,
// and the reviews of the same fetch are saved with it.
func TestPlacesRatingStore(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, err := s.PlacesRatingOf(ctx, "p1"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("before any fetch: %v, want ErrNotFound", err)
		}
		t0 := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
		rs := []Review{{ID: "g1", AuthorName: "Ann", ReviewText: "Dry in four days.", Rating: 5, CreatedTime: t0, IsActive: true}}
		if err := s.SavePlacesFetch(ctx, PlacesRating{PlaceID: "p1", Rating: 4.7, Count: 81, FetchedAt: t0}, rs); err != nil {
			t.Fatal(err)
		}
		got, err := s.PlacesRatingOf(ctx, "p1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(PlacesRating{PlaceID: "p1", Rating: 4.7, Count: 81, FetchedAt: t0}, got); diff != "" {
			t.Errorf("stored rating (-want, +got):\n%s", diff)
		}
		if top, _ := s.TopReviews(ctx); len(top) != 1 || top[0].AuthorName != "Ann" {
			t.Errorf("reviews of the fetch: %+v", top)
		}
		// Another place's row is its own.
		if _, err := s.PlacesRatingOf(ctx, "p2"); !errors.Is(err, ErrNotFound) {
			t.Errorf("p2: %v, want ErrNotFound", err)
		}
		// An older fetch that finishes late does not replace a newer one.
		if err := s.SavePlacesFetch(ctx, PlacesRating{PlaceID: "p1", Rating: 3.1, Count: 2, FetchedAt: t0.Add(-time.Hour)}, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.PlacesRatingOf(ctx, "p1"); got.Rating != 4.7 || got.Count != 81 {
			t.Errorf("an older fetch replaced the rating: %+v", got)
		}
		// A newer one does; no rating yet is stored as 0 and 0.
		if err := s.SavePlacesFetch(ctx, PlacesRating{PlaceID: "p1", FetchedAt: t0.Add(time.Hour)}, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.PlacesRatingOf(ctx, "p1"); got.Rating != 0 || got.Count != 0 || !got.FetchedAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("newer fetch: %+v", got)
		}
	})
}

// Instances saving their fetches at once all succeed, and the newest
// fetch is what remains.
func TestPlacesRatingConcurrentSaves(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
		const n = 12
		start := make(chan struct{})
		errs := make(chan error, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				rs := []Review{{ID: fmt.Sprintf("g%d", i%3), AuthorName: "A", Rating: 5, CreatedTime: t0, IsActive: true}}
				errs <- s.SavePlacesFetch(ctx, PlacesRating{PlaceID: "p", Rating: 4.0 + float64(i)/10, Count: 100 + i, FetchedAt: t0.Add(time.Duration(i) * time.Minute)}, rs)
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("concurrent save: %v", err)
			}
		}
		got, err := s.PlacesRatingOf(ctx, "p")
		if err != nil || got.Count != 100+n-1 || !got.FetchedAt.Equal(t0.Add((n-1)*time.Minute)) {
			t.Errorf("after %d concurrent saves: %+v %v, want the newest (count %d)", n, got, err, 100+n-1)
		}
	})
}

func TestTopReviews(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
		rs := []Review{
			{ID: "a", AuthorName: "Ann", ReviewText: "Fast and careful crew.", Rating: 5, CreatedTime: base, IsActive: true},
			// Same author, same second, same first 60 chars (case differs): a duplicate.
			{ID: "a2", AuthorName: "ANN", ReviewText: "FAST AND CAREFUL CREW.", Rating: 5, CreatedTime: base.Add(300 * time.Millisecond), IsActive: true},
			{ID: "b", AuthorName: "Bob", ReviewText: "", Rating: 5, CreatedTime: base.Add(-time.Hour), IsActive: true},
			{ID: "c", AuthorName: "Cy", ReviewText: "Good", Rating: 4, CreatedTime: base.Add(time.Hour), IsActive: true},
			{ID: "d", AuthorName: "Di", ReviewText: "Hidden", Rating: 5, CreatedTime: base.Add(2 * time.Hour), IsActive: false},
			{ID: "e", AuthorName: "Ed", ReviewText: "Great", Rating: 5, CreatedTime: base.Add(-2 * time.Hour), IsActive: true},
			{ID: "f", AuthorName: "Flo", ReviewText: "Also great", Rating: 5, CreatedTime: base.Add(-3 * time.Hour), IsActive: true},
		}
		if err := s.UpsertReviews(ctx, rs); err != nil {
			t.Fatal(err)
		}
		got, err := s.TopReviews(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range got {
			ids = append(ids, r.AuthorName)
		}
		// Newest first; the 4-star, the inactive and the duplicate are dropped; 3 shown.
		if diff := cmp.Diff([]string{"ANN", "Bob", "Ed"}, ids); diff != "" {
			t.Errorf("TopReviews authors (-want, +got):\n%s", diff)
		}
		// Upsert replaces by id.
		rs[0].ReviewText = "Changed"
		if err := s.UpsertReviews(ctx, rs[:1]); err != nil {
			t.Fatal(err)
		}
		var n int
		s.db.Get(&n, `SELECT COUNT(*) FROM google_reviews`)
		if n != len(rs) {
			t.Errorf("rows after upsert = %d, want %d", n, len(rs))
		}
		var text string
		s.db.Get(&text, s.q(`SELECT review_text FROM google_reviews WHERE id = ?`), "a")
		if text != "Changed" {
			t.Errorf("review a after upsert: %q, want Changed", text)
		}
	})
}

// Two instances may refresh reviews at the same moment (the public button
// on each, or the button beside the daily job): both saves succeed.
func TestReviewRefreshesHoldUnderConcurrency(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
		start := make(chan struct{})
		errs := make(chan error, 12)
		var wg sync.WaitGroup
		for w := 0; w < 12; w++ {
			var rs []Review
			for i := 0; i < 5; i++ {
				rs = append(rs, Review{ID: fmt.Sprintf("r%d", i), AuthorName: fmt.Sprintf("W%d", w), ReviewText: "ok", Rating: 5, CreatedTime: base, IsActive: true})
			}
			if w%2 == 1 { // the other order too: rows must still lock in one order
				slices.Reverse(rs)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs <- s.UpsertReviews(ctx, rs)
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("concurrent refresh failed: %v", err)
			}
		}
		var n int
		s.db.Get(&n, `SELECT COUNT(*) FROM google_reviews`)
		if n != 5 {
			t.Errorf("%d review rows after 12 concurrent refreshes of 5, want 5", n)
		}
	})
}

func TestUniqueReviewsEmptyAndCap(t *testing.T) {
	if got := UniqueReviews(nil, 3); len(got) != 0 {
		t.Fatalf("UniqueReviews(nil) = %v", got)
	}
}
