package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/seoaudit"
	editorweb "github.com/atlanta-restoration/site/web/editor"
)

// robotsOf is a page's robots meta tag.
func robotsOf(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	r := get(t, h, path)
	for _, n := range find(r.Doc, tag("meta")) {
		if attr(n, "name") == "robots" {
			return r.StatusCode, attr(n, "content")
		}
	}
	return r.StatusCode, ""
}

// The owner ticks "Hide this page from search engines" on Smyrna and
// publishes: in that one publish the page leaves sitemap.xml and the HTML
// sitemap and carries a robots noindex tag, and is still served and
// linked from its county page. The thin-pages audit lists every city page
// of the running site, Smyrna as hidden.
func TestHidingACityPageTakesItOutOfTheSitemaps(t *testing.T) {
	srv, h, tok := editorServer(t)
	const path = "/areas/cobb/smyrna"
	if !strings.Contains(get(t, h, "/sitemap.xml").Body, testBase+path+"<") || !strings.Contains(get(t, h, "/sitemap").Body, `href="`+path+`"`) {
		t.Fatal("smyrna is not in the sitemaps to begin with")
	}
	if st, robots := robotsOf(t, h, path); st != 200 || strings.Contains(robots, "noindex") {
		t.Fatalf("before: %d %q", st, robots)
	}
	var l editorweb.ItemList
	json.Unmarshal([]byte(jsonReq(t, h, "GET", "/api/admin/content?kind=city&perPage=200", tok, nil).Body), &l)
	var id string
	for _, it := range l.Items {
		if it.Path == path {
			id = it.ID
		}
	}
	if id == "" {
		t.Fatalf("no city item at %s", path)
	}
	it := decodeItem(t, jsonReq(t, h, "GET", "/api/admin/content/"+id, tok, nil))
	var ci map[string]any
	json.Unmarshal(it.Draft, &ci)
	ci["noindex"] = true
	r := jsonReq(t, h, "PUT", "/api/admin/content/"+id, tok, map[string]any{"version": it.Version, "data": ci})
	if r.StatusCode != 200 {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	it = decodeItem(t, r)
	if r := jsonReq(t, h, "POST", "/api/admin/content/"+id+"/publish", tok, map[string]any{"version": it.Version}); r.StatusCode != 200 {
		t.Fatalf("publish: %d %s", r.StatusCode, r.Body)
	}
	if strings.Contains(get(t, h, "/sitemap.xml").Body, testBase+path+"<") {
		t.Error("sitemap.xml still lists the hidden page")
	}
	if html := get(t, h, "/sitemap").Body; strings.Contains(html, `href="`+path+`"`) || !strings.Contains(html, `href="/areas/cobb/vinings"`) {
		t.Error("the HTML sitemap still lists the hidden page, or lost the others")
	}
	if st, robots := robotsOf(t, h, path); st != 200 || robots != "noindex" {
		t.Errorf("the hidden page: %d, robots %q", st, robots)
	}
	if !strings.Contains(get(t, h, "/service-areas/cobb").Body, `href="`+path+`"`) {
		t.Error("the county page no longer links the hidden page")
	}

	pin := unlock(t, h)
	r = jsonReq(t, h, "GET", "/api/admin/seo-audit/thin-pages", pin, nil)
	var rep seoaudit.ThinReport
	if err := json.Unmarshal([]byte(r.Body), &rep); err != nil || r.StatusCode != 200 {
		t.Fatalf("%d %s", r.StatusCode, r.Body)
	}
	want := countPaths(srv, "city", "city-profile")
	if len(rep.Pages) != want {
		t.Errorf("%d pages scored, the site has %d city pages", len(rep.Pages), want)
	}
	for _, p := range rep.Pages {
		if p.Error != "" || p.Words < 100 {
			t.Errorf("%s: %+v", p.Path, p)
		}
		if p.Path == path && !p.NoIndex {
			t.Errorf("smyrna is hidden but listed as not: %+v", p)
		}
		if p.Profile && p.Thin {
			t.Errorf("a fixed city page is thin: %+v", p)
		}
	}
}
