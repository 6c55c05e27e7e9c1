package server

import (
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// navHrefs are the hrefs of the links inside the sticky header (the menu
// and the drawer): <header class="nav">.
func navHrefs(t *testing.T, r *response) []string {
	t.Helper()
	headers := find(r.Doc, func(n *html.Node) bool { return n.Data == "header" && strings.Contains(attr(n, "class"), "nav") })
	if len(headers) != 1 {
		t.Fatalf("%d sticky headers", len(headers))
	}
	var out []string
	for _, a := range find(headers[0], tag("a")) {
		out = append(out, attr(a, "href"))
	}
	return out
}

func has(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestNavOurWorkFollowsThePortfolio: before the first project the main
// navigation does not advertise an empty portfolio (the home page keeps
// the spec's empty state); the first upload brings OUR WORK to every page
// at once, the chrome's cache included (ADR 050).
func TestNavOurWorkFollowsThePortfolio(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	for _, path := range []string{"/", "/about", "/areas/cobb/marietta"} {
		r := get(t, h, path)
		if hrefs := navHrefs(t, r); has(hrefs, "/#portfolio") || strings.Contains(text(r.Doc), "OUR WORK") {
			t.Errorf("%s: the menu offers OUR WORK with no project to show: %v", path, hrefs)
		}
	}
	if home := get(t, h, "/"); !strings.Contains(text(bodyOf(home.Doc)), "No projects yet") {
		t.Error("the home page lost the portfolio's empty state")
	}
	tok := unlock(t, h)
	if r := upload(t, h, tok, "Kitchen Fire Repair", "IMG_0042.JPG", testJPEG(t, 640, 480)); r.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	for _, path := range []string{"/", "/about", "/areas/cobb/marietta"} {
		r := get(t, h, path)
		hrefs := navHrefs(t, r)
		// Twice: the desktop menu and the drawer.
		n := 0
		for _, v := range hrefs {
			if v == "/#portfolio" {
				n++
			}
		}
		if n != 2 {
			t.Errorf("%s after the first upload: OUR WORK %d times in the header, want 2 (menu and drawer): %v", path, n, hrefs)
		}
	}
}

// TestOneEstimatePlacePerPage: every estimate link of a page (GET A
// QUOTE in the menu and the drawer, the hero's and the banners' Get Free
// Estimate, the footer's Free Estimate) goes to one place: the page's own
// form when it has one, else /estimate. The sticky header holds a call
// button to the 24/7 line, in the server's markup.
func TestOneEstimatePlacePerPage(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	for path, want := range map[string]string{
		"/":                                 "#contact-form",
		"/contact":                          "#contact-form",
		"/emergency":                        "#contact-form",
		"/areas/cobb/marietta":              "#contact-form",
		"/areas/fulton/sandy-springs":       "#contact-form",
		"/water-damage-restoration-atlanta": "#contact-form",
		"/estimate":                         "#contact-form",
		"/about":                            "/estimate",
		"/portfolio":                        "/estimate",
		"/service-areas/cobb":               "/estimate",
		"/services":                         "/estimate",
		"/blog":                             "/estimate",
	} {
		r := get(t, h, path)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, r.StatusCode)
		}
		hasForm := len(find(r.Doc, func(n *html.Node) bool { return attr(n, "id") == "contact-form" })) == 1
		if hasForm != (want == "#contact-form") {
			t.Errorf("%s: holds the quote section %v, but its estimate target is %s", path, hasForm, want)
		}
		n := 0
		for _, a := range find(r.Doc, tag("a")) {
			label := strings.TrimSpace(text(a))
			if !strings.Contains(label, "GET A QUOTE") && !strings.Contains(label, "Free Estimate") && !strings.Contains(label, "Get Free Estimate") {
				continue
			}
			n++
			if got := attr(a, "href"); got != want {
				t.Errorf("%s: %q goes to %s, want %s (one estimate place per page)", path, label, got, want)
			}
		}
		// The menu's GET A QUOTE, the drawer's and the footer's at least.
		if n < 3 {
			t.Errorf("%s: %d estimate links, want the menu's, the drawer's and the footer's at least", path, n)
		}
		calls := 0
		for _, a := range find(r.Doc, func(n *html.Node) bool { return n.Data == "a" && strings.Contains(attr(n, "class"), "nav__call") }) {
			calls++
			if attr(a, "href") != "tel:+17705550134" || !strings.Contains(text(a), "(770) 555-0134") {
				t.Errorf("%s: the header's call button is %s %q", path, attr(a, "href"), text(a))
			}
		}
		if calls != 1 {
			t.Errorf("%s: %d call buttons in the sticky header, want 1", path, calls)
		}
	}
}
