package backups

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's tests call its handlers as an admin account on a real
// SQLite store (a backup of PostgreSQL needs pg_dump and the database's
// address), with the backups in the data folder. Who may call them (the
// guards of server/install.go, admins only) is tested across rooms in
// server/.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

const (
	asAdmin    = "admin"
	adminEmail = "owner@example.com"
)

// gatedMedia holds a backup's media listing until the test opens the
// gate, so presses of 'Back up now' land while it runs.
type gatedMedia struct {
	*storage.Local
	armed atomic.Bool
	gate  chan struct{}
}

func (g *gatedMedia) List(ctx context.Context, prefix string, fn func(string, int64) error) error {
	if g.armed.Load() {
		select {
		case <-g.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return g.Local.List(ctx, prefix, fn)
}

// room is the Backups room over its store and data folder, behind an
// echo instance that routes as server/install.go does (without the
// guards); media's listing can be held, and holds a 4 MB photo to back
// up.
type room struct {
	*authtest.Room
	store *db.Store
	media *gatedMedia
}

func newRoom(t testing.TB) *room {
	t.Helper()
	dataDir := t.TempDir()
	local, err := storage.NewLocal(filepath.Join(dataDir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	media := &gatedMedia{Local: local, gate: make(chan struct{})}
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MB
	if _, err := media.Put(context.Background(), "projects/kitchen/big-photo.jpg", bytes.NewReader(big), "image/jpeg"); err != nil {
		t.Fatal(err)
	}
	target, err := backup.LocalTarget(filepath.Join(dataDir, "backups"))
	if err != nil {
		t.Fatal(err)
	}
	store := db.NewTestSQLite(t)
	svc := backup.New(backup.Options{Store: store, DataDir: dataDir, Media: media, Target: target, KeepDaily: 7, KeepWeekly: 4,
		Every: 24 * time.Hour, MaxAge: 26 * time.Hour, Version: "test", Log: quiet})
	// Registered after the folders', so it runs first: a backup still
	// running is stopped and cleaned up before they are removed.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		svc.Stop(ctx)
	})
	r := &room{Room: authtest.New(), store: store, media: media}
	r.Account(t, store, asAdmin, db.User{ID: "u-owner", Email: adminEmail, Name: "The Owner", Roles: []string{accounts.RoleAdmin}})
	h := &Handler{Backups: svc, Store: store, Log: quiet}
	r.GET("/api/admin/backups", h.List, r.As)
	r.POST("/api/admin/backups/run", h.Run, r.As)
	r.GET("/api/admin/backups/:id/download", h.Download, r.As)
	return r
}

func (r *room) list(t testing.TB) List {
	t.Helper()
	res := r.Call(t, "GET", "/api/admin/backups", asAdmin, nil)
	var l List
	if err := json.Unmarshal([]byte(res.Body), &l); res.StatusCode != 200 || err != nil {
		t.Fatalf("GET /api/admin/backups: %d %s", res.StatusCode, res.Body)
	}
	return l
}
