package audits

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/editor"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/words"
)

// Contents lists the content items behind the location pages
// (contentdb.Store).
type Contents interface {
	Entries(ctx context.Context, kinds ...string) ([]contentdb.Entry, error)
}

// LocationsInfo is GET /api/admin/locations: the Location Pages screen.
type LocationsInfo struct {
	Summary  LocationsSummary  `json:"summary"`
	How      map[string]string `json:"how" tstype:"Record<'counties' | 'cities' | 'sitemapUrls' | 'localSchema', string>"`
	Counties []LocationCounty  `json:"counties"`
}

// LocationsSummary are the screen's four figures, and the number of city
// pages behind the cities.
type LocationsSummary struct {
	Counties    int    `json:"counties"`
	Cities      int    `json:"cities"`
	CityPages   int    `json:"cityPages"`
	SitemapURLs int    `json:"sitemapUrls"`
	LocalSchema string `json:"localSchema" tstype:"'Active' | 'Inactive' | 'Not checked'"`
}

// LocationCounty is a county page with its cities.
type LocationCounty struct {
	Name   string         `json:"name"`
	Slug   string         `json:"slug"`
	Href   string         `json:"href"`
	Cities []LocationCity `json:"cities"`
	// EditID is the content item of the county page, for the caller who
	// may edit content (absent for the others, and for a page no item
	// serves).
	EditID string `json:"editId,omitempty"`
	// Drafts are the county's cities not on the site yet: city items with
	// nothing live. Empty for a caller who may not edit content.
	Drafts []LocationDraft `json:"drafts"`
}

// LocationDraft is a city of a county with no page yet (a new city being
// written or scheduled, or one taken down), with what its state badge
// reads.
type LocationDraft struct {
	ID        string     `json:"id"`
	Title     string     `json:"title"`
	Status    string     `json:"status" tstype:"'draft' | 'published' | 'scheduled' | 'unpublished'"`
	Pending   bool       `json:"pending"`
	PublishAt *time.Time `json:"publishAt"`
}

// LocationCity is one city, listed once, with its page or pages. Href is
// its main page: the fixed city page when it has one.
type LocationCity struct {
	Name  string         `json:"name"`
	Href  string         `json:"href"`
	Pages []LocationPage `json:"pages"`
	// Why says why a city has more than one page ("" with one).
	Why string `json:"why,omitempty"`
}

// LocationPage is one page of a city: its address, which kind of page it
// is, and its title, which says what sets it apart.
type LocationPage struct {
	Href  string `json:"href"`
	Kind  string `json:"kind"` // "Fixed city page" or "City page"
	Title string `json:"title"`
	// EditID is the content item that serves the page (the fixed city
	// page's, or the city's), for the caller who may edit content. A
	// city's main page is among its pages, so the city carries no id of
	// its own (2,000 cities, 94 KB less).
	EditID string `json:"editId,omitempty"`
}

// locationCounties lists every county page with its cities, each city
// once. A city with a fixed city page and a city record of another slug
// (Atlanta: fulton/atlanta-service and fulton/atlanta) has two pages:
// both are listed under it, fixed page first, with why (ADR 021).
func (h *Handler) locationCounties() []LocationCounty {
	out := []LocationCounty{}
	pages := h.Site.CityPages()
	for _, p := range site.ExpandCounties(h.Site.Content()) {
		slug := strings.TrimPrefix(p, "/service-areas/")
		co, _ := h.Site.Content().County(slug)
		lc := LocationCounty{Name: co.Name, Slug: slug, Href: p, Cities: []LocationCity{}, Drafts: []LocationDraft{}}
		at := map[string]int{}
		for _, cp := range pages[slug] {
			name, seo, ok := h.Site.CityPage(slug, cp)
			if !ok {
				continue
			}
			kind := "City page"
			if r, _, ok := h.Site.Lookup(cp); ok && r.Page == "city-profile" {
				kind = "Fixed city page"
			}
			pg := LocationPage{Href: cp, Kind: kind, Title: seo.SEOTitle}
			i, seen := at[strings.ToLower(name)]
			if !seen {
				at[strings.ToLower(name)] = len(lc.Cities)
				lc.Cities = append(lc.Cities, LocationCity{Name: name, Href: cp, Pages: []LocationPage{pg}})
				continue
			}
			c := &lc.Cities[i]
			c.Pages = append(c.Pages, pg)
			if kind == "Fixed city page" {
				c.Href = cp
			}
		}
		for i := range lc.Cities {
			if c := &lc.Cities[i]; len(c.Pages) > 1 {
				c.Why = c.Name + " has " + strconv.Itoa(len(c.Pages)) + " pages: a city page with its own layout, and the city page made from its record in Content Management, at another address. " +
					"Both are published with their own texts and titles, and both are in the sitemap."
				// The fixed page first.
				for j, pg := range c.Pages {
					if pg.Kind == "Fixed city page" && j > 0 {
						c.Pages[0], c.Pages[j] = c.Pages[j], c.Pages[0]
					}
				}
			}
		}
		out = append(out, lc)
	}
	return out
}

