package site

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// A city page and a fixed city page the owner hides from search engines
// carry a robots noindex tag (links still followed), leave sitemap.xml,
// the HTML sitemap and the indexable pages, and are still built, listed
// among every path and linked from their county page. Nothing is hidden
// by default.
func TestNoIndexedCityPages(t *testing.T) {
	s := newTestSite(t)
	ctx := context.Background()
	const city, fixed = "/areas/cobb/smyrna", "/areas/cobb/marietta"
	for _, p := range s.AllPaths() {
		if s.NoIndexed(p) {
			t.Errorf("%s is hidden by default", p)
		}
	}
	for _, p := range []string{city, fixed} {
		if !slices.Contains(s.SitemapPaths(), p) || !strings.Contains(string(s.SitemapXML()), testBase+p+"<") {
			t.Fatalf("%s is not in the sitemap before it is hidden", p)
		}
		_, pg, err := s.Load(ctx, p)
		if err != nil || s.Props(ctx, p, pg).Head.Robots != "index, follow, max-image-preview:large" {
			t.Fatalf("%s before: %v %q", p, err, s.Props(ctx, p, pg).Head.Robots)
		}
	}
	ci, _ := s.Content().City("cobb", "smyrna")
	ci.NoIndex = true
	s.Content().CityProfiles["cobb/marietta"].NoIndex = true
	sitemap := string(s.SitemapXML())
	_, html, err := s.Load(ctx, "/sitemap")
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]bool{}
	for _, g := range html.Data.(SitemapData).Groups {
		for _, sub := range append(g.Subs, g) {
			for _, l := range sub.Links {
				links[l.Href] = true
			}
		}
	}
	for _, p := range []string{city, fixed} {
		if !s.NoIndexed(p) {
			t.Errorf("%s: not hidden", p)
		}
		if strings.Contains(sitemap, testBase+p+"<") || slices.Contains(s.SitemapPaths(), p) || slices.Contains(s.IndexablePaths(), p) {
			t.Errorf("%s: still in sitemap.xml or among the indexable pages", p)
		}
		if links[p] {
			t.Errorf("%s: still in the HTML sitemap", p)
		}
		if !slices.Contains(s.AllPaths(), p) {
			t.Errorf("%s: no longer a page of the site", p)
		}
		_, pg, err := s.Load(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if got := s.Props(ctx, p, pg).Head.Robots; got != "noindex" {
			t.Errorf("%s: robots %q, want noindex", p, got)
		}
	}
	if !links["/areas/cobb/vinings"] || !strings.Contains(sitemap, testBase+"/areas/cobb/vinings<") {
		t.Error("a city the owner did not hide left the sitemaps")
	}
	_, county, err := s.Load(ctx, "/service-areas/cobb")
	if err != nil {
		t.Fatal(err)
	}
	linked := false
	for _, c := range county.Data.(CountyData).Cities {
		linked = linked || c.Href == city
	}
	if !linked {
		t.Error("the county page no longer links the hidden city")
	}
}

// A fixed city page is also hidden by the switch of the city record it
// replaces at its address: either record's switch does what it says.
func TestFixedCityPageHiddenByItsCityRecord(t *testing.T) {
	s := newTestSite(t)
	const fixed = "/areas/gwinnett/lawrenceville"
	if s.NoIndexed(fixed) {
		t.Fatal("hidden by default")
	}
	ci, ok := s.Content().City("gwinnett", "lawrenceville")
	if !ok {
		t.Fatal("no Lawrenceville city record")
	}
	ci.NoIndex = true
	_, pg, err := s.Load(context.Background(), fixed)
	if err != nil {
		t.Fatal(err)
	}
	if !s.NoIndexed(fixed) || slices.Contains(s.SitemapPaths(), fixed) || s.Props(context.Background(), fixed, pg).Head.Robots != "noindex" {
		t.Error("the city record's switch does not hide the fixed page at its address")
	}
}
