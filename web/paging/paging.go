// Package paging is the one shape of request and answer every admin list
// that grows with the business shares (ADR 069, docs/admin.md): the leads
// list's page and perPage, a search q matched on the server, and an answer
// that names the page it holds and the exact total. A handler parses the
// request with Parse, hands Request.Limit and Request.Offset (with Q) to
// its store, and embeds Request.Info(total) in its answer.
package paging

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/web/httperr"
)

const (
	// DefaultPerPage is a page's size when the request names none.
	DefaultPerPage = 50
	// MaxPerPage bounds a page: a larger perPage is answered with this
	// many rows (the answer's perPage says so), never more.
	MaxPerPage = 200
	// MaxPage bounds page: past it the offset alone would make the
	// database walk millions of rows.
	MaxPage = 1_000_000
	// MaxQuery bounds the search (characters).
	MaxQuery = 200
)

// Request is a list's page and search, as the client asked.
type Request struct {
	// Q is the search, trimmed; "" lists everything.
	Q       string
	Page    int // from 1
	PerPage int // 1..MaxPerPage
}

// Limit and Offset are the SQL page of r.
func (r Request) Limit() int  { return r.PerPage }
func (r Request) Offset() int { return (r.Page - 1) * r.PerPage }

// Info is the paging part of a list's answer: which page it holds, how
// many rows a page has, how many rows match in all, and the search they
// match. Answers embed it, so its fields sit beside the list's own.
type Info struct {
	// Total is how many rows match Q in all (not only this page's).
	Total   int `json:"total"`
	Page    int `json:"page"`
	PerPage int `json:"perPage"`
	// Q is the search the rows match, as the server read it ("" for none).
	Q string `json:"q"`
}

// Info is r's answer for total matching rows.
func (r Request) Info(total int) Info {
	return Info{Total: total, Page: r.Page, PerPage: r.PerPage, Q: r.Q}
}

// Parse reads q, page and perPage from a query string (per_page too, the
// old name, ADR 059). It answers a 400 with a plain message for a page
// that is not a positive number, a page size below 1, or a search too
// long or not text. defPerPage is the list's own default (DefaultPerPage
// when 0).
func Parse(v url.Values, defPerPage int) (Request, error) {
	if defPerPage <= 0 {
		defPerPage = DefaultPerPage
	}
	r := Request{Q: strings.TrimSpace(v.Get("q")), Page: 1, PerPage: min(defPerPage, MaxPerPage)}
	if !utf8.ValidString(r.Q) || strings.ContainsRune(r.Q, 0) {
		return r, bad("Search must be plain text.")
	}
	if utf8.RuneCountInString(r.Q) > MaxQuery {
		return r, bad(fmt.Sprintf("Search must be at most %d characters.", MaxQuery))
	}
	if p := v.Get("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > MaxPage {
			return r, bad("Page must be a positive number.")
		}
		r.Page = n
	}
	per := v.Get("perPage")
	if per == "" {
		per = v.Get("per_page")
	}
	if per != "" {
		n, err := strconv.Atoi(per)
		if err != nil || n < 1 {
			return r, bad(fmt.Sprintf("Per page must be between 1 and %d.", MaxPerPage))
		}
		r.PerPage = min(n, MaxPerPage)
	}
	return r, nil
}

// From parses the request's query string (Parse).
func From(c echo.Context, defPerPage int) (Request, error) {
	return Parse(c.QueryParams(), defPerPage)
}

func bad(msg string) error { return httperr.New(http.StatusBadRequest, msg) }
