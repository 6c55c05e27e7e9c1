package feedback

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's handlers on a real store, called as the PIN (who may call
// them, every kind of caller on every route, is server/'s attack test).

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type room struct {
	*authtest.Room
	h       *Handler
	changed atomic.Int64
}

func newRoom(t *testing.T, store *db.Store, placeID string) *room {
	t.Helper()
	r := &room{Room: authtest.New()}
	r.h = &Handler{Store: store, PlaceID: placeID, Posts: guard.NewLimiter(20, time.Minute), Log: quiet,
		Channels: func() (bool, bool) { return true, false },
		Changed:  func(string) { r.changed.Add(1) },
		Render:   func(context.Context, site.FeedbackData) ([]byte, error) { return []byte("<p>page</p>"), nil }}
	r.GET("/api/admin/testimonials", r.h.List, r.As)
	r.PATCH("/api/admin/testimonials/:id", r.h.Moderate, r.As)
	r.GET("/api/admin/review-requests", r.h.Settings, r.As)
	r.PUT("/api/admin/review-requests", r.h.SaveSettings, r.As)
	return r
}

// testimonial stores a completed lead's testimonial and returns its id.
func testimonial(t *testing.T, store *db.Store, id string, consent bool) string {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	if err := store.CreateLead(ctx, db.Lead{ID: id, CreatedAt: now, UpdatedAt: now, FirstName: "Ann", Email: id + "@example.com", City: "Smyrna", Status: "new", Source: "website"}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.ChangeLeadStatus(ctx, id, "completed", db.SystemActor, now); err != nil {
		t.Fatal(err)
	}
	rq, err := store.ReviewRequestOf(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := store.SaveTestimonial(ctx, db.Testimonial{RequestID: rq.ID, LeadID: id, FirstName: "Ann", City: "Smyrna", Body: "Grate work.", Consent: consent}, now)
	if err != nil {
		t.Fatal(err)
	}
	return tm.ID
}

// Moderation: lists by state with counts, approves (the pages are
// rendered again), fixes typos, refuses unknown states and ids; an
// approved testimonial without consent is not shown.
func TestModeration(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		r := newRoom(t, store, "")
		a := testimonial(t, store, "lead-m1", true)
		b := testimonial(t, store, "lead-m2", false)
		var list TestimonialList
		res := r.Call(t, "GET", "/api/admin/testimonials?state=pending", authtest.PIN, nil)
		if res.StatusCode != 200 || json.Unmarshal([]byte(res.Body), &list) != nil || len(list.Items) != 2 || list.Pending != 2 {
			t.Fatalf("list: %d %s", res.StatusCode, res.Body)
		}
		res = r.Call(t, "PATCH", "/api/admin/testimonials/"+a, authtest.PIN, map[string]any{"state": "approved", "text": "Great work.\u202e"})
		var it TestimonialItem
		if res.StatusCode != 200 || json.Unmarshal([]byte(res.Body), &it) != nil || !it.Shown || it.Text != "Great work." || it.LeadID != "lead-m1" {
			t.Fatalf("approve: %d %s", res.StatusCode, res.Body)
		}
		if r.changed.Load() != 1 {
			t.Errorf("pages re-rendered %d times; want 1", r.changed.Load())
		}
		res = r.Call(t, "PATCH", "/api/admin/testimonials/"+b, authtest.PIN, map[string]any{"state": "approved"})
		if json.Unmarshal([]byte(res.Body), &it) != nil || it.Shown {
			t.Errorf("approved without consent is shown: %s", res.Body)
		}
		if pub, _ := store.PublicTestimonials(context.Background()); len(pub) != 1 {
			t.Errorf("public: %d; want 1", len(pub))
		}
		for _, c := range []struct {
			path string
			body any
			want int
		}{
			{"/api/admin/testimonials/" + a, map[string]any{"state": "published"}, 400},
			{"/api/admin/testimonials/" + a, map[string]any{"state": "approved", "text": strings.Repeat("x", 1001)}, 400},
			{"/api/admin/testimonials/nope", map[string]any{"state": "hidden"}, 404},
		} {
			if res := r.Call(t, "PATCH", c.path, authtest.PIN, c.body); res.StatusCode != c.want {
				t.Errorf("%v: %d; want %d", c.body, res.StatusCode, c.want)
			}
		}
		if res := r.Call(t, "GET", "/api/admin/testimonials?state=everything", authtest.PIN, nil); res.StatusCode != 400 {
			t.Errorf("bad state: %d", res.StatusCode)
		}
		if res := r.Call(t, "GET", "/api/admin/testimonials?state=approved", authtest.PIN, nil); !strings.Contains(res.Body, `"approved":2`) {
			t.Errorf("approved: %s", res.Body)
		}
	})
}

