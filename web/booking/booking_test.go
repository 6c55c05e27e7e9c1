package booking

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	rules "github.com/atlanta-restoration/site/booking"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's handlers on a real store: the homeowner's pages as anyone
// holding the link, the owner's screens as the PIN (who may call which
// route is server/'s attack test).

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// monday8 is Monday 2026-11-30, 8:00 in Atlanta: with the default
// availability (weekdays 9 to 5, two-hour windows, a day's notice), the
// first open window is Tuesday 9:00.
var monday8 = time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC)

type room struct {
	*authtest.Room
	h     *Handler
	store *db.Store
	told  atomic.Int64
}

func newRoom(t *testing.T, store *db.Store, lookups int) *room {
	t.Helper()
	r := &room{Room: authtest.New(), store: store}
	r.h = &Handler{Store: store, Links: store, Log: quiet, Lookups: guard.NewLimiter(lookups, time.Minute),
		Phone:    func(context.Context) string { return "(404) 555-0100" },
		Business: func(context.Context) string { return "Atlanta Restoration" },
		Now:      func() time.Time { return monday8 },
		Tell: func(context.Context, *sqlx.Tx, db.Booking, string) error {
			r.told.Add(1)
			return nil
		},
		// The page's data as JSON: what the page would render.
		Render: func(_ context.Context, d site.BookingData) ([]byte, error) { return json.Marshal(d) }}
	answer := r.HTTPErrorHandler
	r.HTTPErrorHandler = func(err error, c echo.Context) {
		// The server answers site.ErrNotFound with the 404 page.
		var nf *site.NotFoundError
		if errors.As(err, &nf) {
			c.String(404, "not found")
			return
		}
		answer(err, c)
	}
	r.GET("/my/:token/booking", r.h.Show)
	r.POST("/my/:token/booking", r.h.Book)
	r.POST("/my/:token/booking/cancel", r.h.Cancel)
	r.GET("/my/:token/booking.ics", r.h.ICSFile)
	r.GET("/api/admin/booking", r.h.Availability, r.As)
	r.PUT("/api/admin/booking", r.h.SaveAvailability, r.As)
	r.GET("/api/admin/visits", r.h.Visits, r.As)
	r.PATCH("/api/admin/visits/:id", r.h.MoveVisit, r.As)
	return r
}

// lead stores a lead and issues its homeowner link.
func lead(t *testing.T, store *db.Store, id string, emergency bool) string {
	t.Helper()
	ctx := context.Background()
	if err := store.CreateLead(ctx, db.Lead{ID: id, CreatedAt: monday8, UpdatedAt: monday8, FirstName: "Ann", Email: id + "@example.com",
		City: "Smyrna", StreetAddress: "12 Main St", DamageType: "water", IsEmergency: emergency, Status: "new", Source: "website"}); err != nil {
		t.Fatal(err)
	}
	token, err := IssueHomeownerLink(ctx, store, id, monday8)
	if err != nil {
		t.Fatal(err)
	}
	return token
}

func (r *room) get(t *testing.T, path string) (*authtest.Response, site.BookingData) {
	t.Helper()
	res := r.Serve(httptest.NewRequest("GET", path, nil))
	var d site.BookingData
	if res.StatusCode == 200 || res.StatusCode >= 400 {
		json.Unmarshal([]byte(res.Body), &d)
	}
	return res, d
}

func (r *room) post(path string, form url.Values) *authtest.Response {
	req := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r.Serve(req)
}

