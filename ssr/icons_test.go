package ssr

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestSVGDataURL: the data: URL stands in a double-quoted attribute, an
// HTML parser reads it back whole, and a URL parser decodes it to the
// original bytes, whatever the SVG holds.
func TestSVGDataURL(t *testing.T) {
	svg := "\n<svg xmlns=\"http://www.w3.org/2000/svg\"><title>A & B \"quoted\" 100% <ok></title>\n<path fill=\"#fff\" d=\"M0 0\tL1 1\"/><text>café ’</text></svg>\n"
	u := SVGDataURL([]byte(svg))
	if !strings.HasPrefix(u, "data:image/svg+xml,") {
		t.Fatalf("prefix: %q", u)
	}
	if strings.ContainsAny(u, "\"<>&#\n\t") {
		t.Errorf("unsafe bytes left in %q", u)
	}
	got, err := url.PathUnescape(strings.TrimPrefix(u, "data:image/svg+xml,"))
	if err != nil || got != strings.TrimSpace(svg) {
		t.Errorf("round trip: %v\n%q", err, got)
	}
	doc, err := html.Parse(strings.NewReader(`<link rel="icon" href="` + u + `">`))
	if err != nil {
		t.Fatal(err)
	}
	var href string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for _, a := range n.Attr {
			if a.Key == "href" {
				href = a.Val
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if href != u {
		t.Errorf("the attribute reads back as %q", href)
	}
	links := IconLinks([]byte(svg))
	if !strings.HasPrefix(links, `<link rel="icon" href="data:image/svg+xml,`) || !strings.Contains(links, `<link rel="apple-touch-icon" href="/apple-touch-icon.png">`) || !strings.Contains(links, `<link rel="manifest" href="/site.webmanifest">`) {
		t.Errorf("IconLinks: %s", links)
	}
	if l := IconLinks(nil); strings.Contains(l, `rel="icon"`) {
		t.Errorf("no favicon, still an icon link: %s", l)
	}
}
