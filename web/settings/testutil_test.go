package settings

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's tests call its handlers on a real test store, as an admin
// account with its second factor (the one session that may save) unless
// they say otherwise. Who may call them (the guards of
// server/install.go and every kind of caller), and what the public pages
// show after a save, are tested across rooms in server/.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// asOwner is an admin account with its second factor.
const asOwner = "owner"

// room is the System Settings room over its store, behind an echo
// instance that routes as server/install.go does (without the guards).
type room struct {
	*authtest.Room
	h       *Handler
	store   *db.Store
	changed atomic.Int64 // calls of Changed (the pages re-rendered)
}

func newRoom(t testing.TB, store *db.Store) *room {
	t.Helper()
	cfg, err := config.LoadFrom(func(k string) string {
		return map[string]string{"BASE_URL": "https://www.example-restoration.test"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	svc := &settings.Service{Store: store, Defaults: cfg.Business, BaseURL: cfg.BaseURL, Log: quiet}
	r := &room{Room: authtest.New(), store: store}
	r.h = &Handler{Settings: svc, Reviews: &reviews.Service{Client: reviews.NewClient(cfg.Reviews), Store: store, Owner: svc.Owner, Log: quiet},
		Pages: func(ctx context.Context) ([]settings.RenderedPage, error) { return nil, nil }, Audit: store,
		Changed: func(string) { r.changed.Add(1) }, Log: quiet}
	enrolled := time.Now().UTC()
	r.Account(t, store, asOwner, db.User{ID: "u-settings-owner", Email: "settings-owner@example.com", Name: "Settings Owner",
		Roles: []string{accounts.RoleAdmin}, TOTPSecret: "JBSWY3DPEHPK3PXP", TOTPEnabledAt: &enrolled})
	r.GET("/api/admin/settings", r.h.Get, r.As)
	r.GET("/api/admin/settings/phone-uses", r.h.Uses, r.As)
	r.PUT("/api/admin/settings", r.h.Put, r.As)
	return r
}

// save saves the settings of a valid form with over's fields changed (nil
// leaves a field out), as the owner.
func (r *room) save(t testing.TB, over map[string]any) *authtest.Response {
	t.Helper()
	st := map[string]any{"businessName": "Peach State Restoration", "phone": "(404) 555-0177", "address": "100 Main St, Marietta, GA 30060",
		"website": "https://www.peachstate.example", "officePhone": "(404) 555-0199", "autoIndexNow": false, "seoMonitoring": false,
		"autoSchema": true, "emergencyMode": true, "businessHours": "Mo-Fr 08:00-18:00; Sa 09:00-13:00"}
	for k, v := range over {
		st[k] = v
	}
	return r.Call(t, "PUT", "/api/admin/settings", asOwner, st)
}
