package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
	"golang.org/x/net/html"
)

func validForm() url.Values {
	return url.Values{
		"name": {"Maria Gonzalez"}, "phone": {"(770) 555-0199"}, "email": {"maria@example.com"}, "city": {"Marietta"},
		"street": {"12 Roswell St"}, "zip": {"30060"}, "damageType": {"Water Damage"}, "emergency": {"yes"},
		"insuranceCarrier": {"State Farm"}, "notes": {"Water heater burst in the garage."}, "website": {""},
	}
}

func postForm(t *testing.T, h http.Handler, path string, form url.Values, ip string, accept string) *response {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = ip + ":5000"
	req.Header.Set("Accept-Encoding", "gzip, deflate, br") // as browsers send it
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	return do(t, h, req)
}

func storedLeads(t *testing.T, store *db.Store) []db.Lead {
	t.Helper()
	ls, err := store.ListLeads(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

func TestEstimateValidWithoutJavaScript(t *testing.T) {
	srv, store := newTestServer(t, nil)
	r := postForm(t, srv.Handler(), "/estimate", validForm(), "10.0.0.1", "")
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/estimate/thanks" {
		t.Fatalf("status %d location %q", r.StatusCode, r.Header.Get("Location"))
	}
	ls := storedLeads(t, store)
	if len(ls) != 1 {
		t.Fatalf("%d leads stored", len(ls))
	}
	l := ls[0]
	if l.FirstName != "Maria" || l.LastName != "Gonzalez" || l.Status != "new" || l.Source != "website" || !l.IsEmergency ||
		l.DamageType != "Water Damage" || l.ZipCode != "30060" || l.InsuranceCarrier != "State Farm" || l.StreetAddress != "12 Roswell St" {
		t.Errorf("stored lead %+v", l)
	}
	thanks := get(t, srv.Handler(), "/estimate/thanks")
	if thanks.StatusCode != 200 || !strings.Contains(text(bodyOf(thanks.Doc)), "Thank you! Your estimate request was received.") {
		t.Errorf("thank-you page: %d", thanks.StatusCode)
	}
}

func TestEstimateValidWithJavaScript(t *testing.T) {
	srv, store := newTestServer(t, nil)
	r := postForm(t, srv.Handler(), "/api/estimate", validForm(), "10.0.0.2", "application/json")
	var st leads.EstimateState
	json.Unmarshal([]byte(r.Body), &st)
	if r.StatusCode != http.StatusCreated || !st.Success {
		t.Fatalf("status %d body %s", r.StatusCode, r.Body)
	}
	if len(storedLeads(t, store)) != 1 {
		t.Fatal("lead not stored")
	}
}

func TestEstimateInvalidFields(t *testing.T) {
	cases := []struct {
		field, value, want string
	}{
		{"name", "", "Please enter your name."},
		{"name", strings.Repeat("x", 121), "Name is too long (120 characters at most)."},
		{"phone", "555-0199", "Please enter a 10-digit phone number, e.g. (770) 555-0134."},
		{"phone", strings.Repeat("7", 40), "Please enter a 10-digit phone number, e.g. (770) 555-0134."},
		{"email", "maria@", "Please enter a valid email address, e.g. name@example.com."},
		{"email", strings.Repeat("a", 250) + "@x.com", "Email is too long (254 characters at most)."},
		{"city", "", "Please enter the city where the property is."},
		{"street", strings.Repeat("s", 201), "Street address is too long (200 characters at most)."},
		{"zip", "3006", "Please enter a 5-digit ZIP code."},
		{"damageType", "Alien invasion", "Please choose the type of damage."},
		{"emergency", "maybe", "Please tell us whether this is an emergency."},
		{"insuranceCarrier", strings.Repeat("c", 121), "Insurance carrier is too long (120 characters at most)."},
		{"notes", strings.Repeat("n", 2001), "Notes are too long (2000 characters at most)."},
	}
	srv, store := newTestServer(t, nil)
	for i, tc := range cases {
		t.Run(tc.field, func(t *testing.T) {
			f := validForm()
			f.Set(tc.field, tc.value)
			ip := "10.1.0." + string(rune('1'+i%9))
			// JSON: the message for exactly that field.
			r := postForm(t, srv.Handler(), "/api/estimate", f, ip+"1", "application/json")
			var st leads.EstimateState
			json.Unmarshal([]byte(r.Body), &st)
			if r.StatusCode != http.StatusUnprocessableEntity || st.Errors[tc.field] != tc.want || len(st.Errors) != 1 {
				t.Fatalf("status %d errors %v, want %s: %q", r.StatusCode, st.Errors, tc.field, tc.want)
			}
			// No JavaScript: the form again, with the message and every value kept.
			r = postForm(t, srv.Handler(), "/estimate", f, ip+"2", "")
			if r.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("no-JS status %d", r.StatusCode)
			}
			body := text(bodyOf(r.Doc))
			if !strings.Contains(body, tc.want) {
				t.Errorf("no-JS page lacks %q", tc.want)
			}
			for _, in := range find(r.Doc, tag("input")) {
				if attr(in, "name") == "city" && tc.field != "city" && attr(in, "value") != "Marietta" {
					t.Errorf("city value lost: %q", attr(in, "value"))
				}
			}
			if tc.field == "notes" && !strings.Contains(r.Body, strings.Repeat("n", 2001)) {
				t.Error("notes not kept")
			}
		})
	}
	if n := len(storedLeads(t, store)); n != 0 {
		t.Errorf("%d invalid leads stored", n)
	}
}

