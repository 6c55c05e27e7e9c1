package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/cdnpurge"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/indexnow/indexnowtest"
	"github.com/atlanta-restoration/site/schemacheck"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/ssr"
)

// Jobs on the public site as served (ADR 062). The store half (the jobs
// table, Store.PublishedJobs) is another part of issue 33: these tests
// feed the pages through their own list, the one seam that changes.

// testJobs are a test's published jobs; a test may publish more while the
// server runs.
type testJobs struct {
	mu   sync.Mutex
	jobs []db.PublishedJob
}

func (f *testJobs) PublishedJobs(context.Context) ([]db.PublishedJob, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.jobs), nil
}

// publish adds a job as the newest.
func (f *testJobs) publish(j db.PublishedJob) {
	f.mu.Lock()
	f.jobs = append([]db.PublishedJob{j}, f.jobs...)
	f.mu.Unlock()
}

// The fixture job's rounded position: these digits must appear in no
// byte the site serves.
const jobLat, jobLng = 33.96, -84.53

var jobCoordDigits = []string{"33.96", "84.53", "33,96", "84,53"}

func jobMedia(id, phase string) db.PublishedJobMedia {
	return db.PublishedJobMedia{ID: id, Kind: "image", Phase: phase, Width: 1200, Height: 900, Path: "jobs/" + id + ".jpg",
		Variants: `[{"w":480,"p":"jobs/` + id + `-480.webp"},{"w":1200,"p":"jobs/` + id + `-1200.webp"}]`}
}

// mariettaJob has a page: a before and an after photo, and 60+ words.
func mariettaJob() db.PublishedJob {
	return db.PublishedJob{
		ID: "job-1", Slug: "marietta-kitchen-leak", Title: "Kitchen leak dried in two days", CityID: "cobb/marietta", Month: "2026-03",
		Service: "water-damage", Lat: jobLat, Lng: jobLng, HasPlace: true, PublishedAt: time.Date(2026, 4, 2, 15, 0, 0, 0, time.UTC),
		Story: "A supply line under the kitchen sink failed while the family was away for the weekend. " +
			"Water ran for hours and reached the hallway and the finished basement below. Our crew extracted the standing water, " +
			"opened the toe kicks, set air movers and dehumidifiers, and logged moisture readings every day until the cabinets and " +
			"subfloor were dry. We documented everything for the adjuster and rebuilt the base cabinets the following week.",
		Media: []db.PublishedJobMedia{jobMedia("m1", "before"), jobMedia("m2", "after"), jobMedia("m3", "during")},
	}
}

// thinJob has one photo and no story: a card without a page.
func thinJob() db.PublishedJob {
	return db.PublishedJob{ID: "job-2", Slug: "smyrna-storm-tarp", Title: "Storm tarp in Smyrna", CityID: "cobb/smyrna", Month: "2026-02",
		Service: "storm-damage", Lat: 33.88, Lng: -84.51, HasPlace: true, PublishedAt: time.Date(2026, 3, 1, 15, 0, 0, 0, time.UTC),
		Media: []db.PublishedJobMedia{jobMedia("m4", "after")}}
}

