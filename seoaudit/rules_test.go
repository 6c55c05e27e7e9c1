package seoaudit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

func doc(t *testing.T, s string) *Doc {
	t.Helper()
	d, err := Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func words(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("word%d", i)
	}
	return strings.Join(w, " ")
}

func links(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `<a href="/p%d">p</a>`, i)
	}
	return b.String()
}

func ld(v any) string {
	b, _ := json.Marshal(v)
	return `<script type="application/ld+json">` + string(b) + `</script>`
}

var nap = Context{URL: "https://www.example.com/", Phone: "(770) 555-0134", Street: "6595 Church Street", City: "Douglasville", Zip: "30134"}

// TestRules pins each rule's pass, warning and fail paths on crafted HTML:
// the same cases the browser rules are pinned with
// (tests/e2e/admin-indexnow.test.mjs), except the two readings ADR 014
// lists (HTTPS on a local address fails; the viewport needs
// width=device-width).
func TestRules(t *testing.T) {
	tests := []struct {
		name string
		run  func(*Doc) result
		html string
		want Status
	}{
		{"title missing", CheckTitle, "", Fail},
		{"title 60", CheckTitle, "<title>" + strings.Repeat("a", 60) + "</title>", Pass},
		{"title 61", CheckTitle, "<title>" + strings.Repeat("a", 61) + "</title>", Warning},
		{"title 60 runes", CheckTitle, "<title>" + strings.Repeat("é", 60) + "</title>", Pass},
		{"description missing", CheckMetaDescription, "", Fail},
		{"description 160", CheckMetaDescription, `<meta name="description" content="` + strings.Repeat("d", 160) + `">`, Pass},
		{"description 161", CheckMetaDescription, `<meta name="Description" content="` + strings.Repeat("d", 161) + `">`, Warning},
		{"canonical missing", CheckCanonical, "", Fail},
		{"canonical", CheckCanonical, `<link rel="canonical" href="https://x.test/">`, Pass},
		{"h1 none", CheckH1, "<p>x</p>", Fail},
		{"h1 one", CheckH1, "<h1>a</h1>", Pass},
		{"h1 two", CheckH1, "<h1>a</h1><h1>b</h1>", Warning},
		{"h2 none", CheckH2, "<h1>a</h1>", Fail},
		{"h2 one", CheckH2, "<h2>a</h2>", Pass},
		{"no images", CheckImageAlt, "<p>x</p>", Pass},
		{"alt", CheckImageAlt, `<img src="a.jpg" alt="A">`, Pass},
		{"alt blank", CheckImageAlt, `<img src="a.jpg" alt="  ">`, Fail},
		{"alt missing", CheckImageAlt, `<img src="a.jpg" alt="A"><img src="b.jpg">`, Fail},
		{"no json-ld", CheckStructuredData, "", Fail},
		{"json-ld without LocalBusiness", CheckStructuredData, ld(map[string]any{"@type": "Organization"}), Fail},
		{"LocalBusiness", CheckStructuredData, ld(map[string]any{"@type": "LocalBusiness"}), Pass},
		{"LocalBusiness in a type list", CheckStructuredData, ld(map[string]any{"@type": []string{"LocalBusiness", "GeneralContractor"}}), Pass},
		{"LocalBusiness in @graph", CheckStructuredData, ld(map[string]any{"@context": "https://schema.org", "@graph": []any{
			map[string]any{"@type": "WebSite"}, map[string]any{"@type": []string{"GeneralContractor", "LocalBusiness"}}}}), Pass},
		{"LocalBusiness and a broken block", CheckStructuredData, ld(map[string]any{"@type": "LocalBusiness"}) + `<script type="application/ld+json">{oops</script>`, Warning},
		{"viewport missing", CheckViewport, "", Fail},
		{"viewport without device-width", CheckViewport, `<meta name="viewport" content="initial-scale=1">`, Fail},
		{"viewport", CheckViewport, `<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=5">`, Pass},
		{"299 words, script text is not content", CheckContentLength, "<p>" + words(299) + "</p><script>" + words(50) + "</script>", Warning},
		{"300 words", CheckContentLength, "<p>" + words(300) + "</p>", Pass},
		{"hidden text is not content", CheckContentLength, "<p>" + words(200) + "</p><div hidden>" + words(200) + "</div>", Warning},
		{"no resource hints", CheckResourceHints, "", Fail},
		{"modulepreload", CheckResourceHints, `<link rel="modulepreload" href="/a.js">`, Pass},
		{"preload", CheckResourceHints, `<link rel="preload" href="/f.woff2" as="font">`, Pass},
		{"speculation-rules prefetch", CheckResourceHints, `<script type="speculationrules">{"prefetch":[{"source":"document","eagerness":"moderate"}]}</script>`, Pass},
		{"speculation rules without prefetch", CheckResourceHints, `<script type="speculationrules">{"prerender":[{"source":"list","urls":["/a"]}]}</script>`, Fail},
		{"speculation rules that are not JSON", CheckResourceHints, `<script type="speculationrules">{"prefetch":[</script>`, Fail},
		{"a plain script is no hint", CheckResourceHints, `<script>{"prefetch":[{"source":"document"}]}</script>`, Fail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.run(doc(t, tt.html))
			if got.status != tt.want {
				t.Errorf("status %s, want %s (%s)", got.status, tt.want, got.message)
			}
			if got.status != Pass && got.fix == "" {
				t.Error("a failing or warning check carries no fix")
			}
		})
	}
}

