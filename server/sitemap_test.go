package server

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./server -run Golden -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want, +got):\n%s", name, diff)
	}
}

func TestGoldenSitemapAndRobots(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	sm := get(t, srv.Handler(), "/sitemap.xml")
	if sm.StatusCode != 200 || !strings.HasPrefix(sm.Header.Get("Content-Type"), "application/xml") {
		t.Fatalf("sitemap: %d %s", sm.StatusCode, sm.Header.Get("Content-Type"))
	}
	golden(t, "sitemap.xml", []byte(sm.Body))
	rb := get(t, srv.Handler(), "/robots.txt")
	if rb.StatusCode != 200 {
		t.Fatalf("robots: %d", rb.StatusCode)
	}
	golden(t, "robots.txt", []byte(rb.Body))
	for _, want := range []string{"Disallow: /admin\n", "Crawl-delay: 1\n", "Sitemap: " + testBase + "/sitemap.xml\n"} {
		if !strings.Contains(rb.Body, want) {
			t.Errorf("robots.txt lacks %q", want)
		}
	}
}

func TestSitemapListsEveryIndexableRoute(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	body := get(t, srv.Handler(), "/sitemap.xml").Body
	n := 0
	for _, r := range srv.site.Routes() {
		for _, p := range r.Paths(srv.site.Content()) {
			in := strings.Contains(body, "<loc>"+testBase+p+"</loc>")
			if r.InSitemap && r.Indexable && !in {
				t.Errorf("sitemap lacks %s", p)
			}
			if (!r.InSitemap || !r.Indexable) && in {
				t.Errorf("sitemap lists non-indexable %s", p)
			}
			if in {
				n++
			}
		}
	}
	for _, p := range []string{"<priority>0.9</priority>", "<priority>0.7</priority>", "<priority>0.5</priority>", "<lastmod>2025-01-18</lastmod>"} {
		if !strings.Contains(body, p) {
			t.Errorf("sitemap lacks %s", p)
		}
	}
	if strings.Contains(body, "/admin") {
		t.Error("sitemap lists admin routes")
	}
	t.Logf("%d URLs in the sitemap", n)
}
