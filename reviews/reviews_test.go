package reviews

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
)

func TestParseOwnerRating(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"4.9", "4.9", true}, {" 4.9 ", "4.9", true}, {"5", "5.0", true}, {"5.0", "5.0", true}, {"1", "1.0", true}, {"1.0", "1.0", true}, {"3.5", "3.5", true},
		{"5.1", "", false}, {"0.9", "", false}, {"0", "", false}, {"6", "", false}, {"4.95", "", false}, {"4,9", "", false}, {"-4.9", "", false},
		{"", "", false}, {"four", "", false}, {"4.9e0", "", false}, {"NaN", "", false}, {"Inf", "", false}, {"4.", "", false}, {".9", "", false},
		{"４.９", "", false}, {"4.9\n5", "", false}, {"<script>", "", false}, {strings.Repeat("4", 100000), "", false},
	} {
		got, msg := ParseOwnerRating(tt.in)
		if got != tt.want || (msg == "") != tt.ok {
			t.Errorf("ParseOwnerRating(%.20q) = %q, %q; want %q, ok=%v", tt.in, got, msg, tt.want, tt.ok)
		}
		if !tt.ok && msg != MsgOwnerRating {
			t.Errorf("ParseOwnerRating(%.20q) message %q", tt.in, msg)
		}
	}
}

func TestParseOwnerCount(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"79", 79, true}, {"0", 0, true}, {" 12 ", 12, true}, {"079", 79, true}, {"100000", 100000, true},
		{"100001", 0, false}, {"999999", 0, false}, {"1000000", 0, false}, {"-1", 0, false}, {"1.5", 0, false}, {"1e3", 0, false}, {"1,000", 0, false},
		{"", 0, false}, {"seventy", 0, false}, {"99999999999999999999999", 0, false}, {"０", 0, false}, {strings.Repeat("9", 100000), 0, false},
	} {
		got, msg := ParseOwnerCount(tt.in)
		if got != tt.want || (msg == "") != tt.ok {
			t.Errorf("ParseOwnerCount(%.20q) = %d, %q; want %d, ok=%v", tt.in, got, msg, tt.want, tt.ok)
		}
	}
}

func TestOwnerFromSettings(t *testing.T) {
	for _, tt := range []struct {
		name string
		m    map[string]string
		want Owner
	}{
		{"nothing saved: the spec's figures", nil, Owner{"4.9", 79}},
		{"saved", map[string]string{KeyOwnerRating: "4.6", KeyOwnerCount: "112"}, Owner{"4.6", 112}},
		{"a bad saved value falls back to its default only", map[string]string{KeyOwnerRating: "9", KeyOwnerCount: "12"}, Owner{"4.9", 12}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, OwnerFromSettings(tt.m)); diff != "" {
				t.Errorf("(-want, +got):\n%s", diff)
			}
		})
	}
}

func TestFiguresAndAggregateRating(t *testing.T) {
	at := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name    string
		f       Figures
		rating  string
		wantAgg map[string]any
	}{
		{"places with reviews", FromPlaces(db.PlacesRating{Rating: 4.72, Count: 81, FetchedAt: at}), "4.7",
			map[string]any{"@type": "AggregateRating", "ratingValue": "4.7", "reviewCount": 81, "bestRating": "5", "worstRating": "1"}},
		{"places without a rating yet", FromPlaces(db.PlacesRating{FetchedAt: at}), "", nil},
		{"places rating but no count", FromPlaces(db.PlacesRating{Rating: 5, FetchedAt: at}), "5.0", nil},
		{"the owner's values never", FromOwner(Owner{"4.9", 79}), "4.9", nil},
		{"the defaults never", FromOwner(DefaultOwner()), "4.9", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.f.Rating != tt.rating {
				t.Errorf("rating %q, want %q", tt.f.Rating, tt.rating)
			}
			if diff := cmp.Diff(tt.wantAgg, tt.f.AggregateRating()); diff != "" {
				t.Errorf("AggregateRating (-want, +got):\n%s", diff)
			}
		})
	}
	if f := FromPlaces(db.PlacesRating{Rating: 4.7, Count: 81, FetchedAt: at}); f.Source != SourcePlaces || f.FetchedAt == nil || !f.FetchedAt.Equal(at) {
		t.Errorf("places figures: %+v", f)
	}
	if f := FromOwner(DefaultOwner()); f.Source != SourceSettings || f.FetchedAt != nil || f.Count != 79 {
		t.Errorf("owner figures: %+v", f)
	}
}