func TestContextRules(t *testing.T) {
	tests := []struct {
		name string
		run  func(*Doc, Context) result
		html string
		ctx  Context
		want Status
	}{
		{"4 internal links; external, fragment and tel: do not count", CheckInternalLinks,
			links(4) + `<a href="https://other.test/">x</a><a href="#top">t</a><a href="tel:+17705550134">c</a><a href="mailto:a@b.c">m</a>`, nap, Warning},
		{"5 internal links", CheckInternalLinks, links(5), nap, Pass},
		{"absolute links to the own origin count", CheckInternalLinks, strings.Repeat(`<a href="https://www.example.com/x">x</a>`, 5), nap, Pass},
		{"links to another scheme do not count", CheckInternalLinks, strings.Repeat(`<a href="http://www.example.com/x">x</a>`, 5), nap, Warning},
		{"NAP shown", CheckNAP, "<footer>Call 770-555-0134. 6595 Church Street, Douglasville, GA 30134</footer>", nap, Pass},
		{"NAP with +1", CheckNAP, "<footer>Call +1 (770) 555-0134. 6595 Church Street, Douglasville, GA 30134</footer>", nap, Pass},
		{"NAP wrong phone", CheckNAP, "<footer>Call 770-555-0199. 6595 Church Street, Douglasville, GA 30134</footer>", nap, Fail},
		{"NAP without address", CheckNAP, "<footer>Call (770) 555-0134.</footer>", nap, Fail},
		{"NAP in a script only", CheckNAP, "<script>770-555-0134 6595 Church Street Douglasville 30134</script>", nap, Fail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.run(doc(t, tt.html), tt.ctx); got.status != tt.want {
				t.Errorf("status %s, want %s (%s)", got.status, tt.want, got.message)
			}
		})
	}
}

func TestHTTPS(t *testing.T) {
	for _, tt := range []struct {
		url  string
		want Status
		says string
	}{
		{"https://www.example.com/", Pass, "HTTPS"},
		{"http://127.0.0.1:8080/", Fail, "local address"},
		{"http://localhost/", Fail, "local address"},
		{"http://www.example.com/", Fail, "plain HTTP"},
		{"www.example.com", Fail, "protocol"},
	} {
		got := CheckHTTPS(Context{URL: tt.url})
		if got.status != tt.want || !strings.Contains(got.message, tt.says) {
			t.Errorf("%s: %s %q, want %s saying %q", tt.url, got.status, got.message, tt.want, tt.says)
		}
	}
}

