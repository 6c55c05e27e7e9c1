package push

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's tests call its handlers on a real test store, as staff or
// an admin, with the push channel's real keys. Who may call them (the
// guards of server/install.go, never the PIN), a cookie session's CSRF
// header and the body limit are tested across rooms in server/.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

const (
	asAdmin    = "admin"
	asStaff    = "staff"
	staffEmail = "crew@example.com"
)

// room is the push room over its store, behind an echo instance that
// routes as server/install.go does (without the guards).
type room struct {
	*authtest.Room
	store *db.Store
}

func newRoom(t testing.TB, store *db.Store) *room {
	t.Helper()
	p, err := notify.LoadPush(context.Background(), store, "mailto:owner@example.com")
	if err != nil {
		t.Fatal(err)
	}
	r := &room{Room: authtest.New(), store: store}
	r.Account(t, store, asAdmin, db.User{ID: "u-owner", Email: "owner@example.com", Name: "The Owner", Roles: []string{accounts.RoleAdmin}})
	r.Account(t, store, asStaff, db.User{ID: "u-crew", Email: staffEmail, Name: "Crew Lead", Roles: []string{accounts.RoleStaff}})
	h := &Handler{Store: store, Push: p, Name: func(context.Context) string { return "Peach State Restoration" }, Log: quiet}
	r.GET("/api/admin/push/key", h.Key, r.As)
	r.POST("/api/admin/push/subscriptions", h.Subscribe, r.As)
	r.GET("/api/admin/push/devices", h.Devices, r.As)
	r.DELETE("/api/admin/push/devices/:id", h.Remove, r.As)
	r.GET("/api/admin/push/devices/all", h.AllDevices, r.As)
	return r
}
