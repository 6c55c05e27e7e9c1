package server

import (
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// servicePaths are every concrete path of the service group.
func servicePaths(t *testing.T, srv *Server) []string {
	t.Helper()
	var out []string
	for _, r := range srv.site.Routes() {
		switch r.Page {
		case "services", "service", "water-landing":
			out = append(out, r.Paths(srv.site.Content())...)
		}
	}
	return out
}

func headMeta(doc *html.Node, name string) string {
	for _, n := range find(headOf(doc), func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == name }) {
		return attr(n, "content")
	}
	return ""
}

func canonicalOf(doc *html.Node) string {
	for _, n := range find(headOf(doc), func(n *html.Node) bool { return n.Data == "link" && attr(n, "rel") == "canonical" }) {
		return attr(n, "href")
	}
	return ""
}

func titleOf(doc *html.Node) string {
	ts := find(headOf(doc), tag("title"))
	if len(ts) == 0 {
		return ""
	}
	return text(ts[0])
}

// ldNodes returns every graph node (and top-level block) of the given type.
func ldNodes(blocks []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	is := func(m map[string]any) bool {
		switch v := m["@type"].(type) {
		case string:
			return v == typ
		case []any:
			for _, e := range v {
				if e == typ {
					return true
				}
			}
		}
		return false
	}
	for _, b := range blocks {
		if is(b) {
			out = append(out, b)
		}
		if g, ok := b["@graph"].([]any); ok {
			for _, e := range g {
				if m, ok := e.(map[string]any); ok && is(m) {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

func TestServiceRoutesTable(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	paths := servicePaths(t, srv)
	want := map[string]string{"/services": "high", "/water-damage-restoration-atlanta": "high"}
	for _, sv := range srv.site.Content().Services {
		if sv.Primary {
			want["/services/"+sv.Slug] = "high"
		} else {
			want["/services/"+sv.Slug] = "medium"
		}
	}
	if len(srv.site.Content().Services) != 9 {
		t.Errorf("%d services in content, want 9", len(srv.site.Content().Services))
	}
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			t.Errorf("%s expanded twice", p)
		}
		seen[p] = true
		r, _, ok := srv.site.Lookup(p)
		if !ok {
			t.Errorf("%s has no route", p)
			continue
		}
		if r.Priority != want[p] {
			t.Errorf("%s: priority %q, want %q", p, r.Priority, want[p])
		}
		if !r.InSitemap || !r.Indexable {
			t.Errorf("%s not in sitemap or not indexable", p)
		}
	}
	for p := range want {
		if !seen[p] {
			t.Errorf("%s not expanded", p)
		}
	}
	// The concrete medium-priority routes name exactly the supplementary services.
	var supplementary []string
	for _, r := range srv.site.Routes() {
		if slug, ok := strings.CutPrefix(r.Pattern, "/services/"); ok && !r.IsDynamic() && r.Priority == "medium" {
			supplementary = append(supplementary, slug)
		}
	}
	if len(supplementary) != 3 {
		t.Errorf("medium-priority service routes %v, want the 3 supplementary services", supplementary)
	}
	for _, slug := range supplementary {
		sv, ok := srv.site.Content().Service(slug)
		if !ok || sv.Primary {
			t.Errorf("supplementary service %s missing or primary", slug)
		}
	}
}

func TestServicePagesHead(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	titles, descs := map[string]string{}, map[string]string{}
	for _, p := range servicePaths(t, srv) {
		r := get(t, h, p)
		if r.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d", p, r.StatusCode)
			continue
		}
		if n := len(find(r.Doc, tag("h1"))); n != 1 {
			t.Errorf("%s: %d h1, want 1", p, n)
		}
		if c := canonicalOf(r.Doc); c != testBase+p {
			t.Errorf("%s: canonical %q", p, c)
		}
		title, desc := titleOf(r.Doc), headMeta(r.Doc, "description")
		if title == "" || utf8.RuneCountInString(title) > 60 {
			t.Errorf("%s: title %q (%d chars)", p, title, utf8.RuneCountInString(title))
		}
		if n := utf8.RuneCountInString(desc); n < 120 || n > 160 {
			t.Errorf("%s: description %d chars: %q", p, n, desc)
		}
		if q, ok := titles[title]; ok {
			t.Errorf("%s and %s share the title %q", p, q, title)
		}
		if q, ok := descs[desc]; ok {
			t.Errorf("%s and %s share the description", p, q)
		}
		titles[title], descs[desc] = p, p
		if !strings.Contains(headMeta(r.Doc, "robots"), "index, follow") {
			t.Errorf("%s: robots %q", p, headMeta(r.Doc, "robots"))
		}
		blocks := jsonLDBlocks(t, r.Doc)
		types := ldTypes(blocks)
		for _, want := range []string{"LocalBusiness", "Organization", "WebSite", "BreadcrumbList", "FAQPage"} {
			if !types[want] {
				t.Errorf("%s: JSON-LD lacks %s", p, want)
			}
		}
		// Breadcrumbs end at the page itself.
		bl := ldNodes(blocks, "BreadcrumbList")
		if len(bl) == 1 {
			items := bl[0]["itemListElement"].([]any)
			last := items[len(items)-1].(map[string]any)
			if last["item"] != testBase+p {
				t.Errorf("%s: last breadcrumb %v", p, last["item"])
			}
		}
		// Exactly one FAQ accordion per page.
		if n := len(ldNodes(blocks, "FAQPage")); n != 1 {
			t.Errorf("%s: %d FAQPage blocks", p, n)
		}
		// No JSON-LD in <body>.
		if n := len(find(bodyOf(r.Doc), func(n *html.Node) bool { return n.Data == "script" && attr(n, "type") == "application/ld+json" })); n != 0 {
			t.Errorf("%s: %d JSON-LD blocks in body", p, n)
		}
	}
	// Titles and descriptions must not collide with the home page's either.
	home := get(t, h, "/")
	if _, ok := titles[titleOf(home.Doc)]; ok {
		t.Error("a service page reuses the home title")
	}
}

func TestServiceDetailContent(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	primary := srv.site.Content().PrimaryServices()
	for _, sv := range srv.site.Content().Services {
		p := "/services/" + sv.Slug
		r := get(t, h, p)
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d", p, r.StatusCode)
		}
		if got := titleOf(r.Doc); got != sv.SEOTitle {
			t.Errorf("%s: title %q, want seoTitle %q", p, got, sv.SEOTitle)
		}
		if got := headMeta(r.Doc, "description"); got != sv.MetaDescription {
			t.Errorf("%s: description is not the record's metaDescription", p)
		}
		if h1 := text(find(r.Doc, tag("h1"))[0]); h1 != sv.Title {
			t.Errorf("%s: h1 %q", p, h1)
		}
		txt := text(bodyOf(r.Doc))
		wants := []string{sv.Description, "What We Do", "Emergency Response", "Assessment & Documentation", "Restoration & Repair",
			"Final Inspection", "24/7 Emergency Service", "Licensed & Insured", "Why Choose Us", "Related Services",
			"Georgia License #RBQA006428", "Popular Locations", "Resources"}
		wants = append(wants, sv.Features...)
		for _, b := range sv.Body {
			wants = append(wants, b)
		}
		for _, f := range sv.FAQs {
			wants = append(wants, f.Question, f.Answer)
		}
		for _, w := range wants {
			if !strings.Contains(txt, w) {
				t.Errorf("%s lacks %q", p, w)
			}
		}
		// The icon is drawn.
		if !strings.Contains(r.Body, "svc-what__icon") {
			t.Errorf("%s: service icon missing", p)
		}
		// Related services: the first three other primary services.
		var rel []string
		for _, o := range primary {
			if o.Slug != sv.Slug && len(rel) < 3 {
				rel = append(rel, "/services/"+o.Slug)
			}
		}
		section := find(r.Doc, func(n *html.Node) bool {
			return n.Data == "section" && attr(n, "aria-labelledby") == "svc-related-title"
		})
		if len(section) != 1 {
			t.Fatalf("%s: related services section missing", p)
		}
		var got []string
		for _, a := range find(section[0], tag("a")) {
			got = append(got, attr(a, "href"))
		}
		if strings.Join(got, " ") != strings.Join(rel, " ") {
			t.Errorf("%s: related services %v, want %v", p, got, rel)
		}
		for _, a := range got {
			if a == p {
				t.Errorf("%s links itself as related", p)
			}
		}
		// The emergency card calls the phone.
		if !strings.Contains(r.Body, `href="tel:+17705550134"`) {
			t.Errorf("%s: no tel: link", p)
		}
		// Service JSON-LD.
		svcs := ldNodes(jsonLDBlocks(t, r.Doc), "Service")
		if len(svcs) != 1 {
			t.Fatalf("%s: %d Service nodes", p, len(svcs))
		}
		n := svcs[0]
		if n["name"] != sv.Title || n["serviceType"] != sv.Title || n["url"] != testBase+p || n["description"] != sv.Description {
			t.Errorf("%s: Service node %v", p, n)
		}
		if prov, _ := n["provider"].(map[string]any); prov == nil || prov["@id"] != testBase+"/#business" {
			t.Errorf("%s: provider %v", p, n["provider"])
		}
		if areas, _ := n["areaServed"].([]any); len(areas) == 0 {
			t.Errorf("%s: areaServed empty", p)
		}
		// The FAQ JSON-LD carries the record's four questions.
		faq := ldNodes(jsonLDBlocks(t, r.Doc), "FAQPage")
		if len(faq) == 1 {
			if qs, _ := faq[0]["mainEntity"].([]any); len(qs) != 4 {
				t.Errorf("%s: FAQPage has %d questions", p, len(qs))
			}
		}
	}
}

func TestServicesListing(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	r := get(t, srv.Handler(), "/services")
	if r.StatusCode != 200 {
		t.Fatalf("status %d", r.StatusCode)
	}
	txt := text(bodyOf(r.Doc))
	for _, w := range []string{"IICRC Certified Technicians", "Licensed & Insured", "24/7 Emergency Service", "More Services", "Damage Happening Right Now?"} {
		if !strings.Contains(txt, w) {
			t.Errorf("/services lacks %q", w)
		}
	}
	for _, f := range srv.site.Content().FAQs["services"] {
		if !strings.Contains(txt, f.Question) || !strings.Contains(txt, f.Answer) {
			t.Errorf("/services lacks FAQ %q", f.Question)
		}
	}
	cards := find(r.Doc, func(n *html.Node) bool { return n.Data == "li" && strings.Contains(attr(n, "class"), "svc-card") })
	primary := srv.site.Content().PrimaryServices()
	if len(cards) != len(primary) || len(cards) != 6 {
		t.Fatalf("%d service cards, want 6", len(cards))
	}
	for i, c := range cards {
		sv := primary[i]
		ct := text(c)
		for _, w := range append([]string{sv.Title, sv.Description, "Learn More"}, sv.Features...) {
			if !strings.Contains(ct, w) {
				t.Errorf("card %s lacks %q", sv.Slug, w)
			}
		}
		links := find(c, func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "/services/"+sv.Slug })
		if len(links) == 0 {
			t.Errorf("card %s does not link its page", sv.Slug)
		}
		if !strings.Contains(attr(find(c, tag("span"))[0], "class"), "service-card__icon") {
			t.Errorf("card %s lacks its icon", sv.Slug)
		}
	}
	more := find(r.Doc, func(n *html.Node) bool { return n.Data == "li" && strings.Contains(attr(n, "class"), "svc-mini__card") })
	if len(more) != 3 {
		t.Fatalf("%d supplementary cards, want 3", len(more))
	}
	for _, slug := range []string{"mold-remediation", "emergency-cleanup", "roof-repair"} {
		if !strings.Contains(r.Body, `href="/services/`+slug+`"`) {
			t.Errorf("/services does not link %s", slug)
		}
	}
	if !strings.Contains(r.Body, `href="tel:+17705550134"`) {
		t.Error("no tel: link")
	}
	if types := ldTypes(jsonLDBlocks(t, r.Doc)); types["Service"] {
		t.Error("listing publishes a Service node")
	}
}

