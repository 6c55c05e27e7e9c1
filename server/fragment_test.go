package server

import (
	"context"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/ssr"
	"github.com/dop251/goja"
)

// TestFooterMarkupMatchesInlineFooter: pages/server.tsx renders the footer
// once per site and chrome and every page reuses that markup. Each route's
// first page, rendered through the real bundle, must come out byte for
// byte as it does with the footer rendered in place; and a change of site
// data must reach the footer at once.
func TestFooterMarkupMatchesInlineFooter(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	b, err := ssr.Build(ssr.BuildOptions{Root: srv.cfg.SourceDir, Kinds: srv.PageKinds(), FullKinds: FullHydrationKinds})
	if err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	if _, err := rt.RunString(b.Server); err != nil {
		t.Fatal(err)
	}
	render, ok := goja.AssertFunction(rt.Get("SSR").ToObject(rt).Get("render"))
	if !ok {
		t.Fatal("SSR.render is not a function")
	}
	body := func(kind string, props []byte, inPlace bool) string {
		t.Helper()
		rt.Set("__ssrNoFragments", inPlace)
		out, err := render(goja.Undefined(), rt.ToValue(kind), rt.ToValue(string(props)))
		if err != nil {
			t.Fatalf("render %s: %v", kind, err)
		}
		var parts []string
		if err := rt.ExportTo(out, &parts); err != nil || len(parts) != 3 {
			t.Fatalf("render %s: %v", kind, err)
		}
		return parts[0]
	}

	ctx := context.Background()
	pages := 0
	for _, r := range srv.routes {
		paths := r.Paths(srv.content)
		if len(paths) == 0 {
			continue
		}
		path := paths[0]
		rr, p, ok := srv.routeFor(path)
		if !ok {
			t.Fatalf("no route for %s", path)
		}
		pg, err := rr.Load(ctx, srv, p)
		if err != nil {
			t.Fatalf("load %s: %v", path, err)
		}
		props, err := ssr.MarshalProps(srv.pageProps(ctx, path, pg))
		if err != nil {
			t.Fatal(err)
		}
		inPlace := body(rr.Page, props, true)
		reused := body(rr.Page, props, false)
		if reused != inPlace {
			t.Errorf("%s: the reused footer changes the page\n reused:   %s\n in place: %s", path, tail(reused), tail(inPlace))
		}
		if want := map[bool]int{true: 0, false: 1}[rr.Page == "admin"]; strings.Count(reused, `<footer class="footer">`) != want {
			t.Errorf("%s: %d footers", path, strings.Count(reused, `<footer class="footer">`))
		}
		pages++
	}
	if pages < 15 {
		t.Fatalf("only %d routes rendered", pages)
	}

	// New site data (a renamed business, emergency mode turned off) shows
	// in the very next footer: site and chrome are the markup's key.
	r, _, _ := srv.routeFor("/")
	home, err := r.Load(ctx, srv, nil)
	if err != nil {
		t.Fatal(err)
	}
	hp := srv.pageProps(ctx, "/", home)
	first, _ := ssr.MarshalProps(hp)
	before := body("home", first, false)
	hp.Site.Name = "Renamed Restoration Co"
	hp.Site.EmergencyMode = false
	second, _ := ssr.MarshalProps(hp)
	after := body("home", second, false)
	footer := func(html string) string { return html[strings.Index(html, `<footer class="footer">`):] }
	if strings.Contains(footer(before), "Renamed Restoration Co") || !strings.Contains(footer(after), "Renamed Restoration Co") {
		t.Error("the footer did not follow the renamed business")
	}
	if footer(after) != footer(body("home", second, true)) {
		t.Error("after a site change, the reused footer differs from one rendered in place")
	}
}

func tail(s string) string {
	if i := strings.Index(s, "<footer"); i >= 0 {
		s = s[i:]
	}
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}
