package content

import (
	"strings"
	"testing"
)

// A body of 40,000 repeated headings (about 640 KB, or 200 KB as "## A")
// is refused by the rules, as is one of tens of thousands of lines; the
// site's own bodies pass.
func TestBodyLimits(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Check() {
		if p.Field == "content" {
			t.Errorf("the site's own content: %s", p)
		}
	}
	for _, c := range []struct {
		name, body string
		want       string
	}{
		{"40,000 repeated headings", strings.Repeat("## Same heading\n", 40000), "has 40000 headings; a page can have at most 200"},
		{"201 headings", strings.Repeat("### Step\nDo it.\n", 201), "has 201 headings"},
		{"100,000 one-letter lines", strings.Repeat("a\n", 100000), "has 100000 lines of text; a page can have at most 2000"},
	} {
		c2, _ := Load()
		c2.Articles[0].Content = c.body
		c2.Pages["about"].Content = c.body
		found := map[string]bool{}
		for _, p := range HardProblems(c2.Check()) {
			if p.Field == "content" && strings.Contains(p.Message, c.want) {
				found[p.Kind] = true
			}
		}
		if !found[KindArticle] || !found[KindPage] {
			t.Errorf("%s: refused for %v, want article and page", c.name, found)
		}
	}
	// At the limits, a body passes.
	c3, _ := Load()
	c3.Articles[0].Content = strings.Repeat("## Heading\n", MaxBodyHeadings) + strings.Repeat("A line.\n", MaxBodyLines-MaxBodyHeadings)
	for _, p := range HardProblems(c3.Check()) {
		if p.Field == "content" {
			t.Errorf("at the limits: %s", p)
		}
	}
}