// A bot that fills the hidden field gets exactly the answer a person
// gets (status, Location, JSON body, cache headers), so it cannot tell it
// was caught, and nothing is stored.
func TestEstimateHoneypot(t *testing.T) {
	srv, store := newTestServer(t, nil)
	spam := validForm()
	spam.Set("website", "http://spam.example")
	for _, accept := range []string{"", "application/json"} {
		path := "/estimate"
		if accept != "" {
			path = "/api/estimate"
		}
		bot := postForm(t, srv.Handler(), path, spam, "10.2.0.1", accept)
		human := postForm(t, srv.Handler(), path, validForm(), "10.2.0.2", accept)
		if bot.StatusCode != human.StatusCode || bot.Body != human.Body {
			t.Errorf("%s: bot got %d %q, a person %d %q", path, bot.StatusCode, bot.Body, human.StatusCode, human.Body)
		}
		for _, h := range []string{"Location", "Content-Type", "Cache-Control"} {
			if bot.Header.Get(h) != human.Header.Get(h) {
				t.Errorf("%s: %s differs: bot %q, person %q", path, h, bot.Header.Get(h), human.Header.Get(h))
			}
		}
	}
	if n := len(storedLeads(t, store)); n != 2 {
		t.Errorf("%d leads stored, want only the 2 real ones", n)
	}
	// An invalid bot submission is answered like an invalid real one.
	spam.Set("phone", "12")
	if r := postForm(t, srv.Handler(), "/api/estimate", spam, "10.2.0.1", "application/json"); r.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("invalid honeypot submission: %d", r.StatusCode)
	}
}

