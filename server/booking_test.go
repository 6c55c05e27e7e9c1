package server

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/leads"
)

// A non-emergency request's answer carries its booking page; the page,
// rendered by the real renderer, is private and books with a plain form
// post; the calendar file follows. An emergency's answer has no booking
// page. The token never reaches the log.
func TestBookingFromTheEstimate(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	form := validForm()
	form.Set("emergency", "no")
	r := postForm(t, h, "/api/estimate", form, "10.9.0.1", "application/json")
	var st leads.EstimateState
	if r.StatusCode != 201 || json.Unmarshal([]byte(r.Body), &st) != nil || !strings.HasPrefix(st.Booking, "/my/") || !strings.HasSuffix(st.Booking, "/booking") {
		t.Fatalf("estimate answer: %d %s", r.StatusCode, r.Body)
	}
	page := get(t, h, st.Booking)
	if page.StatusCode != 200 || page.Header.Get("Cache-Control") != "no-store" || page.Header.Get("Referrer-Policy") != "no-referrer" ||
		!strings.Contains(page.Body, `content="noindex, nofollow"`) || len(find(page.Doc, tag("h1"))) != 1 {
		t.Fatalf("booking page: %d %v\n%s", page.StatusCode, page.Header, page.Body)
	}
	if !strings.Contains(page.Body, "Book your free inspection") || strings.Contains(page.Body, "maria@example.com") {
		t.Errorf("page words or data:\n%s", page.Body)
	}
	m := regexp.MustCompile(`<input type="radio" name="start" required="" value="([^"]+)"`).FindStringSubmatch(page.Body)
	if m == nil {
		t.Fatal("no window to pick")
	}
	start := m[1]
	req := httptest.NewRequest("POST", st.Booking, strings.NewReader(url.Values{"start": {start}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = "10.9.0.1:5000"
	res := do(t, h, req)
	if res.StatusCode != 303 || !strings.HasPrefix(res.Header.Get("Location"), st.Booking+"?done=booked") {
		t.Fatalf("book: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	booked := get(t, h, st.Booking+"?done=booked")
	if !strings.Contains(booked.Body, "Your inspection visit is booked") || !strings.Contains(booked.Body, st.Booking+".ics") {
		t.Errorf("booked page:\n%s", booked.Body)
	}
	ics := get(t, h, st.Booking+".ics")
	if ics.StatusCode != 200 || !strings.HasPrefix(ics.Body, "BEGIN:VCALENDAR\r\n") || ics.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("ics: %d %s", ics.StatusCode, ics.Body)
	}
	if nf := get(t, h, "/my/AAAAAAAAAAAAAAAAAAAAAA/booking"); nf.StatusCode != 404 {
		t.Errorf("unknown link: %d", nf.StatusCode)
	}

	form.Set("emergency", "yes")
	form.Set("email", "other@example.com")
	r = postForm(t, h, "/api/estimate", form, "10.9.0.2", "application/json")
	if r.StatusCode != 201 || strings.Contains(r.Body, "/my/") {
		t.Errorf("emergency answer: %d %s", r.StatusCode, r.Body)
	}
	if logPath("/my/"+strings.Repeat("A", 22)+"/booking.ics") != "/my/[REDACTED]/booking.ics" {
		t.Errorf("log path: %s", logPath("/my/x/booking"))
	}
}
