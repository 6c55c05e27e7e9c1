package audits

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/schemacheck"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/runjob"
)

// Schema Management (issue 19, ADR 022): the schemacheck package checks
// the JSON-LD every indexable page serves, as a job after every warm-up
// and on Validate All; these handlers answer the screen.

// schemaTemplateSource is a page whose real block the Schema Templates
// tab shows.
type schemaTemplateSource struct {
	Kind, Path, FileName, Description string
}

// schemaTemplateSources are spec 2.4's two templates, read from the pages
// that serve them: the business block from the home page and the Service
// block of the first primary service.
func (h *Handler) templateSources() []schemaTemplateSource {
	out := []schemaTemplateSource{{Kind: "LocalBusiness", Path: "/", FileName: "localbusiness-schema.json",
		Description: "The business block every page serves, as the home page serves it now."}}
	for _, sv := range h.Site.Content().Services {
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

// Schema answers Schema Management: the latest check's cards, types and
// pages, and the two templates as the site serves them now.
func (h *Handler) Schema(c echo.Context) error {
	ctx := c.Request().Context()
	out := SchemaReport{Cards: SchemaCards{Score: schemacheck.DefaultScore}, Types: []schemacheck.TypeSummary{}, Pages: []schemacheck.PageResult{},
		Routes: len(h.Checker.Pages()), How: schemaHow}
	run, rows, err := h.Store.LatestSchemaCheck(ctx)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable("The schema check could not be loaded.", err)
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
func (h *Handler) readTemplates(ctx context.Context) []SchemaTemplate {
	out := []SchemaTemplate{}
	for _, src := range h.templateSources() {
		t := SchemaTemplate{Type: src.Kind, Description: src.Description, FileName: src.FileName, Path: src.Path}
		status, body, err := h.Fetch(ctx, src.Path)
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

// ValidateSchema is Validate All: it asks for a check now. Requests made
// while a check waits to start join it.
func (h *Handler) ValidateSchema() echo.HandlerFunc {
	return runjob.Handler(h.Jobs.Runner, h.Jobs.Schema, func(ctx context.Context) string {
		if r, err := h.Store.LatestSchemaCheckRun(ctx); err == nil {
			return r.ID
		}
		return ""
	}, "Background jobs are not available on this server.")
}

// schemaHow says how each card is computed.
var schemaHow = map[string]string{
	"active":  "Schema types found on at least one page in the latest check.",
	"missing": "Schema types the site expects on a kind of page (LocalBusiness everywhere, WebSite on the home page, BreadcrumbList on inner pages, Service on service and location pages, Article on blog posts, FAQPage wherever an FAQ is shown) that are absent from at least one such page.",
	"covered": "Pages search engines may list that carry readable structured data (JSON-LD), out of all of them.",
	"score": "The share of structured-data items without an error, across every page: each LocalBusiness, Organization, WebSite, BreadcrumbList, Article, FAQPage and Service item, plus each expected type that is missing and each block that cannot be read. " +
		"Items with only warnings count as valid, as in Google Search Console. With nothing to score yet it shows 98%, the starting figure.",
	"when": "The server checks every indexable page after each start and content change, and when you press Validate All.",
}
