package leadstream

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/leadstream/streamtest"
)

// A session opening more streams than the bound, all at once, keeps the
// newest three; the others end with "replaced" (and the browser does not
// reconnect them); other sessions' streams are untouched.
func TestLeadStreamPerSessionBound(t *testing.T) {
	t.Parallel()
	r := newRoom(t, db.NewTestSQLite(t))
	ts := streamtest.Serve(t, r)
	other := streamtest.Open(t, ts.URL, asStaff)
	other.Next(t, 10*time.Second, "resync")
	const n = 8
	streams := make([]*streamtest.Stream, n)
	var wg sync.WaitGroup
	for i := range streams {
		wg.Go(func() { streams[i] = streamtest.Open(t, ts.URL, asAdmin) })
	}
	wg.Wait()
	// The replaced streams end as the newer ones open: wait until as many
	// have ended as should (up to a minute on a busy machine), then give
	// any other a moment to end too, which it must not.
	ended := func() (count int) {
		for _, s := range streams {
			select {
			case <-s.Closed():
				count++
			default:
			}
		}
		return count
	}
	for deadline := time.Now().Add(time.Minute); ended() < n-DefaultPerSession && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	replaced := 0
	for _, s := range streams {
		select {
		case <-s.Closed():
		default:
			continue
		}
		if !strings.Contains(s.Raw(), "event: end\ndata: {\"reason\":\"replaced\"}") {
			t.Errorf("a stream ended without saying why:\n%s", s.Raw())
		}
		replaced++
	}
	if replaced != n-DefaultPerSession {
		t.Errorf("%d of %d streams of one session ended, want %d", replaced, n, n-DefaultPerSession)
	}
	if open, sessions := r.hub.Count(); open != DefaultPerSession+1 || sessions != 2 {
		t.Errorf("hub: %d open in %d sessions, want %d in 2", open, sessions, DefaultPerSession+1)
	}
	select {
	case <-other.Closed():
		t.Error("another session's stream ended")
	default:
	}
}

// The heartbeat keeps an idle stream visibly alive.
func TestLeadStreamHeartbeat(t *testing.T) {
	t.Parallel()
	r := newRoom(t, db.NewTestSQLite(t))
	r.h.Heartbeat = 50 * time.Millisecond
	ts := streamtest.Serve(t, r)
	s := streamtest.Open(t, ts.URL, asStaff)
	s.Next(t, 10*time.Second, "ping")
	s.Next(t, 10*time.Second, "ping")
	if !strings.HasPrefix(s.Raw(), "retry: ") {
		t.Errorf("the stream does not start with the reconnect delay:\n%s", s.Raw())
	}
}
