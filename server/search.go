package server

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/ssr"
)

// SearchResult is one hit.
type SearchResult struct {
	Kind    string `json:"kind"` // Service, Service area, City, Article, Page
	Title   string `json:"title"`
	Href    string `json:"href"`
	Snippet string `json:"snippet"`
	score   int
}

// SearchData is the search page's data.
type SearchData struct {
	Query   string         `json:"query"`
	Results []SearchResult `json:"results"`
}

// maxQuery bounds the work one search request can cause.
const (
	maxQuery   = 100
	maxResults = 30
)

type searchDoc struct {
	kind, title, href, snippet string
	keywords, body             string // lower-cased
	titleLC                    string
}

// searchIndex lists everything searchable: services, counties, cities,
// articles and info pages. Content is static, so it is built once.
func (s *Server) searchIndex() []searchDoc {
	s.searchOnce.Do(func() {
		add := func(kind, title, href, snippet string, keywords []string, body ...string) {
			s.searchDocs = append(s.searchDocs, searchDoc{kind: kind, title: title, href: href, snippet: snippet,
				titleLC: strings.ToLower(title), keywords: strings.ToLower(strings.Join(keywords, " ")), body: strings.ToLower(strings.Join(body, " "))})
		}
		for _, sv := range s.content.Services {
			add("Service", sv.Title, "/services/"+sv.Slug, sv.ShortDescription, sv.Keywords, sv.Description, strings.Join(sv.Features, " "), strings.Join(sv.Body, " "))
		}
		for _, c := range s.content.Counties {
			add("Service area", c.Name+" County", "/service-areas/"+c.Slug, c.Intro, c.Keywords, c.Intro)
		}
		for _, c := range s.content.Cities {
			add("City", c.City+", GA", "/areas/"+c.County+"/"+c.Slug, c.Intro, c.Keywords, c.Intro, c.Description, c.County+" county")
		}
		for _, a := range s.content.Articles {
			add("Article", a.Title, "/blog/"+a.Slug, a.Excerpt, a.Keywords, a.Excerpt, a.Content)
		}
		for slug, p := range s.content.Pages {
			add("Page", p.Title, "/"+slug, p.MetaDescription, p.Keywords, p.Content)
		}
	})
	return s.searchDocs
}

// Search returns the documents containing every term of q, best first:
// a term in the title counts most, then keywords, then body text.
func (s *Server) Search(q string) []SearchResult {
	terms := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(terms) == 0 {
		return []SearchResult{}
	}
	var out []SearchResult
	for _, d := range s.searchIndex() {
		score := 0
		for _, t := range terms {
			ts := 8*strings.Count(d.titleLC, t) + 4*strings.Count(d.keywords, t) + min(strings.Count(d.body, t), 10)
			if ts == 0 {
				score = 0
				break
			}
			score += ts
		}
		if score > 0 {
			out = append(out, SearchResult{Kind: d.kind, Title: d.title, Href: d.href, Snippet: d.snippet, score: score})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	if len(out) > maxResults {
		out = out[:maxResults]
	}
	if out == nil {
		out = []SearchResult{}
	}
	return out
}

func searchRoutes() []Route {
	return []Route{{
		Pattern: "/search", Page: "search", Priority: "low", ChangeFreq: "monthly",
		Load: func(ctx context.Context, s *Server, _ params) (page, error) { return s.searchPage(""), nil },
	}}
}

func (s *Server) searchPage(q string) page {
	return page{
		Data: SearchData{Query: q, Results: s.Search(q)},
		Head: headSpec{Title: "Search | Restoration Services & Guides", Description: "Search our restoration services, service areas, city pages and guides.",
			Path: "/search", Crumbs: []Crumb{{"Search", "/search"}}},
	}
}

// serveSearch renders results per request (the WebSite SearchAction
// target); the empty search page comes from the cache.
func (s *Server) serveSearch(c echo.Context) error {
	q := strings.TrimSpace(c.QueryParam("q"))
	if r := []rune(q); len(r) > maxQuery {
		q = string(r[:maxQuery])
	}
	if q == "" {
		p, err := s.cache.Get(c.Request().Context(), "/search")
		if err != nil {
			return err
		}
		ssr.Serve(c.Response(), c.Request(), p, htmlType, s.pageCC)
		return nil
	}
	key := normalizeQuery(q)
	p, gen := s.searchCache.get(key)
	if p == nil {
		err := s.searchCache.render(c.Request().Context(), func() error {
			pg := s.searchPage(key)
			pg.Head.NoIndex = true
			body, err := s.renderDoc(c.Request().Context(), "search", "/search", pg)
			if err != nil {
				return err
			}
			p = ssr.NewPage(http.StatusOK, body).Compact()
			s.searchCache.put(key, p, gen)
			return nil
		})
		if err != nil {
			if err == errSearchBusy {
				c.Response().Header().Set("Retry-After", "2")
			}
			return err
		}
	}
	ssr.Serve(c.Response(), c.Request(), p, htmlType, "no-store")
	return nil
}
