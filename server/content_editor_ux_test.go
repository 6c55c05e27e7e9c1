package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/content"
	editorweb "github.com/atlanta-restoration/site/web/editor"
)

// publishPost creates a post and publishes it, failing the test when
// either is refused.
func publishPost(t *testing.T, h http.Handler, tok string, a content.Article) editorweb.ItemDetail {
	t.Helper()
	r := jsonReq(t, h, "POST", "/api/admin/content", tok, map[string]any{"kind": "article", "data": a})
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", r.StatusCode, r.Body)
	}
	it := decodeItem(t, r)
	r = jsonReq(t, h, "POST", "/api/admin/content/"+it.ID+"/publish", tok, map[string]any{"version": it.Version})
	if r.StatusCode != http.StatusOK {
		t.Fatalf("publish: %d %s", r.StatusCode, r.Body)
	}
	return decodeItem(t, r)
}

// The body syntax on the live page: bold inside a sentence and a link
// become <strong> and <a>; HTML is text; a ** without partner is shown as
// typed (and is guidance, not a block).
func TestBodySyntaxOnTheLivePage(t *testing.T) {
	_, h, tok := editorServer(t)
	a := post("body-syntax", "Body Syntax Works")
	a.Content = "## Act **fast**\nCall **right away** and read [our water guide](/services/water-damage-restoration) or [FEMA](https://www.fema.gov/).\n" +
		"- Email [the office](mailto:office@example.com)\n<script>alert(1)</script> <img src=x onerror=alert(1)>\nA lone ** stays."
	publishPost(t, h, tok, a)
	page := get(t, h, "/blog/body-syntax")
	if page.StatusCode != 200 {
		t.Fatal(page.StatusCode)
	}
	article := find(page.Doc, func(n *html.Node) bool {
		return n.Type == html.ElementNode && strings.Contains(attr(n, "class"), "prose")
	})
	if len(article) == 0 {
		t.Fatal("no prose")
	}
	prose := article[0]
	var strong, links []string
	for _, n := range find(prose, tag("strong")) {
		strong = append(strong, text(n))
	}
	for _, n := range find(prose, tag("a")) {
		links = append(links, attr(n, "href")+" "+text(n))
	}
	if strings.Join(strong, "|") != "fast|right away" {
		t.Errorf("bold: %q", strong)
	}
	if strings.Join(links, "|") != "/services/water-damage-restoration our water guide|https://www.fema.gov/ FEMA|mailto:office@example.com the office" {
		t.Errorf("links: %q", links)
	}
	if h2 := find(prose, tag("h2")); len(h2) != 1 || attr(h2[0], "id") != "act-fast" {
		t.Errorf("heading id from the plain text: %v", h2)
	}
	if len(find(prose, tag("script"))) > 0 || len(find(prose, tag("img"))) > 0 || !strings.Contains(page.Body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("HTML in a body is not shown as text")
	}
	text := text(prose)
	if !strings.Contains(text, "A lone ** stays.") || strings.Count(text, "**") != 1 {
		t.Errorf("marks shown: %q", text)
	}
}

// A post whose link stops at "(" renders its words, never a link, and
// even a site whose content has links outside the subset (an old
// database, an import) renders them as their words. (That such a link
// blocks a publish is tested in the room: web/editor's
// TestBodyLinksRefused.)
func TestBodyLinksRefused(t *testing.T) {
	srv, h, tok := editorServer(t)
	a := post("bad-link", "Bad Link")
	a.Content = "Read [this](javascript:alert(1)) now."
	publishPost(t, h, tok, a)
	if a := find(get(t, h, "/blog/bad-link").Doc, tag("a")); strings.Contains(hrefs(a), "javascript") {
		t.Error("javascript:alert(1) became a link")
	}
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	c.Articles[0].Content = "[click](javascript:alert%281%29) [x](data:text/html,hi) [y](//evil.example) [ok](/blog)"
	body, err := srv.pages.Preview(context.Background(), c, "/blog/"+c.Articles[0].Slug)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := html.Parse(strings.NewReader(string(body)))
	prose := find(doc, func(n *html.Node) bool {
		return n.Type == html.ElementNode && strings.Contains(attr(n, "class"), "prose")
	})
	if len(prose) == 0 {
		t.Fatal("no prose")
	}
	if got := hrefs(find(prose[0], tag("a"))); got != "/blog" {
		t.Errorf("links made: %q", got)
	}
	if !strings.Contains(text(prose[0]), "click x y ok") {
		t.Errorf("the words of refused links: %q", text(prose[0]))
	}
}