func jobsServer(t *testing.T, jobs *testJobs, env map[string]string) *Server {
	t.Helper()
	e := map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir()}
	for k, v := range env {
		e[k] = v
	}
	srv, err := buildServer(t, testParts{Config: testConfig(t, e), Store: db.NewTestSQLite(t), Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// The job page answers 200, indexable and in the sitemap, with one h1,
// the summary line, the comparison and one ImageObject per photo naming
// the city; a job without enough to say is a 404 and a card without a
// link; Marietta and a neighbour show the job and Douglasville does not.
func TestJobPagesAsServed(t *testing.T) {
	srv := jobsServer(t, &testJobs{jobs: []db.PublishedJob{mariettaJob(), thinJob()}}, nil)
	h := srv.Handler()
	r := get(t, h, "/portfolio/marietta-kitchen-leak")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("job page: %d", r.StatusCode)
	}
	if n := len(find(r.Doc, tag("h1"))); n != 1 {
		t.Errorf("%d h1", n)
	}
	for _, want := range []string{"Kitchen leak dried in two days", "Water Damage Restoration in Marietta, March 2026", `data-island="compare"`,
		`type="range"`, "Slide to compare before and after", `href="/areas/cobb/marietta"`, "More photos from this job"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("job page lacks %q", want)
		}
	}
	if strings.Contains(r.Body, "noindex") {
		t.Error("the job page is noindex")
	}
	for _, l := range find(r.Doc, tag("link")) {
		if attr(l, "rel") == "canonical" && attr(l, "href") != testBase+"/portfolio/marietta-kitchen-leak" {
			t.Errorf("canonical %s", attr(l, "href"))
		}
	}
	var images []map[string]any
	for _, b := range jsonLDBlocks(t, r.Doc) {
		graph, _ := b["@graph"].([]any)
		for _, n := range graph {
			if m, ok := n.(map[string]any); ok && m["@type"] == "ImageObject" {
				images = append(images, m)
			}
		}
	}
	if len(images) != 3 {
		t.Fatalf("%d ImageObjects, want one per photo", len(images))
	}
	for _, im := range images {
		loc, _ := json.Marshal(im["contentLocation"])
		if string(loc) != `{"@type":"Place","address":{"@type":"PostalAddress","addressLocality":"Marietta","addressRegion":"GA"},"name":"Marietta, GA"}` {
			t.Errorf("contentLocation %s", loc)
		}
		if u, _ := im["contentUrl"].(string); !strings.HasPrefix(u, testBase+"/media/jobs/") {
			t.Errorf("contentUrl %q", u)
		}
	}
	// The schema check holds the page to its kind's types: no error.
	res := schemacheck.CheckPage([]byte(r.Body), schemacheck.Page{Path: "/portfolio/marietta-kitchen-leak", Kind: "job", Expect: site.ExpectedSchema("job")},
		schemacheck.Options{FAQItemClass: site.FAQItemClass})
	if len(res.Missing) > 0 {
		t.Errorf("schema check: missing %v", res.Missing)
	}
	for _, f := range res.Findings {
		if f.Severity == schemacheck.Error {
			t.Errorf("schema check: %+v", f)
		}
	}
	if sm := get(t, h, "/sitemap.xml"); !strings.Contains(sm.Body, "<loc>"+testBase+"/portfolio/marietta-kitchen-leak</loc>") || strings.Contains(sm.Body, "smyrna-storm-tarp") {
		t.Errorf("sitemap.xml: the job page with enough to say, and only it:\n%s", sm.Body)
	}
	// The thin job: the spec's 404, and a card without a link.
	nf := get(t, h, "/portfolio/smyrna-storm-tarp")
	if nf.StatusCode != http.StatusNotFound || !strings.Contains(nf.Body, "Oops! Page not found") {
		t.Errorf("thin job page: %d", nf.StatusCode)
	}
	pf := get(t, h, "/portfolio")
	if !strings.Contains(pf.Body, "Storm tarp in Smyrna") || strings.Contains(pf.Body, `href="/portfolio/smyrna-storm-tarp"`) || !strings.Contains(pf.Body, `href="/portfolio/marietta-kitchen-leak"`) {
		t.Error("the portfolio's cards: both jobs, a link for the job with a page only")
	}
	// Marietta (the fixed page) and its neighbour Kennesaw show it;
	// Douglasville, 29 km away, does not.
	for path, shows := range map[string]bool{"/areas/cobb/marietta": true, "/areas/cobb/kennesaw": true, "/areas/douglas/douglasville": false,
		"/service-areas/cobb": true, "/services/water-damage-restoration": true, "/services/fire-damage-restoration": false} {
		p := get(t, h, path)
		if p.StatusCode != 200 {
			t.Fatalf("%s: %d", path, p.StatusCode)
		}
		if got := strings.Contains(p.Body, "Kitchen leak dried in two days"); got != shows {
			t.Errorf("%s shows the Marietta job: %v, want %v", path, got, shows)
		}
	}
	if p := get(t, h, "/areas/cobb/marietta"); !strings.Contains(p.Body, "Recent work near Marietta") {
		t.Error("Marietta lacks its heading")
	}
	if p := get(t, h, "/areas/douglas/douglasville"); strings.Contains(p.Body, "Recent work near") {
		t.Error("Douglasville shows an empty promise")
	}
}

