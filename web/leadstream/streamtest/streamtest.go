// Package streamtest reads the leads screens' live stream as a browser
// does, for tests: GET /api/admin/leads/events on a real HTTP server, its
// events as they come and every byte it carried.
package streamtest

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Serve serves h on a real HTTP server for streams; it closes after the
// test's streams (cleanups run last first), which it would otherwise
// wait for.
func Serve(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}

// Event is one event of a stream.
type Event struct {
	Name string
	Data map[string]any
}

// Stream is an open GET /api/admin/leads/events.
type Stream struct {
	Resp   *http.Response
	Events chan Event
	mu     sync.Mutex
	raw    strings.Builder
	closed chan struct{}
}

// Raw is every byte the stream carried so far.
func (s *Stream) Raw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw.String()
}

// Closed is closed when the server has ended the stream.
func (s *Stream) Closed() <-chan struct{} { return s.closed }

// Open opens the stream on base with token (none: ""), as a browser asks
// for it; it is closed when the test ends.
func Open(t testing.TB, base, token string) *Stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/admin/leads/events", nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Accept-Encoding", "gzip, deflate, br") // as browsers send it
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	s := &Stream{Resp: resp, Events: make(chan Event, 100), closed: make(chan struct{})}
	go func() {
		defer close(s.closed)
		defer close(s.Events)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		var ev Event
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.raw.WriteString(line + "\n")
			s.mu.Unlock()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.Data)
			case line == "" && ev.Name != "":
				s.Events <- ev
				ev = Event{}
			}
		}
	}()
	return s
}

// Next waits for the next event named one of names (others are skipped).
func (s *Stream) Next(t testing.TB, within time.Duration, names ...string) Event {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case ev, ok := <-s.Events:
			if !ok {
				t.Fatalf("the stream ended while waiting for %v; it carried:\n%s", names, s.Raw())
			}
			for _, n := range names {
				if ev.Name == n {
					return ev
				}
			}
		case <-deadline:
			t.Fatalf("no %v event within %s; the stream carried:\n%s", names, within, s.Raw())
		}
	}
}

// Ended waits for the stream's end (the server closed it).
func (s *Stream) Ended(t testing.TB, within time.Duration) {
	t.Helper()
	select {
	case <-s.closed:
	case <-time.After(within):
		t.Fatalf("the stream was still open after %s", within)
	}
}
