package seoaudit

import (
	"bytes"
	"hash/fnv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The thin-pages audit's text measure (ADR 064): how much of a city
// page's main text no other city page has, by word shingles (w-shingling:
// every run of ShingleWords consecutive words).

// ShingleWords is the length of a shingle, in words.
const ShingleWords = 5

// SharedAttr marks a block of a page that is the same on many pages of
// the site (the estimate form, the call-to-action, the related links):
// the thin-pages audit leaves it out of the page's own main text.
const SharedAttr = "data-shared"

// Placeholders the page's own names become before shingling, so a
// sentence that differs only by its city ("arrive in Smyrna", "arrive in
// Marietta") is the same sentence, as it is to a reader.
const (
	cityToken   = "\x00city"
	countyToken = "\x00county"
)

// skipMain are the elements of <main> that are not the page's own text:
// code, pictures, forms and their controls, navigation (breadcrumbs) and
// side notes.
var skipMain = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Svg: true,
	atom.Form: true, atom.Nav: true, atom.Aside: true, atom.Button: true, atom.Select: true, atom.Textarea: true,
}

// MainText is the text of a page's <main> (the whole body when it has
// none) a visitor reads as the page's own: without the header, footer
// and menu (outside <main>), forms, navigation, side notes, hidden
// elements and the blocks marked SharedAttr. Element boundaries are
// spaces.
func MainText(page []byte) (string, error) {
	root, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return "", err
	}
	start := first(root, func(x *html.Node) bool { return x.DataAtom == atom.Main })
	if start == nil {
		start = first(root, func(x *html.Node) bool { return x.DataAtom == atom.Body })
	}
	if start == nil {
		return "", nil
	}
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			if skipMain[n.DataAtom] || strings.EqualFold(n.Data, "svg") {
				return
			}
			for _, k := range []string{"hidden", SharedAttr} {
				if _, ok := attr(n, k); ok {
					return
				}
			}
			if v, _ := attr(n, "aria-hidden"); v == "true" {
				return
			}
		default:
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
		b.WriteString(" ")
	}
	rec(start)
	return squash(b.String()), nil
}

// Words splits text into lowercase words: runs of letters and digits
// ("Smyrna's" is "smyrna" and "s", "15-60" is "15" and "60").
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// replaceName puts token in place of every run of words that spells name.
func replaceName(words []string, name, token string) []string {
	nw := Words(name)
	if len(nw) == 0 {
		return words
	}
	out := words[:0:0]
	for i := 0; i < len(words); {
		if i+len(nw) <= len(words) && equalWords(words[i:i+len(nw)], nw) {
			out = append(out, token)
			i += len(nw)
			continue
		}
		out = append(out, words[i])
		i++
	}
	return out
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// PageText is one page's main text and the names it is about (its city
// and county), which count as the same word on every page.
type PageText struct {
	Text   string
	City   string
	County string
}

// Uniqueness is how much of one page's text is its own.
type Uniqueness struct {
	// Words are the page's words; Shingles its distinct shingles, of
	// which Unique are on no other page.
	Words, Shingles, Unique int
	// Share is Unique over Shingles, in whole percent (0 with no
	// shingle: a page of fewer than ShingleWords words has no text of
	// its own to speak of).
	Share int
}

// shingles are a text's distinct shingles, hashed.
func shingles(p PageText) (set map[uint64]struct{}, words int) {
	w := Words(p.Text)
	words = len(w)
	w = replaceName(w, p.City, cityToken)
	if p.County != "" {
		w = replaceName(w, p.County, countyToken)
	}
	set = map[uint64]struct{}{}
	h := fnv.New64a()
	for i := 0; i+ShingleWords <= len(w); i++ {
		h.Reset()
		for _, x := range w[i : i+ShingleWords] {
			h.Write([]byte(x))
			h.Write([]byte{' '})
		}
		set[h.Sum64()] = struct{}{}
	}
	return set, words
}

// UniqueShares scores every page against all the others in one pass: one
// map counts on how many pages each shingle appears, then each page's
// share is its shingles that appear on it alone. Time and memory grow
// with the total text, not with the square of the number of pages.
func UniqueShares(pages []PageText) []Uniqueness {
	sets := make([]map[uint64]struct{}, len(pages))
	out := make([]Uniqueness, len(pages))
	seen := map[uint64]int{}
	for i, p := range pages {
		sets[i], out[i].Words = shingles(p)
		for s := range sets[i] {
			seen[s]++
		}
	}
	for i, set := range sets {
		u := &out[i]
		u.Shingles = len(set)
		for s := range set {
			if seen[s] == 1 {
				u.Unique++
			}
		}
		if u.Shingles > 0 {
			u.Share = u.Unique * 100 / u.Shingles
		}
	}
	return out
}
