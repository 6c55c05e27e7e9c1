package ssr

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// holdJS renders "hold" by logging, which the test's log handler holds
// until released, and every other kind by logging that it ran: the
// handler sees the order the one runtime ran them in.
const holdJS = `var SSR = { render: function (kind, props) {
  console.log(kind === "hold" ? "hold" : "ran " + kind);
  return ["<p>" + kind + "</p>", "", ""];
} };`

// holdLog is a slog handler: "hold" signals held and waits for release;
// "ran X" records X.
type holdLog struct {
	held    chan struct{}
	release chan struct{}
	mu      sync.Mutex
	ran     []string
}

func (h *holdLog) Enabled(context.Context, slog.Level) bool { return true }
func (h *holdLog) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *holdLog) WithGroup(string) slog.Handler            { return h }
func (h *holdLog) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		s := a.Value.String()
		switch {
		case strings.Contains(s, "hold"):
			h.held <- struct{}{}
			<-h.release
		case strings.Contains(s, "ran "):
			h.mu.Lock()
			h.ran = append(h.ran, s[strings.Index(s, "ran ")+4:strings.LastIndex(s, "]")])
			h.mu.Unlock()
		}
		return true
	})
	return nil
}

// waitFor polls the pool's queues until cond holds (the test's deadline
// bounds it).
func waitFor(p *Pool, cond func(live, bg int) bool) {
	for !cond(p.Waiting()) {
		time.Sleep(time.Millisecond)
	}
}

// A free runtime goes to a request's render before background work that
// waited longer: a visitor never waits behind the warm-up's queue.
func TestPoolRequestsGoBeforeBackground(t *testing.T) {
	h := &holdLog{held: make(chan struct{}), release: make(chan struct{})}
	p, err := NewPool(holdJS, 1, 10*time.Second, slog.New(h))
	if err != nil {
		t.Fatal(err)
	}
	bg := Background(context.Background())
	var wg sync.WaitGroup
	render := func(ctx context.Context, kind string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := p.Render(ctx, kind, []byte(`{}`)); err != nil {
				t.Errorf("%s: %v", kind, err)
			}
		}()
	}
	render(bg, "hold") // the warm-up's render holds the only runtime
	<-h.held
	render(bg, "warm1")
	waitFor(p, func(_, b int) bool { return b == 1 })
	render(bg, "warm2")
	waitFor(p, func(_, b int) bool { return b == 2 })
	render(context.Background(), "visitor")
	waitFor(p, func(l, _ int) bool { return l == 1 })
	close(h.release)
	wg.Wait()
	if got := strings.Join(h.ran, ","); got != "visitor,warm1,warm2" {
		t.Fatalf("ran %s, want the visitor's render first, then the warm-up's in order", got)
	}
}

// A render whose context ends while it waits leaves the queue, and the
// runtime goes to the next one.
func TestPoolWaiterGivesUp(t *testing.T) {
	h := &holdLog{held: make(chan struct{}), release: make(chan struct{})}
	p, err := NewPool(holdJS, 1, 10*time.Second, slog.New(h))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	go func() { _, err := p.Render(context.Background(), "hold", []byte(`{}`)); done <- err }()
	<-h.held
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _, err := p.Render(ctx, "gone", []byte(`{}`)); done <- err }()
	waitFor(p, func(l, _ int) bool { return l == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
	waitFor(p, func(l, _ int) bool { return l == 0 })
	close(h.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := p.Render(context.Background(), "after", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h.ran, ","); got != "after" {
		t.Fatalf("ran %s, want only the render after", got)
	}
}
