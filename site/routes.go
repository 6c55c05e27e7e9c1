package site

import (
	"context"
	"strings"

	"github.com/atlanta-restoration/site/content"
)

// Route is the route descriptor of spec 3: the one list of public routes.
// sitemap.xml, robots.txt, the warm-up, the crawler test and the admin
// tools all read this table; nothing else lists routes.
type Route struct {
	// Pattern is a path with {param} segments.
	Pattern string
	// Page is the React page kind (pages/{Page}.tsx).
	Page string
	// Priority is high (0.9), medium (0.7) or low (0.5) in the sitemap.
	Priority   string
	ChangeFreq string
	InSitemap  bool
	Indexable  bool
	// Expand lists the concrete paths of a dynamic pattern.
	Expand func(*content.Set) []string
	// ExpandSite lists them for a pattern whose pages come from more than
	// the content (the published jobs' pages): read it through
	// Site.PathsOf. Paths returns none for such a route.
	ExpandSite func(*Site) []string
	// Load builds the page's data and head from the path parameters. It
	// returns a *NotFoundError when a parameter names nothing.
	Load func(ctx context.Context, s *Site, p Params) (Page, error)
}

// Params are a path's values for a pattern's {param} segments.
type Params map[string]string

// Page is what a loader returns: the data for the React page and the
// head spec.
type Page struct {
	Data any
	Head HeadSpec
}

// Paths returns every concrete path of a route.
func (r Route) Paths(c *content.Set) []string {
	if r.ExpandSite != nil {
		return nil
	}
	if r.Expand != nil {
		return r.Expand(c)
	}
	return []string{r.Pattern}
}

// PathsOf returns every concrete path of a route on this site.
func (s *Site) PathsOf(r Route) []string {
	if r.ExpandSite != nil {
		return r.ExpandSite(s)
	}
	return r.Paths(s.content())
}

// IsDynamic reports whether the pattern has parameters.
func (r Route) IsDynamic() bool { return strings.Contains(r.Pattern, "{") }

// match matches a clean path against a pattern.
func match(pattern, path string) (Params, bool) {
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(path, "/"), "/")
	if len(ps) != len(xs) {
		return nil, false
	}
	out := Params{}
	for i, p := range ps {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			if xs[i] == "" {
				return nil, false
			}
			out[p[1:len(p)-1]] = xs[i]
			continue
		}
		if p != xs[i] {
			return nil, false
		}
	}
	return out, true
}

// Lookup finds the route of a clean path.
func (s *Site) Lookup(path string) (*Route, Params, bool) {
	for i := range s.routes {
		if p, ok := match(s.routes[i].Pattern, path); ok {
			return &s.routes[i], p, true
		}
	}
	return nil, nil, false
}

// Routes returns the route table.
func (s *Site) Routes() []Route { return s.routes }

// AllPaths lists every concrete public path of the table, in table order.
func (s *Site) AllPaths() []string {
	var out []string
	for _, r := range s.routes {
		out = append(out, s.PathsOf(r)...)
	}
	return out
}

// IndexablePaths are every indexable route's paths (what the SEO audit
// and the schema check look at): admin screens, search results and the
// city pages the owner hid from search engines are noindex, so the page
// rules do not apply to them.
func (s *Site) IndexablePaths() []string {
	var out []string
	for _, r := range s.routes {
		if r.Indexable {
			out = append(out, s.listed(s.PathsOf(r))...)
		}
	}
	return out
}

// SitemapPaths are the paths sitemap.xml lists, in table order.
func (s *Site) SitemapPaths() []string {
	var out []string
	for _, r := range s.routes {
		if r.InSitemap && r.Indexable {
			out = append(out, s.listed(s.PathsOf(r))...)
		}
	}
	return out
}

// AddRoute appends a route to the table. It is for tests that need a page
// the table does not have (one whose render fails); call it before the
// site serves.
func (s *Site) AddRoute(r Route) { s.routes = append(s.routes, r) }
