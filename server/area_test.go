package server

import (
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/site"
)

// areaPaths are the concrete paths of the area routes.
func areaTestPaths(t *testing.T, srv *Server) []string {
	t.Helper()
	var out []string
	for _, r := range srv.site.Routes() {
		switch r.Page {
		case "city-profile", "service-areas", "county", "city":
			out = append(out, r.Paths(srv.site.Content())...)
		}
	}
	return out
}

func areaHrefs(n *html.Node) map[string]bool {
	out := map[string]bool{}
	for _, a := range find(n, tag("a")) {
		out[attr(a, "href")] = true
	}
	return out
}

func areaMain(t *testing.T, doc *html.Node) *html.Node {
	t.Helper()
	m := find(doc, tag("main"))
	if len(m) != 1 {
		t.Fatalf("%d <main>", len(m))
	}
	return m[0]
}

func areaByClass(n *html.Node, el, class string) []*html.Node {
	return find(n, func(x *html.Node) bool {
		if x.Data != el {
			return false
		}
		for _, c := range strings.Fields(attr(x, "class")) {
			if c == class {
				return true
			}
		}
		return false
	})
}

func areaFAQQuestions(n *html.Node) []string {
	var out []string
	for _, d := range areaByClass(n, "details", "faq__item") {
		out = append(out, text(areaByClass(d, "summary", "faq__q")[0]))
	}
	return out
}

func areaFAQAnswers(n *html.Node) []string {
	var out []string
	for _, d := range areaByClass(n, "details", "faq__item") {
		out = append(out, text(areaByClass(d, "div", "faq__a")[0]))
	}
	return out
}

func TestAreaProfileKeysMatchContent(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	var want []string
	for k := range srv.site.Content().CityProfiles {
		want = append(want, k)
	}
	got := append([]string(nil), site.CityProfileKeys()...)
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("profile routes %v, content profiles %v", got, want)
	}
}

func TestAreaPathsExpand(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	paths := areaTestPaths(t, srv)
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			t.Errorf("path %s listed twice", p)
		}
		seen[p] = true
	}
	// 1 listing + 11 counties + 78 city records - 3 replaced by fixed pages + 4 fixed pages.
	if len(paths) != 1+11+78-3+4 {
		t.Errorf("%d area paths, want 91", len(paths))
	}
	for _, p := range []string{"/service-areas", "/service-areas/fulton", "/service-areas/rockdale", "/areas/fulton/roswell",
		"/areas/fulton/atlanta", "/areas/fulton/atlanta-service", "/areas/douglas/douglasville", "/areas/cobb/marietta", "/areas/gwinnett/lawrenceville"} {
		if !seen[p] {
			t.Errorf("%s not expanded", p)
		}
	}
	// The fixed city pages are served by the city-profile kind.
	for _, k := range site.CityProfileKeys() {
		r, _, ok := srv.site.Lookup("/areas/" + k)
		if !ok || r.Page != "city-profile" || r.Priority != "high" {
			t.Errorf("/areas/%s: route %+v", k, r)
		}
	}
	if r, _, _ := srv.site.Lookup("/areas/fulton/roswell"); r.Page != "city" || r.Priority != "medium" {
		t.Errorf("generic city route: %+v", r)
	}
	if r, _, _ := srv.site.Lookup("/service-areas"); r.Page != "service-areas" || r.Priority != "high" {
		t.Errorf("service areas route: %+v", r)
	}
	if r, _, _ := srv.site.Lookup("/service-areas/cobb"); r.Page != "county" || r.Priority != "medium" {
		t.Errorf("county route: %+v", r)
	}
}

// areaArrivalRE finds time claims in visible text.
var areaArrivalRE = regexp.MustCompile(`(?i)\b\d+(?:\s*-\s*\d+)?\s*(?:min\b|mins\b|minutes?\b|hours?\b)`)

