package seoaudit

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// template is a city page's template: the same sentences on every page,
// the city's name swapped in.
func template(city string) string {
	return fmt.Sprintf("Water damage restoration in %[1]s, GA. Our crews work across the county every day, so help reaches %[1]s fast, day or night. "+
		"We document every room with photos and moisture readings, work with your adjuster and bill your insurance company directly. "+
		"How quickly can your crew arrive in %[1]s? For emergencies our crews typically arrive within the hour, depending on traffic and weather.", city)
}

// paragraphs are texts no other page has.
var paragraphs = map[string]string{
	"Smyrna": "Much of Smyrna's housing went up in the postwar decades, and many brick ranches still have galvanized supply lines that corrode from the inside. " +
		"Nickajack Creek runs along the western side of the city and collects heavy runoff during summer storms, flooding basements near Market Village. " +
		"Around Atlanta Road, newer townhomes share walls, so a failed washer hose in one unit often reaches the neighbor below.",
	"Vinings": "Vinings sits on the hills above the Chattahoochee, where old oaks drop limbs on slate roofs in every thunderstorm. " +
		"Its cottages from the railroad era have crawlspaces that stay damp for weeks after a heavy rain, and mold follows. " +
		"Condominium towers along Paces Ferry Road see sprinkler heads freeze and burst in the rare hard January cold snap.",
}

func TestUniqueSharesIdenticalAndDistinct(t *testing.T) {
	same := template("Smyrna") + " " + paragraphs["Smyrna"]
	u := UniqueShares([]PageText{{Text: same, City: "Smyrna"}, {Text: same, City: "Smyrna"}})
	for i, x := range u {
		if x.Share != 0 || x.Unique != 0 || x.Shingles == 0 {
			t.Errorf("identical page %d: %+v, want 0%% unique", i, x)
		}
	}
	u = UniqueShares([]PageText{{Text: paragraphs["Smyrna"], City: "Smyrna"}, {Text: paragraphs["Vinings"], City: "Vinings"}})
	for i, x := range u {
		if x.Share < 95 {
			t.Errorf("distinct page %d: %+v, want about 100%% unique", i, x)
		}
	}
}

// Pages that differ only by their city's name are the same text.
func TestUniqueSharesNameSwapIsNotUnique(t *testing.T) {
	u := UniqueShares([]PageText{
		{Text: template("Smyrna"), City: "Smyrna", County: "Cobb"},
		{Text: template("Sandy Springs"), City: "Sandy Springs", County: "Fulton"},
		{Text: template("Peachtree City"), City: "Peachtree City", County: "Fayette"},
	})
	for i, x := range u {
		if x.Share != 0 {
			t.Errorf("page %d: %+v, want 0%%: only the name differs", i, x)
		}
	}
}

// The template plus a paragraph of the page's own is in between, and
// more of its own text raises the share.
func TestUniqueSharesTemplatePlusParagraph(t *testing.T) {
	pages := []PageText{
		{Text: template("Smyrna") + " " + paragraphs["Smyrna"], City: "Smyrna"},
		{Text: template("Vinings"), City: "Vinings"},
		{Text: template("Marietta"), City: "Marietta"},
	}
	u := UniqueShares(pages)
	if u[0].Share <= 20 || u[0].Share >= 80 {
		t.Errorf("template + one paragraph: %+v, want in between", u[0])
	}
	if u[1].Share != 0 || u[2].Share != 0 {
		t.Errorf("template only: %+v %+v", u[1], u[2])
	}
	pages[1].Text += " " + paragraphs["Vinings"] + " " + paragraphs["Vinings"]
	if got := UniqueShares(pages)[1]; got.Share <= u[0].Share-10 || got.Share == 0 {
		t.Errorf("template + its own text: %+v", got)
	}
	// Too short for one shingle: nothing of its own.
	if got := UniqueShares([]PageText{{Text: "Call us now"}})[0]; got.Shingles != 0 || got.Share != 0 || got.Words != 3 {
		t.Errorf("short page: %+v", got)
	}
}

