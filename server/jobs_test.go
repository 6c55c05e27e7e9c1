package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/health"
	"github.com/atlanta-restoration/site/indexnow"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/site"
	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/indexnow/indexnowtest"
	indexnowweb "github.com/atlanta-restoration/site/web/indexnow"
)

// warmServer is a test server whose render cache warms after boot and
// after every change, as in production, with its jobs running.
// IndexNow posts to fake, with key testIndexNowKey and a short debounce.
func warmServer(t *testing.T, fake *indexnowtest.Endpoint, env map[string]string) (*Server, *db.Store) {
	t.Helper()
	srv, store := adminServer(t, env) // builds the shared engine
	e := map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir(), "INDEXNOW_ENDPOINT": fake.URL, "INDEXNOW_KEY": testIndexNowKey, "INDEXNOW_DEBOUNCE": "50ms"}
	for k, v := range env {
		e[k] = v
	}
	srv, err := buildServer(t, testParts{Config: testConfig(t, e), Store: store, Warm: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	srv.StartJobs()
	t.Cleanup(func() { srv.StopJobs(context.Background()) })
	return srv, store
}

// waitRun waits for the n-th recorded run of job (1-based, oldest first)
// and returns it.
func waitRun(t *testing.T, store *db.Store, job string, n int) db.JobRun {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		all, err := store.RecentJobRuns(context.Background(), 200, true)
		if err != nil {
			t.Fatal(err)
		}
		var runs []db.JobRun
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].Job == job {
				runs = append(runs, all[i])
			}
		}
		if len(runs) >= n {
			return runs[n-1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d runs recorded, waiting for run %d: %+v", job, len(runs), n, runs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func settingsWith(t *testing.T, h http.Handler, tok string, change func(map[string]any)) {
	t.Helper()
	var st map[string]any
	json.Unmarshal([]byte(jsonReq(t, h, "GET", "/api/admin/settings", tok, nil).Body), &st)
	change(st)
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, st); r.StatusCode != 200 {
		t.Fatalf("save settings: %d %s", r.StatusCode, r.Body)
	}
}

// TestIndexNowSubmitsChangedPagesAfterUpload: boot records the baseline;
// an upload changes the home page and the portfolio, and exactly those
// two are submitted, not /services or anything else. (The first project
// changes every page, its menu's OUR WORK included, ADR 050: that one is
// uploaded first.)
func TestIndexNowSubmitsChangedPagesAfterUpload(t *testing.T) {
	fake := indexnowtest.New(t, http.StatusOK)
	srv, store := warmServer(t, fake, nil)
	h := srv.Handler()
	srv.Warm()
	if r := waitRun(t, store, jobIndexNow, 1); r.Outcome != "ok" || !strings.Contains(r.Summary, "baseline") {
		t.Fatalf("boot run: %+v, want the baseline", r)
	}
	if n := len(fake.Calls()); n != 0 {
		t.Fatalf("boot submitted %d times; the first run only records the baseline", n)
	}
	tok := unlock(t, h)
	firstProject(t, h, tok, store, fake, 2)
	if r := upload(t, h, tok, "Kitchen Fire Repair", "IMG_0042.JPG", testJPEG(t, 640, 480)); r.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	run := waitRun(t, store, jobIndexNow, 3)
	calls := fake.Calls()[1:]
	if run.Outcome != "ok" || len(calls) != 1 {
		t.Fatalf("after the upload: run %+v, %d calls", run, len(calls))
	}
	want := indexnow.Payload{Host: "www.example-restoration.test", Key: testIndexNowKey, KeyLocation: testBase + "/" + testIndexNowKey + ".txt",
		URLList: []string{testBase + "/", testBase + "/portfolio"}}
	if diff := cmp.Diff(want, calls[0]); diff != "" {
		t.Errorf("payload (-want, +got):\n%s", diff)
	}
	// The history and the dashboard show it.
	hist := jsonReq(t, h, "GET", "/api/admin/indexnow/submissions", tok, nil)
	var got struct {
		Submissions []struct {
			Trigger    string   `json:"trigger"`
			URLs       []string `json:"urls"`
			StatusCode int      `json:"statusCode"`
			Outcome    string   `json:"outcome"`
		}
		Total int
	}
	json.Unmarshal([]byte(hist.Body), &got)
	if got.Total != 2 || got.Submissions[0].Trigger != "auto" || got.Submissions[0].StatusCode != 200 || len(got.Submissions[0].URLs) != 2 {
		t.Errorf("history: %s", hist.Body)
	}
	act := jsonReq(t, h, "GET", "/api/admin/jobs", tok, nil)
	for _, w := range []string{`"title":"1 photo uploaded to Kitchen Fire Repair"`, `"title":"IndexNow auto-submit"`, `submitted 2 changed pages (HTTP 200): /, /portfolio`} {
		if !strings.Contains(act.Body, w) {
			t.Errorf("recent activity lacks %s: %s", w, act.Body)
		}
	}
}

