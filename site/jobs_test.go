package site

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// fakeJobs are a test's published jobs (the store's PublishedJobs).
type fakeJobs struct {
	jobs []db.PublishedJob
	err  error
}

func (f *fakeJobs) PublishedJobs(context.Context) ([]db.PublishedJob, error) { return f.jobs, f.err }

// testCoords are a few cities' coordinates, set on the test content so the
// distances below hold whatever the content files say.
var testCoords = map[string][2]float64{
	"cobb/marietta":        {33.9526, -84.5499},
	"cobb/smyrna":          {33.8840, -84.5144},
	"cobb/kennesaw":        {34.0234, -84.6155},
	"cobb/austell":         {33.8126, -84.6344},
	"douglas/douglasville": {33.7515, -84.7477},
	"fulton/atlanta":       {33.7490, -84.3880},
}

func jobsSite(t *testing.T, jobs ...db.PublishedJob) (*Site, *fakeJobs) {
	t.Helper()
	s := newTestSite(t)
	for i := range s.content().Cities {
		ci := &s.content().Cities[i]
		if ll, ok := testCoords[ci.County+"/"+ci.Slug]; ok {
			ci.Lat, ci.Lng = ll[0], ll[1]
		}
	}
	f := &fakeJobs{jobs: jobs}
	s.jobs = f
	return s, f
}

// story is a story of n words.
func story(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = "word"
	}
	return strings.Join(w, " ")
}

func photo(id, phase string) db.PublishedJobMedia {
	return db.PublishedJobMedia{ID: id, Kind: "image", Phase: phase, Width: 1200, Height: 900, Path: "jobs/" + id + ".jpg",
		Variants: `[{"w":480,"p":"jobs/` + id + `-480.webp"},{"w":1200,"p":"jobs/` + id + `-1200.webp"}]`}
}

// pagedJob has what a page needs: two photos (a before and an after) and
// a story of 60 words.
func pagedJob(slug, city, service, month string, lat, lng float64, published time.Time) db.PublishedJob {
	return db.PublishedJob{ID: slug, Slug: slug, Title: "Job " + slug, CityID: city, Month: month, Service: service, Story: story(60),
		Lat: lat, Lng: lng, HasPlace: lat != 0 || lng != 0, Media: []db.PublishedJobMedia{photo(slug+"-b", "before"), photo(slug+"-a", "after")}, PublishedAt: published}
}

var t0 = time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)

