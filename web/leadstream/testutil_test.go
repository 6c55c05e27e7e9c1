package leadstream

import (
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's tests open its stream on a real HTTP server (streamtest) as
// an admin or staff, each with a session of its own, on a real test
// store. Who may open it (the guard of server/install.go), what the
// other rooms' changes put on it and how it ends with its session or the
// server are tested across rooms in server/.

const (
	asAdmin = "admin"
	asStaff = "staff"
)

// room is the stream's handler on its hub, behind an echo instance that
// routes as server/install.go does (without the guard).
type room struct {
	*authtest.Room
	h   *Handler
	hub *Hub
}

func newRoom(t testing.TB, store *db.Store) *room {
	t.Helper()
	hub := NewHub("me", quiet)
	t.Cleanup(hub.Close)
	// The session is re-checked after the tests' streams are over: these
	// callers have no stored session (server/ tests the re-check).
	r := &room{Room: authtest.New(), hub: hub, h: &Handler{Hub: hub, Sessions: store, Recheck: time.Hour, Log: quiet}}
	r.Account(t, store, asAdmin, db.User{ID: "u-owner", Email: "owner@example.com", Name: "The Owner", Roles: []string{accounts.RoleAdmin}})
	r.Account(t, store, asStaff, db.User{ID: "u-crew", Email: "crew@example.com", Name: "Crew Lead", Roles: []string{accounts.RoleStaff}})
	r.GET("/api/admin/leads/events", r.h.Stream, r.As)
	return r
}
