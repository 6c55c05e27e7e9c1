package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestIconsNeedNoRequestBeforeFirstPaint checks ADR 018 on every page kind:
// the tab icon is inlined, so the browser fetches nothing for it, and the
// icons that stay URLs (the apple-touch-icon, the manifest's) are served
// with the type and size they are declared with.
func TestIconsNeedNoRequestBeforeFirstPaint(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	svg, err := os.ReadFile(filepath.Join(srv.cfg.SourceDir, "static", "favicon.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "/services/water-damage-restoration", "/areas/cobb/smyrna", "/blog/what-to-do-immediately-after-water-damage",
		"/service-areas/cobb", "/portfolio", "/contact", "/water-damage-restoration-atlanta", "/no-such-page", "/admin"} {
		r := get(t, srv.Handler(), p)
		if r.Doc == nil {
			t.Fatalf("%s: no HTML (%d)", p, r.StatusCode)
		}
		links := find(headOf(r.Doc), tag("link"))
		var icons, touch []*html.Node
		for _, l := range links {
			for _, rel := range strings.Fields(attr(l, "rel")) {
				switch rel {
				case "icon":
					icons = append(icons, l)
				case "apple-touch-icon":
					touch = append(touch, l)
				}
			}
		}
		if len(icons) != 1 || len(touch) != 1 {
			t.Fatalf("%s: %d icon links and %d apple-touch-icon links, want 1 and 1", p, len(icons), len(touch))
		}
		href := attr(icons[0], "href")
		data, ok := strings.CutPrefix(href, "data:image/svg+xml,")
		if !ok {
			t.Fatalf("%s: the tab icon is fetched: %q", p, href)
		}
		got, err := url.PathUnescape(data)
		if err != nil || got != string(bytes.TrimSpace(svg)) {
			t.Errorf("%s: the inlined icon is not static/favicon.svg (%v):\n%s", p, err, got)
		}
		if attr(icons[0], "type") != "image/svg+xml" {
			t.Errorf("%s: icon type %q", p, attr(icons[0], "type"))
		}
		if h := attr(touch[0], "href"); h != "/apple-touch-icon.png" {
			t.Errorf("%s: apple-touch-icon %q", p, h)
		}
	}

	// The URL icons: a PNG of the size they claim, 192 px (a multiple of
	// 48 px, as Google Search asks of a favicon it takes from a page).
	pngSize := func(path string) string {
		t.Helper()
		r := get(t, srv.Handler(), path)
		if r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("%s: %d %q", path, r.StatusCode, r.Header.Get("Content-Type"))
		}
		cfg, err := png.DecodeConfig(strings.NewReader(r.Body))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return fmt.Sprintf("%dx%d", cfg.Width, cfg.Height)
	}
	if s := pngSize("/apple-touch-icon.png"); s != "192x192" {
		t.Errorf("apple-touch-icon is %s, want 192x192", s)
	}
	var manifest struct {
		Icons []struct{ Src, Sizes, Type string }
	}
	if err := json.Unmarshal([]byte(get(t, srv.Handler(), "/site.webmanifest").Body), &manifest); err != nil || len(manifest.Icons) == 0 {
		t.Fatalf("manifest: %v %+v", err, manifest)
	}
	for _, ic := range manifest.Icons {
		r := get(t, srv.Handler(), ic.Src)
		if r.StatusCode != 200 || r.Header.Get("Content-Type") != ic.Type {
			t.Errorf("manifest icon %s: %d %q, declared %q", ic.Src, r.StatusCode, r.Header.Get("Content-Type"), ic.Type)
			continue
		}
		if ic.Type == "image/png" && pngSize(ic.Src) != ic.Sizes {
			t.Errorf("manifest icon %s is %s, declared %s", ic.Src, pngSize(ic.Src), ic.Sizes)
		}
	}
	// Clients that ask for the conventional addresses still get an icon.
	for _, p := range []string{"/favicon.ico", "/favicon.svg"} {
		if r := get(t, srv.Handler(), p); r.StatusCode != 200 || len(r.Body) == 0 {
			t.Errorf("%s: %d", p, r.StatusCode)
		}
	}
}
