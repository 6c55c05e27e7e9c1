package audits

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/seoaudit"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// cityHTML stands in for the render of a city page: the city's own texts
// inside the template every city page shares, in <main>, after a header
// and before a footer that are on every page.
func cityHTML(c *content.Set, path string) ([]byte, bool) {
	segs := strings.Split(strings.TrimPrefix(path, "/areas/"), "/")
	var name, own string
	if pr, ok := c.CityProfiles[segs[0]+"/"+segs[1]]; ok {
		name, own = pr.CityName, pr.Intro+" "+strings.Join(pr.Neighborhoods, " ")+" "+strings.Join(pr.Landmarks, " ")
		for _, f := range pr.FAQs {
			own += " " + f.Question + " " + f.Answer
		}
	} else if ci, ok := c.City(segs[0], segs[1]); ok {
		name, own = ci.City, ci.Intro+" "+ci.Description
	} else {
		return nil, false
	}
	return []byte("<html><body><header>Home Services Service Areas Blog Contact</header><main><h1>Water Damage Restoration in " + name + ", GA</h1><p>" + own + "</p>" +
		"<p>Our crews work across the county every day, so help reaches " + name + " fast, day or night. For emergencies we typically arrive within the hour.</p>" +
		"<p>We document every room with photos and moisture readings, work with your adjuster and bill your insurance company directly. Daily job photos keep you informed.</p>" +
		strings.ReplaceAll(faqs, "{city}", name) +
		"</main><footer>Licensed and insured general contractor</footer></body></html>"), true
}

// faqs are the template's questions, the city's name swapped in.
const faqs = "<h2>{city} Restoration FAQ</h2><h3>How quickly can your crew arrive in {city}?</h3><p>For emergencies, our crews typically arrive within the hour in {city}, depending on your exact location, traffic and weather. Our phone is answered day and night, including weekends and holidays.</p>" +
	"<h3>What types of damage do you repair in {city}?</h3><p>We handle water damage from burst pipes, leaks and flooding, fire and smoke damage, storm and fallen-tree damage, mold remediation, emergency cleanup and roof repair, and our licensed contractors complete the rebuild.</p>" +
	"<h3>Will you work with my insurance company?</h3><p>Yes. We document the loss with photos, moisture readings and a detailed scope, meet your adjuster and bill your insurance company directly, so you pay only your deductible and anything your policy does not cover.</p>" +
	"<h3>Do you offer free estimates in {city}?</h3><p>Yes. Estimates are always free. For emergencies we start mitigation right away and document everything for your claim; for repairs we give you a written estimate before work begins.</p>" +
	"<h3>Are your technicians licensed and certified?</h3><p>Yes. We are a state licensed and insured general contractor, and our technicians hold certifications for water, fire and mold restoration.</p>" +
	"<h2>Our Services in {city}</h2><p>Water extraction, structural drying and repairs after leaks, burst pipes and flooding. Board-up, soot and smoke cleanup, odor removal and complete rebuilding after house and kitchen fires. Emergency tarping, board-up and lasting repairs for homes hit by wind, hail and falling trees. Containment, mold removal and moisture correction for homes in the humid climate.</p>"

func thinRoom(t *testing.T, proof seoaudit.LocalProof) (*authtest.Room, *site.Site) {
	t.Helper()
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	ci, _ := c.City("cobb", "vinings")
	ci.NoIndex = true
	s := site.New(site.Options{BaseURL: "https://example.test", Content: c})
	h := &Handler{Site: s, Proof: proof,
		Fetch: func(_ context.Context, path string) (int, []byte, error) {
			if b, ok := cityHTML(s.Content(), path); ok {
				return http.StatusOK, b, nil
			}
			return http.StatusNotFound, nil, nil
		}}
	r := authtest.New()
	r.GET("/api/admin/seo-audit/thin-pages", h.ThinPages, r.As)
	return r, s
}

