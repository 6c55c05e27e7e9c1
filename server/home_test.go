package server

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/ssr"
)

func TestHomeHeadAndStructuredData(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	r := get(t, srv.Handler(), "/")
	if r.StatusCode != 200 {
		t.Fatalf("status %d", r.StatusCode)
	}
	head := headOf(r.Doc)
	body := bodyOf(r.Doc)
	// Every head tag is in <head> of the first response, none in <body>.
	for _, sel := range []struct {
		name string
		pred func(*html.Node) bool
	}{
		{"title", tag("title")},
		{"description", func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "description" }},
		{"keywords", func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "keywords" }},
		{"robots", func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "robots" }},
		{"canonical", func(n *html.Node) bool { return n.Data == "link" && attr(n, "rel") == "canonical" }},
		{"og:title", func(n *html.Node) bool { return n.Data == "meta" && attr(n, "property") == "og:title" }},
		{"twitter:card", func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "twitter:card" }},
		{"theme-color", func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "theme-color" }},
		{"geo.region", func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "geo.region" }},
		{"json-ld", func(n *html.Node) bool { return n.Data == "script" && attr(n, "type") == "application/ld+json" }},
	} {
		if len(find(head, sel.pred)) == 0 {
			t.Errorf("%s not in <head>", sel.name)
		}
		if sel.name != "json-ld" && len(find(body, sel.pred)) > 0 {
			t.Errorf("%s found in <body>", sel.name)
		}
	}
	if got := len(find(body, func(n *html.Node) bool { return n.Data == "script" && attr(n, "type") == "application/ld+json" })); got != 0 {
		t.Errorf("%d JSON-LD blocks in <body>", got)
	}
	canon := attr(find(head, func(n *html.Node) bool { return n.Data == "link" && attr(n, "rel") == "canonical" })[0], "href")
	if canon != testBase+"/" {
		t.Errorf("canonical = %q, want %q", canon, testBase+"/")
	}
	types := ldTypes(jsonLDBlocks(t, r.Doc))
	for _, want := range []string{"LocalBusiness", "Organization", "WebSite", "FAQPage"} {
		if !types[want] {
			t.Errorf("JSON-LD lacks %s (have %v)", want, types)
		}
	}
	if types["BreadcrumbList"] {
		t.Error("home page has a BreadcrumbList")
	}
	if h1 := find(r.Doc, tag("h1")); len(h1) != 1 {
		t.Errorf("%d h1, want 1", len(h1))
	}
}

func TestHomeSpecTexts(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	r := get(t, srv.Handler(), "/")
	txt := text(bodyOf(r.Doc))
	for _, want := range []string{
		// chrome
		"HOME", "SERVICES", "SERVICE AREAS", "CONTACT US", "ADMIN", "GET A QUOTE",
		"License #RBQA006428", "24/7 Emergency: (770) 555-0134", "6595 Church Street, Douglasville, GA 30134",
		// hero and banner
		"Water, Fire & Storm Restoration in Douglasville, Douglas County", "Serving Douglasville, Douglas County",
		"Get Free Estimate", "Call Now for Emergency Help", "Professional Restoration and Construction Services in Atlanta",
		// services grid
		"Learn More", "View All Services",
		// portfolio empty state
		"No projects yet", "Our project gallery will display completed work once available.",
		// trust
		"20+", "1000+", "4.9/5", "79", "11+", "IICRC Certified", "State Licensed General Contractor", "24/7 Emergency Service", "Direct Insurance Billing",
		// (without Google Places the empty reviews block says reviews are not
		// shown here instead of offering 'Click here to fetch reviews', which
		// TestReviewFiguresFromPlaces checks)
		// the trust badge names the hero's own claim (ADR 045)
		"24/7 Emergency · Response within 60 minutes", "Reviews from Google are not shown on this site yet.",
		// quote section
		"24/7 Emergency Service", "Emergency", "15-60 minutes", "Non-emergency", "Same or next day",
		// blog teaser, descriptions, FAQ, related links
		"Featured Articles", "Services We Provide", "Why Douglasville Chooses Us", "Popular Services",
		"Frequently Asked Questions", "Related Services & Areas",
		// footer
		"Facebook", "Privacy Policy", "Terms of Service", "Sitemap", "Georgia License #RBQA006428",
	} {
		if !strings.Contains(txt, want) && !strings.Contains(r.Body, want) {
			t.Errorf("home lacks %q", want)
		}
	}
	// Six service cards, each with its first three features.
	cards := find(r.Doc, func(n *html.Node) bool { return strings.Contains(attr(n, "class"), "service-card") && n.Data == "li" })
	if len(cards) != 6 {
		t.Fatalf("%d service cards, want 6", len(cards))
	}
	for _, c := range cards {
		if n := len(find(c, func(n *html.Node) bool { return n.Data == "li" })) - 1; n != 3 {
			t.Errorf("service card lists %d features, want 3", n)
		}
	}
	// Footer: the first 8 counties.
	var counties int
	for _, a := range find(r.Doc, tag("a")) {
		if strings.HasPrefix(attr(a, "href"), "/service-areas/") {
			counties++
		}
	}
	if counties != 8 {
		t.Errorf("%d county links, want the first 8", counties)
	}
	// Phone links are tel: links; nav anchors are real links.
	tel := 0
	for _, a := range find(r.Doc, tag("a")) {
		if attr(a, "href") == "tel:+17705550134" {
			tel++
		}
	}
	if tel < 5 {
		t.Errorf("%d tel: links, want the phone linked everywhere it shows", tel)
	}
	// GET A QUOTE goes to this page's form; OUR WORK waits for the first
	// project (ADR 050, TestNavOurWorkFollowsThePortfolio).
	for _, href := range []string{"/#services", "#contact-form", "/service-areas", "/contact", "/admin"} {
		if !strings.Contains(r.Body, `href="`+href+`"`) {
			t.Errorf("nav lacks a real link to %s", href)
		}
	}
	for _, id := range []string{"hero", "services", "portfolio", "trust-section", "contact-form"} {
		if !strings.Contains(r.Body, `id="`+id+`"`) {
			t.Errorf("anchor #%s missing", id)
		}
	}
}

