package indexnow

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// RouteInfo describes a route for the admin health monitor.
type RouteInfo struct {
	Path       string `json:"path"`
	Pattern    string `json:"pattern"`
	Component  string `json:"component"`
	IsDynamic  bool   `json:"isDynamic"`
	Priority   string `json:"priority"`
	ChangeFreq string `json:"changefreq"`
	InSitemap  bool   `json:"includeInSitemap"`
	Indexable  bool   `json:"indexable"`
}

// RoutesInfo is GET /api/admin/routes.
type RoutesInfo struct {
	BaseURL string      `json:"baseUrl"`
	Routes  []RouteInfo `json:"routes"`
}

// Routes lists every concrete route of the table.
func (h *Handler) Routes(c echo.Context) error {
	out := []RouteInfo{}
	for _, r := range h.Site.Routes() {
		for _, p := range h.Site.PathsOf(r) {
			out = append(out, RouteInfo{Path: p, Pattern: r.Pattern, Component: r.Page, IsDynamic: r.IsDynamic(), Priority: r.Priority,
				ChangeFreq: r.ChangeFreq, InSitemap: r.InSitemap && r.Indexable, Indexable: r.Indexable})
		}
	}
	return c.JSON(http.StatusOK, RoutesInfo{BaseURL: h.Site.BaseURL(), Routes: out})
}
