package cdnpurge

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// A fake proxy: records each PURGE (method, Host, path) and answers with
// the status answer gives for the path's nth request.
type fakeProxy struct {
	mu     sync.Mutex
	got    []string
	tries  map[string]int
	answer func(path string, n int) int
}

func newFakeProxy(t *testing.T, answer func(path string, n int) int) (*fakeProxy, string) {
	f := &fakeProxy{tries: map[string]int{}, answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.tries[r.URL.Path]++
		n := f.tries[r.URL.Path]
		f.got = append(f.got, r.Method+" "+r.Host+" "+r.URL.Path)
		f.mu.Unlock()
		w.WriteHeader(f.answer(r.URL.Path, n))
	}))
	t.Cleanup(srv.Close)
	return f, srv.URL
}

func (f *fakeProxy) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := slices.Clone(f.got)
	slices.Sort(out)
	return out
}

func TestProxiesPurgeEveryPathOnEveryProxy(t *testing.T) {
	ok := func(string, int) int { return http.StatusOK }
	one, u1 := newFakeProxy(t, ok)
	// The second proxy is busy once for /blog: asked again.
	two, u2 := newFakeProxy(t, func(path string, n int) int {
		if path == "/blog" && n == 1 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	p := NewProxies([]string{u1, u2 + "/"}, "https://www.example.com", quiet())
	p.Backoff = time.Millisecond
	paths := []string{"/", "/blog", "/blog/new-post", "/sitemap.xml"}
	if err := p.Purge(context.Background(), paths, "publish"); err != nil {
		t.Fatal(err)
	}
	want := []string{"PURGE www.example.com /", "PURGE www.example.com /blog", "PURGE www.example.com /blog/new-post", "PURGE www.example.com /sitemap.xml"}
	if got := one.requests(); !slices.Equal(got, want) {
		t.Errorf("first proxy: %v", got)
	}
	// /blog twice (the retry), every other path once.
	if got := two.requests(); !slices.Equal(got, slices.Insert(slices.Clone(want), 1, "PURGE www.example.com /blog")) {
		t.Errorf("second proxy: %v", got)
	}
	if NewProxies(nil, "https://x", quiet()) != nil {
		t.Error("no proxies should mean no purger")
	}
}

func TestProxiesReportWhatFailed(t *testing.T) {
	// A proxy that refuses this instance (not in its purgers list) is asked
	// once per path; a proxy that cannot be reached is asked 4 times; the
	// proxy that works is purged all the same.
	refusing, u1 := newFakeProxy(t, func(string, int) int { return http.StatusForbidden })
	working, u2 := newFakeProxy(t, func(string, int) int { return http.StatusOK })
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	p := NewProxies([]string{u1, u2, down.URL}, "https://www.example.com", quiet())
	p.Backoff = time.Millisecond
	err := p.Purge(context.Background(), []string{"/", "/blog"}, "publish")
	if err == nil || !strings.Contains(err.Error(), "HTTP 403") || !strings.Contains(err.Error(), down.URL) || strings.Contains(err.Error(), u2) {
		t.Fatalf("err = %v, want the refusal and the unreachable proxy named", err)
	}
	if got := refusing.requests(); len(got) != 2 {
		t.Errorf("the refusing proxy was asked %v, want once per path", got)
	}
	if got := working.requests(); len(got) != 2 {
		t.Errorf("the working proxy got %v", got)
	}
	if p.Purge(context.Background(), nil, "nothing") != nil {
		t.Error("no paths: nothing to do")
	}
}