func TestServiceNotFound(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	for _, p := range []string{"/services/no-such-service", "/services/Water-Damage-Restoration"} {
		r := get(t, srv.Handler(), p)
		if r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, r.StatusCode)
			continue
		}
		h1 := find(bodyOf(r.Doc), tag("h1"))
		if len(h1) != 1 || text(h1[0]) != "Service Not Found" {
			t.Errorf("%s: h1 %v", p, h1)
		}
		txt := text(bodyOf(r.Doc))
		if !strings.Contains(txt, "The service you're looking for doesn't exist.") {
			t.Errorf("%s: message missing", p)
		}
		ok := false
		for _, a := range find(bodyOf(r.Doc), tag("a")) {
			ok = ok || (attr(a, "href") == "/services" && text(a) == "View All Services")
		}
		if !ok {
			t.Errorf("%s: no 'View All Services' link to /services", p)
		}
		if !strings.Contains(headMeta(r.Doc, "robots"), "noindex") {
			t.Errorf("%s: not noindex", p)
		}
	}
}

func TestServiceRedirects(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	for from, to := range map[string]string{
		"/services/insurance-help":          "/services/insurance-claims",
		"/water-damage-cleanup-restoration": "/water-damage-restoration-atlanta",
	} {
		// Twice: the second request must not come from a cached page.
		for i := 0; i < 2; i++ {
			r := get(t, srv.Handler(), from)
			if r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != to {
				t.Errorf("%s: status %d location %q", from, r.StatusCode, r.Header.Get("Location"))
			}
		}
		if r := get(t, srv.Handler(), to); r.StatusCode != 200 {
			t.Errorf("%s: status %d", to, r.StatusCode)
		}
	}
	for _, p := range srv.site.AllPaths() {
		if p == "/services/insurance-help" || p == "/water-damage-cleanup-restoration" {
			t.Errorf("redirected path %s is in the route table's paths", p)
		}
	}
}

