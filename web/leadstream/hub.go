// Package leadstream is the leads screens' live stream (ADR
// 041): GET /api/admin/leads/events, Server-Sent Events that say a lead
// changed (created, status, note, assigned, escalated, deleted) and
// which, never what it holds: the screens refetch through the masked
// lead APIs, so the stream carries no contact data for any role.
//
// The Hub hears the changes: this process's own from the store's hooks
// (db.Store.OnLeadChange), other instances' and CLI processes' through
// PostgreSQL LISTEN on db.LeadChannel. It fans them out to the open
// streams, at most PerSession per session (a new stream closes the
// session's oldest) and Max in all.
package leadstream

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"

	"github.com/atlanta-restoration/site/db"
)

// Bounds of the hub (ADR 041).
const (
	// DefaultPerSession: a browser keeps at most six connections to a
	// host over HTTP/1.1, shared by all its tabs; three streams leave the
	// other three for the screens' requests.
	DefaultPerSession = 3
	// DefaultMax is the server-wide cap of open streams.
	DefaultMax = 500
	// buffer is how many changes wait for a slow stream; past it the
	// stream is told to resync instead.
	buffer = 64
)

// Why a stream ended (the "end" event's reason).
const (
	EndReplaced  = "replaced"   // the session opened a newer stream
	EndShutdown  = "shutdown"   // this server is stopping
	EndSignedOut = "signed-out" // the session ended, expired or was revoked, or lost the right
)

// Errors of Open.
var (
	ErrFull   = errors.New("leadstream: too many open streams")
	ErrClosed = errors.New("leadstream: the server is stopping")
)

// Hub fans lead changes out to the open streams.
type Hub struct {
	PerSession int
	Max        int
	// Origin is this process's store (db.Store.Origin): its own
	// notifications come back over LISTEN and are skipped, as its hooks
	// delivered them already.
	Origin string
	log    *slog.Logger

	mu       sync.Mutex
	closed   bool
	open     int
	sessions map[string][]*Sub

	listening atomic.Bool
	published atomic.Int64
}

// NewHub returns a hub with the default bounds.
func NewHub(origin string, log *slog.Logger) *Hub {
	return &Hub{PerSession: DefaultPerSession, Max: DefaultMax, Origin: origin, log: log, sessions: map[string][]*Sub{}}
}

// Sub is one open stream.
type Sub struct {
	session string
	// C wakes the stream: a change to send, or the zero change after
	// Resync set lost.
	C chan db.LeadChange
	// lost: a change could not be queued, or the listener reconnected;
	// the stream sends "resync".
	lost atomic.Bool
	done chan struct{}
	once sync.Once
	why  string
}

// Done is closed when the hub ends the stream; Reason says why.
func (s *Sub) Done() <-chan struct{} { return s.done }

// Reason is why the hub ended the stream (after Done).
func (s *Sub) Reason() string { return s.why }

// Lost reports, once, that changes were missed and the screen must
// refetch.
func (s *Sub) Lost() bool { return s.lost.Swap(false) }

func (s *Sub) end(why string) {
	s.once.Do(func() {
		s.why = why
		close(s.done)
	})
}

// Open registers a stream of session. A session holding PerSession
// streams already loses its oldest (it gets "end: replaced"): a phone
// that slept kept a dead one that the server has not noticed yet.
func (h *Hub) Open(session string) (*Sub, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	subs := h.sessions[session]
	for len(subs) >= max(h.PerSession, 1) {
		subs[0].end(EndReplaced)
		subs = subs[1:]
		h.open--
	}
	if h.open >= h.Max {
		h.sessions[session] = subs
		return nil, ErrFull
	}
	s := &Sub{session: session, C: make(chan db.LeadChange, buffer), done: make(chan struct{})}
	h.sessions[session] = append(subs, s)
	h.open++
	return s, nil
}

// Leave unregisters a stream (its handler returned).
func (h *Hub) Leave(s *Sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	subs := h.sessions[s.session]
	for i, x := range subs {
		if x == s {
			h.sessions[s.session] = append(subs[:i:i], subs[i+1:]...)
			h.open--
			break
		}
	}
	if len(h.sessions[s.session]) == 0 {
		delete(h.sessions, s.session)
	}
	s.end(EndReplaced)
}

// Count is the number of open streams, and of sessions holding one.
func (h *Hub) Count() (streams, sessions int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.open, len(h.sessions)
}

// each calls fn on every open stream, under the lock (fn must not block).
func (h *Hub) each(fn func(*Sub)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, subs := range h.sessions {
		for _, s := range subs {
			fn(s)
		}
	}
}

// Publish sends a change to every open stream. It never blocks: a
// stream whose queue is full is told to resync instead.
func (h *Hub) Publish(c db.LeadChange) {
	h.published.Add(1)
	c.Origin = ""
	h.each(func(s *Sub) {
		select {
		case s.C <- c:
		default:
			s.lost.Store(true)
		}
	})
}

// Resync tells every open stream that changes may have been missed (the
// listen connection dropped), so its screens refetch.
func (h *Hub) Resync() {
	h.each(func(s *Sub) {
		s.lost.Store(true)
		select {
		case s.C <- db.LeadChange{}:
		default:
		}
	})
}

// Close ends every stream (reason "shutdown") and refuses new ones: a
// stopping server must not wait for streams that never end by
// themselves. The browsers reconnect, to another instance.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for _, subs := range h.sessions {
		for _, s := range subs {
			s.end(EndShutdown)
		}
	}
}

// Listening reports whether the PostgreSQL listen connection is up.
func (h *Hub) Listening() bool { return h.listening.Load() }

// Run hears the other processes' changes on PostgreSQL (dsn) until ctx
// ends. On SQLite (dsn "") one process serves the site and the store's
// hooks carry every change: it returns at once.
func (h *Hub) Run(ctx context.Context, dsn string) {
	if dsn == "" {
		return
	}
	l := pq.NewListener(dsn, 100*time.Millisecond, 5*time.Second, func(ev pq.ListenerEventType, err error) {
		switch ev {
		case pq.ListenerEventConnected, pq.ListenerEventReconnected:
			h.listening.Store(true)
		case pq.ListenerEventDisconnected, pq.ListenerEventConnectionAttemptFailed:
			if h.listening.Swap(false) {
				h.log.Warn("lead change listener disconnected; reconnecting", "err", err)
			}
		}
	})
	defer l.Close()
	if err := l.Listen(db.LeadChannel); err != nil {
		h.log.Warn("lead change listener: LISTEN failed; retrying", "err", err)
	} else {
		h.listening.Store(true)
	}
	for {
		select {
		case <-ctx.Done():
			h.listening.Store(false)
			return
		case n := <-l.NotificationChannel():
			if n == nil {
				// Reconnected: notifications sent meanwhile are lost.
				h.Resync()
				continue
			}
			c, err := db.ParseLeadChange(n.Extra)
			if err != nil {
				h.log.Warn("lead change listener: unreadable notification", "err", err)
				continue
			}
			if c.Origin == h.Origin {
				continue
			}
			h.Publish(c)
		}
	}
}