// No byte the site serves carries the job's coordinates: every page's
// HTML (its JSON-LD and its islands' props within), every page's props
// as the renderer gets them, sitemap.xml, and the admin's route list.
func TestNoCoordinatesInAnyByte(t *testing.T) {
	srv := jobsServer(t, &testJobs{jobs: []db.PublishedJob{mariettaJob(), thinJob()}}, nil)
	h := srv.Handler()
	ctx := context.Background()
	check := func(where, body string) {
		t.Helper()
		for _, d := range jobCoordDigits {
			if strings.Contains(body, d) {
				i := strings.Index(body, d)
				t.Errorf("%s carries %q: ...%s...", where, d, body[max(0, i-80):min(len(body), i+80)])
			}
		}
	}
	paths := srv.site.AllPaths()
	if !slices.Contains(paths, "/portfolio/marietta-kitchen-leak") {
		t.Fatal("the job page is not among the paths")
	}
	for _, p := range paths {
		rt, _, _ := srv.site.Lookup(p)
		if rt == nil || rt.Page == "admin" {
			continue
		}
		r := get(t, h, p)
		if r.StatusCode != 200 {
			continue
		}
		check(p, r.Body)
		_, pg, err := srv.site.Load(ctx, p)
		if err != nil {
			t.Fatal(p, err)
		}
		props, err := ssr.MarshalProps(srv.site.Props(ctx, p, pg))
		if err != nil {
			t.Fatal(err)
		}
		check(p+" (props)", string(props))
	}
	for _, p := range []string{"/sitemap.xml", "/robots.txt", "/portfolio/smyrna-storm-tarp"} {
		check(p, get(t, h, p).Body)
	}
}

