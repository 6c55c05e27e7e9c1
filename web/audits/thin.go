package audits

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/seoaudit"
	"github.com/atlanta-restoration/site/web/httperr"
)

// ThinPages answers GET /api/admin/seo-audit/thin-pages: every city page
// (the cities of Content Management and the fixed city pages) scored now,
// from the pages the site serves at this moment (ADR 064).
func (h *Handler) ThinPages(c echo.Context) error {
	a := seoaudit.ThinAudit{Fetch: seoaudit.Fetch(h.Fetch), Proof: h.Proof}
	out, err := a.Run(c.Request().Context(), h.cityAuditPages())
	if err != nil {
		return httperr.Unavailable("The city pages could not be scored.", err)
	}
	return c.JSON(http.StatusOK, out)
}

// cityAuditPages lists every city page of the route table with what its
// content says about it, county by county in content order.
func (h *Handler) cityAuditPages() []seoaudit.CityPage {
	c := h.Site.Content()
	pages := h.Site.CityPages()
	var out []seoaudit.CityPage
	for _, co := range c.Counties {
		for _, p := range pages[co.Slug] {
			slug := p[strings.LastIndex(p, "/")+1:]
			cp := seoaudit.CityPage{Path: p, County: co.Name, NoIndex: h.Site.NoIndexed(p)}
			var at *content.City
			if pr, ok := c.CityProfiles[co.Slug+"/"+slug]; ok {
				cp.City, cp.Profile, cp.TextField = pr.CityName, true, "intro"
				cp.OwnWords = profileWords(pr)
				at = cityNamed(c, co.Slug, slug, pr.CityName)
			} else if ci, ok := c.City(co.Slug, slug); ok {
				cp.City, cp.TextField = ci.City, "description"
				cp.OwnWords = len(seoaudit.Words(ci.Intro)) + len(seoaudit.Words(ci.Description))
				at = ci
			} else {
				continue
			}
			if at != nil {
				cp.CityKey = at.County + "/" + at.Slug
				cp.Lat, cp.Lng, cp.Located = at.Lat, at.Lng, at.Placed()
			}
			out = append(out, cp)
		}
	}
	return out
}

// cityNamed is the city record of a fixed city page: the one at its
// address, else the county's city of its name (atlanta-service).
func cityNamed(c *content.Set, county, slug, name string) *content.City {
	if ci, ok := c.City(county, slug); ok {
		return ci
	}
	for _, ci := range c.CitiesOf(county) {
		if strings.EqualFold(ci.City, name) {
			ci := ci
			return &ci
		}
	}
	return nil
}

// profileWords counts the words written for a fixed city page alone.
func profileWords(pr *content.CityProfile) int {
	n := len(seoaudit.Words(pr.Intro))
	for _, l := range [][]string{pr.Neighborhoods, pr.Landmarks} {
		n += len(seoaudit.Words(strings.Join(l, " ")))
	}
	for _, r := range pr.Reasons {
		n += len(seoaudit.Words(r.Title + " " + r.Text))
	}
	for _, f := range pr.FAQs {
		n += len(seoaudit.Words(f.Question + " " + f.Answer))
	}
	return n
}