// A homeowner books a window with a plain form post, finds it booked
// with its calendar file, moves it, then cancels it: each change is a
// redirect (no JavaScript needed), a timeline event and a message.
func TestBookMoveCancel(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store, 100)
		base := "/my/" + lead(t, store, "lead-1", false) + "/booking"
		res, d := r.get(t, base)
		v := d.Booking
		if res.StatusCode != 200 || v.State != "pick" || len(v.Slots) == 0 || v.Slots[0].Day != "Tuesday, December 1" || v.Slots[0].Time != "9:00 AM to 11:00 AM" {
			t.Fatalf("pick: %d %s", res.StatusCode, res.Body)
		}
		for k, want := range map[string]string{"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow"} {
			if res.Header.Get(k) != want {
				t.Errorf("%s: %q", k, res.Header.Get(k))
			}
		}
		res = r.post(base, url.Values{"start": {v.Slots[0].Value}})
		if res.StatusCode != 303 || !strings.HasPrefix(res.Header.Get("Location"), base+"?done=booked") {
			t.Fatalf("book: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
		_, d = r.get(t, base+"?done=booked")
		if d.Booking.State != "booked" || d.Booking.Booked == nil || d.Booking.Booked.Value != v.Slots[0].Value || d.Booking.Done != "booked" || len(d.Booking.Slots) != 0 {
			t.Fatalf("booked: %+v", d.Booking)
		}
		ics := r.Serve(httptest.NewRequest("GET", base+".ics", nil))
		if ics.StatusCode != 200 || !strings.HasPrefix(ics.Header.Get("Content-Type"), "text/calendar") ||
			!strings.Contains(ics.Body, "DTSTART:20261201T140000Z\r\n") || !strings.Contains(ics.Body, "SEQUENCE:0\r\n") ||
			!strings.Contains(ics.Body, "LOCATION:12 Main St\\, Smyrna\r\n") || ics.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("ics: %d %s\n%s", ics.StatusCode, ics.Header, ics.Body)
		}
		_, d = r.get(t, base+"?move=1")
		if !d.Booking.Moving || len(d.Booking.Slots) == 0 || d.Booking.Slots[0].Value == v.Slots[0].Value {
			t.Fatalf("move: %+v", d.Booking)
		}
		to := d.Booking.Slots[2].Value
		if res := r.post(base, url.Values{"start": {to}}); res.StatusCode != 303 || !strings.Contains(res.Header.Get("Location"), "done=moved") {
			t.Fatalf("move: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
		if ics := r.Serve(httptest.NewRequest("GET", base+".ics", nil)); !strings.Contains(ics.Body, "SEQUENCE:1\r\n") {
			t.Errorf("moved ics: %s", ics.Body)
		}
		if res := r.post(base+"/cancel", nil); res.StatusCode != 303 || !strings.Contains(res.Header.Get("Location"), "done=cancelled") {
			t.Fatalf("cancel: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
		_, d = r.get(t, base+"?done=cancelled")
		if d.Booking.State != "pick" || d.Booking.Done != "cancelled" || d.Booking.Slots[0].Value != v.Slots[0].Value {
			t.Errorf("after cancel: %+v", d.Booking)
		}
		if ics := r.Serve(httptest.NewRequest("GET", base+".ics", nil)); ics.StatusCode != 404 {
			t.Errorf("ics with nothing booked: %d", ics.StatusCode)
		}
		if r.told.Load() != 3 {
			t.Errorf("told %d times; want 3", r.told.Load())
		}
		tl, _ := store.LeadTimeline(context.Background(), "lead-1")
		n := 0
		for _, e := range tl {
			if e.Kind == db.EventBooking && e.Actor == "homeowner" {
				n++
			}
		}
		if n != 3 {
			t.Errorf("%d booking events; want 3", n)
		}
	})
}

// An emergency is never offered a window: the page shows the phone, and
// a post is refused and books nothing.
func TestEmergencyIsNeverBooked(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store, 100)
		base := "/my/" + lead(t, store, "lead-e", true) + "/booking"
		_, d := r.get(t, base)
		if d.Booking.State != "emergency" || len(d.Booking.Slots) != 0 || d.Booking.Phone != "(404) 555-0100" {
			t.Fatalf("emergency: %+v", d.Booking)
		}
		start := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC).Format(time.RFC3339)
		if res := r.post(base, url.Values{"start": {start}}); res.StatusCode != 403 {
			t.Errorf("emergency post: %d", res.StatusCode)
		}
		if _, err := store.LeadBooking(context.Background(), "lead-e"); err == nil {
			t.Error("an emergency was booked")
		}
	})
}

// A window taken by someone else, one never offered (too soon, outside
// the hours) and a malformed time are refused with the page and a
// message; nothing is booked.
func TestRefusedWindows(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store, 100)
		a := "/my/" + lead(t, store, "lead-a", false) + "/booking"
		b := "/my/" + lead(t, store, "lead-b", false) + "/booking"
		_, d := r.get(t, a)
		first := d.Booking.Slots[0].Value
		if res := r.post(a, url.Values{"start": {first}}); res.StatusCode != 303 {
			t.Fatalf("book: %d", res.StatusCode)
		}
		_, d = r.get(t, b)
		if d.Booking.Slots[0].Value == first {
			t.Error("a full window is offered")
		}
		for _, c := range []struct {
			start string
			want  int
		}{
			{first, 409},
			{time.Date(2026, 11, 30, 16, 0, 0, 0, time.UTC).Format(time.RFC3339), 409}, // today: inside the notice
			{time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC).Format(time.RFC3339), 409},   // at night
			{"tomorrow", 422},
		} {
			res := r.post(b, url.Values{"start": {c.start}})
			var got site.BookingData
			json.Unmarshal([]byte(res.Body), &got)
			if res.StatusCode != c.want || got.Booking.Error == "" {
				t.Errorf("%s: %d %q; want %d and a message", c.start, res.StatusCode, got.Booking.Error, c.want)
			}
		}
		if _, err := store.LeadBooking(context.Background(), "lead-b"); err == nil {
			t.Error("a refused window was booked")
		}
	})
}