func TestAreaEveryPage(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	titles, descs := map[string]string{}, map[string]string{}
	for _, p := range areaTestPaths(t, srv) {
		r := get(t, h, p)
		if r.StatusCode != 200 {
			t.Errorf("%s: status %d", p, r.StatusCode)
			continue
		}
		if n := len(find(r.Doc, tag("h1"))); n != 1 {
			t.Errorf("%s: %d h1", p, n)
		}
		head := headOf(r.Doc)
		canon := find(head, func(n *html.Node) bool { return n.Data == "link" && attr(n, "rel") == "canonical" })
		if len(canon) != 1 || attr(canon[0], "href") != testBase+p {
			t.Errorf("%s: canonical not absolute self", p)
		}
		title := text(find(head, tag("title"))[0])
		if title == "" || len([]rune(title)) > 60 {
			t.Errorf("%s: title %q (%d chars)", p, title, len([]rune(title)))
		}
		var desc string
		for _, m := range find(head, tag("meta")) {
			if attr(m, "name") == "description" {
				desc = attr(m, "content")
			}
		}
		if n := len([]rune(desc)); n < 50 || n > 160 {
			t.Errorf("%s: description is %d chars", p, n)
		}
		if o, dup := titles[title]; dup {
			t.Errorf("%s and %s share the title %q", o, p, title)
		}
		if o, dup := descs[desc]; dup {
			t.Errorf("%s and %s share the description", o, p)
		}
		titles[title], descs[desc] = p, p
		types := ldTypes(jsonLDBlocks(t, r.Doc))
		for _, want := range []string{"LocalBusiness", "Organization", "WebSite", "BreadcrumbList"} {
			if !types[want] {
				t.Errorf("%s: JSON-LD lacks %s", p, want)
			}
		}
		isCounty := strings.HasPrefix(p, "/service-areas/")
		isCity := strings.HasPrefix(p, "/areas/")
		if (isCounty || isCity) && !types["Service"] {
			t.Errorf("%s: JSON-LD lacks Service", p)
		}
		if isCity && !types["FAQPage"] {
			t.Errorf("%s: JSON-LD lacks FAQPage", p)
		}
		// Breadcrumbs: visible trail starts with Home and Service Areas.
		bc := find(r.Doc, func(n *html.Node) bool { return n.Data == "nav" && attr(n, "aria-label") == "Breadcrumb" })
		if len(bc) != 1 || !strings.HasPrefix(text(bc[0]), "Home Service Areas") {
			t.Errorf("%s: breadcrumbs missing", p)
		}
		main := areaMain(t, r.Doc)
		// Arrival claims: 15-60 minutes everywhere, except the stat card's
		// emergency response time (60 minutes; ADR 045).
		for _, m := range areaArrivalRE.FindAllString(text(main), -1) {
			if m != "15-60 minutes" && m != "60 minutes" && m != "24 hours" {
				t.Errorf("%s: time claim %q", p, m)
			}
		}
		if !strings.Contains(r.Body, `href="tel:+17705550134"`) {
			t.Errorf("%s: no call link", p)
		}
		for _, img := range find(main, tag("img")) {
			if attr(img, "loading") != "lazy" || attr(img, "width") == "" {
				t.Errorf("%s: image without lazy/width", p)
			}
		}
		if isCity {
			if !strings.Contains(text(main), "Related Services & Areas") {
				t.Errorf("%s: related grid (b) missing", p)
			}
			for _, a := range find(areaByClass(main, "ul", "cards--4")[len(areaByClass(main, "ul", "cards--4"))-1], tag("a")) {
				if attr(a, "href") == p {
					t.Errorf("%s: related grid links the current page", p)
				}
			}
		}
	}
}

func TestAreaServiceAreasPage(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	r := get(t, srv.Handler(), "/service-areas")
	main := areaMain(t, r.Doc)
	cards := areaByClass(main, "li", "area-county")
	if len(cards) != 11 {
		t.Fatalf("%d county cards, want 11", len(cards))
	}
	for i, co := range srv.site.Content().Counties {
		card := cards[i]
		cities := srv.site.Content().CitiesOf(co.Slug)
		txt := text(card)
		if !strings.Contains(txt, co.Name+" County") {
			t.Errorf("card %d lacks %s County", i, co.Name)
		}
		count := len(cities)
		if !strings.Contains(txt, strconv.Itoa(count)+" cities") {
			t.Errorf("%s: city count %d not shown: %s", co.Slug, count, txt)
		}
		var links []string
		for _, a := range find(card, tag("a")) {
			if strings.HasPrefix(attr(a, "href"), "/areas/") {
				links = append(links, attr(a, "href"))
			}
		}
		want := []string{}
		for j, c := range cities {
			if j == 5 {
				break
			}
			want = append(want, "/areas/"+co.Slug+"/"+c.Slug)
		}
		if strings.Join(links, " ") != strings.Join(want, " ") {
			t.Errorf("%s: city links %v, want %v", co.Slug, links, want)
		}
		more := "+ " + strconv.Itoa(count-5) + " more cities"
		if count-5 == 1 {
			more = "+ 1 more city" // spec's '+ N more cities', singular for one
		}
		if count > 5 != strings.Contains(txt, more) || (count <= 5 && strings.Contains(txt, "more cit")) {
			t.Errorf("%s: '%s' shown wrongly: %s", co.Slug, more, txt)
		}
		if !areaHrefs(card)["/service-areas/"+co.Slug] {
			t.Errorf("%s: no link to the county page", co.Slug)
		}
	}
	if !strings.Contains(text(main), "+ 10 more cities") {
		t.Error("Fulton lacks '+ 10 more cities'")
	}
	if len(areaByClass(main, "section", "emergency-banner")) != 1 {
		t.Error("no emergency call banner")
	}
}

