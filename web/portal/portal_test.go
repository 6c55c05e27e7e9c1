package portal

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/portal"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's handlers on a real store; who may call the admin routes is
// server/'s attack test.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type room struct {
	*authtest.Room
	h     *Handler
	last  atomic.Pointer[site.JobPageData]
	told  atomic.Int64
	clock time.Time
}

func newRoom(t *testing.T, store *db.Store, lookups int) *room {
	t.Helper()
	r := &room{Room: authtest.New(), clock: time.Date(2026, 11, 29, 14, 0, 0, 0, time.UTC)}
	r.h = &Handler{Store: store, Lookups: guard.NewLimiter(lookups, time.Minute), BaseURL: "https://example.test", Log: quiet, Loc: time.UTC,
		Now:  func() time.Time { return r.clock },
		Tell: func(context.Context, *sqlx.Tx, db.LeadEvent) error { r.told.Add(1); return nil },
		Render: func(_ context.Context, d site.JobPageData) ([]byte, error) {
			r.last.Store(&d)
			b, _ := json.Marshal(d)
			return b, nil
		}}
	answer := r.Echo.HTTPErrorHandler
	r.Echo.HTTPErrorHandler = func(err error, c echo.Context) {
		if errors.Is(err, site.ErrNotFound) { // the server's 404 screen
			c.String(http.StatusNotFound, "not found")
			return
		}
		answer(err, c)
	}
	r.GET("/my/:token", r.h.Home)
	r.GET("/my/:token/stop", r.h.StopPage)
	r.POST("/my/:token/stop", r.h.Stop)
	r.GET("/claim/:token", r.h.Claim)
	r.GET("/api/admin/leads/:id/links", r.h.Links, r.As)
	r.POST("/api/admin/leads/:id/links", r.h.IssueAdjuster, r.As)
	r.DELETE("/api/admin/leads/:id/links/:link", r.h.Revoke, r.As)
	r.DELETE("/api/admin/leads/:id/home-links", r.h.RevokeHome, r.As)
	r.POST("/api/admin/leads/:id/progress", r.h.Progress, r.As)
	return r
}

func (r *room) get(t *testing.T, path string) *authtest.Response {
	t.Helper()
	return r.Serve(httptest.NewRequest("GET", path, nil))
}

func lead(t *testing.T, store *db.Store, id, damage string, at time.Time) {
	t.Helper()
	if err := store.CreateLead(context.Background(), db.Lead{ID: id, CreatedAt: at, UpdatedAt: at, FirstName: "Maria Luisa", LastName: "Gonzalez",
		Email: id + "@example.com", Phone: "+17705550199", City: "Marietta", StreetAddress: "12 Roswell St", ZipCode: "30060",
		DamageType: damage, Status: "new", Source: "website", InsuranceCarrier: "State Farm", ClaimNumber: "SF-123"}); err != nil {
		t.Fatal(err)
	}
}

func issue(t *testing.T, store *db.Store, leadID, kind string, expires *time.Time, at time.Time) string {
	t.Helper()
	tok, hash := portal.NewToken()
	if _, err := store.IssueLeadLink(context.Background(), leadID, kind, hash, expires, db.SystemActor, at); err != nil {
		t.Fatal(err)
	}
	return tok
}

