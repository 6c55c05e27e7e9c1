package editor

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
)

// post is a valid blog post at slug.
func post(slug, title string) content.Article {
	return content.Article{Slug: slug, Title: title, Excerpt: "What to do in the first hour after a burst pipe.",
		Content: "## Shut off the water\nFind the main valve.\n- Turn it clockwise.", Category: "restoration", PublishDate: "2026-11-26", ReadTime: 4,
		SEO: content.SEO{SEOTitle: title + " | Guide", MetaDescription: "What to do in the first hour after a pipe bursts in a metro Atlanta home, step by step, from our restoration crews."}}
}

// create creates an article draft.
func (r *room) create(t *testing.T, a content.Article) ItemDetail {
	t.Helper()
	res := r.do(t, "POST", "/api/admin/content", map[string]any{"kind": "article", "data": a})
	if res.status != http.StatusCreated {
		t.Fatalf("create: %d %.400s", res.status, res.body)
	}
	res.status = http.StatusOK
	return r.item(t, res, "create")
}

// SEO title and description are made from the title and the excerpt
// while empty and shown to the editor as such; the reading time is the
// server's, from the body's words; a derived field is never a problem.
// (The live page using them, and the owner's own title winning, are
// tested in server/: TestDerivedSEOAndReadingTime.)
func TestDerivedFieldsShownToTheEditor(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		a := post("derived-seo", "Sump Pump Failures in Spring")
		a.SEOTitle, a.MetaDescription, a.ReadTime = "", "", 42
		a.Content = strings.Repeat("water ", 450)
		it := r.create(t, a)
		if it.Derived == nil || it.Derived.SEOTitle != a.Title || it.Derived.MetaDescription != a.Excerpt || it.Derived.ReadTime != 3 || it.Derived.Words != 450 {
			t.Errorf("derived: %+v", it.Derived)
		}
		var draft map[string]any
		json.Unmarshal(it.Draft, &draft)
		if draft["readTime"] != float64(3) || draft["seoTitle"] != "" {
			t.Errorf("stored draft: readTime %v seoTitle %q", draft["readTime"], draft["seoTitle"])
		}
		for _, p := range it.Problems {
			if p.Field == "seoTitle" || p.Field == "metaDescription" || p.Field == "readTime" {
				t.Errorf("problem on a derived field: %v", p)
			}
		}
		if a := r.do(t, "POST", "/api/admin/content/"+it.ID+"/publish", map[string]any{"version": it.Version}); a.status != http.StatusOK {
			t.Fatalf("publish: %d %s", a.status, a.body)
		}
	})
}

// An icon the site cannot draw is a hard problem: the card would show a
// shield.
func TestUnknownIconRefused(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		it := r.firstOf(t, content.KindService, "")
		var sv map[string]any
		json.Unmarshal(it.Draft, &sv)
		sv["icon"] = "water-drop"
		it = r.item(t, r.do(t, "PUT", "/api/admin/content/"+it.ID, map[string]any{"version": it.Version, "data": sv}), "save")
		if a := r.do(t, "POST", "/api/admin/content/"+it.ID+"/publish", map[string]any{"version": it.Version}); a.status != http.StatusUnprocessableEntity || !strings.Contains(string(a.body), `"field":"icon"`) {
			t.Errorf("unknown icon: %d %s", a.status, a.body)
		}
		sv["icon"] = "star"
		it = r.item(t, r.do(t, "PUT", "/api/admin/content/"+it.ID, map[string]any{"version": it.Version, "data": sv}), "save")
		if a := r.do(t, "POST", "/api/admin/content/"+it.ID+"/publish", map[string]any{"version": it.Version}); a.status != http.StatusOK {
			t.Errorf("a known icon: %d %s", a.status, a.body)
		}
	})
}

// A link to an address outside the subset blocks a publish, with the
// problem on the body; an address that stops at "(" makes no link at
// all, so the post publishes. (That such a post, and a site whose
// content has those links, render their words and never a link is
// tested in server/: TestBodyLinksRefused.)
func TestBodyLinksRefused(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		t.Parallel()
		r := newRoom(t, s)
		for _, href := range []string{"javascript:alert(1)", "data:text/html,x", "//evil.example/x", "vbscript:x", "JaVaScRiPt:alert`1`"} {
			a := post("bad-link", "Bad Link")
			a.Content = "Read [this](" + href + ") now."
			it := r.create(t, a)
			res := r.do(t, "POST", "/api/admin/content/"+it.ID+"/publish", map[string]any{"version": it.Version})
			if strings.Contains(href, "(") {
				// The address stops at "(": no link is made at all.
				if res.status != 200 {
					t.Errorf("%s: %d %s", href, res.status, res.body)
				}
			} else if res.status != http.StatusUnprocessableEntity || !strings.Contains(string(res.body), `"field":"content"`) {
				t.Errorf("%s: publish %d %s", href, res.status, res.body)
			}
			now := r.item(t, r.do(t, "GET", "/api/admin/content/"+it.ID, nil), "reload")
			if d := r.do(t, "DELETE", "/api/admin/content/"+it.ID+"?version="+strconv.Itoa(now.Version), nil); d.status != http.StatusOK {
				t.Fatalf("delete: %d %s", d.status, d.body)
			}
		}
	})
}
