package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/jobs"
	"github.com/atlanta-restoration/site/schemacheck"
)

// Schema Management (issue 19, ADR 022): the schemacheck package checks
// the JSON-LD every indexable page serves; this file gives it the pages
// of the route table with the types each page kind must carry, runs it as
// a job after every warm-up and on Validate All, and answers the screen.

// jobSchema is the schema check's name in job_runs.
const jobSchema = "schema-check"

// faqItemClass marks each question of the FAQ accordion
// (components/faq.tsx): a page that shows one must publish FAQPage.
const faqItemClass = "faq__item"

// schemaExpect is what the route table says each page kind must carry:
// LocalBusiness on every page (spec 5 requires it everywhere), the site
// name (WebSite) on the home page, where Google reads it, a breadcrumb
// trail on every inner page, a Service on the service and location
// pages, and an Article on each blog post. FAQPage is expected wherever
// the page shows an FAQ (found in the HTML, as county pages without a
// profile show none).
func schemaExpect(kind string) []string {
	out := []string{"LocalBusiness"}
	if kind == "home" {
		out = append(out, "WebSite")
	} else {
		out = append(out, "BreadcrumbList")
	}
	switch kind {
	case "service", "water-landing", "county", "city", "city-profile":
		out = append(out, "Service")
	case "blog-post":
		out = append(out, "Article")
	}
	return out
}

// schemaStore is what the screen reads; *db.Store is one.
type schemaStore interface {
	LatestSchemaCheck(ctx context.Context) (db.SchemaCheckRun, []db.SchemaCheckPage, error)
	LatestSchemaCheckRun(ctx context.Context) (db.SchemaCheckRun, error)
}

// schemaTemplateSource is a page whose real block the Schema Templates
// tab shows.
type schemaTemplateSource struct {
	Kind, Path, FileName, Description string
}

// schemaSet is the schema check and the HTTP side of Schema Management.
type schemaSet struct {
	checker   *schemacheck.Checker
	store     schemaStore
	runNow    func() bool
	fetch     schemacheck.Fetch
	templates func() []schemaTemplateSource
}

// newSchemaCheck builds the check and registers its job: after every
// complete warm-up of the render cache (a deploy's boot, every content
// change; debounced like the SEO audit) and on Validate All.
func (s *Server) newSchemaCheck() *schemaSet {
	set := &schemaSet{
		checker: &schemacheck.Checker{Fetch: s.fetchPage, Pages: s.schemaPages, Base: s.cfg.BaseURL,
			Options: schemacheck.Options{FAQItemClass: faqItemClass}, Log: s.log},
		fetch:     s.fetchPage,
		templates: s.schemaTemplateSources,
		runNow:    func() bool { return s.jobs.runner.RunNow(jobSchema) },
	}
	if s.store == nil {
		return set
	}
	set.checker.Store, set.store = s.store, s.store
	s.jobs.runner.Register(jobs.Job{Name: jobSchema, Debounce: SEOAuditDebounce, Once: true, Run: set.checker.Run})
	s.Cache().OnWarm(func(map[string]string) { s.jobs.runner.Trigger(jobSchema) })
	return set
}

// schemaPages are the pages checked: every indexable route of the table
// (the SEO audit's pages), each with its kind's expected types.
func (s *Server) schemaPages() []schemacheck.Page {
	var out []schemacheck.Page
	for _, r := range s.site.Routes() {
		if !r.Indexable {
			continue
		}
		for _, p := range r.Paths(s.site.Content()) {
			out = append(out, schemacheck.Page{Path: p, Kind: r.Page, Expect: schemaExpect(r.Page)})
		}
	}
	return out
}

// schemaTemplateSources are spec 2.4's two templates, read from the pages
// that serve them: the business block from the home page and the Service
// block of the first primary service.
func (s *Server) schemaTemplateSources() []schemaTemplateSource {
	out := []schemaTemplateSource{{Kind: "LocalBusiness", Path: "/", FileName: "localbusiness-schema.json",
		Description: "The business block every page serves, as the home page serves it now."}}
	for _, sv := range s.site.Content().Services {
		if sv.Primary {
			out = append(out, schemaTemplateSource{Kind: "Service", Path: "/services/" + sv.Slug, FileName: "service-schema.json",
				Description: "The Service block of a service page as it is served now; every service, county and city page has one like it."})
			break
		}
	}
	return out
}

// SchemaCards are the screen's four summary cards. Measured is false
// before the first check: the score is then spec 5's default.
type SchemaCards struct {
	Active       int  `json:"active"`
	Missing      int  `json:"missing"`
	MissingPages int  `json:"missingPages"`
	Covered      int  `json:"covered"`
	Pages        int  `json:"pages"`
	Score        int  `json:"score"`
	Measured     bool `json:"measured"`
}

