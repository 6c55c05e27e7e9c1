// Package contentsync keeps several instances of the site on one content
// version. Every content change (an upload, a delete, a settings save, a
// review refresh) bumps a version row in the shared database and, on
// PostgreSQL, sends NOTIFY; every instance LISTENs and drops its render
// cache when a newer version is announced. A dropped listen connection is
// re-established and the versions compared, and a slow poll compares them
// too, so no change is missed. On SQLite one server process serves the
// site, and the slow poll alone catches the changes another process made
// to the same file (`site content import`).
package contentsync

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"

	"github.com/atlanta-restoration/site/db"
)

// Store is what the syncer needs from the database.
type Store interface {
	BumpContentVersion(ctx context.Context, reason string, now time.Time) (int64, error)
	ContentVersion(ctx context.Context) (int64, error)
	Dialect() string
}

// Syncer announces this instance's content changes and applies the other
// instances' ones.
type Syncer struct {
	store Store
	dsn   string // PostgreSQL URL to LISTEN on; empty on SQLite
	// apply drops the local render cache (without announcing again).
	apply func(reason string)
	log   *slog.Logger
	// Poll is how often versions are compared even without a notification.
	Poll time.Duration

	version   atomic.Int64 // the version this instance's cache reflects
	listening atomic.Bool
	mu        sync.Mutex // serialises apply decisions
}

// New returns a syncer. dsn is the PostgreSQL URL (empty for SQLite).
// apply follows another instance's change; it may be nil until Follow
// sets it, before Run.
func New(store Store, dsn string, apply func(reason string), log *slog.Logger) *Syncer {
	return &Syncer{store: store, dsn: dsn, apply: apply, log: log, Poll: 30 * time.Second}
}

// Follow sets what follows another instance's change: the server, built
// after the syncer, connects its render cache here before Run.
func (s *Syncer) Follow(apply func(reason string)) { s.apply = apply }

// Init reads the current version, so that an instance that boots after a
// change does not treat it as news (it renders fresh anyway).
func (s *Syncer) Init(ctx context.Context) error {
	v, err := s.store.ContentVersion(ctx)
	if err != nil {
		return err
	}
	s.version.Store(v)
	return nil
}

// Publish records a change made on this instance. The caller has already
// dropped its own cache. A failure is logged: the other instances then
// catch up at their next poll after the database is back, when this
// instance publishes again, or not at all if nothing else changes — so
// the error is returned for the caller to report.
func (s *Syncer) Publish(ctx context.Context, reason string) (int64, error) {
	v, err := s.store.BumpContentVersion(ctx, reason, time.Now().UTC())
	if err != nil {
		s.log.Warn("content change not announced to other instances", "reason", reason, "err", err)
		return 0, err
	}
	s.mu.Lock()
	if v > s.version.Load() {
		s.version.Store(v)
	}
	s.mu.Unlock()
	return v, nil
}

// Version is the content version this instance serves.
func (s *Syncer) Version() int64 { return s.version.Load() }

// Listening reports whether the LISTEN connection is up (always false on
// SQLite, where there is nothing to listen to).
func (s *Syncer) Listening() bool { return s.listening.Load() }

// Shared reports whether changes are shared with other instances.
func (s *Syncer) Shared() bool { return s.dsn != "" }

// catchUp applies version v if it is newer than what this instance serves.
func (s *Syncer) catchUp(v int64, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v <= s.version.Load() {
		return
	}
	s.version.Store(v)
	s.log.Info("content changed on another instance", "version", v, "via", why)
	if s.apply != nil {
		s.apply("content version " + strconv.FormatInt(v, 10) + " (" + why + ")")
	}
}

// compare reads the shared version and catches up.
func (s *Syncer) compare(ctx context.Context, why string) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	v, err := s.store.ContentVersion(ctx)
	if err != nil {
		return
	}
	s.catchUp(v, why)
}

// Run listens for other instances' changes until ctx ends. On SQLite it
// only polls.
func (s *Syncer) Run(ctx context.Context) {
	if s.dsn == "" {
		poll := time.NewTicker(s.Poll)
		defer poll.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-poll.C:
				s.compare(ctx, "poll")
			}
		}
	}
	l := pq.NewListener(s.dsn, 100*time.Millisecond, 5*time.Second, func(ev pq.ListenerEventType, err error) {
		switch ev {
		case pq.ListenerEventConnected:
			s.listening.Store(true)
		case pq.ListenerEventReconnected:
			s.listening.Store(true)
			s.log.Info("content listener reconnected")
			go s.compare(ctx, "reconnect")
		case pq.ListenerEventDisconnected, pq.ListenerEventConnectionAttemptFailed:
			if s.listening.Swap(false) {
				s.log.Warn("content listener disconnected; reconnecting", "err", err)
			}
		}
	})
	defer l.Close()
	if err := l.Listen(db.ContentChannel); err != nil {
		s.log.Warn("content listener: LISTEN failed; relying on polling until it reconnects", "err", err)
	} else {
		s.listening.Store(true)
	}
	// A change made between Init and LISTEN would otherwise be missed.
	s.compare(ctx, "listen")
	poll := time.NewTicker(s.Poll)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			s.listening.Store(false)
			return
		case n := <-l.NotificationChannel():
			if n == nil { // the connection was re-established
				s.compare(ctx, "reconnect")
				continue
			}
			if v, err := strconv.ParseInt(n.Extra, 10, 64); err == nil {
				s.catchUp(v, "notify")
			}
		case <-poll.C:
			s.compare(ctx, "poll")
		}
	}
}