// The delay is minutes from 0 to two weeks (default two hours); the
// owner's link must be https; with a place id Google's page is used.
func TestReviewSettings(t *testing.T) {
	store := db.NewTestSQLite(t)
	r := newRoom(t, store, "")
	var st ReviewSettings
	res := r.Call(t, "GET", "/api/admin/review-requests", authtest.PIN, nil)
	if json.Unmarshal([]byte(res.Body), &st) != nil || st.DelayMinutes != 120 || st.LinkInUse != "" || !st.Email || st.SMS {
		t.Fatalf("defaults: %s", res.Body)
	}
	for _, bad := range []map[string]any{{"delayMinutes": -1}, {"delayMinutes": 20161}, {"delayMinutes": "two"}, {"delayMinutes": 1.5},
		{"delayMinutes": 0, "reviewLink": "http://g.page/x"}, {"delayMinutes": 0, "reviewLink": "javascript:alert(1)"}} {
		if res := r.Call(t, "PUT", "/api/admin/review-requests", authtest.PIN, bad); res.StatusCode != 400 {
			t.Errorf("%v: %d", bad, res.StatusCode)
		}
	}
	res = r.Call(t, "PUT", "/api/admin/review-requests", authtest.PIN, map[string]any{"delayMinutes": "0", "reviewLink": " https://g.page/r/x/review "})
	if json.Unmarshal([]byte(res.Body), &st) != nil || st.DelayMinutes != 0 || st.LinkInUse != "https://g.page/r/x/review" {
		t.Fatalf("save: %d %s", res.StatusCode, res.Body)
	}
	g := newRoom(t, store, "ChIJ-x")
	res = g.Call(t, "GET", "/api/admin/review-requests", authtest.PIN, nil)
	if json.Unmarshal([]byte(res.Body), &st) != nil || !st.GoogleConfigured || st.LinkInUse != "https://search.google.com/local/writereview?placeid=ChIJ-x" {
		t.Errorf("with a place id: %s", res.Body)
	}
}

// A homeowner's post re-renders pages only when it takes a shown
// testimonial off the site: anyone's posts cannot make the site render
// itself again and again.
func TestSaveRerendersOnlyWhenShown(t *testing.T) {
	store := db.NewTestSQLite(t)
	r := newRoom(t, store, "")
	r.POST("/feedback/:token", r.h.Save)
	id := testimonial(t, store, "lead-s1", true)
	tm, _ := store.Testimonials(context.Background(), "")
	token, hash, _ := notify.NewReviewToken()
	if err := store.AddReviewToken(context.Background(), tm[0].RequestID, hash, time.Now()); err != nil {
		t.Fatal(err)
	}
	post := func() int {
		req := httptest.NewRequest("POST", "/feedback/"+token, strings.NewReader(url.Values{"text": {"Good work."}, "consent": {"yes"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return r.Serve(req).StatusCode
	}
	if post() != 200 || post() != 200 || r.changed.Load() != 0 {
		t.Fatalf("pending posts re-rendered %d times", r.changed.Load())
	}
	if _, err := store.ModerateTestimonial(context.Background(), id, db.TestimonialApproved, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	if post() != 200 || r.changed.Load() != 1 {
		t.Fatalf("a shown testimonial sent again: re-rendered %d times; want 1", r.changed.Load())
	}
}