func TestAreaCountyPages(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	for _, co := range srv.site.Content().Counties {
		p := "/service-areas/" + co.Slug
		r := get(t, h, p)
		main := areaMain(t, r.Doc)
		txt := text(main)
		links := areaHrefs(main)
		// Cities as cards.
		cards := areaByClass(main, "li", "area-city-card")
		cities := srv.site.Content().CitiesOf(co.Slug)
		if len(cards) != len(cities) {
			t.Errorf("%s: %d city cards, want %d", co.Slug, len(cards), len(cities))
		}
		for _, c := range cities {
			if !links["/areas/"+co.Slug+"/"+c.Slug] {
				t.Errorf("%s: no link to %s", co.Slug, c.Slug)
			}
		}
		// Three service cards and the emergency call to action.
		for _, s := range []string{"/services/water-damage-restoration", "/services/fire-damage-restoration", "/services/emergency-cleanup", "/contact"} {
			if !links[s] {
				t.Errorf("%s: no link to %s", co.Slug, s)
			}
		}
		if n := len(areaByClass(main, "li", "area-service")); n != 3 {
			t.Errorf("%s: %d service cards, want 3", co.Slug, n)
		}
		for _, w := range []string{"Water Damage Restoration", "Fire Damage Restoration", "Emergency Services", "Emergency in " + co.Name + " County?"} {
			if !strings.Contains(txt, w) {
				t.Errorf("%s: lacks %q", co.Slug, w)
			}
		}
		title := text(find(headOf(r.Doc), tag("title"))[0])
		if title != co.SEOTitle {
			t.Errorf("%s: title %q, want the record's %q", co.Slug, title, co.SEOTitle)
		}
		types := ldTypes(jsonLDBlocks(t, r.Doc))
		if co.Profile == nil {
			if types["FAQPage"] || strings.Contains(txt, "Population") {
				t.Errorf("%s: profile blocks on a county without a profile", co.Slug)
			}
			continue
		}
		pr := co.Profile
		for _, w := range []string{pr.Population, "Population", "Cities Served", strconv.Itoa(len(cities)), "Common Damage in " + co.Name + " County"} {
			if !strings.Contains(txt, w) {
				t.Errorf("%s: lacks %q", co.Slug, w)
			}
		}
		for _, d := range pr.CommonDamage {
			if !strings.Contains(txt, d) {
				t.Errorf("%s: lacks damage %q", co.Slug, d)
			}
		}
		for _, rs := range pr.Reasons {
			if !strings.Contains(txt, rs.Title) || !strings.Contains(txt, rs.Text) {
				t.Errorf("%s: lacks reason %q", co.Slug, rs.Title)
			}
		}
		for _, s := range []string{"/services/water-damage-restoration", "/services/fire-damage-restoration", "/services/storm-damage-repair", "/services/mold-remediation"} {
			if len(find(areaByClass(main, "nav", "area-four")[0], func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == s })) != 1 {
				t.Errorf("%s: four services lack %s", co.Slug, s)
			}
		}
		if !types["FAQPage"] {
			t.Errorf("%s: no FAQPage", co.Slug)
		}
		if qs := areaFAQQuestions(main); len(qs) != 5 {
			t.Errorf("%s: %d FAQ questions, want 5", co.Slug, len(qs))
		}
		answers := strings.Join(areaFAQAnswers(main), "\n")
		if !strings.Contains(answers, "15-60 minutes") {
			t.Errorf("%s: FAQ lacks 15-60 minutes", co.Slug)
		}
		if want := site.MajorCitiesText(pr.MajorCities); !strings.Contains(answers, want) {
			t.Errorf("%s: FAQ lacks major cities %q", co.Slug, want)
		}
	}
	// The spec's example and a county with five or fewer major cities.
	r := get(t, h, "/service-areas/fulton")
	if !strings.Contains(text(r.Doc), "Atlanta, Sandy Springs, Roswell, Alpharetta and Johns Creek, plus 3 more cities") {
		t.Error("Fulton FAQ lacks the first 5 major cities and the count beyond")
	}
	if !strings.Contains(text(r.Doc), "1.1 million") {
		t.Error("Fulton population missing")
	}
	r = get(t, h, "/service-areas/douglas")
	if !strings.Contains(text(r.Doc), "Douglasville, Lithia Springs, Villa Rica and Winston.") {
		t.Error("Douglas FAQ city list wrong")
	}
}