func TestHomeShowsGalleryAndReviewsFromDatabase(t *testing.T) {
	srv, store := newTestServer(t, nil)
	ctx := context.Background()
	now := time.Now().UTC()
	for i, m := range []db.Media{
		{ID: "1", Project: "kitchen-fire-repair", Path: "projects/kitchen-fire-repair/a.jpg", Name: "a.jpg", Kind: "image", MIME: "image/jpeg", Width: 800, Height: 600},
		{ID: "2", Project: "kitchen-fire-repair", Path: "projects/kitchen-fire-repair/b.mp4", Name: "b.mp4", Kind: "video", MIME: "video/mp4"},
		{ID: "3", Project: "basement-flood", Path: "projects/basement-flood/c.jpg", Name: "c.jpg", Kind: "image", MIME: "image/jpeg", Width: 800, Height: 600},
		{ID: "4", Project: "basement-flood", Path: "projects/basement-flood/.emptyFolderPlaceholder", Name: ".emptyFolderPlaceholder", Kind: "image", MIME: "image/jpeg"},
		// A library photo (a post's cover) is not project work: not shown.
		{ID: "5", Project: "", Path: "projects/library/cover.jpg", Name: "cover.jpg", Kind: "image", MIME: "image/jpeg", Width: 800, Height: 600, Portfolio: false},
	} {
		m.CreatedAt = now.Add(time.Duration(i) * time.Second)
		m.Portfolio = m.ID != "5"
		if err := store.CreateMedia(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.UpsertReviews(ctx, []db.Review{{ID: "r1", AuthorName: "Dana P.", ReviewText: "", Rating: 5, CreatedTime: now, IsActive: true}}); err != nil {
		t.Fatal(err)
	}
	r := get(t, srv.Handler(), "/")
	txt := text(bodyOf(r.Doc))
	for _, want := range []string{"2 photos and 1 video from 2 projects", "Kitchen Fire Repair", "Basement Flood", "Photo", "Video", "Dana P.", "Great service!"} {
		if !strings.Contains(txt, want) {
			t.Errorf("home lacks %q", want)
		}
	}
	if strings.Contains(txt, "No projects yet") {
		t.Error("empty state shown with media present")
	}
	if strings.Contains(r.Body, "projects/library/cover") {
		t.Error("the home gallery shows a library photo that is not project work")
	}
	for _, img := range find(r.Doc, func(n *html.Node) bool { return n.Data == "img" && strings.HasPrefix(attr(n, "src"), "/media/") }) {
		if attr(img, "loading") != "lazy" || attr(img, "width") == "" || attr(img, "height") == "" {
			t.Errorf("gallery image %s lacks lazy loading or dimensions", attr(img, "src"))
		}
	}
	if len(find(r.Doc, tag("video"))) != 1 {
		t.Error("video not rendered")
	}
}

func TestNotFound(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	for _, p := range []string{"/no-such-page", "/services/x/y/z", "/assets/missing.js"} {
		r := get(t, srv.Handler(), p)
		if r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, r.StatusCode)
			continue
		}
		if p == "/assets/missing.js" {
			continue
		}
		txt := text(bodyOf(r.Doc))
		if !strings.Contains(txt, "404") || !strings.Contains(txt, "Oops! Page not found") {
			t.Errorf("%s: 404 texts missing: %s", p, txt[:200])
		}
		home := false
		for _, a := range find(bodyOf(r.Doc), tag("a")) {
			home = home || (attr(a, "href") == "/" && strings.Contains(text(a), "Home"))
		}
		if !home {
			t.Errorf("%s: no link to /", p)
		}
		robots := find(headOf(r.Doc), func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "robots" })
		if len(robots) != 1 || !strings.Contains(attr(robots[0], "content"), "noindex") {
			t.Errorf("%s: 404 page is not noindex", p)
		}
	}
}