// SEO title and description are made from the title and the excerpt
// while empty, and the owner's own win; the reading time is the
// server's, from the body's words: on the live page. (What the editor is
// shown of them is tested in the room: web/editor/rules_test.go.)
func TestDerivedSEOAndReadingTime(t *testing.T) {
	_, h, tok := editorServer(t)
	a := post("derived-seo", "Sump Pump Failures in Spring")
	a.SEOTitle, a.MetaDescription, a.ReadTime = "", "", 42
	a.Content = strings.Repeat("water ", 450)
	r := jsonReq(t, h, "POST", "/api/admin/content", tok, map[string]any{"kind": "article", "data": a})
	it := decodeItem(t, r)
	r = jsonReq(t, h, "POST", "/api/admin/content/"+it.ID+"/publish", tok, map[string]any{"version": it.Version})
	if r.StatusCode != 200 {
		t.Fatalf("publish: %d %s", r.StatusCode, r.Body)
	}
	it = decodeItem(t, r)
	page := get(t, h, "/blog/derived-seo")
	if titles := find(page.Doc, tag("title")); len(titles) == 0 || !strings.Contains(text(titles[0]), a.Title) {
		t.Error("the page's title is not made from the post's")
	}
	if !strings.Contains(page.Body, `name="description" content="`+a.Excerpt+`"`) || !strings.Contains(text(page.Doc), "3 min read") {
		t.Error("description or reading time not derived")
	}
	// The owner writes their own: it is used.
	a.SEOTitle = "Spring Sump Pump Checklist"
	it = decodeItem(t, jsonReq(t, h, "PUT", "/api/admin/content/"+it.ID, tok, map[string]any{"version": it.Version, "data": a}))
	jsonReq(t, h, "POST", "/api/admin/content/"+it.ID+"/publish", tok, map[string]any{"version": it.Version})
	if titles := find(get(t, h, "/blog/derived-seo").Doc, tag("title")); len(titles) == 0 || !strings.Contains(text(titles[0]), "Spring Sump Pump Checklist") {
		t.Error("the owner's SEO title is not used")
	}
}

// The word-count guidance counts the words the owner wrote, not the menu
// and the footer: a 60-word post does not pass.
func TestGuidanceCountsTheMainText(t *testing.T) {
	_, h, tok := editorServer(t)
	a := post("sixty-words", "Sixty Words Only")
	a.Content = strings.TrimSpace(strings.Repeat("dry ", 60))
	it := decodeItem(t, jsonReq(t, h, "POST", "/api/admin/content", tok, map[string]any{"kind": "article", "data": a}))
	var g struct {
		Words  int
		Checks []struct{ Check, Status, Message string }
	}
	r := jsonReq(t, h, "GET", "/api/admin/content/"+it.ID+"/guidance", tok, nil)
	json.Unmarshal([]byte(r.Body), &g)
	if g.Words != 60 {
		t.Errorf("words %d, want 60 (%s)", g.Words, r.Body)
	}
	found := false
	for _, c := range g.Checks {
		if c.Check == "Content length" {
			found = true
			if c.Status != "warning" || !strings.Contains(c.Message, "60 words") {
				t.Errorf("content length: %+v", c)
			}
		}
	}
	if !found {
		t.Errorf("no content length check: %s", r.Body)
	}
}

// The preview carries the draft bar, outside the React root; the live
// page never does.
func TestPreviewBar(t *testing.T) {
	_, h, tok := editorServer(t)
	it := publishPost(t, h, tok, post("preview-bar", "Preview Bar Post"))
	pr := jsonReq(t, h, "GET", "/admin/preview/"+it.ID, tok, nil)
	if pr.StatusCode != 200 {
		t.Fatal(pr.StatusCode, pr.Body)
	}
	body := strings.Index(pr.Body, "<body>")
	bar := strings.Index(pr.Body, editorweb.PreviewBarText)
	root := strings.Index(pr.Body, `<div id="root">`)
	if body < 0 || bar < body || root < bar {
		t.Errorf("the bar is not between <body> and the root: %d %d %d", body, bar, root)
	}
	if !strings.Contains(pr.Body, `<aside class="draft-bar" aria-label="Draft preview"`) || !strings.Contains(pr.Body, `href="/admin/content?item=`+it.ID+`"`) {
		t.Error("the bar is not a labelled region leading back to the editor")
	}
	for _, p := range []string{"/blog/preview-bar", "/blog", "/"} {
		if strings.Contains(get(t, h, p).Body, editorweb.PreviewBarText) {
			t.Errorf("%s shows the draft bar", p)
		}
	}
}

func hrefs(ns []*html.Node) string {
	var out []string
	for _, n := range ns {
		out = append(out, attr(n, "href"))
	}
	return strings.Join(out, " ")
}
