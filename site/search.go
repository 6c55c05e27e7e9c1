package site

import (
	"context"

	"github.com/atlanta-restoration/site/search"
)

// SearchData is the search page's data. Slot is set only when the page
// is rendered as the shell of every results page (search.Shell): the
// marks of the results region's start and end.
type SearchData struct {
	Query   string          `json:"query"`
	Results []search.Result `json:"results"`
	Slot    []string        `json:"slot,omitempty" tstype:"[string, string]"`
}

// SearchPath is the search page; it is served per query (web/pages), its
// empty state from the render cache.
const SearchPath = "/search"

// searchIndex is built on the first search of a content version.
func (s *Site) searchIndex() *search.Index {
	st := s.state()
	st.searchOnce.Do(func() { st.searchIx = search.NewIndex(st.content) })
	return st.searchIx
}

// Search returns the documents containing every term of q, best first.
func (s *Site) Search(q string) []search.Result { return s.searchIndex().Search(q) }

func searchRoutes() []Route {
	return []Route{{
		Pattern: SearchPath, Page: "search", Priority: "low", ChangeFreq: "monthly",
		Load: func(ctx context.Context, s *Site, _ Params) (Page, error) { return s.SearchPage(""), nil },
	}}
}

// SearchPage is the page React renders for q. No search page is indexed
// (the route is not Indexable either).
func (s *Site) SearchPage(q string) Page {
	return Page{
		Data: SearchData{Query: q, Results: s.Search(q)},
		Head: HeadSpec{Title: "Search | Restoration Services & Guides", Description: "Search our restoration services, service areas, city pages and guides.",
			Path: SearchPath, Crumbs: []Crumb{{"Search", SearchPath}}, NoIndex: true},
	}
}
