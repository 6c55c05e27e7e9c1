package server

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/audits"
)

// editorToken signs an editor in: Location Pages is an account's that may
// edit content (it opens the content editor), not the PIN's.
func editorToken(t *testing.T, h http.Handler, store *db.Store) string {
	t.Helper()
	addUser(t, store, editorEmail, editorPass, "editor", "Eddie Editor")
	return signIn(t, h, editorEmail, editorPass)
}

// Location Pages lists each city once. Atlanta has two real pages (the
// spec's fixed page fulton/atlanta-service and the city page of its
// record, fulton/atlanta): one entry, both pages, the fixed one first and
// main, and why.
func TestLocationPagesListEachCityOnce(t *testing.T) {
	srv, store := adminServer(t, nil)
	tok := editorToken(t, srv, store)
	// The PIN reads the figures (the tools); an editor reads them too, to
	// edit the pages.
	if r := jsonReq(t, srv, "GET", "/api/admin/locations", unlock(t, srv), nil); r.StatusCode != http.StatusOK {
		t.Errorf("the PIN reading Location Pages: %d", r.StatusCode)
	}
	l := decode[audits.LocationsInfo](t, jsonReq(t, srv, "GET", "/api/admin/locations", tok, nil))
	total := 0
	var atlanta *audits.LocationCity
	for _, co := range l.Counties {
		seen := map[string]bool{}
		for i, ci := range co.Cities {
			if seen[strings.ToLower(ci.Name)] {
				t.Errorf("%s County lists %s twice", co.Name, ci.Name)
			}
			seen[strings.ToLower(ci.Name)] = true
			total++
			if len(ci.Pages) == 0 || ci.Href != ci.Pages[0].Href || (len(ci.Pages) > 1) != (ci.Why != "") {
				t.Errorf("%s: %+v", ci.Name, ci)
			}
			for _, p := range ci.Pages {
				if r := get(t, srv, p.Href); r.StatusCode != http.StatusOK || text(find(headOf(r.Doc), tag("title"))[0]) != p.Title {
					t.Errorf("%s: %d, title is not %q", p.Href, r.StatusCode, p.Title)
				}
			}
			if co.Slug == "fulton" && ci.Name == "Atlanta" {
				atlanta = &co.Cities[i]
			}
		}
	}
	if l.Summary.Cities != total || l.Summary.Cities != len(srv.site.Content().Cities) || l.Summary.CityPages != total+1 {
		t.Errorf("summary %+v: %d cities listed, %d city records", l.Summary, total, len(srv.site.Content().Cities))
	}
	if atlanta == nil {
		t.Fatal("Atlanta not listed under Fulton")
	}
	var hrefs, kinds []string
	for _, p := range atlanta.Pages {
		hrefs, kinds = append(hrefs, p.Href), append(kinds, p.Kind)
	}
	if diff := cmp.Diff([]string{"/areas/fulton/atlanta-service", "/areas/fulton/atlanta"}, hrefs); diff != "" {
		t.Errorf("Atlanta's pages (-want, +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Fixed city page", "City page"}, kinds); diff != "" {
		t.Errorf("Atlanta's page kinds (-want, +got):\n%s", diff)
	}
	if atlanta.Href != "/areas/fulton/atlanta-service" || !strings.Contains(atlanta.Why, "both are in the sitemap") {
		t.Errorf("Atlanta: %+v", atlanta)
	}
	if !strings.Contains(l.How["cities"], strconv.Itoa(l.Summary.CityPages)+" city pages: Atlanta has 2, listed") {
		t.Errorf("how cities: %q", l.How["cities"])
	}
	// Both are real pages in the sitemap, not a page and its duplicate.
	sm := get(t, srv, "/sitemap.xml").Body
	for _, p := range []string{"/areas/fulton/atlanta-service", "/areas/fulton/atlanta"} {
		if !strings.Contains(sm, "<loc>"+testBase+p+"</loc>") {
			t.Errorf("sitemap lacks %s", p)
		}
	}
}