// TestIndexNowToggleOffSendsNothing: with 'auto-submit to IndexNow' off a
// content change sends nothing; switched on again, the change goes out.
func TestIndexNowToggleOffSendsNothing(t *testing.T) {
	fake := indexnowtest.New(t, http.StatusOK)
	srv, store := warmServer(t, fake, nil)
	h := srv.Handler()
	srv.Warm()
	waitRun(t, store, jobIndexNow, 1) // baseline
	tok := settingsAdmin(t, srv, store)
	firstProject(t, h, tok, store, fake, 2)
	fake0 := len(fake.Calls())
	settingsWith(t, h, tok, func(st map[string]any) { st["autoIndexNow"] = false })
	if r := waitRun(t, store, jobIndexNow, 3); r.Outcome != "skipped" || r.Summary != "auto-submit to IndexNow is off" {
		t.Fatalf("settings save with the toggle off: %+v", r)
	}
	if r := upload(t, h, tok, "Roof Repair", "roof.jpg", testJPEG(t, 320, 240)); r.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	if r := waitRun(t, store, jobIndexNow, 4); r.Outcome != "skipped" {
		t.Fatalf("upload with the toggle off: %+v", r)
	}
	if n := len(fake.Calls()) - fake0; n != 0 {
		t.Fatalf("%d submissions with the toggle off", n)
	}
	settingsWith(t, h, tok, func(st map[string]any) { st["autoIndexNow"] = true })
	if r := waitRun(t, store, jobIndexNow, 5); r.Outcome != "ok" || len(fake.Calls())-fake0 != 1 {
		t.Fatalf("toggle back on: %+v, %d calls", r, len(fake.Calls())-fake0)
	}
	if got := fake.Calls()[fake0].URLList; strings.Join(got, " ") != testBase+"/ "+testBase+"/portfolio" {
		t.Errorf("submitted %v", got)
	}
}

// TestSameContentSameETag: pages embed nothing per render (no time, no
// nonce), so an unchanged page keeps its ETag and is never resubmitted.
func TestSameContentSameETag(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	ctx := context.Background()
	for _, p := range []string{"/", "/services", "/portfolio", "/contact", "/blog", "/areas/cobb/marietta", "/services/water-damage-restoration"} {
		a, err := srv.pages.Render(ctx, p)
		if err != nil {
			t.Fatal(p, err)
		}
		srv.Changed("test")
		b, err := srv.pages.Render(ctx, p)
		if err != nil {
			t.Fatal(p, err)
		}
		if a.ETag != b.ETag {
			t.Errorf("%s: ETag %s then %s for the same content", p, a.ETag, b.ETag)
		}
	}
}