// A link opens its own lead only: a malformed, unknown, revoked,
// expired or adjuster's link is the 404 page, and lookups are limited
// per client.
func TestLinks(t *testing.T) {
	store := db.NewTestSQLite(t)
	r := newRoom(t, store, 100)
	ctx := context.Background()
	tokens := map[string]string{}
	for _, id := range []string{"lead-r", "lead-x", "lead-j"} {
		tokens[id] = lead(t, store, id, false)
	}
	x := store.DB()
	x.MustExecContext(ctx, x.Rebind(`UPDATE lead_links SET revoked_at = ? WHERE token_hash = ?`), monday8, HashToken(tokens["lead-r"]))
	x.MustExecContext(ctx, x.Rebind(`UPDATE lead_links SET expires_at = ? WHERE token_hash = ?`), monday8.Add(-time.Minute), HashToken(tokens["lead-x"]))
	x.MustExecContext(ctx, x.Rebind(`UPDATE lead_links SET kind = 'adjuster' WHERE token_hash = ?`), HashToken(tokens["lead-j"]))
	for name, path := range map[string]string{
		"malformed": "/my/short/booking", "unknown": "/my/AAAAAAAAAAAAAAAAAAAAAA/booking", "not base64": "/my/!!!!!!!!!!!!!!!!!!!!!!/booking",
		"revoked": "/my/" + tokens["lead-r"] + "/booking", "expired": "/my/" + tokens["lead-x"] + "/booking",
		"adjuster": "/my/" + tokens["lead-j"] + "/booking", "adjuster ics": "/my/" + tokens["lead-j"] + "/booking.ics",
	} {
		if res := r.Serve(httptest.NewRequest("GET", path, nil)); res.StatusCode != 404 {
			t.Errorf("%s: %d", name, res.StatusCode)
		}
	}
	if res := r.post("/my/"+tokens["lead-r"]+"/booking/cancel", nil); res.StatusCode != 404 {
		t.Errorf("cancel on a revoked link: %d", res.StatusCode)
	}
	limited := newRoom(t, store, 3)
	live := "/my/" + lead(t, store, "lead-l", false) + "/booking"
	for i := 0; i < 3; i++ {
		limited.Serve(httptest.NewRequest("GET", "/my/AAAAAAAAAAAAAAAAAAAAAA/booking", nil))
	}
	if res := limited.Serve(httptest.NewRequest("GET", live, nil)); res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Errorf("over the limit: %d %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	// The links' token rule: 128 random bits as 22 base64url characters,
	// stored as the hex SHA-256 (64 characters), never the token itself.
	tok := tokens["lead-r"]
	var stored string
	if err := x.GetContext(ctx, &stored, x.Rebind(`SELECT token_hash FROM lead_links WHERE lead_id = ?`), "lead-r"); err != nil {
		t.Fatal(err)
	}
	if len(tok) != 22 || len(stored) != 64 || stored != HashToken(tok) || strings.Contains(stored, tok) || tok == tokens["lead-x"] {
		t.Errorf("token %q, stored %q", tok, stored)
	}
}

// The availability: the default, refused saves with the sentence to
// fix, a save that changes the windows offered.
func TestAvailabilitySettings(t *testing.T) {
	store := db.NewTestSQLite(t)
	r := newRoom(t, store, 100)
	var ans AvailabilityAnswer
	res := r.Call(t, "GET", "/api/admin/booking", authtest.PIN, nil)
	if json.Unmarshal([]byte(res.Body), &ans) != nil || ans.Availability.SlotMinutes != 120 || ans.TimeZone != "America/New_York" {
		t.Fatalf("default: %s", res.Body)
	}
	good := rules.Default()
	good.Weekly[1] = rules.DayHours{}
	for _, bad := range []any{
		map[string]any{"availability": map[string]any{"slotMinutes": 10, "perSlot": 1}},
		map[string]any{"availability": map[string]any{"slotMinutes": 60, "perSlot": 0}},
		map[string]any{"availability": good, "extra": 1},
		"not json",
	} {
		if res := r.Call(t, "PUT", "/api/admin/booking", authtest.PIN, bad); res.StatusCode != 400 || !strings.Contains(res.Body, "error") {
			t.Errorf("%v: %d %s", bad, res.StatusCode, res.Body)
		}
	}
	res = r.Call(t, "PUT", "/api/admin/booking", authtest.PIN, AvailabilityAnswer{Availability: good})
	if res.StatusCode != 200 {
		t.Fatalf("save: %d %s", res.StatusCode, res.Body)
	}
	// Tuesday closed now: the first window is Wednesday's.
	_, d := r.get(t, "/my/"+lead(t, store, "lead-s", false)+"/booking")
	if d.Booking.Slots[0].Day != "Wednesday, December 2" {
		t.Errorf("first window after the save: %+v", d.Booking.Slots[0])
	}
}

// The dashboard lists today's and tomorrow's visits; the owner moves one
// to an open window (the homeowner's notice does not bind the owner),
// never into a full one.
func TestVisitsDashboard(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store, 100)
		ctx := context.Background()
		for _, id := range []string{"lead-v1", "lead-v2"} {
			lead(t, store, id, false)
		}
		tue9 := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
		v1, err := store.BookVisit(ctx, "lead-v1", tue9, tue9.Add(2*time.Hour), 1, db.SystemActor, monday8, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.BookVisit(ctx, "lead-v2", tue9.Add(2*time.Hour), tue9.Add(4*time.Hour), 1, db.SystemActor, monday8, nil); err != nil {
			t.Fatal(err)
		}
		var ans VisitsAnswer
		res := r.Call(t, "GET", "/api/admin/visits", authtest.PIN, nil)
		if json.Unmarshal([]byte(res.Body), &ans) != nil || len(ans.Days) != 2 || len(ans.Days[0].Visits) != 0 || len(ans.Days[1].Visits) != 2 ||
			ans.Days[1].Visits[0].When != "9:00 AM to 11:00 AM" || ans.Days[1].Visits[0].FirstName != "Ann" {
			t.Fatalf("visits: %s", res.Body)
		}
		// Today 9:00, within the homeowners' day of notice, is open to
		// the owner.
		if !ans.Slots[0].Start.Equal(time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)) {
			t.Errorf("first window to move to: %v", ans.Slots[0])
		}
		if res := r.Call(t, "PATCH", "/api/admin/visits/"+v1.ID, authtest.PIN, MoveRequest{Start: tue9.Add(2 * time.Hour)}); res.StatusCode != 409 {
			t.Errorf("into a full window: %d", res.StatusCode)
		}
		if res := r.Call(t, "PATCH", "/api/admin/visits/nope", authtest.PIN, MoveRequest{Start: ans.Slots[0].Start}); res.StatusCode != 404 {
			t.Errorf("unknown visit: %d", res.StatusCode)
		}
		if res := r.Call(t, "PATCH", "/api/admin/visits/"+v1.ID, authtest.PIN, map[string]any{}); res.StatusCode != 400 {
			t.Errorf("no time: %d", res.StatusCode)
		}
		res = r.Call(t, "PATCH", "/api/admin/visits/"+v1.ID, authtest.PIN, MoveRequest{Start: ans.Slots[0].Start})
		var it VisitItem
		if res.StatusCode != 200 || json.Unmarshal([]byte(res.Body), &it) != nil || !it.Start.Equal(ans.Slots[0].Start) {
			t.Fatalf("move: %d %s", res.StatusCode, res.Body)
		}
		if r.told.Load() != 1 {
			t.Errorf("told %d; want 1", r.told.Load())
		}
		tl, _ := store.LeadTimeline(ctx, "lead-v1")
		moved := 0
		for _, e := range tl {
			if e.Kind == db.EventBooking && e.To == "moved" && e.Actor == "admin PIN" {
				moved++
			}
		}
		if moved != 1 {
			t.Errorf("timeline: %+v", tl)
		}
	})
}

// A closed request (completed or cancelled) is offered no time, and a
// post books nothing; its homeowner sees the phone.
func TestClosedRequestIsNotBooked(t *testing.T) {
	store := db.NewTestSQLite(t)
	r := newRoom(t, store, 100)
	base := "/my/" + lead(t, store, "lead-c", false) + "/booking"
	_, d := r.get(t, base)
	start := d.Booking.Slots[0].Value
	if _, err := store.ChangeLeadStatus(context.Background(), "lead-c", "cancelled", db.SystemActor, monday8); err != nil {
		t.Fatal(err)
	}
	if _, d = r.get(t, base); d.Booking.State != "closed" || len(d.Booking.Slots) != 0 {
		t.Fatalf("closed: %+v", d.Booking)
	}
	if res := r.post(base, url.Values{"start": {start}}); res.StatusCode != 409 {
		t.Errorf("post on a closed request: %d", res.StatusCode)
	}
	if _, err := store.LeadBooking(context.Background(), "lead-c"); err == nil {
		t.Error("a closed request was booked")
	}
}
