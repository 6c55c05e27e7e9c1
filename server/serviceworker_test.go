package server

import (
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/config"
)

var swVersionRE = regexp.MustCompile(`const VERSION = "([0-9a-f]{16})";`)

func swVersion(t *testing.T, body string) string {
	t.Helper()
	m := swVersionRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("sw.js has no VERSION:\n%s", body)
	}
	return m[1]
}

func TestServiceWorkerScript(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	r := get(t, h, "/sw.js")
	if r.StatusCode != 200 {
		t.Fatalf("/sw.js: %d", r.StatusCode)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control %q, want no-cache so a deploy's worker is picked up", cc)
	}
	v1 := swVersion(t, r.Body)
	for _, want := range []string{
		// precache of the offline page at install, takeover, old caches deleted
		`const OFFLINE = "/offline"`, "cache.add(new Request(OFFLINE", "self.skipWaiting()", "self.clients.claim()", "caches.delete(k)",
		// never: non-GET, other origins, /admin, /api/*
		`if (req.method !== "GET") return;`, "url.origin !== self.location.origin",
		`path === "/admin" || path.startsWith("/admin/") || path.startsWith("/api/")`,
		// hashed assets cache-first, pages network-first then cache then offline
		`url.pathname.startsWith("/assets/")`, "cacheFirst(req)", `req.mode === "navigate"`,
		"(await cache.match(req)) || (await cache.match(OFFLINE))", "const TIMEOUT = 3000;",
		// only complete same-origin answers are kept
		"res.status === 200 && res.type === \"basic\"",
	} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("sw.js lacks %q", want)
		}
	}
	// The bypass comes before any respondWith.
	if strings.Index(r.Body, "bypass(url.pathname)) return;") > strings.Index(r.Body, "event.respondWith(") {
		t.Error("sw.js answers a request before checking the bypass rules")
	}
	// Revalidation: 304 while unchanged.
	if r2 := get(t, h, "/sw.js", "If-None-Match", r.Header.Get("ETag")); r2.StatusCode != 304 {
		t.Errorf("conditional /sw.js: %d", r2.StatusCode)
	}

	// A settings save changes the offline page, so the worker's bytes.
	tok := settingsAdmin(t, srv, store)
	if res := saveSettings(t, h, tok, map[string]any{"emergencyMode": false}); res.StatusCode != 200 {
		t.Fatalf("save: %d %s", res.StatusCode, res.Body)
	}
	v2 := swVersion(t, get(t, h, "/sw.js").Body)
	if v2 == v1 {
		t.Error("sw.js version did not change after a settings save")
	}
	// Unchanged content, unchanged worker.
	if v3 := swVersion(t, get(t, h, "/sw.js").Body); v3 != v2 {
		t.Errorf("sw.js version changed without a change: %s then %s", v2, v3)
	}
}

func TestOfflinePage(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	r := get(t, h, "/offline")
	if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("/offline: %d %s", r.StatusCode, r.Header.Get("Content-Type"))
	}
	if !strings.Contains(r.Header.Get("X-Robots-Tag"), "noindex") || !strings.Contains(r.Body, `<meta name="robots" content="noindex, nofollow">`) {
		t.Error("/offline is not noindex")
	}
	b := srv.cfg.Business
	txt := text(bodyOf(r.Doc))
	for _, want := range []string{b.Name, "You are offline", "24/7 Emergency: " + b.Phone, b.Street, b.City + ", " + b.State + " " + b.Zip} {
		if !strings.Contains(txt, want) {
			t.Errorf("/offline does not show %q: %s", want, txt)
		}
	}
	tel := find(r.Doc, func(n *html.Node) bool { return n.Data == "a" && strings.HasPrefix(attr(n, "href"), "tel:") })
	if len(tel) != 1 || attr(tel[0], "href") != "tel:+1"+config.PhoneDigits(b.Phone) {
		t.Errorf("tel link: %v", tel)
	}
	// Self-contained: inline CSS only, no script, no external stylesheet.
	if strings.Contains(r.Body, "<script") || strings.Contains(r.Body, `rel="stylesheet"`) || !strings.Contains(r.Body, "<style>") {
		t.Error("/offline must be one self-contained document")
	}
	if sm := get(t, h, "/sitemap.xml"); strings.Contains(sm.Body, "/offline") {
		t.Error("/offline is in the sitemap")
	}

	// Settings follow: new name, address, the 24/7 line in emergency
	// mode; "Call us" with the hours outside it (the same number).
	tok := settingsAdmin(t, srv, store)
	if res := saveSettings(t, h, tok, nil); res.StatusCode != 200 {
		t.Fatalf("save: %d %s", res.StatusCode, res.Body)
	}
	r = get(t, h, "/offline")
	txt = text(bodyOf(r.Doc))
	for _, want := range []string{"Peach State Restoration", "24/7 Emergency: (404) 555-0177", "100 Main St", "Marietta, GA 30060"} {
		if !strings.Contains(txt, want) {
			t.Errorf("/offline after save does not show %q: %s", want, txt)
		}
	}
	if tel := find(r.Doc, func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "tel:+14045550177" }); len(tel) != 1 {
		t.Error("/offline does not dial the 24/7 line")
	}
	saveSettings(t, h, tok, map[string]any{"emergencyMode": false})
	txt = text(bodyOf(get(t, h, "/offline").Doc))
	if !strings.Contains(txt, "Call us: (404) 555-0177") || !strings.Contains(txt, "Mon–Fri 8:00 AM–6:00 PM; Sat 9:00 AM–1:00 PM") || strings.Contains(txt, "24/7") {
		t.Errorf("/offline outside emergency mode: %s", txt)
	}
}

// TestServiceWorkerRegisteredByPublicPagesOnly: the islands script (every
// public page) registers /sw.js after load; the admin bundle does not (it
// registers its own, /admin/sw.js), and the public page gains no module
// preload for it.
func TestServiceWorkerRegisteredByPublicPagesOnly(t *testing.T) {
	srv, _ := adminServer(t, nil)
	pub, _ := srv.engine.Entry("home")
	adm, _ := srv.engine.Entry("admin")
	body := func(u string) string { return string(srv.engine.Asset(u).Body) }
	js := body(pub.Script)
	if !strings.Contains(js, `"/sw.js"`) || !strings.Contains(js, `addEventListener("load"`) {
		t.Error("the islands script does not register /sw.js after load")
	}
	// The admin registers its own worker (/admin/sw.js, scope
	// /admin/, for Web Push of new leads), never the public one.
	registersOwn := false
	for _, u := range append([]string{adm.Script}, adm.Preloads...) {
		b := body(u)
		if strings.Contains(b, `"/sw.js"`) {
			t.Errorf("%s (admin) registers the public worker", u)
		}
		if strings.Contains(b, "serviceWorker.register") && strings.Contains(b, `"/admin/sw.js"`) && strings.Contains(b, `"/admin/"`) {
			registersOwn = true
		}
	}
	if !registersOwn {
		t.Error("the admin bundle does not register /admin/sw.js with scope /admin/")
	}
	home := get(t, srv.Handler(), "/")
	if strings.Contains(home.Body, "sw.js") {
		t.Error("the home document references sw.js itself (it must come from the deferred module script)")
	}
}
