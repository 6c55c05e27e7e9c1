package leadstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Timing of a stream (ADR 041).
const (
	// DefaultHeartbeat: a "ping" event this often keeps proxies from
	// closing an idle stream and lets the browser notice a dead one.
	DefaultHeartbeat = 25 * time.Second
	// DefaultRecheck: the session is checked again this often; a stream
	// of a session that ended, expired or was revoked, or of an account
	// disabled or moved to a role without leads, ends.
	DefaultRecheck = 20 * time.Second
	// retryMS is the browser's reconnect delay after a dropped stream
	// (the admin app reconnects on its own, with backoff, as well).
	retryMS = 2000
)

// Sessions re-checks a stream's session without sliding its expiry: an
// open screen is not activity, so a stream never keeps a session alive.
type Sessions interface {
	SessionValid(ctx context.Context, tokenHash string, now time.Time) (bool, error)
	UserByID(ctx context.Context, id string) (db.User, error)
}

// Handler serves GET /api/admin/leads/events (the guard, leads.read, is
// in server/install.go).
type Handler struct {
	Hub       *Hub
	Sessions  Sessions
	Heartbeat time.Duration
	Recheck   time.Duration
	Log       *slog.Logger
}

const msgFull = "Too many live connections are open. The screen will reconnect by itself."
const msgStopping = "The server is restarting. The screen will reconnect by itself."

// Stream answers with a text/event-stream: "resync" first (the screen
// refetches what it might have missed while not connected), then a
// "change" per lead change, "ping" every Heartbeat, and "end" with a
// reason when the server ends it. Events never carry lead data.
func (h *Handler) Stream(c echo.Context) error {
	p := auth.From(c)
	sub, err := h.Hub.Open(p.Session.ID)
	switch {
	case errors.Is(err, ErrFull):
		c.Response().Header().Set("Retry-After", "30")
		return httperr.New(http.StatusServiceUnavailable, msgFull)
	case errors.Is(err, ErrClosed):
		c.Response().Header().Set("Retry-After", "5")
		return httperr.New(http.StatusServiceUnavailable, msgStopping)
	case err != nil:
		return err
	}
	defer h.Hub.Leave(sub)

	res := c.Response()
	hd := res.Header()
	hd.Set("Content-Type", "text/event-stream; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	// nginx and some other proxies buffer responses unless told not to.
	hd.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(res)
	// No write deadline: the stream lives as long as the session.
	_ = rc.SetWriteDeadline(time.Time{})
	res.WriteHeader(http.StatusOK)

	w := &writer{w: res, rc: rc}
	w.raw("retry: " + strconv.Itoa(retryMS) + "\n\n")
	w.event("resync", map[string]any{"at": time.Now().UTC()})
	if w.err != nil {
		return nil
	}
	hb := time.NewTicker(orDefault(h.Heartbeat, DefaultHeartbeat))
	defer hb.Stop()
	re := time.NewTicker(orDefault(h.Recheck, DefaultRecheck))
	defer re.Stop()
	ctx := c.Request().Context()
	for w.err == nil {
		select {
		case <-ctx.Done():
			return nil
		case <-sub.Done():
			w.event("end", map[string]string{"reason": sub.Reason()})
			return nil
		case ch := <-sub.C:
			if sub.Lost() {
				w.event("resync", map[string]any{"at": time.Now().UTC()})
			}
			if ch.Kind != "" {
				w.event("change", ChangeOf(ch))
			}
		case <-hb.C:
			w.event("ping", map[string]any{"at": time.Now().UTC()})
		case <-re.C:
			if !h.allowed(ctx, p) {
				w.event("end", map[string]string{"reason": EndSignedOut})
				return nil
			}
		}
	}
	return nil
}

// allowed re-checks the stream's session and account. A database error
// keeps the stream (the next check decides): a blip must not make every
// screen reconnect at once.
func (h *Handler) allowed(ctx context.Context, p auth.Principal) bool {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	ok, err := h.Sessions.SessionValid(ctx, p.Session.TokenHash, time.Now().UTC())
	if err != nil {
		return true
	}
	if !ok {
		return false
	}
	if p.User == nil { // the PIN never gets here (leads.read)
		return false
	}
	u, err := h.Sessions.UserByID(ctx, p.User.ID)
	if errors.Is(err, db.ErrNotFound) {
		return false
	}
	if err != nil {
		return true
	}
	return u.DisabledAt == nil && (auth.Principal{User: &u, Role: accounts.RoleOf(u.Roles)}).Can(accounts.LeadsRead)
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// writer writes events and flushes each; the first error sticks.
type writer struct {
	w   io.Writer
	rc  *http.ResponseController
	err error
}

func (w *writer) raw(s string) {
	if w.err != nil {
		return
	}
	if _, w.err = io.WriteString(w.w, s); w.err == nil {
		w.err = w.rc.Flush()
	}
}

func (w *writer) event(name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		w.err = err
		return
	}
	w.raw(fmt.Sprintf("event: %s\ndata: %s\n\n", name, b))
}