func TestAreaCityPage(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"LEAD_FORM_URL": "https://forms.crm.test/widget/form/abc"})
	h := srv.Handler()
	r := get(t, h, "/areas/fulton/roswell")
	if r.StatusCode != 200 {
		t.Fatalf("status %d", r.StatusCode)
	}
	ci, _ := srv.site.Content().City("fulton", "roswell")
	main := areaMain(t, r.Doc)
	txt := text(main)
	if h1 := text(find(r.Doc, tag("h1"))[0]); h1 != "Water Damage Restoration in Roswell, GA" {
		t.Errorf("h1 %q", h1)
	}
	for _, w := range []string{ci.Intro, ci.Description, "Water, Fire or Storm Emergency in Roswell?",
		"60 minutes", "Response", "Licensed", "Direct", "Insurance Billing", "Why Roswell Chooses Us", "Nearby Areas We Serve",
		"Get Free Estimate", "Roswell Restoration FAQ", "Related Services & Areas"} {
		if !strings.Contains(txt, w) {
			t.Errorf("lacks %q", w)
		}
	}
	if n := len(areaByClass(main, "li", "area-statcard")); n != 3 {
		t.Errorf("%d stat cards, want 3", n)
	}
	services := areaByClass(main, "li", "area-service")
	if len(services) != 6 {
		t.Errorf("%d services, want 6", len(services))
	}
	icons := map[string]bool{}
	for _, s := range services {
		svg := find(s, tag("svg"))
		if len(svg) == 0 {
			t.Error("service without icon")
			continue
		}
		var paths []string
		for _, p := range find(svg[0], tag("path")) {
			paths = append(paths, attr(p, "d"))
		}
		icons[strings.Join(paths, "|")] = true
	}
	if len(icons) != 6 {
		t.Errorf("%d distinct service icons, want one per service", len(icons))
	}
	if n := len(areaByClass(main, "li", "area-reason")); n != 3 {
		t.Errorf("%d reasons, want 3", n)
	}
	links := areaHrefs(main)
	for _, n := range ci.Nearby {
		o, ok := srv.site.Content().City(ci.County, n)
		if !ok {
			o, _ = srv.site.Content().CityBySlug(n)
		}
		if !links["/areas/"+o.County+"/"+o.Slug] {
			t.Errorf("nearby %s not linked", n)
		}
	}
	// The banner's estimate button goes to this page's own form (ADR 050).
	if !links["#contact-form"] || !strings.Contains(r.Body, "height:900px") {
		t.Error("Get Free Estimate banner or 900 px lead form missing")
	}
	qs := areaFAQQuestions(main)
	if len(qs) != 6 {
		t.Fatalf("%d FAQ questions, want 6", len(qs))
	}
	answers := areaFAQAnswers(main)
	arrival, nearby := false, false
	for i, q := range qs {
		if strings.Contains(q, "arrive") {
			arrival = strings.Contains(answers[i], "15-60 minutes")
		}
		if strings.Contains(q, "near") {
			nearby = strings.Contains(answers[i], "Alpharetta, Sandy Springs and Milton")
		}
	}
	if !arrival || !nearby {
		t.Errorf("arrival answer ok=%v, nearby answer lists the first 3 nearby areas ok=%v", arrival, nearby)
	}
	if title := text(find(headOf(r.Doc), tag("title"))[0]); title != ci.SEOTitle {
		t.Errorf("title %q, want %q", title, ci.SEOTitle)
	}
	// A nearby city in another county links to its own county's path.
	r = get(t, h, "/areas/douglas/villa-rica")
	if !areaHrefs(areaMain(t, r.Doc))["/areas/paulding/dallas"] {
		t.Error("villa-rica: nearby Dallas not linked to /areas/paulding/dallas")
	}
}

