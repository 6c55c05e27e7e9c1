package content

import "strings"

// Limits of a line-based body (a post's or an info page's text): every
// line is an element of the page and every heading an entry of its table
// of contents, so a body of tens of thousands of lines cannot be rendered
// in time, whatever its size in bytes. The longest body of the site has
// 139 lines and 36 headings.
const (
	MaxBodyLines    = 2000
	MaxBodyHeadings = 200
)

// checkBody refuses a body over the limits.
func (c *checker) checkBody(kind, slug, field, body string) {
	lines, headings := 0, 0
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l == "-" {
			continue
		}
		lines++
		if strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "### ") {
			headings++
		}
	}
	c.need(headings <= MaxBodyHeadings, kind, slug, field, true,
		"has %d headings; a page can have at most %d: split it into several pages", headings, MaxBodyHeadings)
	c.need(lines <= MaxBodyLines, kind, slug, field, true,
		"has %d lines of text; a page can have at most %d: split it into several pages", lines, MaxBodyLines)
}

// MaxRecordBytes bounds one record's JSON: what the admin accepts in a
// save (web/editor.MaxBody) and what an import accepts (ReadFolder). The
// longest record is a few tens of kilobytes.
const MaxRecordBytes = 256 << 10
