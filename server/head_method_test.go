package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestHeadAnswersAsGet asks every kind of public address with HEAD and with
// GET through a real net/http server: the status and the headers that
// describe the body must be the same, and HEAD must carry no body. Crawlers
// and uptime monitors use HEAD; before this, HEAD /robots.txt, /sitemap.xml
// and the icons the head links to were 404 and HEAD of an asset was 405.
func TestHeadAnswersAsGet(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	home := get(t, srv.Handler(), "/")
	paths := []string{"/", "/contact", "/services/water-damage-restoration", "/robots.txt", "/sitemap.xml",
		"/sw.js", "/offline", "/healthz", "/api/reviews", "/favicon.ico", "/favicon.svg", "/no-such-page", "/media/no-such-file.jpg"}
	// Every address the home page's head and scripts name on this site.
	for _, n := range find(home.Doc, func(n *html.Node) bool { return n.Data == "link" || n.Data == "script" }) {
		for _, k := range []string{"href", "src", "data-src"} {
			if v := attr(n, k); strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") {
				paths = append(paths, v)
			}
		}
	}
	if len(paths) < 16 { // the apple-touch-icon, the manifest and the islands loader
		t.Fatalf("only %d paths: the page names no icons or scripts?", len(paths))
	}
	client := ts.Client()
	ask := func(method, path string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := client.Transport.RoundTrip(req) // no transparent decompression
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	for _, p := range paths {
		g, gb := ask(http.MethodGet, p)
		h, hb := ask(http.MethodHead, p)
		if g.StatusCode != h.StatusCode {
			t.Errorf("%s: GET %d, HEAD %d", p, g.StatusCode, h.StatusCode)
			continue
		}
		if len(hb) != 0 {
			t.Errorf("HEAD %s sent a body of %d bytes", p, len(hb))
		}
		for _, k := range []string{"Content-Type", "Content-Encoding", "Cache-Control", "Etag", "X-Robots-Tag", "Content-Security-Policy"} {
			if g.Header.Get(k) != h.Header.Get(k) {
				t.Errorf("%s: %s differs: GET %q, HEAD %q", p, k, g.Header.Get(k), h.Header.Get(k))
			}
		}
		// A cached body's length is known before it is sent.
		if cl := g.Header.Get("Content-Length"); cl != "" && g.Header.Get("Etag") != "" && h.Header.Get("Content-Length") != cl {
			t.Errorf("%s: Content-Length GET %s (body %d), HEAD %q", p, cl, len(gb), h.Header.Get("Content-Length"))
		}
		if strings.HasPrefix(p, "/no-such") || strings.HasPrefix(p, "/media/no-such") {
			if g.StatusCode != http.StatusNotFound {
				t.Errorf("%s: %d, want 404", p, g.StatusCode)
			}
		} else if g.StatusCode != http.StatusOK {
			t.Errorf("%s: %d, want 200", p, g.StatusCode)
		}
	}
}
