package ssr

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// TestHeadTidiesHelmetMarkup: Helmet's marker and its "/>" go outside
// script text, the marker stays where Helmet runs in the
// browser, and script text (JSON-LD, not escaped by Helmet) is copied
// as it is.
func TestHeadTidiesHelmetMarkup(t *testing.T) {
	in := `<title data-rh="true">Tom's &amp; &lt;b&gt;</title>` +
		`<meta data-rh="true" name="description" content="a/&gt; 'q' &amp;#x27; &quot;data-rh=&quot;true&quot;"/>` +
		`<link data-rh="true" rel="canonical" href="https://x.test/?a=1&amp;b=2"/>` +
		`<script data-rh="true" type="application/ld+json" id="ld-0">{"a":"/> &#x27; data-rh=\"true\" <\/script>"}</script>` +
		`<meta data-rh="true" name="x" content="y"/>`
	want := `<title>Tom's &amp; &lt;b&gt;</title>` +
		`<meta name="description" content="a/&gt; 'q' &amp;#x27; &quot;data-rh=&quot;true&quot;">` +
		`<link rel="canonical" href="https://x.test/?a=1&amp;b=2">` +
		`<script type="application/ld+json" id="ld-0">{"a":"/> &#x27; data-rh=\"true\" <\/script>"}</script>` +
		`<meta name="x" content="y">`
	if got := tidyHead(in, false); got != want {
		t.Errorf("public page:\n got %s\nwant %s", got, want)
	}
	wantKept := strings.NewReplacer(`<title>`, `<title data-rh="true">`, `<meta `, `<meta data-rh="true" `, `<link `, `<link data-rh="true" `, `<script `, `<script data-rh="true" `).Replace(want)
	if got := tidyHead(in, true); got != wantKept {
		t.Errorf("admin page:\n got %s\nwant %s", got, wantKept)
	}
	if got := tidyHead("", false); got != "" {
		t.Errorf("empty head: %q", got)
	}
	// An unterminated script (never written by Helmet) is copied, not lost.
	if got := tidyHead(`<script data-rh="true">{"a":"/>"}`, false); got != `<script>{"a":"/>"}` {
		t.Errorf("unterminated script: %q", got)
	}
}

func headProps(title string, keywords []string, jsonLd []string) map[string]any {
	return map[string]any{
		"head":   map[string]any{"title": title, "description": title, "keywords": keywords, "canonical": "https://x.test/a?b=1&c=\"2\"", "robots": "index", "ogType": "article", "image": "", "jsonLd": jsonLd, "geo": map[string]string{"region": "", "placename": "", "position": ""}},
		"site":   testSite(),
		"chrome": map[string]any{"services": []any{}, "counties": []any{}},
		"path":   "/x",
		"data":   map[string]string{"title": "", "message": "", "linkHref": "", "linkText": ""},
	}
}

// TestHeadHostileTextCannotBreakOut: a blog title holding
// "</script><script>alert(1)</script>" stays text in the title and the
// meta tags, and JSON-LD holding it, even unescaped (Go escapes "<" when
// it serialises JSON-LD; the head writes any "<" left as \u003c as well),
// cannot end its script element.
func TestHeadHostileTextCannotBreakOut(t *testing.T) {
	e, err := NewEngine(EngineOptions{Root: root(t), Kinds: []string{"not-found"}, PoolSize: 1, Timeout: 10 * time.Second, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	evil := `Tom's post </script><script>alert(1)</script><!-- & "q"`
	escaped, _ := MarshalProps(map[string]string{"@type": "BlogPosting", "headline": evil})
	raw := `{"@type":"BlogPosting","headline":"` + strings.ReplaceAll(evil, `"`, `\"`) + `"}`
	doc, err := e.Render(context.Background(), "not-found", headProps(evil, []string{evil}, []string{string(escaped), raw}), DocumentOptions{Hydrate: true})
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	head := s[:strings.Index(s, "</head>")]
	if strings.Contains(s, "<script>alert(1)") || strings.Count(head, "<script") != 2 || strings.Count(head, "</script>") != 2 {
		t.Fatalf("the hostile text made elements of its own:\n%s", head)
	}
	if strings.Contains(head, "data-rh") || strings.Contains(head, "/>") {
		t.Errorf("Helmet's marker or '/>' on a public page:\n%s", head)
	}
	// Parsed as a browser parses it, every text is what the page gave.
	n, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	var title string
	var metas, ld []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			attr := map[string]string{}
			for _, a := range n.Attr {
				attr[a.Key] = a.Val
			}
			switch {
			case n.Data == "title" && n.FirstChild != nil:
				title = n.FirstChild.Data
			case n.Data == "meta" && (attr["name"] == "description" || attr["name"] == "keywords" || attr["property"] == "og:title"):
				metas = append(metas, attr["content"])
			case n.Data == "script" && attr["type"] == "application/ld+json" && n.FirstChild != nil:
				ld = append(ld, n.FirstChild.Data)
			case n.Data == "link" && attr["rel"] == "canonical" && attr["href"] != `https://x.test/a?b=1&c="2"`:
				t.Errorf("canonical href %q", attr["href"])
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	if title != evil {
		t.Errorf("title %q, want %q", title, evil)
	}
	if len(metas) != 3 || metas[0] != evil || metas[1] != evil || metas[2] != evil {
		t.Errorf("meta contents %q", metas)
	}
	if len(ld) != 2 {
		t.Fatalf("%d JSON-LD blocks", len(ld))
	}
	for i, text := range ld {
		var v map[string]string
		if err := json.Unmarshal([]byte(text), &v); err != nil || v["headline"] != evil {
			t.Errorf("JSON-LD %d: %v %q", i, err, text)
		}
	}
}

// TestHeadContextIsPerRender: one runtime renders a page with keywords
// and JSON-LD, then one without: nothing of the first reaches the second
// (Helmet's context is new for every render).
func TestHeadContextIsPerRender(t *testing.T) {
	e, err := NewEngine(EngineOptions{Root: root(t), Kinds: []string{"not-found"}, PoolSize: 1, Timeout: 10 * time.Second, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		a, err := e.Render(ctx, "not-found", headProps("First page", []string{"first-keyword"}, []string{`{"@type":"Thing","name":"first"}`}), DocumentOptions{Hydrate: true})
		if err != nil {
			t.Fatal(err)
		}
		b, err := e.Render(ctx, "not-found", headProps("Second page", []string{}, []string{}), DocumentOptions{Hydrate: true})
		if err != nil {
			t.Fatal(err)
		}
		ha, hb := string(a[:strings.Index(string(a), "</head>")]), string(b[:strings.Index(string(b), "</head>")])
		if !strings.Contains(ha, "first-keyword") || !strings.Contains(ha, `"name":"first"`) || strings.Count(ha, "<title>") != 1 {
			t.Fatalf("first page head:\n%s", ha)
		}
		if strings.Contains(hb, "first") || strings.Contains(hb, "First") || strings.Contains(hb, "application/ld+json") ||
			strings.Contains(hb, `name="keywords"`) || !strings.Contains(hb, "<title>Second page</title>") {
			t.Fatalf("second page head carries the first's tags:\n%s", hb)
		}
		if !strings.HasPrefix(string(b), `<!doctype html><html lang="en"><head>`) {
			t.Fatalf("the <html> attributes are not Helmet's lang: %.80s", b)
		}
	}
}