// SchemaTemplate is one read-only template: a block a page really serves.
type SchemaTemplate struct {
	Type        string         `json:"type"`
	Description string         `json:"description"`
	FileName    string         `json:"fileName"`
	Path        string         `json:"path"`
	JSON        map[string]any `json:"json,omitempty"`
	// Error says why the block could not be read.
	Error string `json:"error,omitempty"`
}

// SchemaReport is GET /api/admin/schema.
type SchemaReport struct {
	// Run is the latest check (null before the first).
	Run       *db.SchemaCheckRun        `json:"run"`
	Cards     SchemaCards               `json:"cards"`
	Types     []schemacheck.TypeSummary `json:"types"`
	Pages     []schemacheck.PageResult  `json:"pages"`
	Templates []SchemaTemplate          `json:"templates"`
	// Routes is how many pages a check covers now.
	Routes int               `json:"routes"`
	How    map[string]string `json:"how"`
}

func (h *schemaSet) report(c echo.Context) error {
	ctx := c.Request().Context()
	out := SchemaReport{Cards: SchemaCards{Score: schemacheck.DefaultScore}, Types: []schemacheck.TypeSummary{}, Pages: []schemacheck.PageResult{},
		Routes: len(h.checker.Pages()), How: schemaHow}
	run, rows, err := h.store.LatestSchemaCheck(ctx)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The schema check could not be loaded.", Err: err}
	}
	if err == nil {
		out.Run = &run
		for _, r := range rows {
			p := schemacheck.Decode(r)
			out.Pages = append(out.Pages, p)
			if len(p.Missing) > 0 {
				out.Cards.MissingPages++
			}
		}
		out.Types = schemacheck.Summarize(out.Pages)
		for _, t := range out.Types {
			if t.Status == "active" {
				out.Cards.Active++
			}
			if t.MissingOn > 0 {
				out.Cards.Missing++
			}
		}
		out.Cards.Covered, out.Cards.Pages, out.Cards.Score, out.Cards.Measured = run.Covered, run.Pages, run.Score, true
	}
	out.Templates = h.readTemplates(ctx)
	return c.JSON(http.StatusOK, out)
}

// readTemplates reads each template's block from its page through the
// server's own handler (the render cache: no new render).
func (h *schemaSet) readTemplates(ctx context.Context) []SchemaTemplate {
	out := []SchemaTemplate{}
	for _, src := range h.templates() {
		t := SchemaTemplate{Type: src.Kind, Description: src.Description, FileName: src.FileName, Path: src.Path}
		status, body, err := h.fetch(ctx, src.Path)
		switch {
		case err != nil:
			t.Error = src.Path + " could not be read: " + err.Error()
		case status != http.StatusOK:
			t.Error = src.Path + " answers HTTP " + strconv.Itoa(status) + "."
		default:
			if t.JSON, err = schemacheck.Template(body, src.Kind); err != nil {
				t.Error = src.Path + ": " + err.Error() + "."
			}
		}
		out = append(out, t)
	}
	return out
}

// validate is Validate All: it asks for a check now and answers at once
// with the id of the run it will replace; the screen polls until a newer
// one appears. Requests made while a check waits to start join it.
func (h *schemaSet) validate(c echo.Context) error {
	after := ""
	if r, err := h.store.LatestSchemaCheckRun(c.Request().Context()); err == nil {
		after = r.ID
	}
	if !h.runNow() {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Background jobs are not available on this server."}
	}
	return c.JSON(http.StatusAccepted, Queued{Queued: true, After: after})
}

// schemaHow says how each card is computed.
var schemaHow = map[string]string{
	"active":  "Schema types found on at least one page in the latest check.",
	"missing": "Schema types the route table expects on a kind of page (LocalBusiness everywhere, WebSite on the home page, BreadcrumbList on inner pages, Service on service and location pages, Article on blog posts, FAQPage wherever an FAQ is shown) that are absent from at least one such page.",
	"covered": "Indexable pages of the route table that carry readable structured data (JSON-LD), out of all of them.",
	"score": "The share of structured-data items without an error, across every page: each LocalBusiness, Organization, WebSite, BreadcrumbList, Article, FAQPage and Service item, plus each expected type that is missing and each block that cannot be read. " +
		"Items with only warnings count as valid, as in Google Search Console. With nothing to score yet it shows 98%, spec 5's default.",
	"when": "The server checks every indexable page after each start and content change, and when you press Validate All.",
}