// The token rules: a live link opens its own lead's page only, with the
// private headers, and counts the open; a malformed, unknown, revoked or
// expired token, or one of the other kind, is the 404 screen.
func TestTokenRules(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		r := newRoom(t, store, 1000)
		ctx := context.Background()
		lead(t, store, "lead-1", "Water Damage", r.clock.Add(-time.Hour))
		lead(t, store, "lead-2", "Fire & Smoke Damage", r.clock.Add(-time.Hour))
		home := issue(t, store, "lead-1", db.LinkHomeowner, nil, r.clock)
		other := issue(t, store, "lead-2", db.LinkHomeowner, nil, r.clock)
		soon := r.clock.Add(time.Hour)
		adj := issue(t, store, "lead-1", db.LinkAdjuster, &soon, r.clock)

		res := r.get(t, "/my/"+home)
		if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("Referrer-Policy") != "no-referrer" ||
			!strings.Contains(res.Header.Get("X-Robots-Tag"), "noindex") {
			t.Fatalf("home: %d %v", res.StatusCode, res.Header)
		}
		d := r.last.Load()
		if d.View != "homeowner" || d.FirstName != "Maria" || d.DoNow != "doWater" || d.Claim != nil || d.StopHref != "/my/"+home+"/stop" {
			t.Errorf("home data: %+v", d)
		}
		r.get(t, "/my/"+other)
		if d := r.last.Load(); d.DoNow != "doFire" {
			t.Errorf("another link shows another lead: %+v", d)
		}
		for _, bad := range []string{"/my/short", "/my/" + home + "x", "/my/" + strings.Repeat("A", 22), "/my/" + adj, "/claim/" + home} {
			if res := r.get(t, bad); res.StatusCode != 404 {
				t.Errorf("%s: %d; want 404", bad, res.StatusCode)
			}
		}
		res = r.get(t, "/claim/"+adj)
		d = r.last.Load()
		if res.StatusCode != 200 || d.View != "adjuster" || d.Claim == nil || d.Claim.ClaimNumber != "SF-123" || d.FirstName != "" || d.Who != "" || d.StopHref != "" {
			t.Errorf("claim: %d %+v", res.StatusCode, d)
		}
		if strings.Contains(res.Body, "@example.com") || strings.Contains(res.Body, "5550199") {
			t.Errorf("the insurer's view carries a contact: %s", res.Body)
		}
		// Expired, then revoked.
		r.clock = soon
		if res := r.get(t, "/claim/"+adj); res.StatusCode != 404 {
			t.Errorf("expired: %d", res.StatusCode)
		}
		links, _ := store.LeadLinks(ctx, "lead-1")
		var homeID string
		for _, l := range links {
			if l.Kind == db.LinkHomeowner {
				homeID = l.ID
				if l.Opens != 1 {
					t.Errorf("opens: %d; want 1", l.Opens)
				}
			}
		}
		if res := r.Call(t, "DELETE", "/api/admin/leads/lead-2/links/"+homeID, authtest.PIN, nil); res.StatusCode != 404 {
			t.Errorf("revoked through another lead: %d", res.StatusCode)
		}
		if res := r.Call(t, "DELETE", "/api/admin/leads/lead-1/links/"+homeID, authtest.PIN, nil); res.StatusCode != 200 {
			t.Fatalf("revoke: %d %s", res.StatusCode, res.Body)
		}
		if res := r.get(t, "/my/"+home); res.StatusCode != 404 {
			t.Errorf("revoked: %d", res.StatusCode)
		}
		if res := r.get(t, "/my/"+other); res.StatusCode != 200 {
			t.Errorf("the other lead's link died too: %d", res.StatusCode)
		}
	})
}

// Guessing is limited per client: past the limit every lookup is a 429
// with Retry-After, even for a real token; another client goes on.
func TestLookupsLimited(t *testing.T) {
	store := db.NewTestSQLite(t)
	r := newRoom(t, store, 5)
	lead(t, store, "lead-g", "Mold", r.clock)
	home := issue(t, store, "lead-g", db.LinkHomeowner, nil, r.clock)
	for i := range 5 {
		tok, _ := portal.NewToken()
		if res := r.get(t, "/my/"+tok); res.StatusCode != 404 {
			t.Fatalf("guess %d: %d", i, res.StatusCode)
		}
	}
	res := r.get(t, "/my/"+home)
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("over the limit: %d %v", res.StatusCode, res.Header)
	}
	req := httptest.NewRequest("GET", "/my/"+home, nil)
	req.RemoteAddr = "198.51.100.7:1234"
	if res := r.Serve(req); res.StatusCode != 200 {
		t.Errorf("another client: %d", res.StatusCode)
	}
}

