package server

import (
	"regexp"
	"strings"
	"testing"
)

// helmetMarks are texts react-helmet-async's code keeps after
// minification: a property name, its attribute, its name in messages and
// the package name.
var helmetMarks = []string{"helmetInstances", `data-rh`, "Helmet", "react-helmet"}

var (
	scriptURL = regexp.MustCompile(`<script[^>]*\b(?:data-)?src="([^"]+)"|<link rel="(?:modulepreload|prefetch)" href="([^"]+)"`)
	// A chunk names the chunks it imports, statically or with import(),
	// by a relative path.
	chunkImport = regexp.MustCompile(`["'](\./[A-Za-z0-9_.-]+\.js)["']`)
)

// pageJavaScript fetches every script a served page can run, through the
// handler: the scripts and preloads its HTML names, the islands loader the
// boot line starts, every chunk those import (also with import(), the
// React runtime the islands fetch on interaction) and the service worker.
// It returns each script's body by URL.
func pageJavaScript(t *testing.T, srv *Server, path string) map[string]string {
	t.Helper()
	h := srv.Handler()
	doc := get(t, h, path)
	if doc.StatusCode != 200 {
		t.Fatalf("%s: %d", path, doc.StatusCode)
	}
	var todo []string
	for _, m := range scriptURL.FindAllStringSubmatch(doc.Body, -1) {
		todo = append(todo, m[1]+m[2])
	}
	if strings.Contains(doc.Body, "serviceWorker") || !strings.HasPrefix(path, "/admin") {
		todo = append(todo, "/sw.js")
	}
	out := map[string]string{}
	for len(todo) > 0 {
		u := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if _, ok := out[u]; ok {
			continue
		}
		r := get(t, h, u)
		if r.StatusCode != 200 {
			t.Fatalf("%s: script %s: %d", path, u, r.StatusCode)
		}
		out[u] = r.Body
		dir := u[:strings.LastIndex(u, "/")+1]
		for _, m := range chunkImport.FindAllStringSubmatch(r.Body, -1) {
			todo = append(todo, dir+strings.TrimPrefix(m[1], "./"))
		}
	}
	return out
}

// TestHeadHelmetNeverReachesPublicJavaScript: react-helmet-async runs in
// the server render and in the admin app only (ADR 055). No script a
// public page loads, now or on interaction, holds any of its code; the
// admin's does (else the marks would prove nothing).
func TestHeadHelmetNeverReachesPublicJavaScript(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	admin := pageJavaScript(t, srv, "/admin")
	found := map[string]bool{}
	for _, body := range admin {
		for _, m := range helmetMarks {
			if strings.Contains(body, m) {
				found[m] = true
			}
		}
	}
	if !found["helmetInstances"] || !found["data-rh"] {
		t.Fatalf("the admin's JavaScript (%d files) does not hold Helmet's marks %v: the check below proves nothing", len(admin), found)
	}
	var paths []string
	for _, p := range dumpPages(t, srv, false) {
		if p.kind != "admin" && !strings.HasSuffix(p.name, "-awkward") && p.name != "/404" && p.name != "/500" {
			paths = append(paths, p.path)
		}
	}
	if len(paths) < 10 {
		t.Fatalf("only %d public pages", len(paths))
	}
	for _, path := range paths {
		js := pageJavaScript(t, srv, path)
		islands, react := 0, false
		for u, body := range js {
			if strings.Contains(u, "/islands-") {
				islands++
			}
			react = react || strings.Contains(body, "react.element")
			for _, m := range helmetMarks {
				if strings.Contains(body, m) {
					t.Errorf("%s loads %s, which holds %q", path, u, m)
				}
			}
		}
		// The walk reached the islands loader and React's runtime chunk.
		if islands != 1 || !react {
			t.Errorf("%s: the walk found %d scripts, %d islands loaders, React's runtime: %v", path, len(js), islands, react)
		}
	}
}