// TestHealthJobFindsBrokenRoutes: deliberately broken table entries (a
// loader that fails, one that finds nothing, one whose canonical names
// another page) are reported by a run the admin starts, with the summary
// cards, and on the dashboard.
func TestHealthJobFindsBrokenRoutes(t *testing.T) {
	srv, _ := adminServer(t, nil)
	home, _, _ := srv.site.Lookup("/")
	for _, r := range []site.Route{
		{Pattern: "/broken-loader", Page: "home", Priority: "low", ChangeFreq: "yearly", InSitemap: true, Indexable: true,
			Load: func(context.Context, *site.Site, site.Params) (site.Page, error) {
				return site.Page{}, errors.New("database on fire")
			}},
		{Pattern: "/vanished", Page: "home", Priority: "low", ChangeFreq: "yearly", InSitemap: true, Indexable: true,
			Load: func(context.Context, *site.Site, site.Params) (site.Page, error) {
				return site.Page{}, &site.NotFoundError{Title: "Gone"}
			}},
		{Pattern: "/copycat", Page: "home", Priority: "low", ChangeFreq: "yearly", InSitemap: true, Indexable: true,
			Load: func(ctx context.Context, s *site.Site, p site.Params) (site.Page, error) {
				pg, err := home.Load(ctx, s, p)
				pg.Head.Path = "/"
				return pg, err
			}},
	} {
		srv.site.AddRoute(r)
	}
	srv.StartJobs()
	t.Cleanup(func() { srv.StopJobs(context.Background()) })
	h := srv.Handler()
	tok := unlock(t, h)
	before := jsonReq(t, h, "GET", "/api/admin/health", tok, nil)
	if before.StatusCode != 200 || !strings.Contains(before.Body, `"run":null`) {
		t.Fatalf("before any run: %d %s", before.StatusCode, before.Body)
	}
	if r := jsonReq(t, h, "POST", "/api/admin/health/run", tok, nil); r.StatusCode != http.StatusAccepted {
		t.Fatalf("run now: %d %s", r.StatusCode, r.Body)
	}
	var out struct {
		Run *struct {
			Trigger string `json:"trigger"`
			Checked int    `json:"checked"`
			Issues  int    `json:"issues"`
		}
		Summary indexnowweb.HealthSummary
		Results []health.Result
	}
	deadline := time.Now().Add(60 * time.Second)
	for out.Run == nil {
		if time.Now().After(deadline) {
			t.Fatal("no health run recorded")
		}
		time.Sleep(50 * time.Millisecond)
		json.Unmarshal([]byte(jsonReq(t, h, "GET", "/api/admin/health", tok, nil).Body), &out)
	}
	sitemap := len(srv.site.SitemapURLs())
	if out.Run.Trigger != "manual" || out.Run.Checked != sitemap+2 || out.Run.Issues != 3 {
		t.Errorf("run = %+v, want manual, %d checked, 3 issues", out.Run, sitemap+2)
	}
	if s := out.Summary; s.URLsInSitemap != sitemap || s.TotalRoutes <= sitemap || s.IndexableRoutes < sitemap || s.Issues != 3 || s.LastUpdated == nil {
		t.Errorf("summary = %+v", s)
	}
	bad := map[string]string{}
	for _, r := range out.Results {
		if r.Status != "active" || !r.CanonicalOK {
			bad[r.URL] = r.Status + " " + r.Error
		}
	}
	want := map[string]string{
		"/broken-loader": "error HTTP 500",
		"/vanished":      "404 HTTP 404",
		"/copycat":       "active canonical is " + testBase + "/, not " + testBase + "/copycat",
	}
	if diff := cmp.Diff(want, bad); diff != "" {
		t.Errorf("issues (-want, +got):\n%s", diff)
	}
	last := out.Results[len(out.Results)-2:]
	if last[0].URL != "/sitemap.xml" || last[0].Status != "active" || last[1].URL != "/robots.txt" || last[1].Status != "active" {
		t.Errorf("sitemap.xml and robots.txt: %+v", last)
	}
	// The health run is stored by the job itself; the runner records the
	// job run (what the activity list shows) just after the job returns.
	act := jsonReq(t, h, "GET", "/api/admin/jobs", tok, nil)
	for !strings.Contains(act.Body, `"title":"SEO health check"`) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		act = jsonReq(t, h, "GET", "/api/admin/jobs", tok, nil)
	}
	if !strings.Contains(act.Body, `"title":"SEO health check"`) || !strings.Contains(act.Body, "3 issues (/broken-loader error, /vanished 404, /copycat canonical)") {
		t.Errorf("dashboard activity: %s", act.Body)
	}
}