func TestEstimateRateLimit(t *testing.T) {
	srv, store := newTestServer(t, nil)
	for i := 0; i < EstimatesPerWindow; i++ {
		if r := postForm(t, srv.Handler(), "/api/estimate", validForm(), "10.3.0.1", "application/json"); r.StatusCode != http.StatusCreated {
			t.Fatalf("submission %d: %d", i, r.StatusCode)
		}
	}
	r := postForm(t, srv.Handler(), "/api/estimate", validForm(), "10.3.0.1", "application/json")
	if r.StatusCode != http.StatusTooManyRequests || !strings.Contains(r.Body, "Too many requests") || !strings.Contains(r.Body, "(770) 555-0134") {
		t.Fatalf("status %d body %s", r.StatusCode, r.Body)
	}
	// X-Forwarded-For is not trusted by default: spoofing it does not help.
	req := httptest.NewRequest("POST", "/api/estimate", strings.NewReader(validForm().Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Forwarded-For", "203.0.113.9")
	req.RemoteAddr = "10.3.0.1:1"
	if r := do(t, srv.Handler(), req); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("spoofed XFF got %d", r.StatusCode)
	}
	// Another client is unaffected.
	if r := postForm(t, srv.Handler(), "/api/estimate", validForm(), "10.3.0.2", "application/json"); r.StatusCode != http.StatusCreated {
		t.Errorf("other IP: %d", r.StatusCode)
	}
	if n := len(storedLeads(t, store)); n != EstimatesPerWindow+1 {
		t.Errorf("%d leads", n)
	}
}

// A 429 for the no-JS form is a small fixed page, not a React render:
// the wait, the phone as a tel: link, and Retry-After.
func TestEstimateRateLimitWithoutJavaScript(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	for i := 0; i < EstimatesPerWindow; i++ {
		if r := postForm(t, srv.Handler(), "/estimate", validForm(), "10.3.1.1", ""); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("submission %d: %d", i, r.StatusCode)
		}
	}
	r := postForm(t, srv.Handler(), "/estimate", validForm(), "10.3.1.1", "")
	if r.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("status %d", r.StatusCode)
	}
	if secs, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || secs < 1 || secs > int(EstimateWindow.Seconds())+1 {
		t.Errorf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	if len(r.Body) > 2048 || strings.Contains(r.Body, "<script") || strings.Contains(r.Body, "__PROPS") {
		t.Errorf("a %d-byte page, not a small fixed one:\n%s", len(r.Body), r.Body)
	}
	body := text(bodyOf(r.Doc))
	if !strings.Contains(body, "Too many requests") || !strings.Contains(body, "try again in") || !strings.Contains(body, "(770) 555-0134") {
		t.Errorf("page text %q", body)
	}
	tel := false
	for _, a := range find(r.Doc, tag("a")) {
		tel = tel || attr(a, "href") == "tel:+17705550134"
	}
	if !tel {
		t.Error("no tel: link")
	}
	// JSON keeps its shape, with Retry-After too.
	r = postForm(t, srv.Handler(), "/api/estimate", validForm(), "10.3.1.1", "application/json")
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" || !strings.Contains(r.Body, `"form":"Too many requests`) {
		t.Errorf("JSON 429: %d %q %s", r.StatusCode, r.Header.Get("Retry-After"), r.Body)
	}
}

// Without a spool (or when the spool cannot be written either) a
// database failure is a 503 that gives the phone number.
func TestEstimateDatabaseUnavailable(t *testing.T) {
	srv, store := newTestServer(t, nil)
	store.Close()
	r := postForm(t, srv.Handler(), "/estimate", validForm(), "10.4.0.1", "")
	if r.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status %d", r.StatusCode)
	}
	body := text(bodyOf(r.Doc))
	if !strings.Contains(body, "We could not save your request right now. Please call us at (770) 555-0134") || strings.Contains(body, "Thank you") {
		t.Errorf("page does not say the request was not saved: %s", body[:300])
	}
	for _, in := range find(r.Doc, tag("input")) {
		if attr(in, "name") == "name" && attr(in, "value") != "Maria Gonzalez" {
			t.Errorf("typed name lost")
		}
	}
	r = postForm(t, srv.Handler(), "/api/estimate", validForm(), "10.4.0.1", "application/json")
	if r.StatusCode != http.StatusServiceUnavailable || strings.Contains(r.Body, `"success":true`) {
		t.Errorf("JSON: %d %s", r.StatusCode, r.Body)
	}
}

func TestEstimateOversizedBody(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	f := validForm()
	f.Set("notes", strings.Repeat("x", 2<<20))
	r := postForm(t, srv.Handler(), "/api/estimate", f, "10.5.0.1", "application/json")
	if r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413", r.StatusCode)
	}
}

func TestSearch(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	r := get(t, srv.Handler(), "/search?q=mold+remediation")
	if r.StatusCode != 200 {
		t.Fatalf("status %d", r.StatusCode)
	}
	links := map[string]bool{}
	for _, a := range find(bodyOf(r.Doc), tag("a")) {
		links[attr(a, "href")] = true
	}
	if !links["/services/mold-remediation"] || !links["/blog/mold-remediation-atlanta-comprehensive-guide"] {
		t.Errorf("mold search misses the service or the guide")
	}
	robots := find(headOf(r.Doc), func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "robots" })
	if len(robots) != 1 || !strings.Contains(attr(robots[0], "content"), "noindex") {
		t.Error("search results are indexable")
	}
	if got := srv.site.Search("Marietta"); len(got) == 0 || got[0].Href != "/areas/cobb/marietta" {
		t.Errorf("Marietta search first hit = %+v", got)
	}
	if got := srv.site.Search("zzzqqq"); len(got) != 0 {
		t.Errorf("nonsense search found %d", len(got))
	}
	r = get(t, srv.Handler(), "/search?q="+strings.Repeat("a", 5000))
	if r.StatusCode != 200 {
		t.Errorf("long query: %d", r.StatusCode)
	}
}

// Only stored leads count toward the limit: a visitor who gets the form
// wrong five times, then right, is stored, and so are four more; the
// next valid one is refused.
func TestEstimateLimitCountsStoredLeadsOnly(t *testing.T) {
	srv, store := newTestServer(t, nil)
	bad := validForm()
	bad.Set("name", "")
	for i := 0; i < 5; i++ {
		if r := postForm(t, srv.Handler(), "/api/estimate", bad, "10.5.0.1", "application/json"); r.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("invalid post %d: %d", i, r.StatusCode)
		}
	}
	for i := 0; i < EstimatesPerWindow; i++ {
		if r := postForm(t, srv.Handler(), "/api/estimate", validForm(), "10.5.0.1", "application/json"); r.StatusCode != http.StatusCreated {
			t.Fatalf("valid post %d after 5 invalid ones: %d %s", i, r.StatusCode, r.Body)
		}
	}
	if r := postForm(t, srv.Handler(), "/api/estimate", validForm(), "10.5.0.1", "application/json"); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("lead %d: %d, want 429", EstimatesPerWindow+1, r.StatusCode)
	}
	// Invalid posts still get their messages once the stored limit is
	// reached: telling a visitor what is wrong costs no lead.
	if r := postForm(t, srv.Handler(), "/api/estimate", bad, "10.5.0.1", "application/json"); r.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("invalid post past the lead limit: %d", r.StatusCode)
	}
	if n := len(storedLeads(t, store)); n != EstimatesPerWindow {
		t.Errorf("%d leads stored, want %d", n, EstimatesPerWindow)
	}
}

// A flood of 1,000 posts from one address stores at most the limit, and
// past EstimatePostsPerWindow every post, valid or not, gets the small
// fixed 429 page: no render, no database work.
func TestEstimateFloodFromOneAddress(t *testing.T) {
	srv, store := newTestServer(t, nil)
	bad := validForm()
	bad.Set("phone", "12")
	counts := map[int]int{}
	for i := 0; i < 1000; i++ {
		f := validForm()
		if i%2 == 0 {
			f = bad
		}
		r := postForm(t, srv.Handler(), "/estimate", f, "10.5.1.1", "")
		counts[r.StatusCode]++
		if i >= EstimatePostsPerWindow && (r.StatusCode != http.StatusTooManyRequests || len(r.Body) > 2048) {
			t.Fatalf("post %d: %d, %d bytes; want the small 429 page", i, r.StatusCode, len(r.Body))
		}
	}
	if n := len(storedLeads(t, store)); n != EstimatesPerWindow {
		t.Errorf("%d leads stored from one address, want %d", n, EstimatesPerWindow)
	}
	if counts[http.StatusSeeOther] != EstimatesPerWindow || counts[http.StatusUnprocessableEntity] != EstimatePostsPerWindow/2 {
		t.Errorf("statuses %v", counts)
	}
}

// Parallel valid posts from one address store exactly the limit: the
// slot is reserved before the lead is stored.
func TestEstimateLimitHoldsUnderConcurrency(t *testing.T) {
	srv, store := newTestServer(t, nil)
	var wg sync.WaitGroup
	codes := make(chan int, 25)
	for i := 0; i < 25; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- postForm(t, srv.Handler(), "/api/estimate", validForm(), "10.5.2.1", "application/json").StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	created := 0
	for c := range codes {
		if c == http.StatusCreated {
			created++
		} else if c != http.StatusTooManyRequests {
			t.Errorf("status %d", c)
		}
	}
	if n := len(storedLeads(t, store)); created != EstimatesPerWindow || n != EstimatesPerWindow {
		t.Errorf("%d answered 201, %d stored; want %d", created, n, EstimatesPerWindow)
	}
}

// A lead that could not be stored gives its slot back: six failures in
// a row are six 503s that give the phone, never a 429.
func TestEstimateUnsavedLeadDoesNotCount(t *testing.T) {
	srv, store := newTestServer(t, nil)
	store.Close()
	for i := 0; i < EstimatesPerWindow+1; i++ {
		if r := postForm(t, srv.Handler(), "/api/estimate", validForm(), "10.5.3.1", "application/json"); r.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("post %d: %d, want 503", i, r.StatusCode)
		}
	}
}

// Without JavaScript the form posts to /estimate#estimate-result: the
// page the server answers with opens at the error summary, which comes
// before the fields, can take focus, and links every message to its
// field in the order of the form.
func TestEstimateErrorSummaryWithoutJavaScript(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	page := get(t, srv.Handler(), "/estimate")
	forms := find(page.Doc, tag("form"))
	if len(forms) != 1 || attr(forms[0], "action") != "/estimate#estimate-result" {
		t.Fatalf("form action %q", attr(forms[0], "action"))
	}
	f := validForm()
	f.Set("name", "")
	f.Set("zip", "1")
	f.Set("phone", "555")
	r := postForm(t, srv.Handler(), "/estimate", f, "10.5.4.1", "")
	if r.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", r.StatusCode)
	}
	box := find(r.Doc, func(n *html.Node) bool { return attr(n, "id") == "estimate-result" })
	if len(box) != 1 || attr(box[0], "tabindex") != "-1" || attr(box[0], "role") != "alert" {
		t.Fatalf("no focusable alert #estimate-result: %d", len(box))
	}
	var hrefs, msgs []string
	for _, a := range find(box[0], tag("a")) {
		hrefs = append(hrefs, attr(a, "href"))
		msgs = append(msgs, text(a))
	}
	wantHrefs := []string{"#estimate-name", "#estimate-phone", "#estimate-zip"}
	if strings.Join(hrefs, " ") != strings.Join(wantHrefs, " ") {
		t.Errorf("summary links %v, want %v", hrefs, wantHrefs)
	}
	for i, h := range hrefs {
		if len(find(r.Doc, func(n *html.Node) bool { return n.Data == "input" && "#"+attr(n, "id") == h })) != 1 {
			t.Errorf("link %s points at no field", h)
		}
		if i < len(msgs) && msgs[i] == "" {
			t.Errorf("link %s has no text", h)
		}
	}
	// The summary comes before the first field.
	all := find(r.Doc, func(n *html.Node) bool { return attr(n, "id") == "estimate-result" || attr(n, "id") == "estimate-name" })
	if len(all) != 2 || attr(all[0], "id") != "estimate-result" {
		t.Error("the summary is not before the fields")
	}
	// The thank-you page carries the same id, so the redirect (which keeps
	// the fragment) lands on it.
	thanks := get(t, srv.Handler(), "/estimate/thanks")
	if len(find(thanks.Doc, func(n *html.Node) bool { return attr(n, "id") == "estimate-result" && attr(n, "tabindex") == "-1" })) != 1 {
		t.Error("thank-you page has no focusable #estimate-result")
	}
}

// The estimate endpoints with bodies no form sends: JSON instead of a
// form, repeated keys, hundreds of extra fields, every field oversized,
// odd content types, the honeypot filled in each encoding. Nothing is
// stored that was not validated, one value per field is taken, and the
// honeypot is answered as success with nothing stored.
func TestAttackEstimateOddBodies(t *testing.T) {
	srv, store := newTestServer(t, nil)
	h := srv.Handler()
	send := func(ct, body, ip string) *response {
		req := httptest.NewRequest("POST", "/api/estimate", strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		req.RemoteAddr = ip + ":5000"
		return do(t, h, req)
	}
	js, _ := json.Marshal(map[string]string{"name": "Json Body", "phone": "7705550199", "city": "Marietta", "damageType": "Water Damage", "emergency": "yes"})
	for name, c := range map[string]struct{ ct, body string }{
		"JSON instead of a form": {"application/json", string(js)},
		"text/plain form":        {"text/plain", validForm().Encode()},
		"no content type":        {"", validForm().Encode()},
		"XML":                    {"application/xml", "<x><name>Xml</name></x>"},
	} {
		r := send(c.ct, c.body, "10.9.0.1")
		if r.StatusCode != http.StatusUnprocessableEntity && r.StatusCode != http.StatusBadRequest && r.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("%s: %d %.200s", name, r.StatusCode, r.Body)
		}
	}
	// Repeated keys: the first value is the one validated and stored.
	f := validForm()
	f.Set("name", "First Value")
	f.Add("name", strings.Repeat("x", 10_000))
	f.Add("phone", "not a phone")
	f.Set("email", "first@example.com")
	f.Add("email", "second@evil.example")
	if r := postForm(t, h, "/api/estimate", f, "10.9.0.2", "application/json"); r.StatusCode != http.StatusCreated {
		t.Fatalf("repeated keys: %d %s", r.StatusCode, r.Body)
	}
	// Hundreds of extra fields are ignored; every field oversized is
	// refused per field with the text kept.
	f = validForm()
	for i := 0; i < 500; i++ {
		f.Set(fmt.Sprintf("extra%d", i), "x")
	}
	f.Set("notes", "Extra fields")
	if r := postForm(t, h, "/api/estimate", f, "10.9.0.3", "application/json"); r.StatusCode != http.StatusCreated {
		t.Errorf("500 extra fields: %d %.200s", r.StatusCode, r.Body)
	}
	f = validForm()
	for _, k := range []string{"name", "city", "street", "email", "insuranceCarrier", "notes"} {
		f.Set(k, strings.Repeat("é", 2500))
	}
	r := postForm(t, h, "/api/estimate", f, "10.9.0.4", "application/json")
	var st leads.EstimateState
	json.Unmarshal([]byte(r.Body), &st)
	if r.StatusCode != http.StatusUnprocessableEntity || len(st.Errors) < 6 {
		t.Errorf("oversized fields: %d %v", r.StatusCode, st.Errors)
	}
	// The honeypot, in the form and in a multipart body.
	f = validForm()
	f.Set("website", "http://spam.example")
	if r := postForm(t, h, "/api/estimate", f, "10.9.0.5", "application/json"); r.StatusCode != http.StatusCreated {
		t.Errorf("honeypot: %d", r.StatusCode)
	}
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	for k, v := range validForm() {
		if k == "website" {
			v = []string{"spam"}
		}
		mw.WriteField(k, v[0])
	}
	mw.Close()
	if r := send(mw.FormDataContentType(), mp.String(), "10.9.0.6"); r.StatusCode != http.StatusCreated {
		t.Errorf("multipart honeypot: %d %.200s", r.StatusCode, r.Body)
	}
	leads := storedLeads(t, store)
	if len(leads) != 2 {
		for _, l := range leads {
			t.Logf("%+v", l)
		}
		t.Fatalf("%d leads stored, want 2 (repeated keys, extra fields)", len(leads))
	}
	for _, l := range leads {
		if l.Email == "second@evil.example" || len(l.FirstName+l.LastName) > 40 || l.Phone == "not a phone" {
			t.Errorf("stored %+v", l)
		}
	}
}

// attributionForm is the estimate form with its hidden fields.
func attributionForm(kv ...string) url.Values {
	f := validForm()
	for i := 0; i+1 < len(kv); i += 2 {
		f.Set(kv[i], kv[i+1])
	}
	return f
}

func postWithReferer(t *testing.T, h http.Handler, path string, form url.Values, ip, accept, referer string) *response {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = ip + ":5000"
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if referer != "" {
		req.Header.Set("Referer", referer)
	}
	return do(t, h, req)
}

// The estimate form's attribution is stored: from the hidden fields (the
// JavaScript form), from the Referer of the form's page (without), and
// never as sent when hostile or oversized.
func TestEstimateAttributionStored(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	byName := func(last string) db.Lead {
		t.Helper()
		for _, l := range storedLeads(t, store) {
			if l.LastName == last {
				return l
			}
		}
		t.Fatalf("lead %s not stored", last)
		return db.Lead{}
	}
	// The JavaScript form: hidden fields from the visit's record.
	f := attributionForm("name", "Ann Hidden", "landing", "/services/water-damage-restoration?utm_source=ignored", "referrer", "www.google.com",
		"utm_source", "google", "utm_medium", "cpc", "utm_campaign", "Spring Flood", "utm_term", "burst pipe", "utm_content", "ad-2",
		"gclid", "Cj0KCQiA-abc_123", "gbraid", "0AAAAA", "wbraid", "CkAB", "fbclid", "IwAR1", "msclkid", "f1e2d3", "device", "mobile", "visit", "V1sitId_0123456789abcd")
	if r := postWithReferer(t, h, "/api/estimate", f, "10.9.0.1", "application/json", testBase+"/estimate"); r.StatusCode != 201 {
		t.Fatalf("post: %d %s", r.StatusCode, r.Body)
	}
	want := db.Attribution{LandingPage: "/services/water-damage-restoration", ReferrerHost: "www.google.com", UTMSource: "google", UTMMedium: "cpc",
		UTMCampaign: "Spring Flood", UTMTerm: "burst pipe", UTMContent: "ad-2", GCLID: "Cj0KCQiA-abc_123", GBRAID: "0AAAAA", WBRAID: "CkAB",
		FBCLID: "IwAR1", MSCLKID: "f1e2d3", DeviceClass: "mobile", VisitID: "V1sitId_0123456789abcd"}
	if got := byName("Hidden").Attribution; got != want {
		t.Errorf("hidden fields stored as\n%+v\nwant\n%+v", got, want)
	}

	// Without JavaScript: empty hidden fields; the Referer is the form's
	// page, landed on from an ad.
	f = attributionForm("name", "Ben Referer", "landing", "", "utm_source", "")
	if r := postWithReferer(t, h, "/estimate", f, "10.9.0.2", "", testBase+"/emergency?utm_source=bing&utm_medium=cpc&msclkid=m-42"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("no-JS post: %d %s", r.StatusCode, r.Body)
	}
	if got := byName("Referer").Attribution; got.LandingPage != "/emergency" || got.UTMSource != "bing" || got.UTMMedium != "cpc" || got.MSCLKID != "m-42" {
		t.Errorf("from the Referer: %+v", got)
	}

	// Hostile and oversized values.
	f = attributionForm("name", "Cid Hostile",
		"landing", "https://evil.test/phish?utm_source=evil", "referrer", "127.0.0.1",
		"utm_source", "goo\u202egle\x00"+strings.Repeat("x", 500), "utm_medium", "\x1b[31mred", "utm_campaign", strings.Repeat("é", 5000),
		"gclid", strings.Repeat("a", leads.MaxClickIDLen+1), "fbclid", "has space", "msclkid", "<script>", "device", "phone", "visit", "<script>alert(1)</script>")
	if r := postWithReferer(t, h, "/api/estimate", f, "10.9.0.3", "application/json", "https://evil.test/?utm_source=referer"); r.StatusCode != 201 {
		t.Fatalf("hostile post: %d %s", r.StatusCode, r.Body)
	}
	got := byName("Hostile").Attribution
	if got.LandingPage != "" || got.ReferrerHost != "" || got.GCLID != "" || got.FBCLID != "" || got.MSCLKID != "" || got.DeviceClass != "" || got.VisitID != "" {
		t.Errorf("hostile values kept: %+v", got)
	}
	if strings.ContainsAny(got.UTMSource, "\u202e\x00") || len([]rune(got.UTMSource)) > leads.MaxUTMLen || strings.Contains(got.UTMMedium, "\x1b") ||
		len([]rune(got.UTMCampaign)) != leads.MaxUTMLen || !strings.HasPrefix(got.UTMSource, "google") {
		t.Errorf("UTM text not cleaned and cut: %q %q (%d runes)", got.UTMSource, got.UTMMedium, len([]rune(got.UTMCampaign)))
	}

	// A form shown again without JavaScript carries what was admitted.
	f = attributionForm("name", "", "utm_source", "newsletter", "landing", "/blog", "gclid", "<bad>")
	r := postWithReferer(t, h, "/estimate", f, "10.9.0.4", "", testBase+"/estimate")
	if r.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("invalid no-JS post: %d", r.StatusCode)
	}
	hidden := map[string]string{}
	for _, in := range find(r.Doc, func(n *html.Node) bool { return n.Data == "input" && attr(n, "type") == "hidden" }) {
		hidden[attr(in, "name")] = attr(in, "value")
	}
	if hidden["utm_source"] != "newsletter" || hidden["landing"] != "/blog" || hidden["gclid"] != "" {
		t.Errorf("hidden fields of the form shown again: %v", hidden)
	}
	for _, name := range []string{"landing", "referrer", "device", "visit", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "gclid", "gbraid", "wbraid", "fbclid", "msclkid"} {
		if _, ok := hidden[name]; !ok {
			t.Errorf("the form lacks the hidden field %s", name)
		}
	}

	// The Analytics screen's 'Leads by source / campaign' counts them.
	tok := unlock(t, h)
	var a struct {
		LeadSources []struct {
			Source, Campaign string
			Leads            int64
		} `json:"leadSources"`
		CallPages []any `json:"callPages"`
	}
	res := jsonReq(t, h, "GET", "/api/admin/analytics", tok, nil)
	if json.Unmarshal([]byte(res.Body), &a) != nil || a.CallPages == nil {
		t.Fatalf("analytics: %d %s", res.StatusCode, res.Body)
	}
	rows := map[string]int64{}
	for _, r := range a.LeadSources {
		rows[r.Source+"|"+r.Campaign] = r.Leads
	}
	if rows["google / cpc|Spring Flood"] != 1 || rows["bing / cpc|"] != 1 {
		t.Errorf("leads by source: %v", rows)
	}
}
