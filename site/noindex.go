package site

import (
	"strings"

	"github.com/atlanta-restoration/site/content"
)

// Pages the owner hides from search engines (ADR 064): a city or fixed
// city page whose record says noindex carries a robots noindex tag and is
// left out of sitemap.xml, the HTML sitemap and the lists of indexable
// pages (the SEO audit, IndexNow). It is still rendered, served and
// linked for visitors.

// NoIndexed reports whether the owner hid the page at path from search
// engines (its record's noindex field).
func (s *Site) NoIndexed(path string) bool {
	c := s.content()
	switch kind, key := recordOf(c, path); kind {
	case content.KindCity:
		if county, slug, ok := strings.Cut(key, "/"); ok {
			if ci, ok := c.City(county, slug); ok {
				return ci.NoIndex
			}
		}
	case content.KindCityProfile:
		return s.profileHidden(key)
	}
	return false
}

// profileHidden: a fixed city page is hidden when its own record says so,
// or the city record at the same address does (the page it replaces), so
// the switch on either record does what it says.
func (s *Site) profileHidden(key string) bool {
	c := s.content()
	if pr, ok := c.CityProfiles[key]; ok && pr.NoIndex {
		return true
	}
	if county, slug, ok := strings.Cut(key, "/"); ok {
		if ci, ok := c.City(county, slug); ok {
			return ci.NoIndex
		}
	}
	return false
}

// listed are the paths not hidden from search engines.
func (s *Site) listed(paths []string) []string {
	out := paths[:0:0]
	for _, p := range paths {
		if !s.NoIndexed(p) {
			out = append(out, p)
		}
	}
	return out
}

// hiddenRobots is the robots tag of a page the owner hid ("" otherwise).
func hiddenRobots(hidden bool) string {
	if hidden {
		return "noindex"
	}
	return ""
}
