package health

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/jobs"
)

const base = "https://x.test"

func page(canonical string) []byte {
	return []byte(`<!doctype html><html><head><title>t</title><link rel="canonical" href="` + canonical + `"></head><body><link rel="canonical" href="https://elsewhere.test/"></body></html>`)
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		code   int
		status string
		err    string
	}{{200, "active", ""}, {404, "404", "HTTP 404"}, {301, "redirect", ""}, {308, "redirect", ""}, {500, "error", "HTTP 500"}, {204, "error", "HTTP 204"}, {0, "error", "HTTP 0"}} {
		st, e := Classify(c.code)
		if st != c.status || e != c.err {
			t.Errorf("Classify(%d) = %q %q, want %q %q", c.code, st, e, c.status, c.err)
		}
	}
}

func TestCanonical(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{string(page(base + "/a")), base + "/a"},
		{`<html><head><link rel="Canonical" href="/rel"/></head></html>`, "/rel"},
		{`<html><head><link rel="stylesheet" href="/s.css"></head><body><link rel="canonical" href="/late"></body></html>`, ""},
		{`no markup`, ""},
	} {
		if got := Canonical([]byte(c.doc)); got != c.want {
			t.Errorf("Canonical(%.50q) = %q, want %q", c.doc, got, c.want)
		}
	}
}

type memStore struct {
	run     db.HealthRun
	results []db.HealthResult
}

func (m *memStore) SaveHealthRun(_ context.Context, run db.HealthRun, results []db.HealthResult) (db.HealthRun, error) {
	m.run, m.results = run, results
	return run, nil
}

func TestMonitorRun(t *testing.T) {
	site := map[string]Response{
		"/":       {Status: 200, Body: page(base + "/")},
		"/a":      {Status: 200, Body: page(base + "/a")},
		"/gone":   {Status: 404},
		"/moved":  {Status: 301, Location: "/a"},
		"/broken": {Status: 500},
		"/odd":    {Status: 200, Body: page(base + "/other")},
		"/bare":   {Status: 200, Body: []byte("<html><head></head><body>x</body></html>")},
	}
	order := []string{"/", "/a", "/gone", "/moved", "/broken", "/odd", "/bare", "/down"}
	site["/sitemap.xml"] = Response{Status: 200, Body: []byte("<urlset>" + strings.Repeat("<url><loc>x</loc></url>", len(order)) + "</urlset>")}
	site["/robots.txt"] = Response{Status: 200, Body: []byte("User-agent: *\nSitemap: " + base + "/sitemap.xml\n")}
	st := &memStore{}
	m := &Monitor{
		Fetch: func(_ context.Context, p string) (Response, error) {
			if r, ok := site[p]; ok {
				return r, nil
			}
			return Response{}, errors.New("connection refused")
		},
		Pages: func() []Page {
			var out []Page
			for _, p := range order {
				out = append(out, Page{Path: p, Canonical: base + p})
			}
			return out
		},
		SitemapURL: base + "/sitemap.xml", Store: st,
		Enabled: func(context.Context) (bool, error) { return true, nil },
		Log:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	sum, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range st.results {
		got = append(got, fmt.Sprintf("%s %s %d %s %v %s", r.URL, r.Status, r.StatusCode, r.RedirectTo, r.CanonicalOK, r.Error))
	}
	want := []string{
		"/ active 200  true ",
		"/a active 200  true ",
		"/gone 404 404  true HTTP 404",
		"/moved redirect 301 /a true ",
		"/broken error 500  true HTTP 500",
		"/odd active 200  false canonical is https://x.test/other, not https://x.test/odd",
		"/bare active 200  false no canonical link",
		"/down error 0  true connection refused",
		"/sitemap.xml active 200  true ",
		"/robots.txt active 200  true ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want, +got):\n%s", diff)
	}
	if st.run.Checked != 10 || st.run.Issues != 6 || st.run.TriggeredBy != "schedule" {
		t.Errorf("run = %+v", st.run)
	}
	if sum != "checked 10 URLs: 6 issues (/gone 404, /moved redirect, /broken error, /odd canonical, /bare canonical, and 1 more)" {
		t.Errorf("summary %q", sum)
	}

	// A sitemap that lost a page, a robots.txt that lost the sitemap.
	site["/sitemap.xml"] = Response{Status: 200, Body: []byte("<urlset><url><loc>x</loc></url></urlset>")}
	site["/robots.txt"] = Response{Status: 200, Body: []byte("User-agent: *\n")}
	m.Run(context.Background())
	tail := st.results[len(st.results)-2:]
	if tail[0].Status != "error" || !strings.Contains(tail[0].Error, "lists 1 addresses; the site has 8 pages") || tail[1].Status != "error" {
		t.Errorf("sitemap/robots checks: %+v", tail)
	}
}

func TestMonitorToggle(t *testing.T) {
	st := &memStore{}
	fetched := 0
	m := &Monitor{
		Fetch:   func(context.Context, string) (Response, error) { fetched++; return Response{Status: 200}, nil },
		Pages:   func() []Page { return []Page{{Path: "/", Canonical: base + "/"}} },
		Store:   st,
		Enabled: func(context.Context) (bool, error) { return false, nil },
		Log:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if _, err := m.Run(context.Background()); err == nil || err.Error() != "SEO health monitoring is off" || fetched != 0 {
		t.Errorf("off: %v, %d fetches", err, fetched)
	}
	// The admin's Refresh runs whatever the toggle says.
	r := jobs.New(jobs.Options{})
	var done = make(chan string, 1)
	r.Register(jobs.Job{Name: "h", Run: func(ctx context.Context) (string, error) {
		s, err := m.Run(ctx)
		done <- fmt.Sprint(s, err)
		return s, err
	}})
	r.Start()
	defer r.Stop(context.Background())
	r.RunNow("h")
	if got := <-done; !strings.HasPrefix(got, "checked 3 URLs") || st.run.TriggeredBy != "manual" {
		t.Errorf("manual run: %q, %+v", got, st.run)
	}
}
