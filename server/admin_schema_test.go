package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/indexnow/indexnowtest"
	"github.com/atlanta-restoration/site/schemacheck"
	"github.com/atlanta-restoration/site/web/audits"
)

// sitemapCount counts the URLs /sitemap.xml lists: every indexable page,
// read independently of the route-table code the check uses.
func sitemapCount(t *testing.T, srv *Server) int {
	t.Helper()
	r := get(t, srv, "/sitemap.xml")
	if r.StatusCode != 200 {
		t.Fatalf("sitemap: %d", r.StatusCode)
	}
	return len(regexp.MustCompile(`<loc>`).FindAllString(r.Body, -1))
}

// TestSchemaCheckOfTheSiteAsBuilt runs the real check over the real site,
// in process: every indexable page carries structured data, every type
// its kind must carry is there, and nothing is an error. The screen's
// figures are the stored run's.
func TestSchemaCheckOfTheSiteAsBuilt(t *testing.T) {
	srv, _ := adminServer(t, nil)
	tok := unlock(t, srv)
	before := decode[audits.SchemaReport](t, jsonReq(t, srv, "GET", "/api/admin/schema", tok, nil))
	if before.Run != nil || len(before.Types) != 0 || before.Cards.Measured || before.Cards.Score != 98 || before.Routes != sitemapCount(t, srv) {
		t.Errorf("before any check: %+v", before)
	}

	run, pages, err := srv.jobs.schema.Check(context.Background(), schemacheck.TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	total := sitemapCount(t, srv)
	if total < 100 {
		t.Fatalf("the sitemap lists %d pages", total)
	}
	if run.Pages != total || run.Covered != total || run.Unreadable != 0 || run.Errors != 0 || run.Score != 100 || run.Items == 0 || run.Valid != run.Items {
		t.Errorf("run %+v, want all %d pages covered and no errors", run, total)
	}
	kinds := map[string]string{}
	for _, r := range srv.site.Routes() {
		for _, p := range r.Paths(srv.site.Content()) {
			kinds[p] = r.Page
		}
	}
	for _, p := range pages {
		for _, f := range p.Findings {
			if f.Severity == schemacheck.Error {
				t.Errorf("%s: %s %s: %s", p.Path, f.Type, f.Property, f.Message)
			}
		}
		if len(p.Missing) != 0 || p.Kind != kinds[p.Path] {
			t.Errorf("%s (%s, route table %s): missing %v", p.Path, p.Kind, kinds[p.Path], p.Missing)
		}
	}

	rep := decode[audits.SchemaReport](t, jsonReq(t, srv, "GET", "/api/admin/schema", tok, nil))
	if rep.Run == nil || rep.Run.ID != run.ID || len(rep.Pages) != total {
		t.Fatalf("report run %+v with %d pages", rep.Run, len(rep.Pages))
	}
	if c := rep.Cards; !c.Measured || c.Pages != total || c.Covered != total || c.Score != 100 || c.Missing != 0 || c.MissingPages != 0 || c.Active != len(rep.Types) {
		t.Errorf("cards %+v", c)
	}
	by := map[string]schemacheck.TypeSummary{}
	for _, ts := range rep.Types {
		by[ts.Type] = ts
	}
	blogPosts, services := countPaths(srv, "blog-post"), countPaths(srv, "service", "water-landing", "county", "city", "city-profile")
	for typ, pages := range map[string]int{"LocalBusiness": total, "Organization": total, "WebSite": total, "BreadcrumbList": total - 1, "Article": blogPosts, "Service": services} {
		ts := by[typ]
		if ts.Status != "active" || ts.Pages != pages || !ts.Valid || !ts.Validated || ts.Priority == "" || ts.Description == "" {
			t.Errorf("%s: %+v, want active on %d pages", typ, ts, pages)
		}
	}
	if f := by["FAQPage"]; f.Pages == 0 || f.Pages != f.Expected || !f.Valid {
		t.Errorf("FAQPage %+v", f)
	}
	// The sample's findings are gone: no invented review counts, no
	// Article error. Only the findings' words are searched: the run's
	// ID is random hex and holds "138" about once in 190 runs.
	for _, s := range []string{"138", "publisher.logo", `"87"`, `"150"`, `"247"`} {
		if strings.Contains(strings.Join(messages(rep.Types), " "), s) {
			t.Errorf("report mentions %s", s)
		}
	}

	// Templates are the blocks the pages serve.
	if len(rep.Templates) != 2 {
		t.Fatalf("templates %+v", rep.Templates)
	}
	lb, sv := rep.Templates[0], rep.Templates[1]
	b := srv.settings.Business(context.Background())
	if lb.Type != "LocalBusiness" || lb.Error != "" || lb.JSON["name"] != b.Name || lb.JSON["@context"] != "https://schema.org" || lb.FileName != "localbusiness-schema.json" {
		t.Errorf("LocalBusiness template %+v", lb)
	}
	if sv.Type != "Service" || sv.Error != "" || sv.JSON["@type"] != "Service" || !strings.HasPrefix(sv.Path, "/services/") || sv.FileName != "service-schema.json" ||
		sv.JSON["url"] != testBase+sv.Path {
		t.Errorf("Service template %+v", sv)
	}
	if !strings.Contains(get(t, srv, sv.Path).Body, `"name":"`+sv.JSON["name"].(string)+`"`) {
		t.Errorf("the Service template is not what %s serves", sv.Path)
	}
}

func messages(ts []schemacheck.TypeSummary) []string {
	var out []string
	for _, t := range ts {
		for _, m := range append(append([]schemacheck.Message{}, t.Errors...), t.Warnings...) {
			out = append(out, m.Text)
		}
	}
	return out
}

// TestSchemaCheckFindsABrokenPage: a page kind that loses its expected
// block is an error on every such page, and the score drops.
func TestSchemaCheckFindsABrokenPage(t *testing.T) {
	srv, _ := adminServer(t, nil)
	real := srv.jobs.schema
	c := &schemacheck.Checker{Fetch: real.Fetch, Base: real.Base, Options: real.Options, Store: real.Store}
	c.Pages = func() []schemacheck.Page {
		// The contact page is not a service page: ask it for a Service.
		return []schemacheck.Page{{Path: "/contact", Kind: "contact", Expect: []string{"LocalBusiness", "Service"}}, {Path: "/no-such-page", Kind: "info"}}
	}
	run, pages, err := c.Check(context.Background(), schemacheck.TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	if run.Errors != 1 || run.Unreadable != 1 || run.Score >= 100 || len(pages[0].Missing) != 1 || pages[1].StatusCode != 404 {
		t.Errorf("run %+v, pages %+v", run, pages)
	}
}

// TestSchemaEndpointsAsAnAttacker: without a PIN session nothing answers
// but 401 (no-store); a PIN session works; a revoked one is refused;
// hostile bodies and methods change nothing.
func TestSchemaEndpointsAsAnAttacker(t *testing.T) {
	srv, store := adminServer(t, nil)
	for _, c := range []struct{ method, path string }{{"GET", "/api/admin/schema"}, {"POST", "/api/admin/schema/validate"}} {
		for _, tok := range []string{"", "forged-token", strings.Repeat("x", 5000)} {
			r := jsonReq(t, srv, c.method, c.path, tok, nil)
			if r.StatusCode != http.StatusUnauthorized || r.Header.Get("Cache-Control") != "no-store" || strings.Contains(r.Body, "LocalBusiness") {
				t.Errorf("%s %s with token %.10q: %d %q", c.method, c.path, tok, r.StatusCode, r.Header.Get("Cache-Control"))
			}
		}
	}
	tok := unlock(t, srv)
	r := jsonReq(t, srv, "GET", "/api/admin/schema", tok, nil)
	if r.StatusCode != 200 || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("with the PIN session: %d %q", r.StatusCode, r.Header.Get("Cache-Control"))
	}
	// This server runs no jobs: Validate All says so rather than pretend.
	if r := jsonReq(t, srv, "POST", "/api/admin/schema/validate", tok, nil); r.StatusCode != http.StatusAccepted && r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("validate: %d %s", r.StatusCode, r.Body)
	}
	// A large body and other methods are refused or ignored; nothing is stored.
	big := httptest.NewRequest("POST", "/api/admin/schema/validate", strings.NewReader(strings.Repeat("{", 20<<20)))
	big.Header.Set("Authorization", "Bearer "+tok)
	big.Header.Set("Content-Type", "application/json")
	if r := do(t, srv, big); r.StatusCode >= 500 && r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("oversized body: %d %s", r.StatusCode, r.Body)
	}
	for _, m := range []string{"PUT", "DELETE", "PATCH"} {
		if r := jsonReq(t, srv, m, "/api/admin/schema", tok, map[string]any{"run": map[string]any{"score": 100}}); r.StatusCode < 400 {
			t.Errorf("%s /api/admin/schema: %d", m, r.StatusCode)
		}
	}
	if _, err := store.LatestSchemaCheckRun(context.Background()); err == nil {
		t.Error("a request stored a check")
	}
	// Once locked, the token is dead.
	if r := jsonReq(t, srv, "POST", "/api/admin/logout", tok, nil); r.StatusCode != http.StatusNoContent {
		t.Fatalf("logout: %d", r.StatusCode)
	}
	if r := jsonReq(t, srv, "GET", "/api/admin/schema", tok, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("after logout: %d", r.StatusCode)
	}
}

