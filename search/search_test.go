package search

import (
	"bytes"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/atlanta-restoration/site/content"
)

// oldSearch is the ranking as it was before the lookup was optimised
// (each term counted with strings.Count, once per occurrence in q): the
// reference the index must agree with.
func oldSearch(ix *Index, q string) []Result {
	terms := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(terms) == 0 {
		return []Result{}
	}
	var out []Result
	for _, d := range ix.docs {
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

func loadIndex(t testing.TB) *Index {
	t.Helper()
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	return NewIndex(c)
}

// Same results in the same order as the reference, for fixed queries
// (repeated terms, one-letter terms, case, punctuation) and random ones
// drawn from the content's own words.
func TestSearchAgreesWithReference(t *testing.T) {
	ix := loadIndex(t)
	var words []string
	for _, d := range ix.docs {
		words = append(words, strings.Fields(d.titleLC)...)
		words = append(words, strings.Fields(d.keywords)...)
	}
	queries := []string{"mold", "Mold Remediation", "water water damage", "water damage water", "a", "a b c d e", "e e e e",
		"Marietta", "smyrna, GA!", "zzzqqq", "", "   ", "<b>mold</b>", "café", "24/7", "fire-damage", strings.Repeat("a ", 50)}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		var q []string
		for j := 0; j < 1+r.IntN(4); j++ {
			w := words[r.IntN(len(words))]
			if r.IntN(3) == 0 {
				w = w[:1+r.IntN(len(w))]
			}
			q = append(q, w)
		}
		queries = append(queries, strings.Join(q, " "))
	}
	hits := 0
	for _, q := range queries {
		got, want := ix.Search(q), oldSearch(ix, q)
		if len(got) != len(want) {
			t.Fatalf("%q: %d results, reference %d", q, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%q: result %d is %+v, reference %+v", q, i, got[i], want[i])
			}
		}
		if len(got) > 0 {
			hits++
		}
	}
	if hits < len(queries)/2 {
		t.Errorf("only %d of %d queries found anything: the comparison is too weak", hits, len(queries))
	}
}

func TestCountUpTo(t *testing.T) {
	for _, c := range []struct{ s, sub string }{{"", "a"}, {"aaaa", "aa"}, {"abababab", "ab"}, {strings.Repeat("water ", 30), "water"}, {"xyz", "q"}} {
		for _, n := range []int{0, 1, 3, 10} {
			if got, want := countUpTo(c.s, c.sub, n), min(strings.Count(c.s, c.sub), n); got != want {
				t.Errorf("countUpTo(%q, %q, %d) = %d, want %d", c.s, c.sub, n, got, want)
			}
		}
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"  water \t\n damage  ":   "water damage",
		"":                        "",
		"\u00a0mold\u00a0":        "mold",
		strings.Repeat("é", 150):  strings.Repeat("é", MaxQuery),
		strings.Repeat("a ", 100): strings.TrimSpace(strings.Repeat("a ", 50)),
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// Marks are letters and digits only (React writes them as they are) and
// differ between draws.
func TestNewMarks(t *testing.T) {
	a, b := NewMarks(), NewMarks()
	for _, m := range []string{a.Query, a.Start, a.End} {
		if len(m) < 20 || strings.IndexFunc(m, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) >= 0 {
			t.Errorf("mark %q", m)
		}
	}
	if a == b || a.Query == a.Start || a.Start == a.End {
		t.Error("marks repeat")
	}
}

func BenchmarkSearch(b *testing.B) {
	ix := loadIndex(b)
	qs := []string{"water xkcdqwerty", "mold remediation", "a b c d e f g h i j k l m n o p q r s t u v w x y z", "Marietta"}
	for _, q := range qs {
		b.Run(strings.Fields(q)[0], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				ix.Search(q)
			}
		})
	}
}

func BenchmarkPage(b *testing.B) {
	ix := loadIndex(b)
	m := Marks{Query: "QQ", Start: "SS", End: "EE"}
	doc := []byte(strings.Repeat("<div>lorem ipsum</div>", 2000) + "<h1>QQ</h1><input value=\"QQ\">SS<p>none</p>EE" + strings.Repeat("<p>footer</p>", 300))
	sh, err := ParseShell(doc, m)
	if err != nil {
		b.Fatal(err)
	}
	res := ix.Search("mold")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sh.Page("mold", res)
	}
}

// ParseShell refuses a render it cannot splice safely.
func TestParseShellRefuses(t *testing.T) {
	m := Marks{Query: "QQ", Start: "SS", End: "EE"}
	for name, doc := range map[string]string{
		"no region":         "<h1>QQ</h1>",
		"two starts":        "SS SS <h1>QQ</h1> EE",
		"end first":         "EE <h1>QQ</h1> SS",
		"query in a script": `<script>var q="QQ"</script>SS EE`,
		"query in a style":  `<style>/*QQ*/</style>SS EE`,
		"query in props":    `<div data-island="nav" data-props="{&quot;q&quot;:&quot;QQ&quot;}">SS EE</div>`,
	} {
		if _, err := ParseShell([]byte(doc), m); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	sh, err := ParseShell([]byte(`<h1>QQ</h1><input value="QQ">SS<p>none</p>EE<footer></footer>`), m)
	if err != nil {
		t.Fatal(err)
	}
	got := string(sh.Page(`a"<b>&'`, nil))
	if want := `<h1>a&quot;&lt;b&gt;&amp;&#x27;</h1><input value="a&quot;&lt;b&gt;&amp;&#x27;"><p>none</p><footer></footer>`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := string(sh.Page("QQ SS", nil)); !bytes.Contains([]byte(got), []byte("<h1>QQ SS</h1>")) {
		t.Errorf("a query that looks like a mark: %s", got)
	}
}
