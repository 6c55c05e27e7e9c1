package schemacheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

// brief lists a page result's findings as "severity type property".
func brief(r PageResult) []string {
	out := []string{}
	for _, f := range r.Findings {
		out = append(out, strings.TrimSpace(fmt.Sprintf("%s %s %s", f.Severity, f.Type, f.Property)))
	}
	return out
}

func TestCheckPage(t *testing.T) {
	faqHTML := func(shown int, blocks ...string) []byte {
		h := string(pageHTML(blocks...))
		items := ""
		for i, q := range []string{"Do you work 24/7?", "Do you bill   insurance?", "Is mold covered?"}[:shown] {
			items += fmt.Sprintf(`<details class="faq__item"><summary><span>%s</span></summary><p>Answer %d</p></details>`, q, i)
		}
		return []byte(strings.Replace(h, "</body>", `<section class="faq">`+items+`</section></body>`, 1))
	}
	opt := Options{FAQItemClass: "faq__item"}
	for _, c := range []struct {
		name         string
		body         []byte
		expect       []string
		wantTypes    []string
		wantMissing  []string
		wantFindings []string
		items, valid int
	}{
		{name: "graph with references resolved across blocks",
			body:   pageHTML(graph(okBusiness, okOrganization), `{"@context":"https://schema.org",`+okService[1:]),
			expect: []string{"LocalBusiness", "Service"}, wantTypes: []string{"LocalBusiness", "Organization", "Service"},
			wantMissing: []string{}, wantFindings: []string{}, items: 3, valid: 3},
		{name: "expected type missing",
			body:   pageHTML(graph(okBusiness)),
			expect: []string{"LocalBusiness", "BreadcrumbList"}, wantTypes: []string{"LocalBusiness"},
			wantMissing: []string{"BreadcrumbList"}, wantFindings: []string{"error BreadcrumbList"}, items: 2, valid: 1},
		{name: "no structured data at all",
			body:   pageHTML(),
			expect: []string{"LocalBusiness"}, wantTypes: []string{},
			wantMissing: []string{"LocalBusiness"}, wantFindings: []string{"error LocalBusiness"}, items: 1, valid: 0},
		{name: "unreadable block and a block without context",
			body:   pageHTML(`{"@context":"https://schema.org","@type":"FAQPage",`, `{"@type":"Organization","name":"x"}`, graph(okBusiness)),
			expect: []string{"LocalBusiness"}, wantTypes: []string{"LocalBusiness"},
			wantMissing: []string{}, wantFindings: []string{"error JSON-LD", "error JSON-LD"}, items: 3, valid: 1},
		{name: "item without a type",
			body:      pageHTML(graph(okBusiness, `{"name":"x"}`)),
			wantTypes: []string{"LocalBusiness"}, wantMissing: []string{}, wantFindings: []string{"warning JSON-LD @type"}, items: 1, valid: 1},
		{name: "types without rules are counted, not scored",
			body:      pageHTML(graph(okBusiness, `{"@type":"ContactPage","name":"Contact"}`)),
			wantTypes: []string{"LocalBusiness", "ContactPage"}, wantMissing: []string{}, wantFindings: []string{}, items: 1, valid: 1},
		{name: "visible FAQ with its markup",
			body:      faqHTML(2, graph(okBusiness), `{"@context":"https://schema.org",`+okFAQ[1:]),
			wantTypes: []string{"LocalBusiness", "FAQPage"}, wantMissing: []string{}, wantFindings: []string{}, items: 2, valid: 2},
		{name: "visible FAQ without markup",
			body:      faqHTML(3, graph(okBusiness)),
			wantTypes: []string{"LocalBusiness"}, wantMissing: []string{"FAQPage"}, wantFindings: []string{"error FAQPage"}, items: 2, valid: 1},
		{name: "more questions shown than marked up",
			body:      faqHTML(3, graph(okBusiness), `{"@context":"https://schema.org",`+okFAQ[1:]),
			wantTypes: []string{"LocalBusiness", "FAQPage"}, wantMissing: []string{}, wantFindings: []string{}, items: 2, valid: 2},
		{name: "a question marked up but not shown",
			body:      faqHTML(1, graph(okBusiness), `{"@context":"https://schema.org",`+okFAQ[1:]),
			wantTypes: []string{"LocalBusiness", "FAQPage"}, wantMissing: []string{}, wantFindings: []string{"warning FAQPage mainEntity[1]"}, items: 2, valid: 2},
		{name: "two FAQPages",
			body:      faqHTML(2, graph(okBusiness, okFAQ), graph(okFAQ)),
			wantTypes: []string{"LocalBusiness", "FAQPage"}, wantMissing: []string{}, wantFindings: []string{"error FAQPage"}, items: 3, valid: 2},
		{name: "script type with parameters, array block",
			body:      []byte(`<html><head><script type="application/ld+json; charset=utf-8">[{"@context":"http://schema.org/",` + okOrganization[1:] + `]</script></head></html>`),
			wantTypes: []string{"Organization"}, wantMissing: []string{}, wantFindings: []string{}, items: 1, valid: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := CheckPage(c.body, Page{Path: "/x", Kind: "city", Expect: c.expect}, opt)
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			if diff := cmp.Diff(c.wantTypes, r.Types); diff != "" {
				t.Errorf("types (-want, +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.wantMissing, r.Missing); diff != "" {
				t.Errorf("missing (-want, +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.wantFindings, brief(r)); diff != "" {
				t.Errorf("findings (-want, +got):\n%s\n%+v", diff, r.Findings)
			}
			if r.Items != c.items || r.Valid != c.valid {
				t.Errorf("items %d valid %d, want %d and %d", r.Items, r.Valid, c.items, c.valid)
			}
		})
	}
	r := CheckPage(pageHTML(graph(okBusiness)), Page{Path: "/x", Kind: "city-profile", Expect: []string{"Service"}}, opt)
	if want := "No Service on this page, which every city profile page should carry."; r.Findings[0].Message != want {
		t.Errorf("missing message %q", r.Findings[0].Message)
	}
}

// TestCompareShared: one @id names one thing on every page.
func TestCompareShared(t *testing.T) {
	other := strings.Replace(okBusiness, "+1-770-555-0134", "+1-404-555-0199", 1)
	faq2 := `{"@type":"FAQPage","@id":"` + base + `/#service-faq","mainEntity":[{"@type":"Question","name":"Other?","acceptedAnswer":{"@type":"Answer","text":"Yes."}}]}`
	faq1 := `{"@type":"FAQPage","@id":"` + base + `/#service-faq",` + okFAQ[len(`{"@type":"FAQPage",`):]
	var pages []*PageResult
	for i, b := range [][]string{{okBusiness, faq1}, {okBusiness, faq2}, {other}, {okBusiness}} {
		r := CheckPage(pageHTML(graph(b...)), Page{Path: fmt.Sprintf("/p%d", i)}, Options{})
		pages = append(pages, &r)
	}
	compareShared(pages)
	got := map[string][]string{}
	for _, p := range pages {
		for _, f := range p.Findings {
			got[p.Path] = append(got[p.Path], f.Message)
		}
	}
	want := map[string][]string{
		"/p1": {base + "/#service-faq names a different FAQPage here than on /p0 (mainEntity differ): one @id must mean one thing on every page."},
		"/p2": {base + "/#business names a different LocalBusiness here than on /p0 (telephone differ): one @id must mean one thing on every page."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want, +got):\n%s", diff)
	}
}

func TestSummarize(t *testing.T) {
	pages := []PageResult{
		CheckPage(pageHTML(graph(okBusiness, okService)), Page{Path: "/a", Kind: "city", Expect: []string{"LocalBusiness", "Service", "BreadcrumbList"}}, Options{}),
		CheckPage(pageHTML(graph(strings.Replace(okBusiness, `"telephone":"+1-770-555-0134",`, "", 1), `{"@type":"ContactPage"}`)), Page{Path: "/b", Kind: "contact", Expect: []string{"LocalBusiness"}}, Options{}),
		CheckPage(pageHTML(graph(okBusiness)), Page{Path: "/c", Kind: "city", Expect: []string{"LocalBusiness", "Service", "BreadcrumbList"}}, Options{}),
		{Path: "/gone", Error: "HTTP 404", Expected: []string{"LocalBusiness"}},
	}
	got := []string{}
	for _, s := range Summarize(pages) {
		line := fmt.Sprintf("%s %s pages=%d expected=%d missing=%d valid=%v validated=%v", s.Type, s.Status, s.Pages, s.Expected, s.MissingOn, s.Valid, s.Validated)
		for _, m := range s.Errors {
			line += fmt.Sprintf(" | error %q x%d e.g. %s", m.Text, m.Pages, m.Example)
		}
		for _, m := range s.Warnings {
			line += fmt.Sprintf(" | warning %s x%d e.g. %s", m.Property, m.Pages, m.Example)
		}
		got = append(got, line)
	}
	want := []string{
		"LocalBusiness active pages=3 expected=3 missing=0 valid=true validated=true | warning telephone x1 e.g. /b",
		"Service active pages=1 expected=2 missing=1 valid=false validated=true | error \"No Service on this page, which every city page should carry.\" x1 e.g. /c",
		"BreadcrumbList missing pages=0 expected=2 missing=2 valid=false validated=true | error \"No BreadcrumbList on this page, which every city page should carry.\" x2 e.g. /a",
		"ContactPage active pages=1 expected=0 missing=0 valid=true validated=false",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want, +got):\n%s", diff)
	}
}