func TestScores(t *testing.T) {
	tests := []struct {
		c                 Counts
		score, compliance int
	}{
		{Counts{}, 0, 0},
		{Counts{Passed: 2, Warnings: 1, Failed: 1}, 50, 68},
		{Counts{Passed: 1, Warnings: 1}, 50, 85},
		{Counts{Failed: 1}, 0, 0},
		{Counts{Passed: 9, Warnings: 1}, 90, 97},
		{Counts{Passed: 13}, 100, 100},
		{Counts{Passed: 2, Failed: 1}, 67, 67},
	}
	for _, tt := range tests {
		if got := Score(tt.c); got != tt.score {
			t.Errorf("Score(%+v) = %d, want %d", tt.c, got, tt.score)
		}
		if got := ComplianceScore(tt.c); got != tt.compliance {
			t.Errorf("ComplianceScore(%+v) = %d, want %d", tt.c, got, tt.compliance)
		}
	}
}

// goodPage passes every rule.
func goodPage(extra string) string {
	return `<!doctype html><html><head><title>Water Damage Restoration in Douglasville, GA | 24/7 Help</title>
<meta name="description" content="24/7 water, fire and storm damage restoration across metro Atlanta.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="canonical" href="https://www.example.com/"><link rel="preload" href="/f.woff2" as="font">` +
		ld(map[string]any{"@graph": []any{map[string]any{"@type": "LocalBusiness"}}}) + `</head><body><h1>Restoration</h1><h2>Services</h2>
<img src="/a.jpg" alt="A dried basement"><p>` + words(320) + `</p>` + links(6) + extra +
		`<footer>(770) 555-0134 · 6595 Church Street, Douglasville, GA 30134</footer></body></html>`
}

func TestAuditHTML(t *testing.T) {
	checks, err := AuditHTML([]byte(goodPage("")), nap)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range checks {
		names = append(names, c.Check)
		if c.Status != Pass {
			t.Errorf("%s: %s (%s)", c.Check, c.Status, c.Message)
		}
		if c.Priority != "P0" && c.Priority != "P1" && c.Priority != "P2" {
			t.Errorf("%s: priority %q", c.Check, c.Priority)
		}
	}
	if diff := cmp.Diff(CheckNames(), names); diff != "" {
		t.Errorf("checks (-want, +got):\n%s", diff)
	}
	if len(names) != 13 {
		t.Errorf("%d checks, want 13 (11 page rules + resource hints + NAP)", len(names))
	}
	// On a local http BASE_URL one check fails: 12 of 13 pass.
	local := nap
	local.URL = "http://127.0.0.1:8080/"
	checks, _ = AuditHTML([]byte(goodPage("")), local)
	if got := Score(Count(checks)); got != 92 {
		t.Errorf("local score %d, want 92", got)
	}
}

type fakeStore struct {
	run   db.SEOAuditRun
	pages []db.SEOAuditPage
}

func (f *fakeStore) SaveSEOAudit(_ context.Context, r db.SEOAuditRun, p []db.SEOAuditPage) (db.SEOAuditRun, error) {
	r.ID = "run1"
	f.run, f.pages = r, p
	return r, nil
}