func TestHealthRedirectIsReportedWithItsLocation(t *testing.T) {
	srv, _ := adminServer(t, nil)
	res, err := srv.fetchLocal(context.Background(), "/services/insurance-help")
	if err != nil || res.Status != http.StatusMovedPermanently || res.Location != "/services/insurance-claims" {
		t.Errorf("fetchLocal redirect: %d %q %v", res.Status, res.Location, err)
	}
}

func TestJobsAPIRequiresToken(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	for _, c := range [][2]string{{"GET", "/api/admin/jobs"}, {"GET", "/api/admin/health"}, {"POST", "/api/admin/health/run"}, {"GET", "/api/admin/indexnow/submissions"}} {
		if r := jsonReq(t, h, c[0], c[1], "", nil); r.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s %s without a token: %d", c[0], c[1], r.StatusCode)
		}
	}
}

func TestIndexNowKeyFromConfig(t *testing.T) {
	srv, _ := adminServer(t, map[string]string{"INDEXNOW_KEY": "configured-key-42"})
	h := srv.Handler()
	tok := unlock(t, h)
	if r := jsonReq(t, h, "GET", "/api/admin/indexnow/key", tok, nil); !strings.Contains(r.Body, `"key":"configured-key-42"`) || !strings.Contains(r.Body, `"fixed":true`) {
		t.Errorf("key: %s", r.Body)
	}
	if r := get(t, h, "/configured-key-42.txt"); r.StatusCode != 200 || r.Body != "configured-key-42" {
		t.Errorf("key file: %d %q", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "PUT", "/api/admin/indexnow/key", tok, map[string]string{"key": testIndexNowKey}); r.StatusCode != http.StatusConflict || !strings.Contains(r.Body, "set by your web host on the server") || strings.Contains(r.Body, "INDEXNOW_KEY") {
		t.Errorf("replacing the configured key: %d %s", r.StatusCode, r.Body)
	}
}

// TestReviewsJob: with Google Places configured the daily job fetches
// reviews; the public refresh button keeps its rate limit.
func TestReviewsJob(t *testing.T) {
	var calls atomic.Int32
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"status": "OK", "result": map[string]any{"reviews": []map[string]any{
			{"author_name": "Maria G.", "rating": 5, "text": "They had our basement dry in four days.", "time": 1760000000},
		}}})
	}))
	defer fake.Close()
	plain, _ := adminServer(t, nil)
	if plain.jobs.runner.Has(jobReviews) {
		t.Error("reviews job registered without Google Places")
	}
	srv, store := adminServer(t, map[string]string{"GOOGLE_PLACES_API_KEY": "k", "GOOGLE_PLACE_ID": "p", "GOOGLE_PLACES_ENDPOINT": fake.URL})
	srv.StartJobs()
	t.Cleanup(func() { srv.StopJobs(context.Background()) })
	srv.jobs.runner.RunNow(jobReviews)
	if r := waitRun(t, store, jobReviews, 1); r.Outcome != "ok" || r.Summary != "fetched 1 review" {
		t.Fatalf("reviews job: %+v", r)
	}
	if rs, _ := store.TopReviews(context.Background()); len(rs) != 1 {
		t.Errorf("%d reviews stored", len(rs))
	}
	r := do(t, srv.Handler(), httptest.NewRequest("POST", "/api/reviews/refresh", nil))
	if r.StatusCode != 200 || !strings.Contains(r.Body, "refreshed recently") || calls.Load() != 1 {
		t.Errorf("button after the job: %d %s, %d calls", r.StatusCode, r.Body, calls.Load())
	}
	// And the job after the button is skipped within the interval.
	srv.jobs.runner.RunNow(jobReviews)
	if r := waitRun(t, store, jobReviews, 2); r.Outcome != "skipped" {
		t.Errorf("second run: %+v", r)
	}
}

