package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify"
)

// feedbackLead stores a completed lead of city with a feedback token, as
// a sent review request leaves it, and returns the token.
func feedbackLead(t *testing.T, store *db.Store, id, city string) string {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	l := db.Lead{ID: id, CreatedAt: now, UpdatedAt: now, FirstName: "Maria Luisa", LastName: "Gonzalez", Phone: "(770) 555-0199",
		Email: id + "@example.com", City: city, Status: "new", Source: "website"}
	if err := store.CreateLead(ctx, l); err != nil {
		t.Fatal(err)
	}
	if _, err := store.ChangeLeadStatus(ctx, id, "completed", db.SystemActor, now); err != nil {
		t.Fatal(err)
	}
	r, err := store.ReviewRequestOf(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	token, hash, err := notify.NewReviewToken()
	if err != nil {
		t.Fatal(err)
	}
	if err := store.AddReviewToken(ctx, r.ID, hash, now); err != nil {
		t.Fatal(err)
	}
	return token
}

func postFeedback(t *testing.T, srv *Server, path string, v url.Values) *response {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = "198.51.100.7:5000"
	return do(t, srv, req)
}

// The feedback page is private: noindex, no-store, no referrer, not in
// the sitemap; an unknown token is the spec's 404 screen with a 404.
// Sending twice keeps one testimonial; the Google link never goes away.
func TestFeedbackPage(t *testing.T) {
	srv, store := newTestServer(t, map[string]string{"GOOGLE_PLACE_ID": "ChIJ-test-place"})
	token := feedbackLead(t, store, "lead-fb1", "Smyrna")
	path := "/feedback/" + token
	google := "https://search.google.com/local/writereview?placeid=ChIJ-test-place"

	r := get(t, srv, path)
	if r.StatusCode != 200 {
		t.Fatalf("status %d\n%s", r.StatusCode, r.Body)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" || r.Header.Get("X-Robots-Tag") != "noindex, nofollow" || r.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("headers: %v", r.Header)
	}
	if !strings.Contains(r.Body, `content="noindex, nofollow"`) || len(find(r.Doc, tag("h1"))) != 1 {
		t.Error("no robots noindex, or not one h1")
	}
	if !strings.Contains(r.Body, google) || !strings.Contains(r.Body, "(Maria, Smyrna)") {
		t.Errorf("no Google link or no name and city:\n%s", r.Body)
	}
	if strings.Contains(r.Body, "Gonzalez") || strings.Contains(r.Body, "lead-fb1@example.com") {
		t.Error("the page shows the lead's last name or email")
	}
	for _, p := range []string{"/feedback/" + strings.Repeat("A", 43), "/feedback/short", "/feedback/" + strings.Repeat("A", 43) + "/stop"} {
		nf := get(t, srv, p)
		if nf.StatusCode != 404 || !strings.Contains(nf.Body, "Oops! Page not found") {
			t.Errorf("%s: %d", p, nf.StatusCode)
		}
	}
	if sm := get(t, srv, "/sitemap.xml"); strings.Contains(sm.Body, "/feedback") {
		t.Error("the sitemap lists the feedback page")
	}

	// A poor review and no consent: thanked, Google link still there.
	r = postFeedback(t, srv, path, url.Values{"text": {"Slow to start,\r\n\r\n\r\n\r\nbut <b>fixed</b> it."}})
	if r.StatusCode != 200 || !strings.Contains(r.Body, "Thank you!") || !strings.Contains(r.Body, google) {
		t.Fatalf("save: %d\n%s", r.StatusCode, r.Body)
	}
	r = postFeedback(t, srv, path, url.Values{"text": {"Fast, careful crew. Thank you!"}, "consent": {"yes"}})
	if r.StatusCode != 200 {
		t.Fatalf("second save: %d", r.StatusCode)
	}
	all, _ := store.Testimonials(context.Background(), "")
	if len(all) != 1 || all[0].Body != "Fast, careful crew. Thank you!" || !all[0].Consent || all[0].FirstName != "Maria" || all[0].City != "Smyrna" {
		t.Fatalf("testimonials %+v; want one, updated", all)
	}
	if r := postFeedback(t, srv, path, url.Values{"text": {strings.Repeat("x", notify.MaxTestimonial+1)}, "consent": {"yes"}}); r.StatusCode != 422 || !strings.Contains(r.Body, notify.TestimonialTooLong) {
		t.Errorf("too long: %d", r.StatusCode)
	}
	for _, v := range []url.Values{{"text": {"  "}, "consent": {"yes"}}, {"text": {"\u200b\r\n"}}} {
		if r := postFeedback(t, srv, path, v); r.StatusCode != 422 || !strings.Contains(r.Body, notify.TestimonialEmpty) {
			t.Errorf("no words %q: %d", v, r.StatusCode)
		}
	}
	// Then the flood guard.
	got := 0
	for range FeedbackPostsPerWindow + 1 {
		got = postFeedback(t, srv, path, url.Values{"text": {"again"}}).StatusCode
	}
	if got != 429 {
		t.Errorf("past the limit: %d; want 429", got)
	}
}

// An approved testimonial given with consent shows on its city's page as
// text, and the page publishes no Review or AggregateRating from it.
func TestTestimonialOnCityPageWithoutReviewSchema(t *testing.T) {
	srv, store := newTestServer(t, nil)
	ctx := context.Background()
	for i, city := range []string{"Smyrna", "smyrna ", "Marietta"} {
		feedbackLead(t, store, fmt.Sprintf("lead-q%d", i), city)
		r, _ := store.ReviewRequestOf(ctx, fmt.Sprintf("lead-q%d", i))
		tm, err := store.SaveTestimonial(ctx, db.Testimonial{RequestID: r.ID, LeadID: r.LeadID, FirstName: "Maria", City: city,
			Body: fmt.Sprintf("Quote number %d from %s.", i, strings.TrimSpace(city)), Consent: i != 1}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.ModerateTestimonial(ctx, tm.ID, db.TestimonialApproved, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	srv.Changed("testimonial approved")
	for path, want := range map[string]string{"/areas/cobb/smyrna": "Quote number 0 from Smyrna.", "/areas/cobb/marietta": "Quote number 2 from Marietta."} {
		r := get(t, srv, path)
		if r.StatusCode != 200 || !strings.Contains(r.Body, want) || !strings.Contains(r.Body, "What Homeowners Say") {
			t.Fatalf("%s: %d, no quote %q", path, r.StatusCode, want)
		}
		if strings.Contains(r.Body, "Quote number 1") {
			t.Errorf("%s shows a testimonial given without consent", path)
		}
		types := ldTypes(jsonLDBlocks(t, r.Doc))
		if types["Review"] || types["AggregateRating"] {
			t.Errorf("%s: structured data from testimonials: %v", path, types)
		}
		for _, b := range jsonLDBlocks(t, r.Doc) {
			if s := fmt.Sprint(b); strings.Contains(s, "Quote number") {
				t.Errorf("%s: a testimonial in the structured data", path)
			}
		}
	}
}

// The opt-out: the link opens a page with one button (a scanner that
// follows links stops nothing); the button, or a mail provider's one-click
// post, keeps the email and phone out of every later request.
func TestFeedbackOptOut(t *testing.T) {
	srv, store := newTestServer(t, nil)
	token := feedbackLead(t, store, "lead-fb2", "Smyrna")
	r := get(t, srv, "/feedback/"+token+"/stop")
	if r.StatusCode != 200 || !strings.Contains(r.Body, "Stop review requests") {
		t.Fatalf("stop page: %d", r.StatusCode)
	}
	if out, _ := store.OptedOut(context.Background(), "lead-fb2@example.com"); out {
		t.Fatal("opening the link opted out")
	}
	r = postFeedback(t, srv, "/feedback/"+token+"/stop", url.Values{"List-Unsubscribe": {"One-Click"}})
	if r.StatusCode != 200 || !strings.Contains(r.Body, "we will not ask you for a review again") {
		t.Fatalf("stop: %d\n%s", r.StatusCode, r.Body)
	}
	for _, c := range []string{"lead-fb2@example.com", "+17705550199"} {
		if out, err := store.OptedOut(context.Background(), c); err != nil || !out {
			t.Errorf("%s not opted out: %v", c, err)
		}
	}
}
