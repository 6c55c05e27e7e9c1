package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

func TestReviewRefreshFromPlaces(t *testing.T) {
	var calls atomic.Int32
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Query().Get("key") != "k" || r.URL.Query().Get("place_id") != "p" {
			http.Error(w, "bad key", http.StatusForbidden)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"status": "OK", "result": map[string]any{"reviews": []map[string]any{
			{"author_name": "Maria G.", "rating": 5, "text": "They had our basement dry in four days.", "time": 1760000000},
			{"author_name": "Tom B.", "rating": 3, "text": "Okay.", "time": 1760000100},
		}}})
	}))
	defer fake.Close()
	srv, _ := newTestServer(t, map[string]string{"GOOGLE_PLACES_API_KEY": "k", "GOOGLE_PLACE_ID": "p", "GOOGLE_PLACES_ENDPOINT": fake.URL})
	h := srv.Handler()
	if r := get(t, h, "/"); !strings.Contains(r.Body, "Click here to fetch reviews") {
		t.Fatal("empty prompt not shown before refresh")
	}
	r := do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil))
	if r.StatusCode != 200 || !strings.Contains(r.Body, `"fetched":2`) {
		t.Fatalf("refresh: %d %s", r.StatusCode, r.Body)
	}
	list := get(t, h, "/api/reviews")
	if !strings.Contains(list.Body, "Maria G.") || strings.Contains(list.Body, "Tom B.") {
		t.Errorf("api/reviews = %s, want only the 5-star review", list.Body)
	}
	// The cached home page was invalidated and now shows the review.
	if r := get(t, h, "/"); !strings.Contains(r.Body, "They had our basement dry in four days.") {
		t.Error("home not re-rendered with the new review")
	}
	// A second refresh inside the minimum interval does not call Google.
	do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil))
	if calls.Load() != 1 {
		t.Errorf("places called %d times, want 1", calls.Load())
	}
}

func TestReviewRefreshNotConfigured(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	r := do(t, srv.Handler(), httptest.NewRequest("POST", "/api/reviews/refresh", nil))
	if r.StatusCode != http.StatusServiceUnavailable || !strings.Contains(r.Body, "not configured") {
		t.Errorf("status %d body %s", r.StatusCode, r.Body)
	}
}