func TestAuditorRun(t *testing.T) {
	bodies := map[string]string{
		"/":        goodPage(""),
		"/thin":    `<html><head><title>Thin</title></head><body><h1>x</h1></body></html>`,
		"/missing": "",
		"/broken":  "",
	}
	st := &fakeStore{}
	a := &Auditor{
		Pages: func() []string { return []string{"/", "/thin", "/missing", "/broken"} },
		Fetch: func(_ context.Context, p string) (int, []byte, error) {
			switch p {
			case "/missing":
				return http.StatusNotFound, nil, nil
			case "/broken":
				return 0, nil, errors.New("boom")
			}
			return http.StatusOK, []byte(bodies[p]), nil
		},
		Base:     "https://www.example.com",
		Business: func(context.Context) Context { return nap },
		Store:    st,
	}
	sum, err := a.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.run.TriggeredBy != TriggerDeploy {
		t.Errorf("first run trigger %q, want deploy", st.run.TriggeredBy)
	}
	thin := Count(mustDecode(t, st.pages[1]).Checks)
	// Site-wide: passes over every check of the two audited pages.
	want := Score(Counts{Passed: 13 + thin.Passed, Warnings: thin.Warnings, Failed: thin.Failed})
	if st.run.Score != want || st.run.Pages != 4 || st.run.Errors != 2 || st.run.Passed != 13+thin.Passed {
		t.Errorf("run %+v, want score %d over 4 pages with 2 errors", st.run, want)
	}
	if st.pages[2].StatusCode != 404 || !strings.Contains(st.pages[2].Error, "HTTP 404") || st.pages[3].Error != "boom" {
		t.Errorf("error pages: %+v %+v", st.pages[2], st.pages[3])
	}
	if !strings.Contains(sum, fmt.Sprintf("%d%% site-wide across 4 pages", want)) || !strings.Contains(sum, "2 pages could not be audited") {
		t.Errorf("summary %q", sum)
	}
	p := mustDecode(t, st.pages[0])
	if p.URL != "https://www.example.com/" || p.Score != 100 || len(p.Checks) != 13 {
		t.Errorf("decoded %+v", p)
	}
	a.Run(context.Background())
	if st.run.TriggeredBy != TriggerContent {
		t.Errorf("second run trigger %q, want content", st.run.TriggeredBy)
	}
}

func mustDecode(t *testing.T, p db.SEOAuditPage) PageResult {
	t.Helper()
	r := Decode(p, "https://www.example.com")
	if strings.HasPrefix(r.Error, "stored") {
		t.Fatal(r.Error)
	}
	return r
}

// A run parses again only the pages whose bytes or business details
// changed: the others' checks are the last run's, and every run's rows
// equal a new auditor's on the same pages.
func TestAuditorRemembersUnchangedPages(t *testing.T) {
	bodies := map[string]string{
		"/":     goodPage(""),
		"/thin": `<html><head><title>Thin</title></head><body><h1>x</h1></body></html>`,
	}
	business := nap
	auditor := func(st *fakeStore) *Auditor {
		return &Auditor{
			Pages:    func() []string { return []string{"/", "/thin"} },
			Fetch:    func(_ context.Context, p string) (int, []byte, error) { return http.StatusOK, []byte(bodies[p]), nil },
			Base:     "https://www.example.com",
			Business: func(context.Context) Context { return business },
			Store:    st,
		}
	}
	st := &fakeStore{}
	a := auditor(st)
	run := func(what string) {
		t.Helper()
		if _, err := a.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		fresh := &fakeStore{}
		if _, err := auditor(fresh).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fresh.pages, st.pages); diff != "" {
			t.Errorf("%s: the remembering auditor differs from a new one (-new, +remembering):\n%s", what, diff)
		}
	}
	run("first run")
	home := a.last["/"].checks
	run("nothing changed")
	if &a.last["/"].checks[0] != &home[0] {
		t.Errorf("/ was parsed again although nothing changed")
	}
	// The thin page grows: it is parsed again, / is not.
	bodies["/thin"] = goodPage("<p>more</p>")
	run("/thin changed")
	if &a.last["/"].checks[0] != &home[0] {
		t.Errorf("/ was parsed again when only /thin changed")
	}
	if p := mustDecode(t, st.pages[1]); p.Score != 100 {
		t.Errorf("/thin after its change: score %d, want 100", p.Score)
	}
	// Another phone number is checked against every page again.
	business.Phone = "(404) 555-0199"
	run("the phone changed")
	if &a.last["/"].checks[0] == &home[0] {
		t.Errorf("/ kept its checks of the old phone number")
	}
	if p := mustDecode(t, st.pages[0]); p.Score == 100 {
		t.Errorf("/ still passes with another phone number than it shows")
	}
}