func cityWork(t *testing.T, s *Site, path string) *JobsSection {
	t.Helper()
	_, pg, err := s.Load(context.Background(), path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	switch d := pg.Data.(type) {
	case CityData:
		return d.RecentWork
	case CityProfileData:
		return d.RecentWork
	}
	t.Fatalf("%s: data %T", path, pg.Data)
	return nil
}

func titles(sec *JobsSection) []string {
	if sec == nil {
		return nil
	}
	var out []string
	for _, j := range sec.Jobs {
		out = append(out, j.Title)
	}
	return out
}

// A city page shows the jobs within NearbyJobsKm, nearest first, at most
// NearbyJobsShown; a job farther away is not there; a city with none
// shows no section at all.
func TestRecentWorkNearACity(t *testing.T) {
	s, _ := jobsSite(t,
		// newest first, as the store lists them
		pagedJob("kennesaw-roof", "cobb/kennesaw", "roof-repair", "2026-09", 34.02, -84.62, t0.Add(4*time.Hour)), // ~10 km from Marietta
		pagedJob("smyrna-pipe", "cobb/smyrna", "water-damage", "2026-08", 33.88, -84.51, t0.Add(3*time.Hour)),    // ~8.6 km
		pagedJob("douglasville-fire", "douglas/douglasville", "fire-damage", "2026-07", 33.75, -84.75, t0.Add(2*time.Hour)),
		pagedJob("marietta-leak", "cobb/marietta", "water-damage", "2026-06", 33.96, -84.53, t0.Add(time.Hour)), // ~2 km
		pagedJob("marietta-old", "cobb/marietta", "mold", "2025-01", 33.95, -84.55, t0),                         // ~0.3 km, oldest
	)
	// Marietta is a fixed city page; its three nearest, nearest first.
	got := titles(cityWork(t, s, "/areas/cobb/marietta"))
	want := []string{"Job marietta-old", "Job marietta-leak", "Job smyrna-pipe"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Marietta shows %v, want %v", got, want)
	}
	if sec := cityWork(t, s, "/areas/cobb/marietta"); sec.Heading != "Recent work near Marietta" {
		t.Errorf("heading %q", sec.Heading)
	}
	// Douglasville (29 km from Marietta) shows its own job only.
	if got := titles(cityWork(t, s, "/areas/douglas/douglasville")); strings.Join(got, ",") != "Job douglasville-fire" {
		t.Errorf("Douglasville shows %v", got)
	}
	// Smyrna, a generic city page: its own, then Marietta's two (8.0 and 8.6 km).
	if got := titles(cityWork(t, s, "/areas/cobb/smyrna")); strings.Join(got, ",") != "Job smyrna-pipe,Job marietta-old,Job marietta-leak" {
		t.Errorf("Smyrna shows %v", got)
	}
	// Atlanta's generic page (Atlanta is 19+ km from all of them): no section.
	if sec := cityWork(t, s, "/areas/fulton/atlanta"); sec != nil {
		t.Errorf("Atlanta shows %+v, want no section", sec)
	}
	// The fixed Atlanta page finds its city record by name.
	if sec := cityWork(t, s, "/areas/fulton/atlanta-service"); sec != nil {
		t.Errorf("Atlanta (fixed page) shows %+v", sec)
	}
}

// A job without a position of its own (a project from before jobs had
// one) shows on its own city's page only, as the thin-pages audit counts it.
func TestRecentWorkJobWithoutPosition(t *testing.T) {
	s, _ := jobsSite(t, pagedJob("smyrna-storm", "cobb/smyrna", "storm-damage", "2026-05", 0, 0, t0))
	if got := titles(cityWork(t, s, "/areas/cobb/smyrna")); len(got) != 1 {
		t.Errorf("Smyrna shows %v", got)
	}
	// Smyrna is 8 km from Marietta, but the job has no position to measure.
	if sec := cityWork(t, s, "/areas/cobb/marietta"); sec != nil {
		t.Errorf("Marietta shows %v", titles(sec))
	}
}

// A job has a page only with two photos and 60 words; otherwise it is a
// card without a link, and its address is a 404 out of the sitemap.
func TestJobPageThreshold(t *testing.T) {
	short := pagedJob("short-story", "cobb/marietta", "water-damage", "2026-06", 33.95, -84.55, t0)
	short.Story = story(59)
	onePhoto := pagedJob("one-photo", "cobb/marietta", "water-damage", "2026-06", 33.95, -84.55, t0)
	onePhoto.Media = onePhoto.Media[:1]
	video := pagedJob("photo-and-video", "cobb/marietta", "water-damage", "2026-06", 33.95, -84.55, t0)
	video.Media[1].Kind = "video"
	full := pagedJob("full", "cobb/marietta", "water-damage", "2026-06", 33.95, -84.55, t0)
	s, _ := jobsSite(t, short, onePhoto, video, full)
	ctx := context.Background()
	sitemap := strings.Join(s.SitemapPaths(), " ")
	for _, slug := range []string{"short-story", "one-photo", "photo-and-video"} {
		var nf *NotFoundError
		if _, _, err := s.Load(ctx, JobPath(slug)); !errors.As(err, &nf) || nf.Title != "404" || nf.Message != "Oops! Page not found" {
			t.Errorf("%s: err %v, want the spec's 404", slug, err)
		}
		if strings.Contains(sitemap, JobPath(slug)) {
			t.Errorf("%s is in the sitemap", slug)
		}
	}
	if !strings.Contains(sitemap, JobPath("full")) {
		t.Errorf("the job with a page is not in the sitemap: %s", sitemap)
	}
	if _, ok := s.ServedPages()[JobPath("full")]; !ok {
		t.Error("the job page is not a served page")
	}
	_, pg, err := s.Load(ctx, "/portfolio")
	if err != nil {
		t.Fatal(err)
	}
	cards := pg.Data.(PortfolioData).Jobs
	if cards == nil || len(cards.Jobs) != 4 {
		t.Fatalf("portfolio cards: %+v", cards)
	}
	for _, c := range cards.Jobs {
		if want := c.Title == "Job full"; (c.Href != "") != want {
			t.Errorf("%s: href %q", c.Title, c.Href)
		}
	}
	if cards.Jobs[3].Href != "/portfolio/full" {
		t.Errorf("href %q", cards.Jobs[3].Href)
	}
}

// The job page: its summary line, the comparison from its before and
// after photos, and one ImageObject per photo whose contentLocation names
// the city and nothing finer.
func TestJobPage(t *testing.T) {
	j := pagedJob("marietta-kitchen", "cobb/marietta", "water-damage", "2026-03", 33.96, -84.53, t0)
	j.Title = "Kitchen leak dried out"
	j.Story = "A dishwasher line failed overnight.\n\n" + story(60)
	j.Media = append(j.Media, photo("during", "during"))
	j.CustomerName = "Dana"
	s, _ := jobsSite(t, j)
	_, pg, err := s.Load(context.Background(), "/portfolio/marietta-kitchen")
	if err != nil {
		t.Fatal(err)
	}
	d := pg.Data.(JobData)
	if d.Summary != "Water Damage Restoration in Marietta, March 2026" {
		t.Errorf("summary %q", d.Summary)
	}
	if d.CityHref != "/areas/cobb/marietta" || d.DamageHref != "/services/water-damage-restoration" || d.Customer != "Dana" {
		t.Errorf("links %q %q customer %q", d.CityHref, d.DamageHref, d.Customer)
	}
	if len(d.Story) != 2 || d.Story[0] != "A dishwasher line failed overnight." {
		t.Errorf("story %q", d.Story)
	}
	if d.Compare == nil || d.Compare.Before.Phase != "before" || d.Compare.After.Phase != "after" || d.Compare.After.Src != "/media/jobs/marietta-kitchen-a-480.webp" {
		t.Fatalf("compare %+v", d.Compare)
	}
	if len(d.Photos) != 1 || d.Photos[0].Phase != "during" || d.Photos[0].Alt != "During water damage restoration in Marietta" {
		t.Errorf("other photos %+v", d.Photos)
	}
	if len(pg.Head.Extra) != 3 {
		t.Fatalf("%d JSON-LD nodes, want an ImageObject per photo", len(pg.Head.Extra))
	}
	b, _ := json.Marshal(pg.Head.Extra[0])
	var img struct {
		Type            string `json:"@type"`
		ContentURL      string `json:"contentUrl"`
		ContentLocation map[string]any
	}
	json.Unmarshal(b, &img)
	loc, _ := json.Marshal(img.ContentLocation)
	if img.Type != "ImageObject" || img.ContentURL != testBase+"/media/jobs/marietta-kitchen-b-1200.webp" ||
		string(loc) != `{"@type":"Place","address":{"@type":"PostalAddress","addressLocality":"Marietta","addressRegion":"GA"},"name":"Marietta, GA"}` {
		t.Errorf("ImageObject %s", b)
	}
	if len(pg.Head.Title) > 60 || len(pg.Head.Description) > 160 {
		t.Errorf("title %q description %q", pg.Head.Title, pg.Head.Description)
	}
}

// County pages show their cities' jobs, service pages their damage
// type's, newest first.
func TestJobsOnCountyAndServicePages(t *testing.T) {
	s, _ := jobsSite(t,
		pagedJob("a", "cobb/smyrna", "water-damage", "2026-09", 33.88, -84.51, t0.Add(2*time.Hour)),
		pagedJob("b", "douglas/douglasville", "water-damage-restoration", "2026-08", 33.75, -84.75, t0.Add(time.Hour)),
		pagedJob("c", "cobb/marietta", "fire-damage", "2026-07", 33.95, -84.55, t0),
	)
	ctx := context.Background()
	_, pg, _ := s.Load(ctx, "/service-areas/cobb")
	if got := titles(pg.Data.(CountyData).RecentWork); strings.Join(got, ",") != "Job a,Job c" {
		t.Errorf("Cobb County shows %v", got)
	}
	_, pg, _ = s.Load(ctx, "/service-areas/henry")
	if sec := pg.Data.(CountyData).RecentWork; sec != nil {
		t.Errorf("Henry County shows %v", titles(sec))
	}
	_, pg, _ = s.Load(ctx, "/services/water-damage-restoration")
	if got := titles(pg.Data.(ServiceData).RecentWork); strings.Join(got, ",") != "Job a,Job b" {
		t.Errorf("water damage shows %v (a service by id and by slug)", got)
	}
	_, pg, _ = s.Load(ctx, "/services/roof-repair")
	if sec := pg.Data.(ServiceData).RecentWork; sec != nil {
		t.Errorf("roof repair shows %v", titles(sec))
	}
}

// A job whose city is gone, or a store that fails, shows nothing and
// breaks no page.
func TestJobsThatCannotShow(t *testing.T) {
	s, f := jobsSite(t, pagedJob("gone", "cobb/nowhere", "water-damage", "2026-09", 33.95, -84.55, t0))
	if sec := cityWork(t, s, "/areas/cobb/marietta"); sec != nil {
		t.Errorf("a job of a city that is gone shows: %v", titles(sec))
	}
	f.err = errors.New("database on fire")
	f.jobs = []db.PublishedJob{pagedJob("x", "cobb/marietta", "water-damage", "2026-09", 33.95, -84.55, t0)}
	if sec := cityWork(t, s, "/areas/cobb/marietta"); sec != nil {
		t.Errorf("a failed read shows %v", titles(sec))
	}
}

// A snapshot reads the jobs once, whatever number of pages it builds.
func TestJobsReadOncePerSnapshot(t *testing.T) {
	s, _ := jobsSite(t, pagedJob("x", "cobb/marietta", "water-damage", "2026-09", 33.95, -84.55, t0))
	n := 0
	s.jobs = countingJobs{f: s.jobs, n: &n}
	v := s.Snapshot()
	for _, p := range []string{"/areas/cobb/marietta", "/areas/cobb/smyrna", "/service-areas/cobb", "/portfolio"} {
		if _, _, err := v.Load(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if n != 1 {
		t.Errorf("%d reads for one snapshot", n)
	}
}

type countingJobs struct {
	f JobSource
	n *int
}

func (c countingJobs) PublishedJobs(ctx context.Context) ([]db.PublishedJob, error) {
	*c.n++
	return c.f.PublishedJobs(ctx)
}

type fakeTestimonials []db.Testimonial

func (f fakeTestimonials) PublicTestimonials(context.Context) ([]db.Testimonial, error) {
	return f, nil
}

// A job from a lead whose homeowner left an approved testimonial with
// consent shows it on the job's page; another lead's, or one without
// consent, does not; a job from no lead shows none.
func TestJobPageShowsItsHomeownersTestimonial(t *testing.T) {
	j := pagedJob("marietta-kitchen", "cobb/marietta", "water-damage", "2026-03", 33.96, -84.53, t0)
	j.LeadID = "lead-7"
	free := pagedJob("smyrna-roof", "cobb/smyrna", "water-damage", "2026-03", 33.88, -84.51, t0)
	s, _ := jobsSite(t, j, free)
	s.testimonials = fakeTestimonials{
		{ID: "t1", LeadID: "lead-7", FirstName: "Dana", City: "marietta", Body: "Dry in two days.", Consent: true, State: db.TestimonialApproved},
		{ID: "t2", LeadID: "lead-8", FirstName: "Lee", City: "Marietta", Body: "Another job.", Consent: true, State: db.TestimonialApproved},
		{ID: "t3", LeadID: "lead-7", FirstName: "Dana", City: "Marietta", Body: "Not for the site.", Consent: false, State: db.TestimonialApproved},
	}
	_, pg, err := s.Load(context.Background(), "/portfolio/marietta-kitchen")
	if err != nil {
		t.Fatal(err)
	}
	q := pg.Data.(JobData).Quotes
	if len(q) != 1 || q[0].Text != "Dry in two days." || q[0].FirstName != "Dana" || q[0].City != "Marietta" {
		t.Errorf("quotes %+v", q)
	}
	_, pg, err = s.Load(context.Background(), "/portfolio/smyrna-roof")
	if err != nil {
		t.Fatal(err)
	}
	if q := pg.Data.(JobData).Quotes; q == nil || len(q) != 0 {
		t.Errorf("a job from no lead shows %+v", q)
	}
}