// fakePlaces answers Places Details with body, after delay.
func fakePlaces(t *testing.T, delay time.Duration, body func(r *http.Request) any) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		time.Sleep(delay)
		json.NewEncoder(w).Encode(body(r))
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestFetchReadsRatingAndCount(t *testing.T) {
	var fields string
	srv, _ := fakePlaces(t, 0, func(r *http.Request) any {
		fields = r.URL.Query().Get("fields")
		return map[string]any{"status": "OK", "result": map[string]any{"rating": 4.7, "user_ratings_total": 81, "reviews": []map[string]any{
			{"author_name": "Maria G.", "rating": 5, "text": "Dry in four days.", "time": 1760000000},
		}}}
	})
	c := NewClient(config.Reviews{APIKey: "k", PlaceID: "p", Endpoint: srv.URL, MinInterval: time.Minute})
	got, err := c.Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fields, "rating") || !strings.Contains(fields, "user_ratings_total") || !strings.Contains(fields, "reviews") {
		t.Errorf("fields=%q: rating, user_ratings_total and reviews must be asked for", fields)
	}
	if got.Rating.PlaceID != "p" || got.Rating.Rating != 4.7 || got.Rating.Count != 81 || got.Rating.FetchedAt.IsZero() || len(got.Reviews) != 1 {
		t.Errorf("fetched %+v", got)
	}
	// Within the interval: no second call.
	if _, err := c.Fetch(context.Background()); !errors.Is(err, ErrTooSoon) {
		t.Errorf("second fetch: %v, want ErrTooSoon", err)
	}
}

func TestFetchWithoutRating(t *testing.T) {
	srv, _ := fakePlaces(t, 0, func(*http.Request) any {
		return map[string]any{"status": "OK", "result": map[string]any{}}
	})
	got, err := NewClient(config.Reviews{APIKey: "k", PlaceID: "p", Endpoint: srv.URL}).Fetch(context.Background())
	if err != nil || got.Rating.Rating != 0 || got.Rating.Count != 0 || len(got.Reviews) != 0 {
		t.Errorf("no rating yet: %+v %v", got, err)
	}
}

func TestFetchRefusesBrokenFigures(t *testing.T) {
	for _, result := range []map[string]any{
		{"rating": 7.5, "user_ratings_total": 3},
		{"rating": 0.2, "user_ratings_total": 3},
		{"rating": 4.5, "user_ratings_total": -4},
		{"rating": 4.5, "user_ratings_total": 1 << 40},
		{"rating": "4.5", "user_ratings_total": 3},
	} {
		srv, _ := fakePlaces(t, 0, func(*http.Request) any { return map[string]any{"status": "OK", "result": result} })
		if got, err := NewClient(config.Reviews{APIKey: "k", PlaceID: "p", Endpoint: srv.URL}).Fetch(context.Background()); err == nil {
			t.Errorf("result %v accepted: %+v", result, got)
		}
	}
}

func TestFetchNotConfigured(t *testing.T) {
	for _, cfg := range []config.Reviews{{}, {APIKey: "k"}, {PlaceID: "p"}} {
		c := NewClient(cfg)
		if _, err := c.Fetch(context.Background()); !errors.Is(err, ErrNotConfigured) || c.Configured() {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

// A burst of 100 parallel refreshes costs one call to Places, even with no
// minimum interval: a fetch under way turns the others away.
func TestFetchBurstCostsOneCall(t *testing.T) {
	srv, calls := fakePlaces(t, 200*time.Millisecond, func(*http.Request) any {
		return map[string]any{"status": "OK", "result": map[string]any{"rating": 4.8, "user_ratings_total": 5}}
	})
	c := NewClient(config.Reviews{APIKey: "k", PlaceID: "p", Endpoint: srv.URL})
	var ok, soon atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := c.Fetch(context.Background())
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, ErrTooSoon):
				soon.Add(1)
			default:
				t.Errorf("fetch: %v", err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if calls.Load() != 1 || ok.Load() != 1 || soon.Load() != 99 {
		t.Errorf("places called %d times; %d fetched, %d turned away", calls.Load(), ok.Load(), soon.Load())
	}
}

// A visitor who leaves does not cancel the fetch their click started.
func TestFetchOutlivesTheRequest(t *testing.T) {
	srv, _ := fakePlaces(t, 100*time.Millisecond, func(*http.Request) any {
		return map[string]any{"status": "OK", "result": map[string]any{"rating": 4.8, "user_ratings_total": 5}}
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := NewClient(config.Reviews{APIKey: "k", PlaceID: "p", Endpoint: srv.URL}).Fetch(ctx); err != nil || got.Rating.Count != 5 {
		t.Errorf("fetch with a cancelled request: %+v %v", got, err)
	}
}

func TestFetchErrorHidesTheKey(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	_, err := NewClient(config.Reviews{APIKey: "secret-key-123", PlaceID: "p", Endpoint: closed.URL}).Fetch(context.Background())
	if err == nil || strings.Contains(err.Error(), "secret-key-123") {
		t.Errorf("error %v", err)
	}
}
