package site

import (
	"strings"

	"github.com/atlanta-restoration/site/content"
)

// LocationCounts are the location pages of the route table.
type LocationCounts struct {
	// Counties are county pages (/service-areas/{county}); Cities are city
	// pages, generic and fixed (/areas/{county}/{city}).
	Counties, Cities int
	// Sitemap is every URL sitemap.xml lists.
	Sitemap int
}

// Locations counts the location pages of the route table.
func (s *Site) Locations() LocationCounts {
	var out LocationCounts
	for _, r := range s.routes {
		switch r.Page {
		case "county":
			out.Counties += len(s.PathsOf(r))
		case "city", "city-profile":
			out.Cities += len(s.PathsOf(r))
		}
	}
	out.Sitemap = len(s.SitemapPaths())
	return out
}

// CityPages lists the city pages of the route table by county slug, in
// table order (the four fixed city pages first).
func (s *Site) CityPages() map[string][]string {
	out := map[string][]string{}
	for _, r := range s.routes {
		if r.Page != "city" && r.Page != "city-profile" {
			continue
		}
		for _, p := range s.PathsOf(r) {
			parts := strings.Split(strings.TrimPrefix(p, "/areas/"), "/")
			if len(parts) == 2 {
				out[parts[0]] = append(out[parts[0]], p)
			}
		}
	}
	return out
}

// CityPage names a city page of a county and gives the texts it
// publishes: a fixed city page's own, else its city record's.
func (s *Site) CityPage(county, path string) (string, content.SEO, bool) {
	slug := path[strings.LastIndex(path, "/")+1:]
	if pr, ok := s.content().CityProfiles[county+"/"+slug]; ok {
		return pr.CityName, pr.SEO, true
	}
	if ci, ok := s.content().City(county, slug); ok {
		return ci.City, ci.SEO, true
	}
	return "", content.SEO{}, false
}

// ExpectedSchema is what the route table says a page kind must carry:
// LocalBusiness on every page (spec 5 requires it everywhere), the site
// name (WebSite) on the home page, where Google reads it, a breadcrumb
// trail on every inner page, a Service on the service and location
// pages, and an Article on each blog post. FAQPage is expected wherever
// the page shows an FAQ (found in the HTML, as county pages without a
// profile show none).
func ExpectedSchema(kind string) []string {
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
	case "job":
		out = append(out, "ImageObject")
	}
	return out
}

// FAQItemClass marks each question of the FAQ accordion
// (components/faq.tsx): a page that shows one must publish FAQPage.
const FAQItemClass = "faq__item"
