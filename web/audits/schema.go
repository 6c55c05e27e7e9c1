package audits

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/schemacheck"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/runjob"
)

// Schema Management (ADR 022): the schemacheck package checks
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
	JSON        map[string]any `json:"json,omitempty" tstype:"Record<string, unknown>"`
	// Error says why the block could not be read.
	Error string `json:"error,omitempty"`
}

// SchemaReport is GET /api/admin/schema.
type SchemaReport struct {
	// Run is the latest check (null before the first).
	Run       *schemacheck.Run          `json:"run"`
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
		r := schemacheck.RunOf(run)
		out.Run = &r
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

// The Schema Generator: pick a type and one of the site's real
// pages that carries it, and see the JSON-LD that page serves now, read
// through the server's own handler (the same render the page's visitors
// and search engines get). Nothing is made up for the screen.

// GeneratorTypes are the generator's types (spec 2.4) and the schema
// type each shows.
var GeneratorTypes = []struct{ Name, Kind string }{
	{"LocalBusiness", "LocalBusiness"}, {"Service", "Service"}, {"Article", "Article"}, {"FAQ", "FAQPage"}, {"Review", "Review"},
}

// pageKindNames name the kinds of pages as the picker groups them.
var pageKindNames = map[string]string{
	"home": "Home page", "service": "Service pages", "water-landing": "Water damage page", "county": "County pages",
	"city": "City pages", "city-profile": "Fixed city pages", "blog-post": "Blog posts", "blog": "Blog", "contact": "Contact page",
}

// GeneratorPage is one page the generator offers for a type.
type GeneratorPage struct {
	Path string `json:"path"`
	// Group names the kind of page ("City pages").
	Group string `json:"group"`
}

// GeneratorType is a type with the pages that carry it.
type GeneratorType struct {
	Type  string          `json:"type"`
	Pages []GeneratorPage `json:"pages"`
	// Note says why the list is empty or how it was made.
	Note string `json:"note,omitempty"`
}

// GeneratorOptions is GET /api/admin/schema/generator.
type GeneratorOptions struct {
	Types []GeneratorType `json:"types"`
}

// generatorPages lists, for each type, the pages that carry it: the route
// table's pages whose kind must carry it, and for FAQ the pages the
// latest check found an FAQ on (an FAQ follows the content, not the kind).
func (h *Handler) generatorPages(ctx context.Context) ([]GeneratorType, error) {
	pages := h.Checker.Pages()
	group := func(kind string) string {
		if n, ok := pageKindNames[kind]; ok {
			return n
		}
		return "Other pages"
	}
	faq := map[string]bool{}
	_, rows, err := h.Store.LatestSchemaCheck(ctx)
	checked := err == nil
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return nil, err
	}
	for _, r := range rows {
		p := schemacheck.Decode(r)
		for _, t := range p.Types {
			if t == "FAQPage" {
				faq[p.Path] = true
			}
		}
	}
	out := []GeneratorType{}
	for _, gt := range GeneratorTypes {
		t := GeneratorType{Type: gt.Name, Pages: []GeneratorPage{}}
		for _, p := range pages {
			carries := false
			switch gt.Kind {
			case "FAQPage":
				carries = faq[p.Path]
			case "Review":
				// The rating rides on the business block every page serves.
				carries = slices.Contains(p.Expect, "LocalBusiness")
			default:
				carries = slices.Contains(p.Expect, gt.Kind)
			}
			if carries {
				t.Pages = append(t.Pages, GeneratorPage{Path: p.Path, Group: group(p.Kind)})
			}
		}
		switch {
		case gt.Kind == "FAQPage" && !checked:
			t.Note = "The pages with an FAQ are known after the first structured data check; press Validate All."
		case gt.Kind == "FAQPage" && len(t.Pages) == 0:
			t.Note = "No page shows an FAQ, so none carries FAQ markup."
		case gt.Kind == "Review":
			t.Note = "Reviews are marked up as the business's rating, on the business block of every page, once enough real Google reviews qualify."
		}
		out = append(out, t)
	}
	return out, nil
}

// SchemaGenerator answers the generator's types and pages.
func (h *Handler) SchemaGenerator(c echo.Context) error {
	types, err := h.generatorPages(c.Request().Context())
	if err != nil {
		return httperr.Unavailable("The pages could not be listed.", err)
	}
	return c.JSON(http.StatusOK, GeneratorOptions{Types: types})
}

// Generated is GET /api/admin/schema/generate: the JSON-LD of a type that
// a page serves now.
type Generated struct {
	Type string `json:"type"`
	Path string `json:"path"`
	// JSON holds the items, each standalone with its @context; empty
	// when the page serves none, and Note says why.
	JSON     []map[string]any `json:"json" tstype:"Record<string, unknown>[]"`
	FileName string           `json:"fileName"`
	Note     string           `json:"note,omitempty"`
}

// GenerateSchema answers the JSON-LD of ?type= on the page ?path=, which
// must be one the generator offers for that type.
func (h *Handler) GenerateSchema(c echo.Context) error {
	ctx := c.Request().Context()
	name, path := c.QueryParam("type"), c.QueryParam("path")
	types, err := h.generatorPages(ctx)
	if err != nil {
		return httperr.Unavailable("The pages could not be listed.", err)
	}
	var kind string
	var offered bool
	for i, gt := range GeneratorTypes {
		if gt.Name != name {
			continue
		}
		kind = gt.Kind
		for _, p := range types[i].Pages {
			offered = offered || p.Path == path
		}
	}
	if kind == "" {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Choose a schema type: LocalBusiness, Service, Article, FAQ or Review."}
	}
	if !offered {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Choose one of the site's pages that carries " + name + " markup."}
	}
	status, body, err := h.Fetch(ctx, path)
	if err != nil {
		return httperr.Unavailable("The page could not be read.", err)
	}
	if status != http.StatusOK {
		return &httperr.Error{Status: http.StatusBadGateway, Message: path + " answers HTTP " + strconv.Itoa(status) + ", so it has no structured data to show."}
	}
	out := Generated{Type: name, Path: path, FileName: generatedFileName(name, path)}
	if kind == "Review" {
		out.JSON, err = schemacheck.Ratings(body)
		if err == nil {
			var reviews []map[string]any
			if reviews, err = schemacheck.Items(body, "Review"); err == nil {
				out.JSON = append(out.JSON, reviews...)
			}
		}
		if err == nil && len(out.JSON) == 0 {
			out.Note = "This page carries no review markup now: the business's rating is added once enough real Google reviews qualify, and no invented rating is ever published."
		}
	} else {
		out.JSON, err = schemacheck.Items(body, kind)
		if err == nil && len(out.JSON) == 0 {
			out.Note = path + " serves no " + name + " markup now; the Validation tab says what is missing where."
		}
	}
	if err != nil {
		return httperr.Unavailable("The page's structured data could not be read.", err)
	}
	return c.JSON(http.StatusOK, out)
}

// generatedFileName names the download after the type and page:
// "service-services-water-damage-restoration.json".
func generatedFileName(name, path string) string {
	slug := strings.Trim(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return '-'
	}, path), "-")
	if slug == "" {
		slug = "home"
	}
	return strings.ToLower(name) + "-" + slug + ".json"
}