// Every city page of the route table is listed, once, with its figures,
// thin ones first; with no source of jobs or testimonials wired, neither
// is counted nor named in a fix.
func TestThinPagesListsEveryCityPage(t *testing.T) {
	r, s := thinRoom(t, seoaudit.LocalProof{})
	res := r.Call(t, "GET", "/api/admin/seo-audit/thin-pages", authtest.PIN, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", res.StatusCode, res.Body)
	}
	var rep seoaudit.ThinReport
	if err := json.Unmarshal([]byte(res.Body), &rep); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, ps := range s.CityPages() {
		for _, p := range ps {
			want[p] = true
		}
	}
	if len(want) < 70 || len(rep.Pages) != len(want) {
		t.Fatalf("%d pages listed, the route table has %d city pages", len(rep.Pages), len(want))
	}
	if rep.JobsCounted || rep.TestimonialsCounted || rep.Rule == "" {
		t.Errorf("report %+v", rep)
	}
	seenOK, thin := false, 0
	for _, p := range rep.Pages {
		if !want[p.Path] {
			t.Errorf("%s listed twice or not a city page", p.Path)
		}
		delete(want, p.Path)
		if p.Error != "" || p.Words == 0 || p.OwnWords == 0 || p.City == "" || p.County == "" || p.Why == "" {
			t.Errorf("%s: figures missing: %+v", p.Path, p)
		}
		if p.Thin {
			thin++
			if seenOK {
				t.Errorf("%s: a thin page after one that is not", p.Path)
			}
			if len(p.Fixes) == 0 || !strings.Contains(p.Fixes[0].Text, p.City) || p.Fixes[0].Field != "description" {
				t.Errorf("%s: fixes %+v", p.Path, p.Fixes)
			}
		} else {
			seenOK = true
		}
		if p.Jobs != 0 || p.Testimonials != 0 {
			t.Errorf("%s: counted proof no source gave", p.Path)
		}
		switch p.Path {
		case "/areas/cobb/marietta", "/areas/fulton/atlanta-service":
			if !p.Profile || p.Thin || p.UniqueShare < seoaudit.ThinUniqueBelow {
				t.Errorf("%s, a fixed city page: %+v", p.Path, p)
			}
		case "/areas/cobb/vinings":
			if !p.NoIndex {
				t.Errorf("vinings is hidden from search engines but listed as not: %+v", p)
			}
		}
	}
	if thin != rep.Thin || thin == 0 {
		t.Errorf("%d thin listed, report says %d", thin, rep.Thin)
	}
}

// A published job near Smyrna is local proof for Smyrna and its
// neighbours within the distance, read from the cities' positions, and
// for no city far away; the fixes then name jobs too.
func TestThinPagesCountsWiredProof(t *testing.T) {
	jobs := seoaudit.NearbyJobs{Km: 15, List: func(context.Context) ([]seoaudit.Place, error) {
		return []seoaudit.Place{{CityKey: "cobb/smyrna", Lat: 33.88, Lng: -84.51, Located: true}}, nil
	}}
	r, _ := thinRoom(t, seoaudit.LocalProof{Jobs: jobs})
	var rep seoaudit.ThinReport
	json.Unmarshal([]byte(r.Call(t, "GET", "/api/admin/seo-audit/thin-pages", authtest.PIN, nil).Body), &rep)
	if !rep.JobsCounted || rep.TestimonialsCounted || rep.JobsKm != 15 {
		t.Fatalf("report %+v", rep)
	}
	by := map[string]seoaudit.ThinPage{}
	for _, p := range rep.Pages {
		by[p.Path] = p
		if p.Thin && (len(p.Fixes) < 2 || !strings.Contains(p.Fixes[1].Text, "Publish a job from "+p.City)) {
			t.Errorf("%s: fixes %+v", p.Path, p.Fixes)
		}
	}
	for _, near := range []string{"/areas/cobb/smyrna", "/areas/cobb/vinings", "/areas/cobb/marietta"} {
		if p := by[near]; p.Jobs != 1 || p.Thin {
			t.Errorf("%s, near the job: %+v", near, p)
		}
	}
	for _, far := range []string{"/areas/douglas/douglasville", "/areas/gwinnett/lawrenceville", "/areas/henry/hampton"} {
		if p := by[far]; p.Jobs != 0 {
			t.Errorf("%s, far from the job: %+v", far, p)
		}
	}
}
