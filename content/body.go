package content

import (
	"regexp"
	"strings"
	"unicode"
)

// The body syntax (docs/content-api.md "Body syntax"): a body is read
// line by line (## heading, ### subheading, a line wrapped in ** a bold
// line, "- " a list item, a line starting with ❌ a red warning, any other
// line a paragraph), and inside every line two inline forms:
//
//	**words**            bold: a pair of ** on one line, with text between
//	[words](address)     a link: http(s)://, mailto:, tel: or a path of this site
//
// Nothing else is markup: HTML is shown as typed (escaped), and a ** with
// no partner on its line is shown as typed. components/article-body.tsx
// draws the same syntax (the public pages and the editor's preview); this
// file is the server's reading of it: the words a body holds (reading time
// and the word-count guidance) and the links it may not make.

// linkRE is one inline link: text without brackets, an address without
// spaces or parentheses. The same expression is in article-body.tsx.
var linkRE = regexp.MustCompile(`\[([^\[\]\n]+)\]\(([^()\x00-\x20]+)\)`)

// SafeHref reports whether a body's link may point at href: a web
// address (http, https), an email (mailto:), a phone number (tel:) or a
// path of this site ("/..."; never "//host", which leaves it). Anything
// else (javascript:, data:, vbscript:, a bare word) is refused.
func SafeHref(href string) bool {
	if href == "" || len(href) > 2000 {
		return false
	}
	for _, r := range href {
		if r < 0x21 || r == 0x7f || r == '\\' || r == '<' || r == '>' || r == '"' || r == '\'' || r == '`' || unicode.Is(unicode.Bidi_Control, r) {
			return false
		}
	}
	lower := strings.ToLower(href)
	switch {
	case strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "http://"):
		return len(href) > len("https://") && !strings.HasPrefix(lower[strings.Index(lower, "//")+2:], "/")
	case strings.HasPrefix(lower, "mailto:"):
		return len(href) > len("mailto:") && strings.Contains(href, "@")
	case strings.HasPrefix(lower, "tel:"):
		return len(href) > len("tel:") && strings.Trim(href[4:], "+0123456789-(). ") == ""
	case strings.HasPrefix(href, "/"):
		return !strings.HasPrefix(href, "//")
	}
	return false
}

// Inline is one piece of a line: text, bold text, or a link.
type Inline struct {
	// Kind is "text", "bold" or "link".
	Kind string
	Text string
	// Href is a link's address (only when Kind is "link").
	Href string
	// Bad: a link whose address is not allowed; it is shown as its text.
	Bad bool
}

// ParseInline reads one line's inline forms: links first (their text is
// plain), then bold pairs in the text between them. A ** with no partner
// stays text.
func ParseInline(line string) []Inline {
	var out []Inline
	at := 0
	for _, m := range linkRE.FindAllStringSubmatchIndex(line, -1) {
		out = append(out, parseBold(line[at:m[0]])...)
		href := line[m[4]:m[5]]
		out = append(out, Inline{Kind: "link", Text: line[m[2]:m[3]], Href: href, Bad: !SafeHref(href)})
		at = m[1]
	}
	return append(out, parseBold(line[at:])...)
}

// parseBold splits text at pairs of **: the text between a pair (at least
// one character) is bold; an odd ** left over is text.
func parseBold(s string) []Inline {
	var out []Inline
	add := func(kind, text string) {
		if text == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Kind == kind && kind == "text" {
			out[n-1].Text += text
			return
		}
		out = append(out, Inline{Kind: kind, Text: text})
	}
	for {
		i := strings.Index(s, "**")
		if i < 0 {
			add("text", s)
			return out
		}
		j := strings.Index(s[i+2:], "**")
		if j <= 0 { // no partner, or nothing between: shown as typed
			add("text", s[:i+2])
			s = s[i+2:]
			continue
		}
		add("text", s[:i])
		add("bold", s[i+2:i+2+j])
		s = s[i+2+j+2:]
	}
}