// firstProject uploads the site's first project work and waits for the
// IndexNow run it starts (run n): it changes every page, the menu's OUR
// WORK appearing (ADR 050), so every page is submitted once.
func firstProject(t *testing.T, h http.Handler, tok string, store *db.Store, fake *indexnowtest.Endpoint, n int) {
	t.Helper()
	before := len(fake.Calls())
	if r := upload(t, h, tok, "Basement Flood", "first.jpg", testJPEG(t, 320, 240)); r.StatusCode != http.StatusCreated {
		t.Fatalf("first upload: %d %s", r.StatusCode, r.Body)
	}
	if r := waitRun(t, store, jobIndexNow, n); r.Outcome != "ok" || len(fake.Calls()) != before+1 || len(fake.Calls()[before].URLList) < 100 {
		t.Fatalf("the first project changes every page (OUR WORK): run %+v, calls %d", r, len(fake.Calls())-before)
	}
}

// The escalation job as the server runs it: an emergency lead still new
// after LEAD_ESCALATE_AFTER is escalated once, to every admin's device,
// with two servers running the job at the same moment; a quiet minute is
// a skipped run.
func TestEscalationJobOnceAcrossInstances(t *testing.T) {
	store := db.NewTestSQLite(t)
	k1 := newSpeedKit(t, store, nil)
	k2 := newSpeedKit(t, store, nil)
	addUser(t, store, adminEmail, adminPass, "admin", "The Owner")
	adminDev := k1.subscribeDevice(t, signIn(t, k1.h, adminEmail, adminPass))
	old := time.Now().UTC().Add(-20 * time.Minute)
	if err := store.CreateLead(context.Background(), db.Lead{ID: "old-emergency", CreatedAt: old, UpdatedAt: old, FirstName: "Old", LastName: "Flood",
		Phone: "+17705550111", City: "Marietta", DamageType: "Water Damage", Status: "new", IsEmergency: true, Source: "website"}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	results := make([]string, 2)
	errs := make([]error, 2)
	for i, k := range []speedKit{k1, k2} {
		wg.Add(1)
		go func(i int, k speedKit) {
			defer wg.Done()
			results[i], errs[i] = k.srv.escalate(context.Background())
		}(i, k)
	}
	wg.Wait()
	escalated := 0
	for i := range results {
		if errs[i] == nil && strings.HasPrefix(results[i], "escalated 1 emergency lead") {
			escalated++
		}
	}
	if escalated != 1 {
		t.Fatalf("escalations %q %v", results, errs)
	}
	ds := k1.fake.WaitDeliveries(1, 5*time.Second)
	if len(ds) != 1 || ds[0].Device != adminDev.ID {
		t.Fatalf("escalation pushes: %+v", ds)
	}
	var m notify.PushMessage
	json.Unmarshal(ds[0].Payload, &m)
	if !strings.HasPrefix(m.Title, "EMERGENCY still new") || !m.Escalated {
		t.Errorf("escalation push %+v", m)
	}
	if _, err := k1.srv.escalate(context.Background()); err == nil || !strings.Contains(err.Error(), "no emergency lead waiting") {
		t.Errorf("a second run: %v", err)
	}
	time.Sleep(200 * time.Millisecond)
	if got := len(k1.fake.Deliveries()); got != 1 {
		t.Errorf("%d pushes after two runs, want 1", got)
	}
}