func TestWaterLanding(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"LEAD_FORM_URL": "https://forms.crm.test/widget/form/abc", "LEAD_FORM_SCRIPT": "https://link.crm.test/js/form_embed.js"})
	r := get(t, srv.Handler(), "/water-damage-restoration-atlanta")
	if r.StatusCode != 200 {
		t.Fatalf("status %d", r.StatusCode)
	}
	body := bodyOf(r.Doc)
	txt := text(body)
	for _, w := range []string{
		"Emergency Water Extraction", "Burst Pipe & Plumbing Leak Cleanup", "Ceiling & Wall Dry-Out", "Sewage Backup Cleanup",
		"Structural Drying & Repairs", "Insurance Claim Assistance",
		"24/7 Emergency · Crews arrive in 60-90 minutes", "Buckhead", "Decatur", "Average 45 minutes response",
		"Get Free Estimate", "Why Atlanta Homeowners Choose Us", "Areas We Serve",
	} {
		if !strings.Contains(txt, w) {
			t.Errorf("landing lacks %q", w)
		}
	}
	// Arrival claims: 60-90 minutes everywhere except the Buckhead blurb's
	// 45 minutes and the shared quote section's response-times card.
	for _, bad := range []string{"within 60 minutes", "30 minutes", "1 hour"} {
		if strings.Contains(txt, bad) {
			t.Errorf("landing states %q", bad)
		}
	}
	if n := strings.Count(txt, "45 minutes"); n != 1 {
		t.Errorf("45 minutes stated %d times, want once (Buckhead)", n)
	}
	buck := find(body, func(n *html.Node) bool {
		return n.Data == "article" && strings.Contains(text(n), "Buckhead Water Damage Help")
	})
	if len(buck) != 1 || !strings.Contains(text(buck[0]), "45 minutes") {
		t.Error("the 45 minutes claim is not in the Buckhead blurb")
	}
	// Each blurb has a call button; the hero has a call button and a real
	// estimate link to #contact-form, which exists.
	for _, a := range find(body, tag("article")) {
		if len(find(a, func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "tel:+17705550134" })) != 1 {
			t.Errorf("blurb %q lacks a call button", text(a)[:30])
		}
	}
	hero := find(body, func(n *html.Node) bool { return n.Data == "section" && attr(n, "class") == "page-hero" })[0]
	var call, est bool
	for _, a := range find(hero, tag("a")) {
		call = call || attr(a, "href") == "tel:+17705550134"
		est = est || (attr(a, "href") == "#contact-form" && text(a) == "Get Free Estimate")
	}
	if !call || !est {
		t.Errorf("hero call=%v estimate=%v", call, est)
	}
	if len(find(body, func(n *html.Node) bool { return attr(n, "id") == "contact-form" })) != 1 {
		t.Error("#contact-form missing")
	}
	if !strings.Contains(r.Body, "height:900px") {
		t.Error("lead form embed not 900 px tall")
	}
	// Areas served link their city pages.
	for name, href := range map[string]string{
		"Atlanta": "/areas/fulton/atlanta", "Decatur": "/areas/dekalb/decatur", "Sandy Springs": "/areas/fulton/sandy-springs",
		"Smyrna": "/areas/cobb/smyrna", "Marietta": "/areas/cobb/marietta", "Brookhaven": "/areas/dekalb/brookhaven", "East Point": "/areas/fulton/east-point",
	} {
		ok := false
		for _, a := range find(body, func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == href }) {
			ok = ok || text(a) == name
		}
		if !ok {
			t.Errorf("no link %q to %s", name, href)
		}
	}
	// Three FAQs in the accordion, published as FAQPage.
	blocks := jsonLDBlocks(t, r.Doc)
	faq := ldNodes(blocks, "FAQPage")
	if len(faq) != 1 {
		t.Fatalf("%d FAQPage blocks", len(faq))
	}
	if qs, _ := faq[0]["mainEntity"].([]any); len(qs) != 3 {
		t.Errorf("FAQPage has %d questions, want 3", len(qs))
	}
	if n := len(find(body, func(n *html.Node) bool { return n.Data == "details" && attr(n, "name") == "water-damage-faq" })); n != 3 {
		t.Errorf("%d FAQ items, want 3", n)
	}
	if len(ldNodes(blocks, "Service")) != 1 {
		t.Error("no Service node")
	}
	// The emergency banner and the trust badges.
	if len(find(body, func(n *html.Node) bool {
		return strings.Contains(attr(n, "class"), "emergency-banner") && n.Data == "section"
	})) < 2 {
		t.Error("emergency banner missing (besides the footer's)")
	}
	if len(find(body, func(n *html.Node) bool { return attr(n, "class") == "trust-badges" })) != 1 {
		t.Error("trust badges missing")
	}
}
