package db

import (
	"context"
	"errors"
	"fmt"
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
