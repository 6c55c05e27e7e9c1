package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/settings"
)

// placesFake is an httptest Places Details server. result is what it
// answers in "result" while fail is false; with fail set it answers 500.
type placesFake struct {
	*httptest.Server
	calls  atomic.Int32
	fields atomic.Value
	mu     sync.Mutex
	result map[string]any
	fail   bool
	delay  time.Duration
}

func newPlacesFake(t *testing.T, result map[string]any) *placesFake {
	f := &placesFake{result: result}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.calls.Add(1)
		f.fields.Store(r.URL.Query().Get("fields"))
		f.mu.Lock()
		res, fail, delay := f.result, f.fail, f.delay
		f.mu.Unlock()
		time.Sleep(delay)
		if r.URL.Query().Get("key") != "k" || r.URL.Query().Get("place_id") != "p" {
			http.Error(w, "bad key", http.StatusForbidden)
			return
		}
		if fail {
			http.Error(w, "backend error", http.StatusInternalServerError)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"status": "OK", "result": res})
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *placesFake) env() map[string]string {
	return map[string]string{"GOOGLE_PLACES_API_KEY": "k", "GOOGLE_PLACE_ID": "p", "GOOGLE_PLACES_ENDPOINT": f.URL}
}

var mariaReview = map[string]any{"author_name": "Maria G.", "rating": 5, "text": "They had our basement dry in four days.", "time": 1760000000}

// trustStats reads the trust section's stats: label -> value.
func trustStats(t *testing.T, doc *html.Node) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, li := range find(doc, func(n *html.Node) bool {
		return n.Data == "li" && n.Parent != nil && strings.Contains(attr(n.Parent, "class"), "stats")
	}) {
		var v, l string
		for _, sp := range find(li, tag("span")) {
			switch attr(sp, "class") {
			case "stats__value":
				v = text(sp)
			case "stats__label":
				l = text(sp)
			}
		}
		out[l] = v
	}
	if len(out) != 6 {
		t.Fatalf("trust stats: %v, want 6", out)
	}
	return out
}

// businessLD is the LocalBusiness node of a page's structured data.
func businessLD(t *testing.T, doc *html.Node) map[string]any {
	t.Helper()
	for _, b := range jsonLDBlocks(t, doc) {
		g, _ := b["@graph"].([]any)
		for _, e := range g {
			if m, ok := e.(map[string]any); ok {
				if types, ok := m["@type"].([]any); ok && len(types) > 0 && types[0] == "LocalBusiness" {
					return m
				}
			}
		}
	}
	t.Fatal("no LocalBusiness in the structured data")
	return nil
}

// ratingShown checks the trust section's figures and the structured
// data's aggregateRating (nil: must be absent) of the served HTML.
func ratingShown(t *testing.T, h http.Handler, rating, count string, agg map[string]any) {
	t.Helper()
	home := get(t, h, "/")
	st := trustStats(t, home.Doc)
	label := "Google Reviews"
	if count == "1" {
		label = "Google Review"
	}
	if st["Average Rating"] != rating || st[label] != count {
		t.Errorf("trust stats %v, want rating %q and %q %s", st, rating, count, label)
	}
	for _, p := range []string{"/", "/services/water-damage-restoration", "/areas/fulton/roswell"} {
		doc := home.Doc
		if p != "/" {
			doc = get(t, h, p).Doc
		}
		got, _ := businessLD(t, doc)["aggregateRating"].(map[string]any)
		if agg == nil {
			if got != nil {
				t.Errorf("%s: aggregateRating %v, want none", p, got)
			}
			continue
		}
		if diff := cmp.Diff(agg, got); diff != "" {
			t.Errorf("%s aggregateRating (-want, +got):\n%s", p, diff)
		}
	}
}

