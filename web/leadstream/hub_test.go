package leadstream

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func recv(t *testing.T, s *Sub) db.LeadChange {
	t.Helper()
	select {
	case c := <-s.C:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no change after 10 s")
	}
	return db.LeadChange{}
}

// A change reaches every open stream, without its origin.
func TestHubBroadcast(t *testing.T) {
	h := NewHub("me", quiet)
	a, _ := h.Open("s1")
	b, _ := h.Open("s2")
	h.Publish(db.LeadChange{Kind: db.LeadCreated, LeadID: "L1", Origin: "me"})
	for _, s := range []*Sub{a, b} {
		if c := recv(t, s); c.Kind != db.LeadCreated || c.LeadID != "L1" || c.Origin != "" {
			t.Errorf("got %+v", c)
		}
	}
	h.Leave(b)
	h.Publish(db.LeadChange{Kind: db.LeadNote, LeadID: "L1"})
	if c := recv(t, a); c.Kind != db.LeadNote {
		t.Errorf("got %+v", c)
	}
	if n, sessions := h.Count(); n != 1 || sessions != 1 {
		t.Errorf("open %d in %d sessions, want 1 in 1", n, sessions)
	}
}

// A slow stream is never waited for: past its queue it is told to resync.
func TestHubSlowStreamResyncs(t *testing.T) {
	h := NewHub("me", quiet)
	s, _ := h.Open("s1")
	done := make(chan struct{})
	go func() {
		for i := 0; i < buffer*3; i++ {
			h.Publish(db.LeadChange{Kind: db.LeadStatus, LeadID: "L"})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Publish blocked on a stream that does not read")
	}
	if !s.Lost() {
		t.Error("a stream that missed changes was not told to resync")
	}
	if s.Lost() {
		t.Error("Lost reported twice")
	}
	// A listener reconnect tells every stream to resync, and wakes it.
	for len(s.C) > 0 {
		<-s.C
	}
	h.Resync()
	if c := recv(t, s); c.Kind != "" || !s.Lost() {
		t.Errorf("after Resync: %+v", c)
	}
}

// At most PerSession streams per session, however many open at once:
// the oldest end ("replaced"); other sessions are untouched; the
// server-wide cap refuses past Max.
func TestHubPerSessionBoundUnderParallelOpens(t *testing.T) {
	h := NewHub("me", quiet)
	h.Max = 40
	other, _ := h.Open("other")
	var wg sync.WaitGroup
	subs := make(chan *Sub, 30)
	for i := 0; i < 30; i++ {
		wg.Go(func() {
			s, err := h.Open("s1")
			if err != nil {
				t.Error(err)
				return
			}
			subs <- s
		})
	}
	wg.Wait()
	close(subs)
	live, replaced := 0, 0
	for s := range subs {
		select {
		case <-s.Done():
			if s.Reason() != EndReplaced {
				t.Errorf("ended: %q", s.Reason())
			}
			replaced++
		default:
			live++
		}
	}
	if live != DefaultPerSession || replaced != 30-DefaultPerSession {
		t.Errorf("%d live, %d replaced; want %d live", live, replaced, DefaultPerSession)
	}
	if n, _ := h.Count(); n != DefaultPerSession+1 {
		t.Errorf("hub counts %d open, want %d", n, DefaultPerSession+1)
	}
	select {
	case <-other.Done():
		t.Error("another session's stream was ended")
	default:
	}
	h.Max = 4
	if _, err := h.Open("third"); err != ErrFull {
		t.Errorf("past the server-wide cap: %v, want ErrFull", err)
	}
}

// Close ends every stream ("shutdown") and refuses new ones.
func TestHubClose(t *testing.T) {
	h := NewHub("me", quiet)
	a, _ := h.Open("s1")
	h.Close()
	select {
	case <-a.Done():
		if a.Reason() != EndShutdown {
			t.Errorf("reason %q", a.Reason())
		}
	default:
		t.Fatal("stream still open after Close")
	}
	if _, err := h.Open("s2"); err != ErrClosed {
		t.Errorf("Open after Close: %v", err)
	}
}

// On PostgreSQL a change made through another store handle (another
// instance, or the CLI) reaches this hub's streams; this hub's own
// changes, which its hooks delivered, are not delivered twice.
func TestHubHearsOtherInstancesOnPostgres(t *testing.T) {
	dsn := db.NewTestPostgresDatabase(t, "leadstream")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := db.Open(ctx, dsn, "")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := db.Open(ctx, dsn, "")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	h := NewHub(a.Origin(), quiet)
	defer a.OnLeadChange(h.Publish)()
	go h.Run(ctx, dsn)
	deadline := time.Now().Add(10 * time.Second)
	for !h.Listening() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !h.Listening() {
		t.Fatal("not listening after 10 s")
	}
	s, _ := h.Open("s1")
	now := time.Now().UTC()
	if err := b.CreateLead(ctx, db.Lead{ID: "from-b", CreatedAt: now, UpdatedAt: now, FirstName: "Ann", Phone: "4045550101", Status: "new", Source: "website"}); err != nil {
		t.Fatal(err)
	}
	if c := recv(t, s); c.Kind != db.LeadCreated || c.LeadID != "from-b" {
		t.Fatalf("got %+v", c)
	}
	if _, err := a.AddLeadNote(ctx, "from-b", db.Actor{Name: "Owner"}, "Called back.", now); err != nil {
		t.Fatal(err)
	}
	if c := recv(t, s); c.Kind != db.LeadNote {
		t.Fatalf("got %+v", c)
	}
	// b's next change arrives next: a's note was not delivered twice.
	if err := b.SetLeadStatus(ctx, "from-b", "contacted", now); err != nil {
		t.Fatal(err)
	}
	if c := recv(t, s); c.Kind != db.LeadStatus {
		t.Fatalf("got %+v, want b's status change (a's note twice?)", c)
	}
}