// TestValidateAllInParallel: many Validate All presses at once are all
// accepted, join into runs of the one job, and every stored run is whole;
// checks run side by side (not through the job) are each stored whole
// too.
func TestValidateAllInParallel(t *testing.T) {
	fake := indexnowtest.New(t, 200)
	srv, store := warmServer(t, fake, nil)
	tok := unlock(t, srv)
	var wg sync.WaitGroup
	codes := make(chan int, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- jsonReq(t, srv, "POST", "/api/admin/schema/validate", tok, nil).StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusAccepted {
			t.Errorf("validate: %d", c)
		}
	}
	// Rendering every page is slow under -race: wait as the SEO audit test does.
	waitFor(t, "the first schema check", func() bool {
		_, err := store.LatestSchemaCheckRun(context.Background())
		return err == nil
	})
	first := waitRun(t, store, jobSchema, 1)
	if first.Outcome != db.OutcomeOK || !strings.Contains(first.Summary, "Schema check:") {
		t.Fatalf("first run %+v", first)
	}
	run, err := store.LatestSchemaCheckRun(context.Background())
	if err != nil || run.TriggeredBy != schemacheck.TriggerManual {
		t.Fatalf("latest %+v, %v", run, err)
	}

	var side sync.WaitGroup
	errs := make(chan error, 3)
	for i := 0; i < 3; i++ {
		side.Add(1)
		go func() {
			defer side.Done()
			_, _, err := srv.jobs.schema.Check(context.Background(), schemacheck.TriggerManual)
			errs <- err
		}()
	}
	side.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	total := sitemapCount(t, srv)
	rep := decode[audits.SchemaReport](t, jsonReq(t, srv, "GET", "/api/admin/schema", tok, nil))
	if rep.Run == nil || rep.Run.Pages != total || len(rep.Pages) != total || rep.Run.Errors != 0 || rep.Cards.Covered != total {
		t.Errorf("latest after parallel checks: %+v with %d pages", rep.Run, len(rep.Pages))
	}
	seen := map[string]bool{}
	for _, p := range rep.Pages {
		if seen[p.Path] {
			t.Errorf("%s twice in one run", p.Path)
		}
		seen[p.Path] = true
	}
}
