package audits

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/words"
)

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
		lc := LocationCounty{Name: co.Name, Slug: slug, Href: p, Cities: []LocationCity{}}
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