// emptyBlock says what the empty reviews block offers: the fetch button,
// and the link to the reviews on Google.
func emptyBlock(t *testing.T, h http.Handler) (button bool, line bool, link string) {
	t.Helper()
	home := get(t, h, "/")
	block := find(home.Doc, func(n *html.Node) bool { return attr(n, "class") == "reviews" })
	if len(block) != 1 {
		t.Fatalf("%d reviews blocks", len(block))
	}
	button = len(find(block[0], func(n *html.Node) bool { return n.Data == "button" && text(n) == "Click here to fetch reviews" })) == 1
	line = strings.Contains(text(block[0]), "Reviews from Google are not shown on this site yet.")
	for _, a := range find(block[0], tag("a")) {
		if text(a) == "Read our reviews on Google" && !strings.Contains(attr(a.Parent, "class"), "reviews__nojs") {
			link = attr(a, "href")
		}
	}
	return
}

// With Google Places configured, the figures are Places' rating and
// user_ratings_total, in the trust section and the structured data of
// every page, from the first successful fetch on.
func TestReviewFiguresFromPlaces(t *testing.T) {
	fake := newPlacesFake(t, map[string]any{"rating": 4.7, "user_ratings_total": 81, "reviews": []map[string]any{
		mariaReview, {"author_name": "Tom B.", "rating": 3, "text": "Okay.", "time": 1760000100},
	}})
	srv, store := adminServer(t, fake.env())
	h := srv.Handler()
	// Before Places has answered: the settings' defaults, not in the
	// structured data, and the fetch button.
	ratingShown(t, h, "4.9/5", "79", nil)
	if button, line, _ := emptyBlock(t, h); !button || line {
		t.Errorf("configured, no reviews: button %v, unconfigured line %v", button, line)
	}
	r := do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil))
	if r.StatusCode != 200 || !strings.Contains(r.Body, `"status":"fetched"`) || !strings.Contains(r.Body, `"fetched":2`) {
		t.Fatalf("refresh: %d %s", r.StatusCode, r.Body)
	}
	if f, _ := fake.fields.Load().(string); !strings.Contains(f, "rating") || !strings.Contains(f, "user_ratings_total") {
		t.Errorf("fields=%q", f)
	}
	list := get(t, h, "/api/reviews")
	if !strings.Contains(list.Body, "Maria G.") || strings.Contains(list.Body, "Tom B.") {
		t.Errorf("api/reviews = %s, want only the 5-star review", list.Body)
	}
	// Every page was re-rendered with Places' figures.
	agg := map[string]any{"@type": "AggregateRating", "ratingValue": "4.7", "reviewCount": float64(81), "bestRating": "5", "worstRating": "1"}
	ratingShown(t, h, "4.7/5", "81", agg)
	if home := get(t, h, "/"); !strings.Contains(home.Body, "They had our basement dry in four days.") {
		t.Error("home not re-rendered with the new review")
	}
	// The figures are stored with the fetch time: a new server on the same
	// store (a restart, another instance) shows them before any fetch.
	pr, err := store.PlacesRatingOf(context.Background(), "p")
	if err != nil || pr.Rating != 4.7 || pr.Count != 81 || time.Since(pr.FetchedAt) > time.Minute {
		t.Errorf("stored: %+v %v", pr, err)
	}
	other, err := buildServer(t, testParts{Config: srv.cfg, Store: store, Content: srv.site.Content(), Engine: srv.engine})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	ratingShown(t, other.Handler(), "4.7/5", "81", agg)
	// Saved settings figures do not replace Places'.
	tok := settingsAdmin(t, srv, store)
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, reviewSettings(map[string]any{"reviewRating": "3.2", "reviewCount": "7"})); r.StatusCode != 200 {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	ratingShown(t, h, "4.7/5", "81", agg)
	var got struct{ ReviewFigures settings.ReviewFiguresInfo }
	json.Unmarshal([]byte(jsonReq(t, h, "GET", "/api/admin/settings", tok, nil).Body), &got)
	if f := got.ReviewFigures; !f.PlacesConfigured || f.InUse.Source != "places" || f.InUse.Rating != "4.7" || f.InUse.Count != 81 || !f.InStructuredData || f.InUse.FetchedAt == nil {
		t.Errorf("settings' review figures: %+v", f)
	}
	// A second refresh inside the minimum interval does not call Google.
	if r := do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil)); r.StatusCode != 200 || !strings.Contains(r.Body, `"status":"recent"`) {
		t.Errorf("second refresh: %d %s", r.StatusCode, r.Body)
	}
	if fake.calls.Load() != 1 {
		t.Errorf("places called %d times, want 1", fake.calls.Load())
	}
}

