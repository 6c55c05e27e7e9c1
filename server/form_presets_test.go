package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/leads"
)

// formShown is what a page's estimate form shows before anyone touches
// it, read from the server's markup (what a visitor without JavaScript
// gets): the city field's value, the selected type of damage and the
// checked answer to the emergency question.
type formShown struct {
	Forms      int
	City       string
	DamageType string
	Emergency  string
}

func shownForm(t *testing.T, doc *html.Node) formShown {
	t.Helper()
	var got formShown
	forms := find(doc, func(n *html.Node) bool { return n.Data == "form" && attr(n, "class") == "estimate-form" })
	got.Forms = len(forms)
	if len(forms) == 0 {
		return got
	}
	f := forms[0]
	for _, in := range find(f, tag("input")) {
		switch attr(in, "name") {
		case "city":
			got.City = attr(in, "value")
		case "emergency":
			if hasAttr(in, "checked") {
				got.Emergency += attr(in, "value")
			}
		}
	}
	for _, sel := range find(f, func(n *html.Node) bool { return n.Data == "select" && attr(n, "name") == "damageType" }) {
		for _, o := range find(sel, tag("option")) {
			if hasAttr(o, "selected") {
				got.DamageType += attr(o, "value")
			}
		}
	}
	return got
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// The form fits its page (ADR 052): a service page chooses its type of
// damage, a city page fills in its city, the water damage landing page
// answers yes to the emergency question; pages about no one thing preset
// nothing, and nowhere is "No" chosen for the visitor. All of it is in
// the server's markup, so it holds without JavaScript.
func TestFormPresetsInServerMarkup(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	cases := []struct {
		path string
		want formShown
	}{
		{"/", formShown{Forms: 1}},
		{"/contact", formShown{Forms: 1}},
		{"/estimate", formShown{Forms: 1}},
		// The emergency page's form is the one for a visitor whose damage
		// is not an emergency (its heading says so): no answer chosen.
		{"/emergency", formShown{Forms: 1}},
		{"/water-damage-restoration-atlanta", formShown{Forms: 1, DamageType: "Water Damage", Emergency: "yes"}},
		{"/services/water-damage-restoration", formShown{Forms: 1, DamageType: "Water Damage"}},
		{"/services/fire-damage-restoration", formShown{Forms: 1, DamageType: "Fire & Smoke Damage"}},
		{"/services/storm-damage-repair", formShown{Forms: 1, DamageType: "Storm Damage"}},
		{"/services/mold-remediation", formShown{Forms: 1, DamageType: "Mold"}},
		{"/services/roof-repair", formShown{Forms: 1, DamageType: "Roof Damage"}},
		{"/services/general-contractor", formShown{Forms: 1, DamageType: "Remodeling / Construction"}},
		{"/services/home-remodeling", formShown{Forms: 1, DamageType: "Remodeling / Construction"}},
		{"/services/insurance-claims", formShown{Forms: 1}},
		{"/services/emergency-cleanup", formShown{Forms: 1}},
		{"/areas/cobb/smyrna", formShown{Forms: 1, City: "Smyrna"}},
		{"/areas/cobb/marietta", formShown{Forms: 1, City: "Marietta"}},
		{"/areas/fulton/atlanta-service", formShown{Forms: 1, City: "Atlanta"}},
		// County pages have no form.
		{"/service-areas/cobb", formShown{}},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			r := get(t, h, tc.path)
			if r.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %.2000s", r.StatusCode, r.Body)
			}
			if diff := cmp.Diff(tc.want, shownForm(t, r.Doc)); diff != "" {
				t.Errorf("form shown (-want, +got):\n%s", diff)
			}
		})
	}
}

// Every service page's preset is one of the form's choices (a preset the
// select does not offer would show "Choose one" on the page and a
// mismatch when the page hydrates).
func TestFormPresetsAreChoices(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	h := srv.Handler()
	valid := map[string]bool{"": true}
	for _, d := range leads.DamageTypes {
		valid[d] = true
	}
	for _, path := range servicePaths(t, srv) {
		if path == "/services" {
			continue // the listing has no form
		}
		r := get(t, h, path)
		if got := shownForm(t, r.Doc); !valid[got.DamageType] || got.Forms != 1 {
			t.Errorf("%s: %+v", path, got)
		}
	}
}

// After a post without JavaScript that the server refuses, the form shows
// what the visitor sent, not any page's presets: a visitor who left the
// emergency question unanswered sees it unanswered, with the message.
func TestFormAfterRefusedPostShowsWhatWasSent(t *testing.T) {
	srv, store := newTestServer(t, nil)
	f := validForm()
	f.Del("emergency")
	f.Set("city", "Roswell")
	f.Set("damageType", "Mold")
	r := postForm(t, srv.Handler(), "/estimate", f, "10.9.0.1", "")
	if r.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", r.StatusCode)
	}
	want := formShown{Forms: 1, City: "Roswell", DamageType: "Mold"}
	if diff := cmp.Diff(want, shownForm(t, r.Doc)); diff != "" {
		t.Errorf("form shown (-want, +got):\n%s", diff)
	}
	if body := text(bodyOf(r.Doc)); !strings.Contains(body, "Please tell us whether this is an emergency.") {
		t.Error("no emergency message")
	}
	// The inline post is refused the same way.
	r = postForm(t, srv.Handler(), "/api/estimate", url.Values(f), "10.9.0.2", "application/json")
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "Please tell us whether this is an emergency.") {
		t.Errorf("inline: %d %s", r.StatusCode, r.Body)
	}
	if n := len(storedLeads(t, store)); n != 0 {
		t.Errorf("%d leads stored", n)
	}
}