func TestCachedServing(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	plain := get(t, h, "/")
	gz := get(t, h, "/", "Accept-Encoding", "gzip")
	br := get(t, h, "/", "Accept-Encoding", "br, gzip")
	if gz.Header.Get("Content-Encoding") != "gzip" || br.Header.Get("Content-Encoding") != "br" {
		t.Fatalf("encodings: gzip=%q br=%q", gz.Header.Get("Content-Encoding"), br.Header.Get("Content-Encoding"))
	}
	if len(br.Body) >= len(gz.Body) || len(gz.Body) >= len(plain.Body) {
		t.Errorf("sizes plain %d gzip %d br %d: compression not applied", len(plain.Body), len(gz.Body), len(br.Body))
	}
	etag := plain.Header.Get("ETag")
	if etag == "" || etag != gz.Header.Get("ETag") {
		t.Fatalf("ETag %q / %q", etag, gz.Header.Get("ETag"))
	}
	if r := get(t, h, "/", "If-None-Match", etag); r.StatusCode != http.StatusNotModified || r.Body != "" {
		t.Errorf("If-None-Match: status %d", r.StatusCode)
	}
	// Invalidation re-renders: still the same content, still served.
	srv.Changed("test")
	if r := get(t, h, "/"); r.StatusCode != 200 {
		t.Errorf("after invalidate: %d", r.StatusCode)
	}
}

func TestTrailingSlashRedirects(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	r := get(t, srv.Handler(), "/contact/?x=1")
	if r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/contact?x=1" {
		t.Errorf("status %d location %q", r.StatusCode, r.Header.Get("Location"))
	}
}

func TestSecurityHeaders(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"LEAD_FORM_URL": "https://forms.crm.test/widget/form/abc", "LEAD_FORM_SCRIPT": "https://link.crm.test/js/form_embed.js"})
	r := get(t, srv.Handler(), "/")
	csp := r.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "script-src 'self' " + ssr.IslandsBootCSP() + " " + ssr.SpeculationRulesCSP() + " https://link.crm.test", "frame-src https://forms.crm.test"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP lacks %q: %s", want, csp)
		}
	}
	if r.Header.Get("X-Content-Type-Options") != "nosniff" || r.Header.Get("Referrer-Policy") == "" {
		t.Error("nosniff or referrer policy missing")
	}
	if r.Header.Get("Strict-Transport-Security") == "" {
		t.Error("HSTS missing on an https site")
	}
	// With an embed configured the quote section holds its iframe at 900 px.
	if !strings.Contains(r.Body, "height:900px") {
		t.Error("lead form embed not 900 px tall on home")
	}
}

func TestAssetsAreImmutable(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	home := get(t, srv.Handler(), "/")
	scripts := find(home.Doc, func(n *html.Node) bool { return n.Data == "script" && attr(n, "data-src") != "" })
	if len(scripts) != 1 {
		t.Fatalf("%d islands boot scripts", len(scripts))
	}
	// The inline scripts that run (the boot line and the speculation
	// rules) are allowed by the hash of exactly their text; the JSON-LD
	// blocks are data, which the CSP does not govern.
	inline := find(home.Doc, func(n *html.Node) bool {
		return n.Data == "script" && attr(n, "src") == "" && attr(n, "type") != "application/ld+json" && attr(n, "type") != "application/json"
	})
	if len(inline) != 2 || attr(inline[0], "type") != "speculationrules" || attr(inline[1], "data-src") == "" {
		t.Fatalf("want the speculation rules and then the boot line as the inline scripts, got %d", len(inline))
	}
	csp := home.Header.Get("Content-Security-Policy")
	for _, sc := range inline {
		sum := sha256.Sum256([]byte(sc.FirstChild.Data))
		if !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
			t.Errorf("the CSP does not allow the inline script %q: %s", attr(sc, "type"), csp)
		}
	}
	for _, d := range strings.Split(csp, ";") {
		if d = strings.TrimSpace(d); strings.HasPrefix(d, "script-src ") && (strings.Contains(d, "unsafe-inline") || strings.Contains(d, "inline-speculation-rules")) {
			t.Errorf("the CSP allows inline scripts wholesale: %s", d)
		}
	}
	r := get(t, srv.Handler(), attr(scripts[0], "data-src"), "Accept-Encoding", "gzip")
	if r.StatusCode != 200 || r.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("asset: %d %q %q", r.StatusCode, r.Header.Get("Cache-Control"), r.Header.Get("Content-Type"))
	}
	if r := get(t, srv.Handler(), "/favicon.ico"); r.StatusCode != 200 {
		t.Errorf("favicon: %d", r.StatusCode)
	}
}

