package cdnpurge

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

func TestPurgeRetriesAndBatches(t *testing.T) {
	var mu sync.Mutex
	var got []Request
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if r.Header.Get("Authorization") != "Bearer tok" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("headers %v", r.Header)
		}
		if calls == 1 {
			w.WriteHeader(http.StatusServiceUnavailable) // retried
			return
		}
		var req Request
		json.NewDecoder(r.Body).Decode(&req)
		got = append(got, req)
	}))
	defer srv.Close()
	c := New(srv.URL, "tok", slog.New(slog.NewTextHandler(io.Discard, nil)))
	c.Backoff = time.Millisecond
	var paths, urls []string
	for i := 0; i < 700; i++ {
		paths = append(paths, "/p")
		urls = append(urls, "https://x/p")
	}
	if err := c.Purge(context.Background(), Request{Paths: paths, URLs: urls, Reason: "upload", Version: 7}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got[0].Paths) != 500 || len(got[1].Paths) != 200 || got[0].Version != 7 || got[0].Reason != "upload" {
		t.Fatalf("batches: %d calls, %+v", calls, len(got))
	}
}

func TestPurgeGivesUpOnClientErrors(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		w.WriteHeader(http.StatusForbidden)
	}))
	defer srv.Close()
	c := New(srv.URL, "", slog.New(slog.NewTextHandler(io.Discard, nil)))
	c.Backoff = time.Millisecond
	if err := c.Purge(context.Background(), Request{Paths: []string{"/"}, URLs: []string{"https://x/"}}); err == nil || calls != 1 {
		t.Errorf("403: err=%v calls=%d, want one call and an error", err, calls)
	}
	if New("", "", nil) != nil {
		t.Error("an empty URL should mean no client")
	}
}
