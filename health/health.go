// Package health is the SEO health monitor: it checks every sitemap URL,
// sitemap.xml and robots.txt through the server's own handler (no network,
// no crawler traffic), classifies each answer by spec 4 (active, 404,
// redirect with its location, error), checks that each page's canonical
// names the page itself, and stores the run for the Health Monitor tab and
// the dashboard.
package health

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/jobs"
)

// Response is what the server answered for a path.
type Response struct {
	Status   int
	Location string
	Body     []byte
}

// Fetch runs a GET for a site path through the server's handler.
type Fetch func(ctx context.Context, path string) (Response, error)

// Page is a sitemap URL: its path and the canonical URL it must declare.
type Page struct {
	Path      string
	Canonical string
}

// Store keeps runs; *db.Store is one.
type Store interface {
	SaveHealthRun(ctx context.Context, run db.HealthRun, results []db.HealthResult) (db.HealthRun, error)
}

// Spec 4's URL health statuses.
const (
	Active   = "active"
	NotFound = "404"
	Redirect = "redirect"
	Error    = "error"
)

// Monitor checks the site.
type Monitor struct {
	Fetch Fetch
	// Pages lists the sitemap's URLs, in sitemap order.
	Pages func() []Page
	// SitemapURL is the absolute address robots.txt must name.
	SitemapURL string
	Store      Store
	// Enabled reads the 'SEO health monitoring' toggle; runs the admin
	// asks for (jobs.RunNow) happen whatever it says.
	Enabled func(ctx context.Context) (bool, error)
	Log     *slog.Logger
	// Workers is how many checks run at once (default 2).
	Workers int
}

// Classify maps an HTTP status to spec 4's health status: active on 200,
// 404 on 404, redirect on 3xx, error otherwise (0 is a failed request).
func Classify(code int) (status, errText string) {
	switch {
	case code == http.StatusOK:
		return Active, ""
	case code == http.StatusNotFound:
		return NotFound, "HTTP 404"
	case code >= 300 && code < 400:
		return Redirect, ""
	default:
		return Error, fmt.Sprintf("HTTP %d", code)
	}
}

// IsIssue reports whether a result needs attention: anything but an
// active URL whose canonical names itself.
func IsIssue(r db.HealthResult) bool { return r.Status != Active || !r.CanonicalOK }

// Canonical returns the href of the first <link rel="canonical"> in the
// document's head, "" when there is none.
func Canonical(body []byte) string {
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch atom.Lookup(name) {
			case atom.Body:
				return ""
			case atom.Link:
				var rel, href string
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					switch string(k) {
					case "rel":
						rel = string(v)
					case "href":
						href = string(v)
					}
				}
				if strings.EqualFold(strings.TrimSpace(rel), "canonical") {
					return href
				}
			}
		}
	}
}

// Run checks every sitemap URL, then sitemap.xml and robots.txt, stores
// the run and summarises it. It is the health job's body.
func (m *Monitor) Run(ctx context.Context) (string, error) {
	manual := jobs.IsManual(ctx)
	if !manual {
		on, err := m.Enabled(ctx)
		if err != nil {
			return "", fmt.Errorf("read the monitoring setting: %w", err)
		}
		if !on {
			return "", jobs.Skip("SEO health monitoring is off")
		}
	}
	run := db.HealthRun{StartedAt: time.Now().UTC(), TriggeredBy: "schedule"}
	if manual {
		run.TriggeredBy = "manual"
	}
	pages := m.Pages()
	results := make([]db.HealthResult, len(pages))
	workers := m.Workers
	if workers < 1 {
		workers = 2
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = m.checkPage(ctx, pages[i])
			}
		}()
	}
	for i := range pages {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return "", err
	}
	results = append(results, m.checkSitemap(ctx, len(pages)), m.checkRobots(ctx))
	run.FinishedAt = time.Now().UTC()
	run.Checked = len(results)
	var issues []string
	for _, r := range results {
		if IsIssue(r) {
			run.Issues++
			what := r.Status
			if r.Status == Active {
				what = "canonical"
			}
			issues = append(issues, r.URL+" "+what)
		}
	}
	if _, err := m.Store.SaveHealthRun(ctx, run, results); err != nil {
		return "", err
	}
	sum := fmt.Sprintf("checked %d URLs: no issues", run.Checked)
	if run.Issues > 0 {
		if len(issues) > 5 {
			issues = append(issues[:5], fmt.Sprintf("and %d more", len(issues)-5))
		}
		noun := "issues"
		if run.Issues == 1 {
			noun = "issue"
		}
		sum = fmt.Sprintf("checked %d URLs: %d %s (%s)", run.Checked, run.Issues, noun, strings.Join(issues, ", "))
		m.Log.Warn("SEO Health Issues Found", "issues", run.Issues, "first", issues[0])
	}
	return sum, nil
}

// check fetches a path and classifies the answer.
func (m *Monitor) check(ctx context.Context, path string) (db.HealthResult, []byte) {
	r := db.HealthResult{URL: path, CanonicalOK: true}
	res, err := m.Fetch(ctx, path)
	r.CheckedAt = time.Now().UTC()
	if err != nil {
		r.Status, r.Error = Error, err.Error()
		return r, nil
	}
	r.StatusCode = res.Status
	r.Status, r.Error = Classify(res.Status)
	if r.Status == Redirect {
		r.RedirectTo = res.Location
	}
	return r, res.Body
}

func (m *Monitor) checkPage(ctx context.Context, p Page) db.HealthResult {
	r, body := m.check(ctx, p.Path)
	if r.Status != Active {
		return r
	}
	switch c := Canonical(body); {
	case c == "":
		r.CanonicalOK, r.Error = false, "no canonical link"
	case c != p.Canonical:
		r.CanonicalOK, r.Error = false, fmt.Sprintf("canonical is %s, not %s", c, p.Canonical)
	}
	return r
}

// checkSitemap expects sitemap.xml to answer 200 and list every page.
func (m *Monitor) checkSitemap(ctx context.Context, pages int) db.HealthResult {
	r, body := m.check(ctx, "/sitemap.xml")
	if r.Status != Active {
		return r
	}
	if n := bytes.Count(body, []byte("<loc>")); !bytes.Contains(body, []byte("<urlset")) || n != pages {
		r.Status, r.Error = Error, fmt.Sprintf("The sitemap lists %d addresses; the site has %d pages search engines may list", n, pages)
	}
	return r
}

// checkRobots expects robots.txt to answer 200 and point to the sitemap.
func (m *Monitor) checkRobots(ctx context.Context) db.HealthResult {
	r, body := m.check(ctx, "/robots.txt")
	if r.Status != Active {
		return r
	}
	if !bytes.Contains(body, []byte("Sitemap: "+m.SitemapURL)) {
		r.Status, r.Error = Error, "robots.txt does not name "+m.SitemapURL
	}
	return r
}