// healthDetails asks /healthz as a monitor on this machine would (from
// loopback, not forwarded by a proxy).
func healthDetails(t testing.TB, h http.Handler, hdr ...string) *response {
	t.Helper()
	req := httptest.NewRequest("GET", "/healthz", nil)
	req.RemoteAddr = "127.0.0.1:40000"
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return do(t, h, req)
}

func TestHealthz(t *testing.T) {
	srv, store := newTestServer(t, nil)
	if r := healthDetails(t, srv.Handler()); r.StatusCode != 200 || !strings.Contains(r.Body, `"db":"ok"`) {
		t.Errorf("healthz: %d %s", r.StatusCode, r.Body)
	}
	store.Close()
	if r := healthDetails(t, srv.Handler()); r.StatusCode != http.StatusServiceUnavailable || !strings.Contains(r.Body, `"db":"unavailable"`) {
		t.Errorf("healthz with db closed: %d %s", r.StatusCode, r.Body)
	}
}

// The public /healthz says up or down, never whether the database is
// reachable (an attacker would time a flood by it): not to a visitor,
// not through a proxy on the same host, not with a wrong token. The
// details need loopback without forwarding headers, or HEALTH_TOKEN.
func TestHealthzPublicSaysUpOrDownOnly(t *testing.T) {
	const token = "monitor-token-0123456789"
	srv, store := newTestServer(t, map[string]string{"HEALTH_TOKEN": token})
	h := srv.Handler()
	store.Close()
	for name, r := range map[string]*response{
		"visitor":               get(t, h, "/healthz"),
		"proxied from loopback": healthDetails(t, h, "X-Forwarded-For", "203.0.113.5"),
		"Forwarded header":      healthDetails(t, h, "Forwarded", "for=203.0.113.5"),
		"wrong token":           get(t, h, "/healthz", "Authorization", "Bearer monitor-token-0123456780"),
		"wrong token, loopback": healthDetails(t, h, "Authorization", "Bearer nope"),
	} {
		if r.Body != `{"status":"up"}`+"\n" || r.StatusCode != http.StatusOK {
			t.Errorf("%s: %d %q, want 200 {\"status\":\"up\"}", name, r.StatusCode, r.Body)
		}
		if r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Cache-Control %q", name, r.Header.Get("Cache-Control"))
		}
	}
	r := get(t, h, "/healthz", "Authorization", "Bearer "+token)
	if r.StatusCode != http.StatusServiceUnavailable || !strings.Contains(r.Body, `"db":"unavailable"`) {
		t.Errorf("monitor with the token: %d %s", r.StatusCode, r.Body)
	}
	// Not warmed up yet (this test server never warms): the public ready
	// check says down, and nothing more.
	if r := get(t, h, "/healthz?ready=1"); r.StatusCode != http.StatusServiceUnavailable || r.Body != `{"status":"down"}`+"\n" {
		t.Errorf("ready check before the warm-up: %d %q", r.StatusCode, r.Body)
	}
}

func TestPropsEscapedInDocument(t *testing.T) {
	srv, store := newTestServer(t, nil)
	evil := "</script><script>alert(1)</script><!--"
	if err := store.UpsertReviews(context.Background(), []db.Review{{ID: "x", AuthorName: evil, ReviewText: evil, Rating: 5, CreatedTime: time.Now(), IsActive: true}}); err != nil {
		t.Fatal(err)
	}
	r := get(t, srv.Handler(), "/")
	if strings.Contains(r.Body, "<script>alert(1)") {
		t.Fatal("review text broke out of its element")
	}
	if !strings.Contains(text(bodyOf(r.Doc)), evil) {
		t.Error("review text not shown as text")
	}
}
