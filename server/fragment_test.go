package server

import (
	"context"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/ssr"
)

// TestChromeMarkupMatchesInlineChrome: pages/server.tsx renders the page
// chrome (top bar, blue bar, navigation island, footer) once per site and
// chrome and every page reuses that markup. Each route's first page,
// rendered through the real bundle, must come out byte for byte as it does
// with the chrome rendered in place; and a change of site data must reach
// the chrome at once.
func TestChromeMarkupMatchesInlineChrome(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	b, err := ssr.Build(ssr.BuildOptions{Root: srv.cfg.SourceDir, Kinds: site.PageKinds(), FullKinds: site.FullHydrationKinds})
	if err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	nat, err := ssr.InstallNatives(rt)
	if err != nil {
		t.Fatal(err)
	}
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
		nat.Reset()
		out, err := render(goja.Undefined(), rt.ToValue(kind), rt.ToValue(string(props)))
		if err != nil {
			t.Fatalf("render %s: %v", kind, err)
		}
		res, err := nat.Result(out)
		if err != nil {
			t.Fatalf("render %s: %v", kind, err)
		}
		return res.HTML
	}

	ctx := context.Background()
	pages := 0
	for _, r := range srv.site.Routes() {
		paths := r.Paths(srv.site.Content())
		if len(paths) == 0 {
			continue
		}
		path := paths[0]
		rr, pg, err := srv.site.Load(ctx, path)
		if err != nil {
			t.Fatalf("load %s: %v", path, err)
		}
		props, err := ssr.MarshalProps(srv.site.Props(ctx, path, pg))
		if err != nil {
			t.Fatal(err)
		}
		inPlace := body(rr.Page, props, true)
		reused := body(rr.Page, props, false)
		if reused != inPlace {
			t.Errorf("%s: the reused chrome changes the page\n reused:   %s\n in place: %s", path, diffAt(reused, inPlace), diffAt(inPlace, reused))
		}
		want := map[bool]int{true: 0, false: 1}[rr.Page == "admin"]
		for _, part := range []string{`<div class="topbar">`, `<div class="bluebar">`, `data-island="nav"`, `aria-label="Open menu"`, `<footer class="footer">`} {
			if n := strings.Count(reused, part); n != want {
				t.Errorf("%s: %s %d times, want %d", path, part, n, want)
			}
		}
		pages++
	}
	if pages < 15 {
		t.Fatalf("only %d routes rendered", pages)
	}

	// New site data (a renamed business, emergency mode turned off) shows
	// in the very next footer: site and chrome are the markup's key.
	_, home, err := srv.site.Load(ctx, "/")
	if err != nil {
		t.Fatal(err)
	}
	hp := srv.site.Props(ctx, "/", home)
	first, _ := ssr.MarshalProps(hp)
	before := body("home", first, false)
	hp.Site.Name = "Renamed Restoration Co"
	hp.Site.EmergencyMode = false
	second, _ := ssr.MarshalProps(hp)
	after := body("home", second, false)
	footer := func(html string) string { return html[strings.Index(html, `<footer class="footer">`):] }
	nav := func(html string) string { return html[:strings.Index(html, `<main`)] }
	for name, part := range map[string]func(string) string{"footer": footer, "header": nav} {
		if strings.Contains(part(before), "Renamed Restoration Co") || !strings.Contains(part(after), "Renamed Restoration Co") {
			t.Errorf("the %s did not follow the renamed business", name)
		}
	}
	if !strings.Contains(before, "24/7 Emergency") || strings.Contains(nav(after), "24/7 Emergency") {
		t.Error("the blue bar did not follow emergency mode")
	}
	if after != body("home", second, true) {
		t.Error("after a site change, the reused chrome differs from one rendered in place")
	}
}

// diffAt is a's text around the first byte where it differs from b.
func diffAt(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo, hi := max(0, i-120), min(len(a), i+200)
	return a[lo:hi]
}