// linePrefix is a line's block mark.
var linePrefix = regexp.MustCompile(`^(###\s|##\s|-\s|❌\x{FE0F}?\s?)`)

// PlainLine is what a line reads as, without its marks: the block prefix,
// the ** of bold and a link's address.
func PlainLine(line string) string {
	line = linePrefix.ReplaceAllString(strings.TrimSpace(line), "")
	var b strings.Builder
	for _, in := range ParseInline(line) {
		b.WriteString(in.Text)
	}
	return b.String()
}

// BodyWords counts the words a body's reader reads.
func BodyWords(body string) int {
	n := 0
	for _, line := range strings.Split(body, "\n") {
		n += countWords(PlainLine(line))
	}
	return n
}

// countWords counts runs of letters or digits: "don't" and "24/7" are
// one word each, a lone "-" or "|" none.
func countWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// wordsPerMinute is the reading speed behind a post's reading time: an
// adult reads web text at about 200 to 250 words a minute; the lower end
// leaves time for the headings and lists.
const wordsPerMinute = 200

// ReadingTime is a post's reading time in whole minutes, at least one.
func ReadingTime(words int) int {
	return max(1, (words+wordsPerMinute-1)/wordsPerMinute)
}

// bodyProblems are a body's link and bold problems: a link to an address
// the body syntax does not allow blocks a publish (the page would not
// show it); a ** with no partner is guidance (it shows as typed).
func bodyProblems(c *checker, kind, slug, field, body string) {
	for i, line := range strings.Split(body, "\n") {
		text := linePrefix.ReplaceAllString(strings.TrimSpace(line), "")
		for _, in := range ParseInline(text) {
			if in.Kind == "link" && in.Bad {
				c.need(false, kind, slug, field, true, "line %d links %q to %q: a link goes to a web address (https://...), an email (mailto:...), a phone number (tel:...) or a page of this site (/...)", i+1, in.Text, clip(in.Href, 60))
			}
			if in.Kind == "text" && strings.Contains(in.Text, "**") && !isBoldLine(text) {
				c.need(false, kind, slug, field, false, "line %d has ** without its partner: it shows as typed. Select the words and press Bold", i+1)
				break
			}
		}
	}
}

// isBoldLine: a line that is only "**" or "****" is a bold line not yet
// written; it is text, not a missing partner.
func isBoldLine(s string) bool { return s == "**" || s == "****" }

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "..."
}

// MainText is the words a record writes on its own page, the text its
// word count and reading time are about (not the menu, the footer or the
// blocks every page shares). Kinds without a page of their own have none.
func MainText(v any) (string, bool) {
	join := func(parts ...string) string { return strings.Join(parts, "\n") }
	faqs := func(fs []FAQ) string {
		var b []string
		for _, f := range fs {
			b = append(b, f.Question, f.Answer)
		}
		return join(b...)
	}
	reasons := func(rs []Reason) string {
		var b []string
		for _, r := range rs {
			b = append(b, r.Title, r.Text)
		}
		return join(b...)
	}
	switch x := v.(type) {
	case *Article:
		return x.Content, true
	case *InfoPage:
		return x.Content, true
	case *Service:
		return join(x.Description, join(x.Body...), faqs(x.FAQs)), true
	case *County:
		t := x.Intro
		if p := x.Profile; p != nil {
			t = join(t, p.Description, join(p.Features...), join(p.CommonDamage...), reasons(p.Reasons))
		}
		return t, true
	case *City:
		return join(x.Intro, x.Description), true
	case *CityProfile:
		return join(x.Intro, reasons(x.Reasons), faqs(x.FAQs)), true
	}
	return "", false
}

// PlainBody is a body as its reader reads it: every line without its
// marks (what search matches, never a link's address).
func PlainBody(body string) string {
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		lines[i] = PlainLine(l)
	}
	return strings.Join(lines, "\n")
}
