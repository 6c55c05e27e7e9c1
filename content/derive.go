package content

import (
	"strings"
	"unicode/utf8"
)

// What the server works out for the owner (ADR 049): a page's SEO title
// and description are made from its title and summary while the owner
// leaves them empty, and a post's reading time from its body's words.
// The record keeps the empty fields, so a later change of the title
// changes the derived SEO title too, until the owner writes their own.

// Derived are the values worked out for one record.
type Derived struct {
	// SEOTitle and MetaDescription are what the page's head says when
	// the record's own fields are empty ("" for kinds without a page).
	SEOTitle        string `json:"seoTitle"`
	MetaDescription string `json:"metaDescription"`
	// Words are the main text's words; ReadTime (posts only, else 0) the
	// minutes they take to read.
	Words    int `json:"words"`
	ReadTime int `json:"readTime"`
}

// Max lengths of the head texts (spec 5).
const (
	MaxSEOTitle        = 60
	MaxMetaDescription = 160
)

// DeriveOf works out a decoded record's derived values (as Decode gives
// it: a pointer to its kind's type).
func DeriveOf(v any) Derived {
	var d Derived
	title, summary := "", ""
	switch x := v.(type) {
	case *Article:
		title, summary = x.Title, x.Excerpt
	case *InfoPage:
		title, summary = x.Title, firstParagraph(x.Content)
	case *Service:
		title, summary = x.Title, firstNonEmpty(x.ShortDescription, x.Description)
	case *County:
		if strings.TrimSpace(x.Name) != "" {
			title = strings.TrimSpace(x.Name) + " County"
		}
		summary = x.Intro
	case *City:
		title, summary = x.City, x.Intro
	case *CityProfile:
		title, summary = x.CityName, x.Intro
	default:
		return d
	}
	d.SEOTitle = clipWords(title, MaxSEOTitle)
	d.MetaDescription = clipWords(summary, MaxMetaDescription)
	if text, ok := MainText(v); ok {
		d.Words = BodyWords(text)
	}
	if _, ok := v.(*Article); ok {
		d.ReadTime = ReadingTime(d.Words)
	}
	return d
}

// applyDerived fills a record's empty head texts and sets a post's
// reading time.
func applyDerived(v any, seo *SEO) {
	d := DeriveOf(v)
	if strings.TrimSpace(seo.SEOTitle) == "" || seo.derivedTitle {
		seo.SEOTitle, seo.derivedTitle = d.SEOTitle, true
	}
	if strings.TrimSpace(seo.MetaDescription) == "" || seo.derivedDescription {
		seo.MetaDescription, seo.derivedDescription = d.MetaDescription, true
	}
	if a, ok := v.(*Article); ok {
		a.ReadTime = d.ReadTime
	}
}

// derive applies the derived values to every record of the site: the
// pages, the checks and the exports all see them.
func (s *Set) derive() {
	for i := range s.Services {
		applyDerived(&s.Services[i], &s.Services[i].SEO)
	}
	for i := range s.Counties {
		applyDerived(&s.Counties[i], &s.Counties[i].SEO)
	}
	for i := range s.Cities {
		applyDerived(&s.Cities[i], &s.Cities[i].SEO)
	}
	for _, p := range s.CityProfiles {
		applyDerived(p, &p.SEO)
	}
	for i := range s.Articles {
		applyDerived(&s.Articles[i], &s.Articles[i].SEO)
	}
	for _, p := range s.Pages {
		applyDerived(p, &p.SEO)
	}
}

// clipWords shortens s to at most n characters at a word's end, with an
// ellipsis when it cut.
func clipWords(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndex(cut, " "); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.-–—") + "…"
}

// firstParagraph is a body's first paragraph line, as read.
func firstParagraph(body string) string {
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "❌") {
			continue
		}
		return PlainLine(t)
	}
	return ""
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
