package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/site"
)

// awkwardText holds every character HTML escaping touches, non-ASCII
// letters, a character outside the BMP (a UTF-16 surrogate pair in the
// runtime) and U+2028, so a change to how output is escaped or converted
// from UTF-16 shows up in the dumped pages.
const awkwardText = `Tom & Jerry's <b>"café"</b> — naïve 💧🔥 'x' > y < z` + "\u2028 end"

// dumpPage is one document the dump renders: every path of the route
// table, and the pages outside it (404, 500, a form answered without
// JavaScript) with texts that exercise escaping.
type dumpPage struct {
	name, kind, path string
	pg               site.Page
}

func dumpPages(t *testing.T, srv *Server, all bool) []dumpPage {
	t.Helper()
	ctx := context.Background()
	var out []dumpPage
	seen := map[string]bool{}
	for _, path := range srv.site.AllPaths() {
		r, pg, err := srv.site.Load(ctx, path)
		if err != nil {
			t.Fatalf("load %s: %v", path, err)
		}
		if !all && seen[r.Page] {
			continue
		}
		seen[r.Page] = true
		out = append(out, dumpPage{name: path, kind: r.Page, path: path, pg: pg})
	}
	st := &leads.EstimateState{
		Values: leads.EstimateValues{Name: awkwardText, Phone: "404 555 0100", Email: "a&b@example.com", City: "Décatur", Notes: awkwardText},
		Errors: map[string]string{"email": "Enter an email address like \"name@example.com\" <here>"},
	}
	out = append(out,
		dumpPage{name: "/404", kind: "not-found", path: "/404", pg: site.NotFoundPage(&site.NotFoundError{})},
		dumpPage{name: "/404-awkward", kind: "not-found", path: "/404", pg: site.NotFoundPage(&site.NotFoundError{Title: awkwardText, Message: awkwardText, LinkHref: "/a?b=1&c=\"2\"", LinkText: awkwardText})},
		dumpPage{name: "/500", kind: "error", path: "/500", pg: site.ErrorPage()},
		dumpPage{name: "/estimate-awkward", kind: "estimate", path: "/estimate", pg: srv.site.EstimatePage("/estimate", st)},
	)
	return out
}

// TestDumpRenderedPages renders every page of the site. With SSR_DUMP_DIR
// set it writes each document there (one file per path), so a change to
// the renderer can be checked byte for byte against a dump of the code
// before it:
//
//	SSR_DUMP_DIR=/tmp/ssr-base go test ./server -run TestDumpRenderedPages -count 1
//	(change) SSR_DUMP_DIR=/tmp/ssr-new go test ...; diff -r /tmp/ssr-base /tmp/ssr-new
//
// Without it, it renders one page of each kind and the awkward-text pages
// and checks the document's frame and that the awkward text is escaped.
func TestDumpRenderedPages(t *testing.T) {
	dir := os.Getenv("SSR_DUMP_DIR")
	srv, _ := newTestServer(t, nil)
	ctx := context.Background()
	pages := dumpPages(t, srv, dir != "")
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range pages {
		body, err := srv.pages.RenderDoc(ctx, p.kind, p.path, p.pg)
		if err != nil {
			t.Fatalf("render %s: %v", p.name, err)
		}
		doc := string(body)
		if !strings.HasPrefix(doc, "<!doctype html><html") || !strings.HasSuffix(doc, "</body></html>") ||
			strings.Count(doc, `<div id="root">`) != 1 || !strings.Contains(doc, "<title") {
			t.Errorf("%s: not a whole document: %.200q", p.name, doc)
		}
		if strings.HasSuffix(p.name, "-awkward") {
			// The text itself must appear escaped, never raw.
			if strings.Contains(doc, `<b>"café"</b>`) {
				t.Errorf("%s: awkward text unescaped", p.name)
			}
			if !strings.Contains(doc, `Tom &amp; Jerry&#x27;s &lt;b&gt;&quot;café&quot;&lt;/b&gt; — naïve 💧🔥 &#x27;x&#x27; &gt; y &lt; z`+"\u2028 end") {
				t.Errorf("%s: awkward text not escaped as React escapes it", p.name)
			}
		}
		if dir == "" {
			continue
		}
		name := strings.Trim(p.name, "/")
		if name == "" {
			name = "index"
		}
		name = strings.ReplaceAll(name, "/", "__") + ".html"
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(pages) < 15 {
		t.Fatalf("only %d pages rendered", len(pages))
	}
	if dir != "" {
		t.Logf("wrote %d pages to %s", len(pages), dir)
	}
}