// Publishing a job re-renders exactly the pages that show it: the job's
// page, the city pages within the distance, the county page, the service
// page, the portfolio and the HTML sitemap; and only their URLs go to
// IndexNow and to the CDN purge hook.
func TestPublishingAJobChangesOnlyItsPages(t *testing.T) {
	fake := indexnowtest.New(t, http.StatusOK)
	var mu sync.Mutex
	var purged []cdnpurge.Request
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req cdnpurge.Request
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &req)
		mu.Lock()
		purged = append(purged, req)
		mu.Unlock()
	}))
	t.Cleanup(hook.Close)
	// A caching proxy in front (Varnish, ADR 068): a PURGE per path.
	var proxied []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		proxied = append(proxied, r.Method+" "+r.Host+" "+r.URL.Path)
		mu.Unlock()
	}))
	t.Cleanup(proxy.Close)
	// A job far away (McDonough, Henry County) is there already, so the
	// portfolio has work and OUR WORK is in every page's menu before the
	// publish (ADR 050: the first work changes every page).
	henry := db.PublishedJob{ID: "job-0", Slug: "mcdonough-basement", Title: "Basement flood in McDonough", CityID: "henry/mcdonough", Month: "2026-01",
		Service: "water-damage", Lat: 33.45, Lng: -84.15, HasPlace: true, Media: []db.PublishedJobMedia{jobMedia("m0", "after")}}
	jobs := &testJobs{jobs: []db.PublishedJob{henry}}
	store := db.NewTestSQLite(t)
	e := map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir(), "INDEXNOW_ENDPOINT": fake.URL, "INDEXNOW_KEY": testIndexNowKey,
		"INDEXNOW_DEBOUNCE": "50ms", "CDN_PURGE_URL": hook.URL, "PROXY_PURGE_URLS": proxy.URL}
	srv, err := buildServer(t, testParts{Config: testConfig(t, e), Store: store, Warm: true, Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	srv.StartJobs()
	t.Cleanup(func() { srv.StopJobs(context.Background()) })
	srv.Warm()
	if r := waitRun(t, store, jobIndexNow, 1); r.Outcome != "ok" || !strings.Contains(r.Summary, "baseline") {
		t.Fatalf("boot run: %+v, want the baseline", r)
	}
	ctx := context.Background()
	etags := func() map[string]string {
		out := map[string]string{}
		for _, p := range srv.site.AllPaths() {
			if pg, err := srv.Cache().Get(ctx, p); err == nil {
				out[p] = pg.ETag
			}
		}
		return out
	}
	before := etags()

	jobs.publish(mariettaJob())
	srv.Changed("job published")

	after := etags()
	var changed []string
	for p, e := range after {
		if before[p] != e {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	// What shows the job, worked out from the content: every city within
	// the distance of the job's position, its county, its service.
	want := []string{"/portfolio", "/portfolio/marietta-kitchen-leak", "/service-areas/cobb", "/services/water-damage-restoration", "/sitemap"}
	c := srv.site.Content()
	for _, ci := range c.Cities {
		if content.DistanceKm(ci.Lat, ci.Lng, jobLat, jobLng) <= site.NearbyJobsKm {
			want = append(want, site.CityPath(ci.County, ci.Slug))
		}
	}
	sort.Strings(want)
	if len(want) < 8 || !slices.Contains(want, "/areas/cobb/marietta") || slices.Contains(want, "/areas/douglas/douglasville") {
		t.Fatalf("the expected pages are not what this test means: %v", want)
	}
	if strings.Join(changed, " ") != strings.Join(want, " ") {
		t.Fatalf("changed pages:\n got %v\nwant %v", changed, want)
	}
	// IndexNow: one submission of exactly those URLs.
	if r := waitRun(t, store, jobIndexNow, 2); r.Outcome != "ok" {
		t.Fatalf("IndexNow run after the publish: %+v", r)
	}
	calls := fake.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d IndexNow submissions", len(calls))
	}
	got := slices.Clone(calls[0].URLList)
	sort.Strings(got)
	var wantURLs []string
	for _, p := range want {
		wantURLs = append(wantURLs, testBase+p)
	}
	if strings.Join(got, " ") != strings.Join(wantURLs, " ") {
		t.Errorf("IndexNow got\n %v\nwant %v", got, wantURLs)
	}
	// The CDN purge hook and the proxy: exactly those paths, and the
	// sitemap, which lists the job's new page (robots.txt did not change).
	wantPurged := append(slices.Clone(want), "/sitemap.xml")
	sort.Strings(wantPurged)
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		n, m := len(purged), len(proxied)
		mu.Unlock()
		if n > 0 && m >= len(wantPurged) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(purged) != 1 {
		t.Fatalf("%d purges", len(purged))
	}
	paths := slices.Clone(purged[0].Paths)
	sort.Strings(paths)
	if strings.Join(paths, " ") != strings.Join(wantPurged, " ") || purged[0].Reason != "job published" {
		t.Errorf("purged %v (%q), want %v", paths, purged[0].Reason, wantPurged)
	}
	var wantProxied []string
	for _, p := range wantPurged {
		wantProxied = append(wantProxied, "PURGE "+strings.TrimPrefix(testBase, "https://")+" "+p)
	}
	sort.Strings(proxied)
	if strings.Join(proxied, "\n") != strings.Join(wantProxied, "\n") {
		t.Errorf("the proxy got\n%s\nwant\n%s", strings.Join(proxied, "\n"), strings.Join(wantProxied, "\n"))
	}
}