// The main text is what <main> says, without forms, navigation, side
// notes, hidden and shared blocks; the header and footer are outside it.
func TestMainText(t *testing.T) {
	page := `<html><body><header>Menu Home Services</header><main>
		<nav aria-label="Breadcrumb">Home Service Areas</nav>
		<h1>Water Damage in Smyrna</h1><p>Nickajack Creek floods.</p>
		<section data-shared=""><p>Get your free estimate</p></section>
		<form><label>Your name</label><input name="n"><button>Send</button></form>
		<aside>24/7 Emergency Service</aside>
		<p hidden>secret</p><span aria-hidden="true">icon</span><svg><text>logo</text></svg>
		<script>var x = 1</script>
		<ul><li>Vinings</li><li>Mableton</li></ul>
	</main><footer>Copyright</footer></body></html>`
	got, err := MainText([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Water Damage in Smyrna Nickajack Creek floods. Vinings Mableton"; got != want {
		t.Errorf("main text %q, want %q", got, want)
	}
	got, _ = MainText([]byte(`<html><body><p>No main element here.</p></body></html>`))
	if got != "No main element here." {
		t.Errorf("without <main>: %q", got)
	}
}

// fetchOf serves pages from a map, as the site's own handler would.
func fetchOf(pages map[string]string) Fetch {
	return func(_ context.Context, path string) (int, []byte, error) {
		b, ok := pages[path]
		if !ok {
			return http.StatusNotFound, []byte("not found"), nil
		}
		return http.StatusOK, []byte("<html><body><main>" + b + "</main></body></html>"), nil
	}
}

type counts map[string]int

func (c counts) Count(context.Context, []CityPage) (map[string]int, error) { return c, nil }

// nearCounts are counts of jobs within a distance.
type nearCounts struct {
	counts
	km float64
}

func (n nearCounts) WithinKm() float64 { return n.km }

func TestThinAuditVerdicts(t *testing.T) {
	pages := []CityPage{
		{Path: "/areas/cobb/smyrna", City: "Smyrna", County: "Cobb", TextField: "description", OwnWords: 80},
		{Path: "/areas/cobb/vinings", City: "Vinings", County: "Cobb", TextField: "description", OwnWords: 10},
		{Path: "/areas/cobb/austell", City: "Austell", County: "Cobb", TextField: "description", NoIndex: true},
		{Path: "/areas/cobb/mableton", City: "Mableton", County: "Cobb", TextField: "description"},
		{Path: "/areas/cobb/marietta", City: "Marietta", County: "Cobb", TextField: "intro", Profile: true},
		{Path: "/areas/cobb/gone", City: "Gone", County: "Cobb", TextField: "description"},
	}
	html := map[string]string{
		"/areas/cobb/smyrna":   "<p>" + template("Smyrna") + "</p><p>" + paragraphs["Smyrna"] + " " + paragraphs["Smyrna"] + "</p>",
		"/areas/cobb/vinings":  "<p>" + template("Vinings") + "</p>",
		"/areas/cobb/austell":  "<p>" + template("Austell") + "</p>",
		"/areas/cobb/mableton": "<p>" + template("Mableton") + "</p>",
		"/areas/cobb/marietta": "<p>" + template("Marietta") + "</p>",
	}
	// Without proof sources: no job or testimonial figure, no such fix.
	a := ThinAudit{Fetch: fetchOf(html)}
	r, err := a.Run(context.Background(), pages)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Pages) != len(pages) || r.JobsCounted || r.TestimonialsCounted || !strings.Contains(r.Rule, "40%") {
		t.Fatalf("report %+v", r)
	}
	by := map[string]ThinPage{}
	for _, p := range r.Pages {
		by[p.Path] = p
	}
	if p := by["/areas/cobb/smyrna"]; p.Thin || p.UniqueShare < ThinUniqueBelow || p.OwnWords != 80 || p.Words == 0 || len(p.Fixes) != 0 {
		t.Errorf("smyrna, with its own text: %+v", p)
	}
	v := by["/areas/cobb/vinings"]
	if v.Why != "Only 0% of its text is its own." {
		t.Errorf("vinings' why, no proof counted: %q", v.Why)
	}
	if !v.Thin || v.UniqueShare != 0 || len(v.Fixes) != 2 || v.Fixes[0].Field != "description" || !strings.Contains(v.Fixes[0].Text, "about Vinings that no other page has") ||
		v.Fixes[1].Field != NoIndexField {
		t.Errorf("vinings, the template only: %+v", v)
	}
	for _, f := range v.Fixes {
		if strings.Contains(f.Text, "job") || strings.Contains(f.Text, "testimonial") {
			t.Errorf("a fix names proof this server does not count: %q", f.Text)
		}
	}
	if p := by["/areas/cobb/austell"]; !p.Thin || !p.NoIndex || len(p.Fixes) != 1 {
		t.Errorf("austell, hidden already: %+v", p)
	}
	if p := by["/areas/cobb/marietta"]; p.Thin || !strings.Contains(p.Why, "fixed city page") {
		t.Errorf("marietta, a fixed city page: %+v", p)
	}
	if p := by["/areas/cobb/gone"]; p.Error == "" || p.Thin {
		t.Errorf("a page that does not answer: %+v", p)
	}
	if r.Thin != 3 {
		t.Errorf("%d thin, want 3", r.Thin)
	}
	// Order: unreadable, thin and listed, thin and hidden, the rest.
	order := []string{}
	for _, p := range r.Pages {
		order = append(order, p.Path[len("/areas/cobb/"):])
	}
	if got := strings.Join(order, " "); got != "gone vinings mableton austell marietta smyrna" && got != "gone mableton vinings austell marietta smyrna" {
		t.Errorf("order %s", got)
	}

	// With both sources: a job nearby or a testimonial is local proof;
	// the fixes name both.
	a.Proof = LocalProof{Jobs: nearCounts{counts{"/areas/cobb/mableton": 2}, 16.1}, Testimonials: counts{"/areas/cobb/austell": 1}}
	r, err = a.Run(context.Background(), pages)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Pages {
		by[p.Path] = p
	}
	if !r.JobsCounted || !r.TestimonialsCounted || r.Thin != 1 {
		t.Errorf("with proof: %d thin, %+v", r.Thin, r)
	}
	if p := by["/areas/cobb/mableton"]; p.Thin || p.Jobs != 2 || !strings.Contains(p.Why, "2 published jobs are nearby") {
		t.Errorf("mableton with jobs: %+v", p)
	}
	if p := by["/areas/cobb/austell"]; p.Thin || p.Testimonials != 1 {
		t.Errorf("austell with a testimonial: %+v", p)
	}
	if why := by["/areas/cobb/vinings"].Why; why != "Only 0% of its text is its own, and no published job is near Vinings and no Vinings customer's testimonial is approved." {
		t.Errorf("vinings' why: %q", why)
	}
	fixes := []string{}
	for _, f := range by["/areas/cobb/vinings"].Fixes {
		fixes = append(fixes, f.Text)
	}
	all := strings.Join(fixes, " | ")
	if !strings.Contains(all, "Publish a job from Vinings or from within 10 miles of it.") || !strings.Contains(all, "Ask a Vinings customer for a testimonial.") {
		t.Errorf("vinings' fixes with proof counted: %s", all)
	}
}

