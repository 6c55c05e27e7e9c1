package search

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Marks are the texts the shell render is given for the query and around
// the results region (pages/search.tsx: data.query and data.slot). They
// are letters and digits only, which React writes as they are, and random
// per process, so no content can contain one by chance.
type Marks struct{ Query, Start, End string }

// NewMarks draws a fresh set of marks.
func NewMarks() Marks {
	mark := func(kind string) string {
		var b [12]byte
		if _, err := rand.Read(b[:]); err != nil {
			panic(err) // crypto/rand never fails on supported platforms
		}
		return "srch" + kind + hex.EncodeToString(b[:])
	}
	return Marks{Query: mark("q"), Start: mark("s"), End: mark("e")}
}

// Shell is the search page rendered by React for one content version, cut
// at the marks: a results page is the shell with the query escaped in
// place of each query mark and, between the region marks, either the
// results list (written here, in the same markup the component writes) or
// the no-results region React rendered (which names no query text).
type Shell struct {
	// Literal pieces; the query goes between two consecutive pieces.
	before, region, after [][]byte
	size                  int
}

// ParseShell cuts a document rendered with marks m. It refuses one whose
// region marks are missing or repeated, or that has a query mark where
// HTML escaping is not the right escaping (a script, a style, an island's
// JSON props), so a change to the page that would make splicing wrong
// fails loudly instead of serving a broken page.
func ParseShell(doc []byte, m Marks) (*Shell, error) {
	start, end := []byte(m.Start), []byte(m.End)
	if bytes.Count(doc, start) != 1 || bytes.Count(doc, end) != 1 {
		return nil, fmt.Errorf("search: shell has %d region starts and %d ends, want 1 each (does pages/search.tsx still write data.slot?)", bytes.Count(doc, start), bytes.Count(doc, end))
	}
	i, j := bytes.Index(doc, start), bytes.Index(doc, end)
	if j < i {
		return nil, errors.New("search: shell's region end comes before its start")
	}
	q := []byte(m.Query)
	for _, r := range rawRanges(doc) {
		if bytes.Contains(doc[r[0]:r[1]], q) {
			return nil, fmt.Errorf("search: the query appears in script, style or island props at byte %d, where HTML escaping does not apply", r[0])
		}
	}
	sh := &Shell{
		before: bytes.Split(doc[:i], q),
		region: bytes.Split(doc[i+len(start):j], q),
		after:  bytes.Split(doc[j+len(end):], q),
	}
	sh.size = len(doc) - len(start) - len(end)
	return sh, nil
}

// rawRanges are the byte ranges of doc whose text is not HTML-escaped
// text: script and style elements, and island props (JSON in an
// attribute).
func rawRanges(doc []byte) [][2]int {
	var out [][2]int
	for _, d := range [][2]string{{"<script", "</script>"}, {"<style", "</style>"}, {` data-props="`, `"`}} {
		open, cls := []byte(d[0]), []byte(d[1])
		for off := 0; ; {
			i := bytes.Index(doc[off:], open)
			if i < 0 {
				break
			}
			i += off
			j := bytes.Index(doc[i+len(open):], cls)
			if j < 0 {
				out = append(out, [2]int{i, len(doc)})
				break
			}
			j += i + len(open) + len(cls)
			out = append(out, [2]int{i, j})
			off = j
		}
	}
	return out
}

// Page is the results page for the cleaned query q: the same bytes the
// search component renders for q and results.
func (sh *Shell) Page(q string, results []Result) []byte { return sh.AppendPage(nil, q, results) }

// AppendPage appends Page(q, results) to dst (a reused buffer: a flood of
// searches then allocates next to nothing).
func (sh *Shell) AppendPage(dst []byte, q string, results []Result) []byte {
	n := sh.size + 8*len(q)
	for _, r := range results {
		n += 160 + len(r.Kind) + len(r.Title) + len(r.Href) + len(r.Snippet)
	}
	b := slices.Grow(dst, n)
	eq := appendEscaped(nil, q)
	b = appendPieces(b, sh.before, eq)
	if len(results) == 0 {
		b = appendPieces(b, sh.region, eq)
	} else {
		b = appendResults(b, results)
	}
	return appendPieces(b, sh.after, eq)
}

func appendPieces(b []byte, pieces [][]byte, q []byte) []byte {
	for i, p := range pieces {
		if i > 0 {
			b = append(b, q...)
		}
		b = append(b, p...)
	}
	return b
}

// appendResults writes the results region as pages/search.tsx renders it
// for a query with results: the count, then one card per result. A test
// compares it byte for byte with React's render (server/search_test.go).
func appendResults(b []byte, results []Result) []byte {
	b = append(b, `<p class="search-count" role="status">`...)
	b = strconv.AppendInt(b, int64(len(results)), 10)
	b = append(b, " result"...)
	if len(results) != 1 {
		b = append(b, 's')
	}
	b = append(b, `</p><ul class="search-results">`...)
	for _, r := range results {
		b = append(b, `<li class="card"><span class="pill">`...)
		b = appendEscaped(b, r.Kind)
		b = append(b, `</span><h2 class="card__title"><a href="`...)
		b = appendEscaped(b, r.Href)
		b = append(b, `">`...)
		b = appendEscaped(b, r.Title)
		b = append(b, `</a></h2><p>`...)
		b = appendEscaped(b, r.Snippet)
		b = append(b, `</p></li>`...)
	}
	return append(b, `</ul>`...)
}

// appendEscaped escapes s as React's server renderer escapes text and
// attribute values (escapeTextForBrowser): the same five characters, the
// same entities.
func appendEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var e string
		switch s[i] {
		case '"':
			e = "&quot;"
		case '&':
			e = "&amp;"
		case '\'':
			e = "&#x27;"
		case '<':
			e = "&lt;"
		case '>':
			e = "&gt;"
		default:
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, e...)
		last = i + 1
	}
	return append(b, s[last:]...)
}