// memStore keeps saved runs in memory.
type memStore struct {
	mu   sync.Mutex
	runs []db.SchemaCheckRun
	fail error
}

func (m *memStore) SaveSchemaCheck(_ context.Context, r db.SchemaCheckRun, _ []db.SchemaCheckPage) (db.SchemaCheckRun, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return r, m.fail
	}
	r.ID = fmt.Sprint(len(m.runs) + 1)
	m.runs = append(m.runs, r)
	return r, nil
}

func TestCheckerRun(t *testing.T) {
	site := map[string][]byte{
		"/":      pageHTML(graph(okBusiness, okOrganization, okWebSite)),
		"/areas": pageHTML(graph(strings.Replace(okBusiness, "+1-770-555-0134", "+1-404-555-0199", 1), okBreadcrumbs)),
		"/bare":  pageHTML(),
	}
	fetch := func(_ context.Context, path string) (int, []byte, error) {
		if b, ok := site[path]; ok {
			return 200, b, nil
		}
		return 404, nil, nil
	}
	store := &memStore{}
	c := &Checker{Fetch: fetch, Base: base, Store: store, Pages: func() []Page {
		return []Page{{"/", "home", []string{"LocalBusiness", "WebSite"}}, {"/areas", "county", []string{"LocalBusiness", "BreadcrumbList"}},
			{"/bare", "info", []string{"LocalBusiness"}}, {"/gone", "info", []string{"LocalBusiness"}}}
	}}
	run, pages, err := c.Check(context.Background(), TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	// Items: 3 on /, 2 on /areas, the missing LocalBusiness on /bare.
	want := db.SchemaCheckRun{ID: "1", TriggeredBy: TriggerManual, BaseURL: base, Pages: 4, Covered: 2, Unreadable: 1, Items: 6, Valid: 5, Errors: 1, Warnings: 1, Score: 83}
	run.StartedAt, run.FinishedAt = want.StartedAt, want.FinishedAt
	if diff := cmp.Diff(want, run); diff != "" {
		t.Errorf("run (-want, +got):\n%s", diff)
	}
	if pages[3].Error != "HTTP 404: only pages that answer 200 are checked" || pages[3].StatusCode != 404 {
		t.Errorf("/gone: %+v", pages[3])
	}
	if !strings.Contains(Summary(run), "2 of 4 pages carry structured data; 83% of items valid (1 error, 1 warning); 1 page could not be checked") {
		t.Errorf("summary %q", Summary(run))
	}
	// A failing store fails the run; nothing is half saved.
	store.fail = errors.New("disk full")
	if _, _, err := c.Check(context.Background(), TriggerManual); err == nil {
		t.Error("a failed save must fail the run")
	}
}

func TestTemplate(t *testing.T) {
	page := pageHTML(graph(okBusiness, okOrganization), `{"@context":"https://schema.org",`+okService[1:])
	lb, err := Template(page, "LocalBusiness")
	if err != nil || lb["@context"] != "https://schema.org" || lb["name"] != "Acme Restoration" || fmt.Sprint(lb["@type"]) != "[LocalBusiness GeneralContractor]" {
		t.Errorf("LocalBusiness template %v, %v", lb, err)
	}
	sv, err := Template(page, "Service")
	if err != nil || sv["name"] != "Water Damage Restoration" || sv["@context"] != "https://schema.org" {
		t.Errorf("Service template %v, %v", sv, err)
	}
	if _, err := Template(page, "Article"); err == nil {
		t.Error("a page without an Article gave a template")
	}
}

// A run checks again only the pages whose bytes or expected types
// changed: the others' results are the last run's, and the whole run
// equals what a new checker finds on the same pages. The comparison
// across pages never writes into a remembered result: a page that stops
// disagreeing loses its warning.
func TestCheckerRemembersUnchangedPages(t *testing.T) {
	other := strings.Replace(okBusiness, "+1-770-555-0134", "+1-404-555-0199", 1)
	site := map[string][]byte{
		"/":      pageHTML(graph(okBusiness, okOrganization, okWebSite)),
		"/areas": pageHTML(graph(other, okBreadcrumbs)),
		"/c":     pageHTML(graph(okBusiness)),
	}
	fetch := func(_ context.Context, path string) (int, []byte, error) { return 200, site[path], nil }
	expect := map[string][]string{"/": {"LocalBusiness", "WebSite"}, "/areas": {"LocalBusiness", "BreadcrumbList"}, "/c": {"LocalBusiness"}}
	pages := func() []Page {
		return []Page{{"/", "home", expect["/"]}, {"/areas", "county", expect["/areas"]}, {"/c", "city", expect["/c"]}}
	}
	c := &Checker{Fetch: fetch, Base: base, Store: &memStore{}, Pages: pages}
	fresh := func() []PageResult {
		_, out, err := (&Checker{Fetch: fetch, Base: base, Store: &memStore{}, Pages: pages}).Check(context.Background(), TriggerManual)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	check := func(what string) []PageResult {
		t.Helper()
		_, out, err := c.Check(context.Background(), TriggerContent)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fresh(), out, cmp.AllowUnexported(PageResult{}, sharedItem{})); diff != "" {
			t.Errorf("%s: the remembering checker differs from a new one (-new, +remembering):\n%s", what, diff)
		}
		return out
	}
	first := check("first run")
	if !slices.ContainsFunc(first[1].Findings, func(f Finding) bool { return f.Property == "@id" }) {
		t.Fatalf("/areas: no warning for its different business: %v", brief(first[1]))
	}
	second := check("nothing changed")
	if c.last["/c"].result.Findings == nil || len(second) != 3 {
		t.Fatalf("nothing remembered: %+v", c.last)
	}
	// /areas now agrees: its warning goes; / and /c are not parsed again.
	before := c.last["/"]
	site["/areas"] = pageHTML(graph(okBusiness, okBreadcrumbs))
	third := check("/areas changed")
	if slices.ContainsFunc(third[1].Findings, func(f Finding) bool { return f.Property == "@id" }) {
		t.Errorf("/areas kept the warning of its old bytes: %v", brief(third[1]))
	}
	if after := c.last["/"]; &after.result.Types[0] != &before.result.Types[0] {
		t.Errorf("/ was checked again although its bytes did not change")
	}
	// Another expected type is another check of the same bytes.
	expect["/c"] = []string{"LocalBusiness", "Service"}
	fourth := check("/c expects more")
	if len(fourth[2].Missing) != 1 || fourth[2].Missing[0] != "Service" {
		t.Errorf("/c: missing %v, want [Service]", fourth[2].Missing)
	}
}
