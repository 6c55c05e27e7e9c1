// Package search is the public site search (/search?q=, spec's
// WebSite SearchAction target): an index over services, counties, cities,
// articles and info pages, its ranking, and the result page, written
// without a React render per query (ADR 028). React renders the
// page's shell once per content version with marks where the query and the
// results go (see Shell); each search splices its escaped text into it.
package search

import (
	"sort"
	"strings"
	"unicode"

	"github.com/atlanta-restoration/site/content"
)

// Bounds on the work one search request can cause.
const (
	// MaxQuery is the longest query searched, in characters; the search
	// box has the same maxlength.
	MaxQuery   = 100
	MaxResults = 30
)

// Result is one hit. The JSON names are the search page's props.
type Result struct {
	Kind    string `json:"kind"` // Service, Service area, City, Article, Page
	Title   string `json:"title"`
	Href    string `json:"href"`
	Snippet string `json:"snippet"`
	score   int
}

type doc struct {
	kind, title, href, snippet string
	keywords, body             string // lower-cased
	titleLC                    string
}

// Index lists everything searchable. Content is embedded in the binary
// and never changes while the server runs, so it is built once.
type Index struct{ docs []doc }

// NewIndex indexes services, counties, cities, articles and info pages.
func NewIndex(c *content.Set) *Index {
	ix := &Index{}
	add := func(kind, title, href, snippet string, keywords []string, body ...string) {
		ix.docs = append(ix.docs, doc{kind: kind, title: title, href: href, snippet: snippet,
			titleLC: strings.ToLower(title), keywords: strings.ToLower(strings.Join(keywords, " ")), body: strings.ToLower(strings.Join(body, " "))})
	}
	for _, sv := range c.Services {
		add("Service", sv.Title, "/services/"+sv.Slug, sv.ShortDescription, sv.Keywords, sv.Description, strings.Join(sv.Features, " "), strings.Join(sv.Body, " "))
	}
	for _, co := range c.Counties {
		add("Service area", co.Name+" County", "/service-areas/"+co.Slug, co.Intro, co.Keywords, co.Intro)
	}
	for _, ci := range c.Cities {
		add("City", ci.City+", GA", "/areas/"+ci.County+"/"+ci.Slug, ci.Intro, ci.Keywords, ci.Intro, ci.Description, ci.County+" county")
	}
	for _, a := range c.Articles {
		add("Article", a.Title, "/blog/"+a.Slug, a.Excerpt, a.Keywords, a.Excerpt, content.PlainBody(a.Content))
	}
	// Pages come from a map: sorted, so pages that score alike keep one
	// order from one boot to the next.
	slugs := make([]string, 0, len(c.Pages))
	for slug := range c.Pages {
		slugs = append(slugs, slug)
	}
	sort.Strings(slugs)
	for _, slug := range slugs {
		p := c.Pages[slug]
		add("Page", p.Title, "/"+slug, p.MetaDescription, p.Keywords, content.PlainBody(p.Content))
	}
	return ix
}

// Clean is the query a request asks for: trimmed, cut to MaxQuery
// characters, and with runs of spaces folded, so "water  damage " and
// "water damage" are one search.
func Clean(q string) string {
	q = strings.TrimSpace(q)
	if r := []rune(q); len(r) > MaxQuery {
		q = string(r[:MaxQuery])
	}
	return strings.Join(strings.Fields(q), " ")
}

// Search returns the documents containing every term of q, best first:
// a term in the title counts most, then keywords, then body text. A term
// given twice counts twice; it is looked up once.
func (ix *Index) Search(q string) []Result {
	fields := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(fields) == 0 {
		return []Result{}
	}
	type term struct {
		text  string
		times int
	}
	var terms []term
next:
	for _, f := range fields {
		for i := range terms {
			if terms[i].text == f {
				terms[i].times++
				continue next
			}
		}
		terms = append(terms, term{f, 1})
	}
	var out []Result
	for i := range ix.docs {
		d := &ix.docs[i]
		score := 0
		for _, t := range terms {
			ts := 8*strings.Count(d.titleLC, t.text) + 4*strings.Count(d.keywords, t.text) + countUpTo(d.body, t.text, 10)
			if ts == 0 {
				score = 0
				break
			}
			score += ts * t.times
		}
		if score > 0 {
			out = append(out, Result{Kind: d.kind, Title: d.title, Href: d.href, Snippet: d.snippet, score: score})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	if len(out) > MaxResults {
		out = out[:MaxResults]
	}
	if out == nil {
		out = []Result{}
	}
	return out
}

// countUpTo is min(strings.Count(s, sub), n), without reading past the
// n-th occurrence: an article's body holds a common word many times.
func countUpTo(s, sub string, n int) int {
	c := 0
	for c < n {
		i := strings.Index(s, sub)
		if i < 0 {
			break
		}
		c++
		s = s[i+len(sub):]
	}
	return c
}
