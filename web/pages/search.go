package pages

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/search"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/ssr"
)

// renderSearchShell renders the results page once with marks in place of
// the query and around the results region (the one render searches
// cause: one per content version, shared by every search).
func (h *Handler) renderSearchShell(ctx context.Context) (*search.Shell, error) {
	m := h.search.marks
	pg := h.site.SearchPage(m.Query)
	pg.Data = site.SearchData{Query: m.Query, Results: []search.Result{}, Slot: []string{m.Start, m.End}}
	body, err := h.RenderDoc(ctx, "search", site.SearchPath, pg)
	if err != nil {
		return nil, err
	}
	return search.ParseShell(body, m)
}

// serveSearch answers /search?q= (the WebSite SearchAction target). The
// empty search page comes from the render cache; a results page is the
// shell with the query and results written in, in Go, so a search takes
// no JavaScript runtime and costs a fraction of a millisecond.
func (h *Handler) serveSearch(c echo.Context) error {
	r := c.Request()
	q := search.Clean(c.QueryParam("q"))
	if q == "" {
		p, err := h.cache.Get(r.Context(), site.SearchPath)
		if err != nil {
			return err
		}
		ssr.Serve(c.Response(), r, p, HTMLType, h.pageCC)
		return nil
	}
	shell, err := h.search.get(r.Context(), h.renderSearchShell)
	if err != nil {
		return err
	}
	buf := searchBufs.Get().(*searchBuf)
	defer searchBufs.Put(buf)
	p := &ssr.Page{Status: http.StatusOK}
	err = h.search.gate.Do(r.Context(), func() {
		buf.page = shell.AppendPage(buf.page[:0], q, h.site.Search(q))
		p.Body, p.Size = buf.page, len(buf.page)
		if ssr.Negotiate(r.Header.Get("Accept-Encoding")) != "" {
			p.Gzip = buf.gzip(p.Body)
		}
	})
	if err != nil {
		c.Response().Header().Set("Retry-After", "1")
		return errSearchBusy
	}
	ssr.Serve(c.Response(), r, p, HTMLType, "no-store")
	return nil
}