// The timeline in plain words: received, called back, scheduled with a
// booking's date and window, on the way, work started, drying day N
// (counted to today, then frozen at completion), completed; who is
// coming by first name; notes never show.
func TestTimelineSteps(t *testing.T) {
	store := db.NewTestSQLite(t)
	r := newRoom(t, store, 100)
	ctx := context.Background()
	start := time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC)
	lead(t, store, "lead-s", "Water Damage", start)
	u := authtest.AddUser(t, store, db.User{ID: "u-jo", Email: "jo@example.com", Name: "Joseph Miller", Roles: []string{"staff"}})
	if _, err := store.AssignLead(ctx, "lead-s", u.ID, db.SystemActor, start); err != nil {
		t.Fatal(err)
	}
	owner := db.Actor{Name: "Owner"}
	store.ChangeLeadStatus(ctx, "lead-s", "contacted", owner, start.Add(time.Hour))
	store.AddLeadNote(ctx, "lead-s", owner, "Secret team note", start.Add(time.Hour))
	store.ChangeLeadStatus(ctx, "lead-s", "scheduled", owner, start.Add(2*time.Hour))
	store.RecordProgress(ctx, "lead-s", db.ProgressOnTheWay, owner, start.Add(24*time.Hour), nil)
	store.RecordProgress(ctx, "lead-s", db.ProgressWorkStarted, owner, start.Add(25*time.Hour), nil)
	store.RecordProgress(ctx, "lead-s", db.ProgressDryingStarted, owner, start.Add(26*time.Hour), nil)
	tok := issue(t, store, "lead-s", db.LinkHomeowner, nil, start)
	r.clock = start.Add(26*time.Hour + 3*24*time.Hour) // the fourth day of drying
	res := r.get(t, "/my/"+tok)
	d := r.last.Load()
	var keys []string
	for _, s := range d.Steps {
		keys = append(keys, s.Key)
	}
	if got := strings.Join(keys, " "); got != "received contacted scheduled onTheWay workStarted drying" {
		t.Fatalf("steps: %s", got)
	}
	if d.Steps[5].Day != 4 || d.Who != "Joseph" || strings.Contains(res.Body, "Secret") {
		t.Errorf("drying day %d, who %q, body %s", d.Steps[5].Day, d.Who, res.Body)
	}
	// Steps after drying started (the slice grows) still end it right.
	store.RecordProgress(ctx, "lead-s", db.ProgressOnTheWay, owner, start.Add(26*time.Hour+24*time.Hour), nil)
	store.RecordProgress(ctx, "lead-s", db.ProgressWorkStarted, owner, start.Add(26*time.Hour+25*time.Hour), nil)
	store.ChangeLeadStatus(ctx, "lead-s", "completed", owner, start.Add(26*time.Hour+5*24*time.Hour))
	r.clock = start.Add(20 * 24 * time.Hour)
	r.get(t, "/my/"+tok)
	d = r.last.Load()
	if n := len(d.Steps); n != 9 || d.Steps[n-1].Key != "completed" || d.Steps[5].Key != "drying" || d.Steps[5].Day != 6 {
		t.Errorf("after completion: %+v", d.Steps)
	}
	key, visit := BookingStep(db.LeadEvent{Kind: db.EventBooking, To: "booked", Body: "2026-12-01T14:00:00Z/2026-12-01T16:00:00Z"}, time.UTC)
	if key != "scheduled" || visit != "Tuesday, December 1, 2:00 PM to 4:00 PM" {
		t.Errorf("booking: %q %q", key, visit)
	}
	if key, _ := BookingStep(db.LeadEvent{Kind: db.EventBooking, To: "cancelled"}, time.UTC); key != "" {
		t.Errorf("a cancelled booking is a step: %q", key)
	}
}

