package content

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseInline(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       []Inline
	}{
		{"plain", "Shut off the water.", []Inline{{Kind: "text", Text: "Shut off the water."}}},
		{"bold inside a sentence", "Call **right away** if it smells.", []Inline{{Kind: "text", Text: "Call "}, {Kind: "bold", Text: "right away"}, {Kind: "text", Text: " if it smells."}}},
		{"two bold pairs", "**a** and **b**", []Inline{{Kind: "bold", Text: "a"}, {Kind: "text", Text: " and "}, {Kind: "bold", Text: "b"}}},
		{"a ** without partner stays", "Press ** here", []Inline{{Kind: "text", Text: "Press ** here"}}},
		{"an empty pair stays", "****", []Inline{{Kind: "text", Text: "****"}}},
		{"link", "See [our guide](/blog/mold) first.", []Inline{{Kind: "text", Text: "See "}, {Kind: "link", Text: "our guide", Href: "/blog/mold"}, {Kind: "text", Text: " first."}}},
		{"https link and bold", "**Now:** [FEMA](https://www.fema.gov/)", []Inline{{Kind: "bold", Text: "Now:"}, {Kind: "text", Text: " "}, {Kind: "link", Text: "FEMA", Href: "https://www.fema.gov/"}}},
		{"javascript link is bad", "[click](javascript:alert(1))", nil},
		{"data link is bad", "[x](data:text/html,hi)", []Inline{{Kind: "link", Text: "x", Href: "data:text/html,hi", Bad: true}}},
		{"html is text", "<script>alert(1)</script> **<b>**", []Inline{{Kind: "text", Text: "<script>alert(1)</script> "}, {Kind: "bold", Text: "<b>"}}},
		{"protocol-relative is bad", "[x](//evil.example/)", []Inline{{Kind: "link", Text: "x", Href: "//evil.example/", Bad: true}}},
		{"mail and phone", "[mail](mailto:a@b.co) [call](tel:+1-404-555-0100)", []Inline{{Kind: "link", Text: "mail", Href: "mailto:a@b.co"}, {Kind: "text", Text: " "}, {Kind: "link", Text: "call", Href: "tel:+1-404-555-0100"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseInline(tc.line)
			if tc.name == "javascript link is bad" {
				// The address stops at its first parenthesis: not a link
				// at all, so it is shown as typed.
				for _, in := range got {
					if in.Kind == "link" && !in.Bad {
						t.Fatalf("a javascript: link was made: %+v", got)
					}
				}
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want, +got)\n%s", diff)
			}
		})
	}
}

func TestSafeHref(t *testing.T) {
	for href, want := range map[string]bool{
		"https://www.fema.gov/": true, "http://example.com": true, "/blog/x": true, "/": true, "mailto:owner@example.com": true, "tel:+14045550100": true,
		"javascript:alert(1)": false, "JavaScript:alert(1)": false, "data:text/html,x": false, "vbscript:x": false, "//evil.example": false,
		"https:///evil": false, "https://": false, "blog/x": false, "/a b": false, "/a\u202eb": false, "/a\\b": false, "mailto:": false,
		"tel:javascript": false, "/a\"onmouseover=x": false, "": false, "\x01javascript:x": false,
	} {
		if got := SafeHref(href); got != want {
			t.Errorf("SafeHref(%q) = %v, want %v", href, got, want)
		}
	}
}

func TestBodyWordsAndReadingTime(t *testing.T) {
	body := "## Shut off the water\n**Do it now.**\n- Find the [main valve](/blog/valve).\n❌ Don't wait.\n\n-\n"
	// shut off the water / do it now / find the main valve / don't wait
	if got := BodyWords(body); got != 13 {
		t.Errorf("BodyWords = %d, want 13", got)
	}
	if got := PlainBody("## Read [the guide](/blog/x) **now**\n- one"); got != "Read the guide now\none" {
		t.Errorf("PlainBody = %q", got)
	}
	for words, want := range map[int]int{0: 1, 1: 1, 200: 1, 201: 2, 1000: 5} {
		if got := ReadingTime(words); got != want {
			t.Errorf("ReadingTime(%d) = %d, want %d", words, got, want)
		}
	}
}