func TestAreaCityProfilePages(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	for _, key := range site.CityProfileKeys() {
		pr := srv.site.Content().CityProfiles[key]
		p := "/areas/" + key
		r := get(t, h, p)
		if r.StatusCode != 200 {
			t.Errorf("%s: %d", p, r.StatusCode)
			continue
		}
		main := areaMain(t, r.Doc)
		txt := text(main)
		if !strings.Contains(txt, "24/7 Emergency Service in "+pr.CityName) {
			t.Errorf("%s: emergency badge missing", p)
		}
		for _, group := range [][]string{pr.Neighborhoods, pr.Landmarks, pr.ZipCodes} {
			for _, w := range group {
				if !strings.Contains(txt, w) {
					t.Errorf("%s: lacks %q", p, w)
				}
			}
		}
		links := areaHrefs(main)
		for _, s := range []string{"/services/water-damage-restoration", "/services/fire-damage-restoration", "/services/storm-damage-repair", "/services/mold-remediation"} {
			if !links[s] {
				t.Errorf("%s: no link to %s", p, s)
			}
		}
		if n := len(areaByClass(main, "li", "area-service")); n != 4 {
			t.Errorf("%s: %d services, want 4", p, n)
		}
		hero := areaByClass(main, "section", "page-hero")
		if len(hero) != 1 || !areaHrefs(hero[0])["tel:+17705550134"] {
			t.Errorf("%s: hero lacks its call link", p)
		}
		for _, rs := range pr.Reasons {
			if !strings.Contains(txt, rs.Title) {
				t.Errorf("%s: lacks reason %q", p, rs.Title)
			}
		}
		qs := areaFAQQuestions(main)
		if len(qs) != 5 {
			t.Errorf("%s: %d FAQ questions, want 5", p, len(qs))
		}
		for i, f := range pr.FAQs {
			if i < len(qs) && qs[i] != f.Question {
				t.Errorf("%s: FAQ %d is %q, want %q", p, i, qs[i], f.Question)
			}
		}
		if title := text(find(headOf(r.Doc), tag("title"))[0]); title != pr.SEOTitle {
			t.Errorf("%s: title %q, want the profile's %q", p, title, pr.SEOTitle)
		}
	}
}

func TestAreaNotFound(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	check := func(path, h1, msg string) {
		t.Helper()
		r := get(t, h, path)
		if r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, r.StatusCode)
			return
		}
		hs := find(r.Doc, tag("h1"))
		if len(hs) != 1 || text(hs[0]) != h1 {
			t.Errorf("%s: h1 %v, want %q", path, hs, h1)
		}
		if msg != "" && !strings.Contains(text(bodyOf(r.Doc)), msg) {
			t.Errorf("%s: lacks %q", path, msg)
		}
		back := false
		for _, a := range find(areaMain(t, r.Doc), tag("a")) {
			back = back || (attr(a, "href") == "/service-areas" && text(a) == "Back to Service Areas")
		}
		if !back {
			t.Errorf("%s: no 'Back to Service Areas' link", path)
		}
		robots := find(headOf(r.Doc), func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "robots" })
		if len(robots) != 1 || !strings.Contains(attr(robots[0], "content"), "noindex") {
			t.Errorf("%s: not noindex", path)
		}
	}
	check("/service-areas/atlantis", "County Not Found", "We couldn't find any cities for Atlantis County.")
	check("/service-areas/forsyth", "County Not Found", "We couldn't find any cities for Forsyth County.")
	check("/areas/cobb/roswell", "City not found", "")
	check("/areas/fulton/nowhere", "City not found", "")
	check("/areas/atlantis/roswell", "City not found", "")
	check("/areas/cobb/atlanta-service", "City not found", "")

	r := get(t, h, "/service-areas/")
	if r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/service-areas" {
		t.Errorf("/service-areas/: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
}
