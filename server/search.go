package server

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/search"
	"github.com/atlanta-restoration/site/ssr"
)

// SearchData is the search page's data. Slot is set only when the page
// is rendered as the shell of every results page (search.Shell).
type SearchData struct {
	Query   string          `json:"query"`
	Results []search.Result `json:"results"`
	Slot    []string        `json:"slot,omitempty"`
}

// searchIndex is built on first use: content never changes at run time.
func (s *Server) searchIndex() *search.Index {
	s.searchOnce.Do(func() { s.searchIx = search.NewIndex(s.content) })
	return s.searchIx
}

// Search returns the documents containing every term of q, best first.
func (s *Server) Search(q string) []search.Result { return s.searchIndex().Search(q) }

func searchRoutes() []Route {
	return []Route{{
		Pattern: "/search", Page: "search", Priority: "low", ChangeFreq: "monthly",
		Load: func(ctx context.Context, s *Server, _ params) (page, error) { return s.searchPage(""), nil },
	}}
}

// searchPage is the page React renders for q. No search page is indexed
// (the route is not Indexable either).
func (s *Server) searchPage(q string) page {
	return page{
		Data: SearchData{Query: q, Results: s.Search(q)},
		Head: headSpec{Title: "Search | Restoration Services & Guides", Description: "Search our restoration services, service areas, city pages and guides.",
			Path: "/search", Crumbs: []Crumb{{"Search", "/search"}}, NoIndex: true},
	}
}

// renderSearchShell renders the results page once with marks in place of
// the query and around the results region (the one render searches
// cause: one per content version, shared by every search).
func (s *Server) renderSearchShell(ctx context.Context) (*search.Shell, error) {
	m := s.searchShells.marks
	pg := s.searchPage(m.Query)
	pg.Data = SearchData{Query: m.Query, Results: []search.Result{}, Slot: []string{m.Start, m.End}}
	body, err := s.renderDoc(ctx, "search", "/search", pg)
	if err != nil {
		return nil, err
	}
	return search.ParseShell(body, m)
}

// serveSearch answers /search?q= (the WebSite SearchAction target). The
// empty search page comes from the render cache; a results page is the
// shell with the query and results written in, in Go, so a search takes
// no JavaScript runtime and costs a fraction of a millisecond.
func (s *Server) serveSearch(c echo.Context) error {
	r := c.Request()
	q := search.Clean(c.QueryParam("q"))
	if q == "" {
		p, err := s.cache.Get(r.Context(), "/search")
		if err != nil {
			return err
		}
		ssr.Serve(c.Response(), r, p, htmlType, s.pageCC)
		return nil
	}
	shell, err := s.searchShells.get(r.Context(), s.renderSearchShell)
	if err != nil {
		return err
	}
	buf := searchBufs.Get().(*searchBuf)
	defer searchBufs.Put(buf)
	p := &ssr.Page{Status: http.StatusOK}
	err = s.searchShells.gate.Do(r.Context(), func() {
		buf.page = shell.AppendPage(buf.page[:0], q, s.Search(q))
		p.Body, p.Size = buf.page, len(buf.page)
		if ssr.Negotiate(r.Header.Get("Accept-Encoding")) != "" {
			p.Gzip = buf.gzip(p.Body)
		}
	})
	if err != nil {
		c.Response().Header().Set("Retry-After", "1")
		return errSearchBusy
	}
	ssr.Serve(c.Response(), r, p, htmlType, "no-store")
	return nil
}