func TestNearbyJobsCountsWithinTheDistance(t *testing.T) {
	// Smyrna, and jobs in Smyrna, Marietta (about 8 km) and Douglasville
	// (about 27 km), and one with no position of its own in Austell.
	n := NearbyJobs{Km: 15, List: func(context.Context) ([]Place, error) {
		return []Place{{"cobb/smyrna", 33.88, -84.51, true}, {"cobb/marietta", 33.95, -84.55, true}, {"douglas/douglasville", 33.75, -84.75, true}, {CityKey: "cobb/austell"}}, nil
	}}
	got, err := n.Count(context.Background(), []CityPage{
		{Path: "/smyrna", CityKey: "cobb/smyrna", Lat: 33.8839, Lng: -84.5144, Located: true},
		{Path: "/douglasville", CityKey: "douglas/douglasville", Lat: 33.7515, Lng: -84.7477, Located: true},
		{Path: "/austell", CityKey: "cobb/austell", Lat: 33.8126, Lng: -84.6344, Located: true},
		{Path: "/nowhere"},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Austell: the Smyrna and Douglasville jobs (about 13 km each), and its own job with no position.
	if got["/smyrna"] != 2 || got["/douglasville"] != 1 || got["/austell"] != 3 || got["/nowhere"] != 0 {
		t.Errorf("counts %v", got)
	}
}

func TestCityTestimonialsCountByName(t *testing.T) {
	c := CityTestimonials{List: func(context.Context) ([]string, error) { return []string{"Smyrna", " smyrna ", "Marietta"}, nil }}
	got, err := c.Count(context.Background(), []CityPage{{Path: "/s", City: "Smyrna"}, {Path: "/m", City: "Marietta"}, {Path: "/v", City: "Vinings"}})
	if err != nil {
		t.Fatal(err)
	}
	if got["/s"] != 2 || got["/m"] != 1 || got["/v"] != 0 {
		t.Errorf("counts %v", got)
	}
}