// A place that has no rating on Google yet: Places says so, the stats say
// so too, and nothing goes into the structured data.
func TestReviewFiguresPlacesWithoutRating(t *testing.T) {
	fake := newPlacesFake(t, map[string]any{})
	srv, _ := newTestServer(t, fake.env())
	h := srv.Handler()
	if r := do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil)); r.StatusCode != 200 {
		t.Fatalf("refresh: %d %s", r.StatusCode, r.Body)
	}
	ratingShown(t, h, "—", "0", nil)
}

// A rating stored for another place id (GOOGLE_PLACE_ID changed) is never
// shown as this place's.
func TestReviewFiguresOfAnotherPlace(t *testing.T) {
	fake := newPlacesFake(t, nil)
	srv, store := newTestServer(t, fake.env())
	if err := store.SavePlacesFetch(context.Background(), db.PlacesRating{PlaceID: "old-place", Rating: 3.3, Count: 12, FetchedAt: time.Now()}, nil); err != nil {
		t.Fatal(err)
	}
	ratingShown(t, srv.Handler(), "4.9/5", "79", nil)
}

// Without Google Places the figures are the owner's from System Settings
// (the spec's 4.9 and 79 until saved), never in the structured data.
func TestReviewFiguresFromSettings(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	ratingShown(t, h, "4.9/5", "79", nil)
	tok := settingsAdmin(t, srv, store)
	var got struct {
		ReviewRating, ReviewCount string
		ReviewFigures             settings.ReviewFiguresInfo
	}
	json.Unmarshal([]byte(jsonReq(t, h, "GET", "/api/admin/settings", tok, nil).Body), &got)
	if got.ReviewRating != "4.9" || got.ReviewCount != "79" || got.ReviewFigures.PlacesConfigured || got.ReviewFigures.InUse.Source != "settings" || got.ReviewFigures.InStructuredData {
		t.Errorf("settings before a save: %+v", got)
	}
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, reviewSettings(map[string]any{"reviewRating": "4.6", "reviewCount": "112"})); r.StatusCode != 200 {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	ratingShown(t, h, "4.6/5", "112", nil)
	// Numbers are accepted as well as text, "5" reads as 5.0, and 1 review
	// is "Google Review".
	r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, reviewSettings(map[string]any{"reviewRating": 5, "reviewCount": 1}))
	if r.StatusCode != 200 || !strings.Contains(r.Body, `"reviewRating":"5.0"`) || !strings.Contains(r.Body, `"reviewCount":"1"`) {
		t.Fatalf("save numbers: %d %s", r.StatusCode, r.Body)
	}
	ratingShown(t, h, "5.0/5", "1", nil)
	// A client that does not send the figures (null or absent) keeps them.
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, reviewSettings(map[string]any{"reviewRating": nil})); r.StatusCode != 200 {
		t.Fatalf("save without figures: %d %s", r.StatusCode, r.Body)
	}
	ratingShown(t, h, "5.0/5", "1", nil)
}

// reviewSettings is a valid settings body with extra fields.
func reviewSettings(extra map[string]any) map[string]any {
	b := map[string]any{"businessName": "Peach State Restoration", "phone": "(404) 555-0177", "address": "100 Main St, Marietta, GA 30060",
		"website": "https://www.peachstate.example", "officePhone": "(404) 555-0177", "autoIndexNow": true, "seoMonitoring": true, "autoSchema": true, "emergencyMode": true}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// Bad review figures are refused and the site keeps showing the figures
// saved before; without a session nothing is saved either. (Each
// refusal's message, per field, is tested in the room: web/settings'
// TestReviewSettingsValidation.)
func TestReviewSettingsValidation(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	tok := settingsAdmin(t, srv, store)
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, reviewSettings(map[string]any{"reviewRating": "4.6", "reviewCount": "112"})); r.StatusCode != 200 {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	for _, bad := range []map[string]any{{"reviewRating": "5.5", "reviewCount": "10"}, {"reviewRating": "<script>alert(1)</script>", "reviewCount": "<b>1</b>"}} {
		if r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, reviewSettings(bad)); r.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("%v: %d %.200s", bad, r.StatusCode, r.Body)
		}
	}
	ratingShown(t, h, "4.6/5", "112", nil)
	// Without a session: 401, nothing saved.
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", "", reviewSettings(map[string]any{"reviewRating": "1.0", "reviewCount": "1"})); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token: %d", r.StatusCode)
	}
	ratingShown(t, h, "4.6/5", "112", nil)
}