// Locations answers the Location Pages screen.
func (h *Handler) Locations(c echo.Context) error {
	f := h.Site.Locations()
	out := LocationsInfo{Summary: LocationsSummary{Counties: f.Counties, CityPages: f.Cities, SitemapURLs: f.Sitemap}, Counties: h.locationCounties()}
	var several []string
	for _, co := range out.Counties {
		out.Summary.Cities += len(co.Cities)
		for _, ci := range co.Cities {
			if len(ci.Pages) > 1 {
				several = append(several, ci.Name+" has "+strconv.Itoa(len(ci.Pages)))
			}
		}
	}
	cities := "Cities with a page, each counted once: one per city in Content Management (four of them also have a city page with its own layout)."
	if len(several) > 0 {
		cities += " They have " + words.Count(out.Summary.CityPages, "city page", "city pages") + ": " + strings.Join(several, "; ") + ", listed under the city with why."
	}
	// Editing is an admin's or an editor's: the PIN reads the figures.
	if auth.From(c).Can(accounts.ContentEdit) {
		if err := h.addEditing(c.Request().Context(), out.Counties); err != nil {
			return httperr.Unavailable("The site's content could not be read; try again in a moment.", err)
		}
	}
	schema, schemaHow := h.localSchema(c.Request().Context())
	out.Summary.LocalSchema = schema
	out.How = map[string]string{
		"counties":    "County pages on the site: one per county in Content Management that has at least one city.",
		"cities":      cities,
		"sitemapUrls": "Every address the sitemap lists for search engines: every page they may list, not only location pages.",
		"localSchema": schemaHow,
	}
	return c.JSON(http.StatusOK, out)
}

// pageKinds is the kind of content item that serves each kind of city
// page: a fixed city page is its own record, not its city's, at the same
// address (/areas/douglas/douglasville is both).
var pageKinds = map[string]string{"Fixed city page": content.KindCityProfile, "City page": content.KindCity}

// addEditing gives each county, city and city page the id of the content
// item the editor opens for it, and each county its cities not on the
// site yet. One read of the three kinds' items, one pass over them and
// one over the pages: linear in the number of items, whatever the site's
// size. An item is matched by its kind and the address of its live copy,
// so a city whose working copy was renamed keeps its page's edit link.
func (h *Handler) addEditing(ctx context.Context, counties []LocationCounty) error {
	es, err := h.Content.Entries(ctx, content.KindCounty, content.KindCity, content.KindCityProfile)
	if err != nil {
		return err
	}
	ids := map[[2]string]string{} // kind, path
	drafts := map[string][]LocationDraft{}
	for _, e := range es {
		if e.LiveSlug != "" {
			ids[[2]string{e.Kind, editor.PathOf(e.Kind, e.LiveSlug)}] = e.ID
			continue
		}
		if county, _, ok := strings.Cut(e.Slug, "/"); ok && e.Kind == content.KindCity {
			// Nothing is live, so the working copy is not (Pending).
			drafts[county] = append(drafts[county], LocationDraft{ID: e.ID, Title: e.Title(), Status: e.Status, Pending: true, PublishAt: e.PublishAt})
		}
	}
	for i := range counties {
		co := &counties[i]
		co.EditID = ids[[2]string{content.KindCounty, co.Href}]
		if d := drafts[co.Slug]; d != nil {
			co.Drafts = d
		}
		for j := range co.Cities {
			ci := &co.Cities[j]
			for k := range ci.Pages {
				pg := &ci.Pages[k]
				pg.EditID = ids[[2]string{pageKinds[pg.Kind], pg.Href}]
			}
		}
	}
	return nil
}
