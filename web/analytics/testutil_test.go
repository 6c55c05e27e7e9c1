package analytics

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/analytics/analyticstest"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's tests send beacons from the addresses they choose and read
// the screens as the PIN, on a real test store and the site of the
// embedded content. Who may read the screens (the guards of
// server/install.go), the headers every answer carries and leads from
// the estimate form are tested across rooms in server/.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

const browserUA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"

// room is the analytics room over its store, behind an echo instance
// that routes as server/install.go does (without the guards).
type room struct {
	*authtest.Room
	h     *Handler
	store *db.Store
	site  *site.Site
}

func newRoom(t testing.TB, store *db.Store) *room {
	t.Helper()
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := site.New(site.Options{BaseURL: "https://www.example-restoration.test", Content: c, Log: quiet})
	h := New(Options{Store: store, Site: st, Log: quiet})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		h.Stop(ctx)
	})
	r := &room{Room: authtest.New(), h: h, store: store, site: st}
	r.POST("/api/collect", h.Collect)
	r.GET("/api/admin/analytics", h.Report, r.As)
	r.PUT("/api/admin/analytics/goals", h.PutGoals, r.As)
	r.GET("/api/admin/vitals", h.Vitals, r.As)
	return r
}

// beacon posts body as JSON from ip, as a browser's sendBeacon does.
func (r *room) beacon(t testing.TB, ip string, body any, hdr ...string) int {
	t.Helper()
	b, _ := json.Marshal(body)
	return r.rawBeacon(ip, browserUA, b, hdr...)
}

// rawBeacon posts body as it is from ip with the user agent ua.
func (r *room) rawBeacon(ip, ua string, body []byte, hdr ...string) int {
	req := httptest.NewRequest("POST", "/api/collect", bytes.NewReader(body))
	req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
	req.Header.Set("User-Agent", ua)
	req.RemoteAddr = net.JoinHostPort(ip, "5000")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return r.Serve(req).StatusCode
}

// refused and capped are the events the room did not store: refused by
// the database, over a client's daily limits.
func (r *room) refused() int64 { _, n, _ := r.h.Counts(); return n }
func (r *room) capped() int64  { _, _, n := r.h.Counts(); return n }

// eachDB runs fn on a room of its own on SQLite and, when it is
// reachable, PostgreSQL, in parallel.
func eachDB(t *testing.T, fn func(t *testing.T, r *room)) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		fn(t, newRoom(t, store))
	})
}

func (r *room) flush(t testing.TB) {
	t.Helper()
	if err := r.h.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (r *room) countEvents(t testing.TB, where string) int {
	t.Helper()
	var n int
	if err := r.store.SQL().QueryRow(`SELECT COUNT(*) FROM analytics_events WHERE ` + where).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// storedEvents reads back every analytics event, for the oracle.
func (r *room) storedEvents(t testing.TB) []db.Event { return analyticstest.StoredEvents(t, r.store) }

// report reads GET /api/admin/analytics?days=n as the PIN.
func (r *room) report(t testing.TB, days int) analytics.Report {
	t.Helper()
	res := r.Call(t, "GET", fmt.Sprintf("/api/admin/analytics?days=%d", days), authtest.PIN, nil)
	var out analytics.Report
	if err := json.Unmarshal([]byte(res.Body), &out); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("report: %d %s", res.StatusCode, res.Body)
	}
	return out
}