// Unconfigured, the refresh endpoint says so without a failure status,
// and the page never shows a button that cannot work: it says reviews are
// not shown here and links to them on Google.
func TestReviewRefreshNotConfigured(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"GOOGLE_REVIEW_URL": "https://g.page/r/peach-state/review"})
	h := srv.Handler()
	r := do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil))
	if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `"status":"not-configured"`) || !strings.Contains(r.Body, "not configured") {
		t.Errorf("status %d body %s", r.StatusCode, r.Body)
	}
	button, line, link := emptyBlock(t, h)
	if button || !line || link != "https://g.page/r/peach-state/review" {
		t.Errorf("unconfigured block: button %v, line %v, link %q", button, line, link)
	}
}

// When Places fails, the visitor's click gets a failure answer (the block
// tells them), and nothing is lost: the reviews and figures stored before
// stay.
func TestReviewRefreshFailureLosesNothing(t *testing.T) {
	fake := newPlacesFake(t, map[string]any{"rating": 4.7, "user_ratings_total": 81, "reviews": []map[string]any{mariaReview}})
	srv, _ := newTestServer(t, mapWith(fake.env(), "REVIEWS_MIN_INTERVAL", "0s"))
	h := srv.Handler()
	if r := do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil)); r.StatusCode != 200 {
		t.Fatalf("first refresh: %d %s", r.StatusCode, r.Body)
	}
	fake.mu.Lock()
	fake.fail = true
	fake.mu.Unlock()
	r := do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil))
	if r.StatusCode != http.StatusBadGateway || !strings.Contains(r.Body, "Could not fetch reviews.") || strings.Contains(r.Body, "backend error") {
		t.Errorf("failed refresh: %d %s", r.StatusCode, r.Body)
	}
	if list := get(t, h, "/api/reviews"); !strings.Contains(list.Body, "Maria G.") {
		t.Errorf("reviews lost: %s", list.Body)
	}
	ratingShown(t, h, "4.7/5", "81", map[string]any{"@type": "AggregateRating", "ratingValue": "4.7", "reviewCount": float64(81), "bestRating": "5", "worstRating": "1"})
}

// 100 visitors pressing the button at once cost one call to Places, and
// every one of them gets an answer.
func TestReviewRefreshUnderParallelPosts(t *testing.T) {
	fake := newPlacesFake(t, map[string]any{"rating": 4.7, "user_ratings_total": 81, "reviews": []map[string]any{mariaReview}})
	fake.delay = 100 * time.Millisecond
	srv, _ := newTestServer(t, fake.env())
	h := srv.Handler()
	const n = 100
	codes := make([]int, n)
	bodies := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			r := do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil))
			codes[i], bodies[i] = r.StatusCode, r.Body
		}(i)
	}
	close(start)
	wg.Wait()
	fetched, recent := 0, 0
	for i := range codes {
		switch {
		case codes[i] == 200 && strings.Contains(bodies[i], `"status":"fetched"`):
			fetched++
		case codes[i] == 200 && strings.Contains(bodies[i], `"status":"recent"`):
			recent++
		default:
			t.Errorf("post %d: %d %s", i, codes[i], bodies[i])
		}
	}
	if fake.calls.Load() != 1 || fetched != 1 || recent != n-1 {
		t.Errorf("places called %d times; %d fetched, %d recent", fake.calls.Load(), fetched, recent)
	}
}