// The opt-out: one button; its post stops later messages to the lead's
// email and phone, and the page still works.
func TestStop(t *testing.T) {
	store := db.NewTestSQLite(t)
	r := newRoom(t, store, 100)
	lead(t, store, "lead-o", "Storm Damage", r.clock)
	tok := issue(t, store, "lead-o", db.LinkHomeowner, nil, r.clock)
	if res := r.get(t, "/my/"+tok+"/stop"); res.StatusCode != 200 || r.last.Load().State != "stop" {
		t.Fatalf("stop page: %d", res.StatusCode)
	}
	if out, _ := store.OptedOut(context.Background(), "lead-o@example.com"); out {
		t.Fatal("opening the stop page opted out")
	}
	res := r.Serve(httptest.NewRequest("POST", "/my/"+tok+"/stop", nil))
	if res.StatusCode != 200 || r.last.Load().State != "stopped" {
		t.Fatalf("stop: %d", res.StatusCode)
	}
	for _, c := range []string{"lead-o@example.com", "+17705550199"} {
		if out, _ := store.OptedOut(context.Background(), c); !out {
			t.Errorf("%s not opted out", c)
		}
	}
	if res := r.get(t, "/my/"+tok); res.StatusCode != 200 {
		t.Errorf("page after the opt-out: %d", res.StatusCode)
	}
}

// The owner's side: an adjuster link for 1 to 180 days (30 by
// default) whose address works once issued; the list with opens; the
// homeowner's links revoked together; steps recorded and told; unknown
// leads and steps refused.
func TestOwnerSide(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		r := newRoom(t, store, 1000)
		lead(t, store, "lead-w", "Roof Damage", r.clock)
		issue(t, store, "lead-w", db.LinkHomeowner, nil, r.clock)
		for _, bad := range []any{map[string]any{"days": 0}, map[string]any{"days": 181}, map[string]any{"days": "ten"}} {
			if res := r.Call(t, "POST", "/api/admin/leads/lead-w/links", authtest.PIN, bad); res.StatusCode != 400 {
				t.Errorf("%v: %d", bad, res.StatusCode)
			}
		}
		if res := r.Call(t, "POST", "/api/admin/leads/nope/links", authtest.PIN, map[string]any{}); res.StatusCode != 404 {
			t.Errorf("unknown lead: %d", res.StatusCode)
		}
		var is IssuedLink
		res := r.Call(t, "POST", "/api/admin/leads/lead-w/links", authtest.PIN, map[string]any{})
		if res.StatusCode != 201 || json.Unmarshal([]byte(res.Body), &is) != nil || !strings.HasPrefix(is.URL, "https://example.test/claim/") ||
			is.Link.ExpiresAt == nil || !is.Link.ExpiresAt.Equal(r.clock.Add(30*24*time.Hour)) {
			t.Fatalf("issue: %d %s", res.StatusCode, res.Body)
		}
		if res := r.get(t, strings.TrimPrefix(is.URL, "https://example.test")); res.StatusCode != 200 {
			t.Errorf("issued link: %d", res.StatusCode)
		}
		var list LinkList
		res = r.Call(t, "GET", "/api/admin/leads/lead-w/links", authtest.PIN, nil)
		if json.Unmarshal([]byte(res.Body), &list) != nil || len(list.Items) != 2 || list.HomeLive != 1 {
			t.Fatalf("list: %s", res.Body)
		}
		for _, it := range list.Items {
			if it.Kind == db.LinkAdjuster && it.Opens != 1 {
				t.Errorf("adjuster opens: %d", it.Opens)
			}
		}
		res = r.Call(t, "DELETE", "/api/admin/leads/lead-w/home-links", authtest.PIN, nil)
		if json.Unmarshal([]byte(res.Body), &list) != nil || list.HomeLive != 0 {
			t.Errorf("revoke home links: %s", res.Body)
		}
		if res := r.Call(t, "POST", "/api/admin/leads/lead-w/progress", authtest.PIN, map[string]any{"step": "teleported"}); res.StatusCode != 400 {
			t.Errorf("bad step: %d", res.StatusCode)
		}
		if res := r.Call(t, "POST", "/api/admin/leads/nope/progress", authtest.PIN, map[string]any{"step": "on_the_way"}); res.StatusCode != 404 {
			t.Errorf("unknown lead: %d", res.StatusCode)
		}
		if res := r.Call(t, "POST", "/api/admin/leads/lead-w/progress", authtest.PIN, map[string]any{"step": "on_the_way"}); res.StatusCode != 201 || r.told.Load() != 1 {
			t.Errorf("progress: %d told %d", res.StatusCode, r.told.Load())
		}
	})
}