func TestDerived(t *testing.T) {
	long := strings.Repeat("water ", 40)
	a := &Article{Title: "Burst Pipe: The First Hour", Excerpt: "What to do in the first hour.", Content: strings.Repeat("word ", 450)}
	d := DeriveOf(a)
	if d.SEOTitle != "Burst Pipe: The First Hour" || d.MetaDescription != "What to do in the first hour." || d.Words != 450 || d.ReadTime != 3 {
		t.Errorf("article: %+v", d)
	}
	d = DeriveOf(&Service{Title: long, ShortDescription: long + long})
	if n := len([]rune(d.SEOTitle)); n > MaxSEOTitle || !strings.HasSuffix(d.SEOTitle, "…") || strings.Contains(d.SEOTitle, "  ") {
		t.Errorf("long title derived as %q (%d)", d.SEOTitle, n)
	}
	if n := len([]rune(d.MetaDescription)); n > MaxMetaDescription {
		t.Errorf("long description derived with %d characters", n)
	}
	if d := DeriveOf(&County{Name: "Cobb", Intro: "Cobb's intro."}); d.SEOTitle != "Cobb County" || d.ReadTime != 0 {
		t.Errorf("county: %+v", d)
	}
	if d := DeriveOf(&InfoPage{Title: "About", Content: "## Who we are\n**Local crews** since 2004."}); d.MetaDescription != "Local crews since 2004." {
		t.Errorf("page: %+v", d)
	}

	// In a site: empty fields are derived, written ones kept, and the
	// reading time is the body's, whatever was typed.
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	s.Articles[0].SEOTitle, s.Articles[0].MetaDescription, s.Articles[0].ReadTime = "", "", 99
	s.Articles[1].SEOTitle = "Written by the owner"
	s.index()
	if s.Articles[0].SEOTitle != clipWords(s.Articles[0].Title, 60) || s.Articles[0].MetaDescription != clipWords(s.Articles[0].Excerpt, 160) {
		t.Errorf("not derived: %q %q", s.Articles[0].SEOTitle, s.Articles[0].MetaDescription)
	}
	if want := ReadingTime(BodyWords(s.Articles[0].Content)); s.Articles[0].ReadTime != want {
		t.Errorf("readTime %d, want %d", s.Articles[0].ReadTime, want)
	}
	if s.Articles[1].SEOTitle != "Written by the owner" {
		t.Errorf("the owner's title was replaced: %q", s.Articles[1].SEOTitle)
	}
}

func TestBodyAndIconProblems(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	s.Services[0].Icon = "water-drop"
	s.Articles[0].Content = "Read [this](javascript:alert(1)) and [that](data:x) now.\nA **half bold line"
	ps := s.Check()
	find := func(field string, hard bool) bool {
		for _, p := range ps {
			if p.Field == field && p.Hard == hard {
				return true
			}
		}
		return false
	}
	if !find("icon", true) {
		t.Errorf("an unknown icon is not a hard problem: %v", ps)
	}
	if !find("content", true) {
		t.Errorf("a data: link is not a hard problem: %v", ps)
	}
	if !find("content", false) {
		t.Errorf("a ** without partner is not guidance: %v", ps)
	}
}

// TestServiceIconsAreDrawn: every icon the server accepts is drawn by
// components/icons.tsx, and the admin's picker offers exactly these.
func TestServiceIconsAreDrawn(t *testing.T) {
	src, err := os.ReadFile("../components/icons.tsx")
	if err != nil {
		t.Fatal(err)
	}
	drawn := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  "?([a-z-]+)"?: \[`).FindAllStringSubmatch(string(src), -1) {
		drawn[m[1]] = true
	}
	for _, n := range ServiceIcons {
		if !drawn[n] {
			t.Errorf("%q is accepted but icons.tsx does not draw it", n)
		}
	}
	_, list, _ := strings.Cut(string(src), "export const SERVICE_ICONS")
	var picker []string
	for _, m := range regexp.MustCompile(`name: "([a-z-]+)"`).FindAllStringSubmatch(list, -1) {
		picker = append(picker, m[1])
	}
	if diff := cmp.Diff(ServiceIcons, picker); diff != "" {
		t.Errorf("the picker's icons differ from the server's (-server, +picker)\n%s", diff)
	}
}
