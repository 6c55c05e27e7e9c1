package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/content"
	editorweb "github.com/atlanta-restoration/site/web/editor"
)

// editorServer is the application with an admin, a staff and an editor
// account; it returns the editor's token.
func editorServer(t *testing.T) (*Server, http.Handler, string) {
	t.Helper()
	srv, store, h := accountServer(t)
	addUser(t, store, editorEmail, editorPass, "editor", "Eddie Editor")
	return srv, h, signIn(t, h, editorEmail, editorPass)
}

func post(slug, title string) content.Article {
	return content.Article{Slug: slug, Title: title, Excerpt: "What to do in the first hour after a burst pipe.",
		Content: "## Shut off the water\nFind the main valve.\n- Turn it clockwise.", Category: "restoration", PublishDate: "2026-11-26", ReadTime: 4,
		SEO: content.SEO{SEOTitle: title + " | Guide", MetaDescription: "What to do in the first hour after a pipe bursts in a metro Atlanta home, step by step, from our restoration crews."}}
}

func decodeItem(t *testing.T, r *response) editorweb.ItemDetail {
	t.Helper()
	var d editorweb.ItemDetail
	if err := json.Unmarshal([]byte(r.Body), &d); err != nil {
		t.Fatalf("%d %s", r.StatusCode, r.Body)
	}
	return d
}

// An editor writes a post, previews it, publishes it: it is on /blog, in
// sitemap.xml and at its own address; renamed, its old address answers
// 301; taken down, 404. Pages the post does not touch keep their render.
func TestEditorPublishesAPost(t *testing.T) {
	srv, h, tok := editorServer(t)
	for _, p := range []string{"/services/roof-repair", "/blog", "/"} {
		if r := get(t, h, p); r.StatusCode != 200 {
			t.Fatal(p, r.StatusCode)
		}
	}
	untouched := srv.Cache().Peek("/services/roof-repair")
	r := jsonReq(t, h, "POST", "/api/admin/content", tok, map[string]any{"kind": "article", "data": post("burst-pipe-first-hour", "Burst Pipe: The First Hour")})
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", r.StatusCode, r.Body)
	}
	it := decodeItem(t, r)
	if it.Status != "draft" || it.Path != "" || it.PreviewPath != "/blog/burst-pipe-first-hour" {
		t.Errorf("created %+v", it.ItemView)
	}
	if get(t, h, "/blog/burst-pipe-first-hour").StatusCode != http.StatusNotFound {
		t.Error("a draft is public")
	}
	// The preview is the real page, private.
	pr := jsonReq(t, h, "GET", "/admin/preview/"+it.ID, tok, nil)
	if pr.StatusCode != 200 || !strings.Contains(pr.Body, "Burst Pipe: The First Hour") || !strings.Contains(pr.Body, "noindex") ||
		pr.Header.Get("Cache-Control") != "no-store" || pr.Header.Get("X-Robots-Tag") != "noindex, nofollow" {
		t.Errorf("preview: %d %q %q", pr.StatusCode, pr.Header.Get("Cache-Control"), pr.Header.Get("X-Robots-Tag"))
	}
	if r := get(t, h, "/admin/preview/"+it.ID); r.StatusCode != http.StatusUnauthorized || strings.Contains(r.Body, "Burst Pipe") {
		t.Errorf("preview without a session: %d", r.StatusCode)
	}
	// Guidance comes from the SEO audit's rules on that render.
	g := jsonReq(t, h, "GET", "/api/admin/content/"+it.ID+"/guidance", tok, nil)
	if g.StatusCode != 200 || !strings.Contains(g.Body, `"check":"Content length"`) || !strings.Contains(g.Body, `"check":"H1 heading"`) {
		t.Errorf("guidance: %d %.300s", g.StatusCode, g.Body)
	}
	r = jsonReq(t, h, "POST", "/api/admin/content/"+it.ID+"/publish", tok, map[string]any{"version": it.Version})
	if r.StatusCode != 200 {
		t.Fatalf("publish: %d %s", r.StatusCode, r.Body)
	}
	it = decodeItem(t, r)
	if it.Status != "published" || it.Path != "/blog/burst-pipe-first-hour" {
		t.Errorf("published %+v", it.ItemView)
	}
	if r := get(t, h, "/blog/burst-pipe-first-hour"); r.StatusCode != 200 || !strings.Contains(r.Body, "Find the main valve.") {
		t.Errorf("the post: %d", r.StatusCode)
	}
	if !strings.Contains(get(t, h, "/blog").Body, "/blog/burst-pipe-first-hour") {
		t.Error("/blog does not list the post")
	}
	sm := get(t, h, "/sitemap.xml").Body
	if !strings.Contains(sm, testBase+"/blog/burst-pipe-first-hour</loc><lastmod>2") {
		t.Error("sitemap.xml lacks the post or its publish time")
	}
	if srv.Cache().Peek("/services/roof-repair") != untouched {
		t.Error("a page the post does not touch was rendered again")
	}
	// Renamed: the old address moves for good.
	r = jsonReq(t, h, "PUT", "/api/admin/content/"+it.ID, tok, map[string]any{"version": it.Version, "data": post("burst-pipe-what-to-do", "Burst Pipe: The First Hour")})
	it = decodeItem(t, r)
	r = jsonReq(t, h, "POST", "/api/admin/content/"+it.ID+"/publish", tok, map[string]any{"version": it.Version})
	it = decodeItem(t, r)
	if r := get(t, h, "/blog/burst-pipe-first-hour"); r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/blog/burst-pipe-what-to-do" {
		t.Errorf("old address: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	// Taken down: 404, and gone from the sitemap.
	r = jsonReq(t, h, "POST", "/api/admin/content/"+it.ID+"/unpublish", tok, map[string]any{"version": it.Version})
	if r.StatusCode != 200 {
		t.Fatalf("unpublish: %d %s", r.StatusCode, r.Body)
	}
	if get(t, h, "/blog/burst-pipe-what-to-do").StatusCode != http.StatusNotFound || strings.Contains(get(t, h, "/sitemap.xml").Body, "burst-pipe-what-to-do") {
		t.Error("an unpublished post is still served")
	}
}

// Hostile input: markup and </script> in every text field render inert
// on every page that shows them; a body over BODY_LIMIT is refused
// before it is read whole. (Bad slugs, unknown fields and kinds are
// refused in the room: web/editor's TestHostileDraftsRefused.)
func TestContentHostileInput(t *testing.T) {
	_, h, tok := editorServer(t)
	evil := `</script><script>alert(1)</script><img src=x onerror=alert(2)>`
	a := post("markup-test", "Title "+evil)
	a.Excerpt, a.Content = "Excerpt "+evil, "## Heading "+evil+"\nBody "+evil
	a.SEOTitle, a.MetaDescription = "Seo "+evil, "Desc "+evil
	r := jsonReq(t, h, "POST", "/api/admin/content", tok, map[string]any{"kind": "article", "data": a})
	it := decodeItem(t, r)
	if r := jsonReq(t, h, "POST", "/api/admin/content/"+it.ID+"/publish", tok, map[string]any{"version": it.Version}); r.StatusCode != 200 {
		t.Fatalf("publish: %d %s", r.StatusCode, r.Body)
	}
	for _, p := range []string{"/blog/markup-test", "/blog", "/", "/sitemap", "/search?q=Excerpt"} {
		body := get(t, h, p).Body
		if strings.Contains(body, "<script>alert(1)") || strings.Contains(body, "<img src=x onerror") {
			t.Errorf("%s: markup from content is live", p)
		}
	}
	// A body over BODY_LIMIT (1 MB) is refused before it is read whole.
	big := strings.Repeat("x", 1<<20+10)
	req := httptest.NewRequest("PUT", "/api/admin/content/"+it.ID, strings.NewReader(`{"version":1,"data":{"content":"`+big+`"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	if r := do(t, h, req); r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("1 MB body: %d", r.StatusCode)
	}
}

// Redirects stay on the site, never loop, and answer 301 at once; 404s
// are counted for the monitor, and a redirect takes a path off it.
func TestRedirectsAndNotFoundMonitor(t *testing.T) {
	srv, h, tok := editorServer(t)
	for i := 0; i < 3; i++ {
		get(t, h, "/old-water-page")
	}
	for _, c := range []struct{ from, to string }{
		{"/old", "https://evil.example/"}, {"/old", "//evil.example"}, {"/old", "/x/../y"}, {"/contact", "/blog"}, {"/admin/x", "/blog"},
	} {
		if r := jsonReq(t, h, "POST", "/api/admin/redirects", tok, map[string]string{"from": c.from, "to": c.to}); r.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s -> %s: %d %s", c.from, c.to, r.StatusCode, r.Body)
		}
	}
	if err := srv.notFound.Flush(context.Background(), time.Now()); err != nil {
		t.Fatal(err)
	}
	nf := jsonReq(t, h, "GET", "/api/admin/not-found", tok, nil)
	if !strings.Contains(nf.Body, `{"path":"/old-water-page","hits":3`) {
		t.Errorf("404 monitor: %s", nf.Body)
	}
	r := jsonReq(t, h, "POST", "/api/admin/redirects", tok, map[string]string{"from": "/old-water-page", "to": "/water-damage-restoration-atlanta"})
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("add: %d %s", r.StatusCode, r.Body)
	}
	if r := get(t, h, "/old-water-page?utm_source=x"); r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/water-damage-restoration-atlanta?utm_source=x" {
		t.Errorf("redirect: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	if nf := jsonReq(t, h, "GET", "/api/admin/not-found", tok, nil); strings.Contains(nf.Body, "/old-water-page") {
		t.Error("a redirected path is still on the 404 list")
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/redirects?from=/old-water-page", tok, nil); r.StatusCode != 200 {
		t.Errorf("delete: %d", r.StatusCode)
	}
	if r := get(t, h, "/old-water-page"); r.StatusCode != http.StatusNotFound {
		t.Errorf("after delete: %d", r.StatusCode)
	}
	// Parallel editors adding both halves of a loop: never both.
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			from, to := "/loop-a", "/loop-b"
			if i%2 == 1 {
				from, to = to, from
			}
			jsonReq(t, h, "POST", "/api/admin/redirects", tok, map[string]string{"from": from, "to": to})
		}(i)
	}
	wg.Wait()
	a, b := get(t, h, "/loop-a"), get(t, h, "/loop-b")
	if a.StatusCode == http.StatusMovedPermanently && b.StatusCode == http.StatusMovedPermanently {
		t.Error("a redirect loop landed")
	}
}

// Staff and the PIN cannot edit; an editor sees no lead.
func TestContentRoles(t *testing.T) {
	_, h, tok := editorServer(t)
	staff := signIn(t, h, staffEmail, staffPass)
	pin := unlock(t, h)
	for _, who := range []string{staff, pin} {
		if r := jsonReq(t, h, "GET", "/api/admin/content?kind=article", who, nil); r.StatusCode != http.StatusForbidden {
			t.Errorf("content list: %d", r.StatusCode)
		}
	}
	if r := jsonReq(t, h, "GET", "/api/admin/content?kind=article", pin, nil); !strings.Contains(r.Body, "admin or editor account") {
		t.Errorf("the PIN's refusal: %s", r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads", tok, nil); r.StatusCode != http.StatusForbidden {
		t.Errorf("an editor reading leads: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/media", tok, nil); r.StatusCode != 200 {
		t.Errorf("an editor's media: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/content?kind=article", tok, nil); r.StatusCode != 200 || !strings.Contains(r.Body, `"creatable":true`) {
		t.Errorf("an editor's content list: %d %s", r.StatusCode, r.Body)
	}
}

// A service page gets a hero photo from the media library: the photo is
// the page's only eager image, at high priority, with its size and
// srcset, the alt text the editor gave it, and the page's og:image. A
// photo that is deleted later leaves the gradient hero, not a broken
// image. A photo that is not in the library cannot be published.
func TestHeroPhoto(t *testing.T) {
	_, h, tok := editorServer(t)
	r := upload(t, h, tok, "Roof Repair Jobs", "roof.jpg", testJPEG(t, 1600, 900))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	var photo struct{ ID string }
	json.Unmarshal([]byte(r.Body), &photo)
	var l editorweb.ItemList
	json.Unmarshal([]byte(jsonReq(t, h, "GET", "/api/admin/content?kind=service", tok, nil).Body), &l)
	var id string
	for _, it := range l.Items {
		if it.Slug == "roof-repair" {
			id = it.ID
		}
	}
	it := decodeItem(t, jsonReq(t, h, "GET", "/api/admin/content/"+id, tok, nil))
	var sv map[string]any
	json.Unmarshal(it.Draft, &sv)
	sv["image"] = map[string]string{"media": "no-such-photo", "alt": "A new roof"}
	it = decodeItem(t, jsonReq(t, h, "PUT", "/api/admin/content/"+id, tok, map[string]any{"version": it.Version, "data": sv}))
	if r := jsonReq(t, h, "POST", "/api/admin/content/"+id+"/publish", tok, map[string]any{"version": it.Version}); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "image.media") {
		t.Errorf("a photo not in the library: %d %s", r.StatusCode, r.Body)
	}
	sv["image"] = map[string]string{"media": photo.ID, "alt": ""}
	it = decodeItem(t, jsonReq(t, h, "PUT", "/api/admin/content/"+id, tok, map[string]any{"version": it.Version, "data": sv}))
	if r := jsonReq(t, h, "POST", "/api/admin/content/"+id+"/publish", tok, map[string]any{"version": it.Version}); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "image.alt") {
		t.Errorf("a photo without alt text: %d %s", r.StatusCode, r.Body)
	}
	sv["image"] = map[string]string{"media": photo.ID, "alt": "A crew replacing shingles on a Marietta home", "caption": "Marietta, 2026"}
	it = decodeItem(t, jsonReq(t, h, "PUT", "/api/admin/content/"+id, tok, map[string]any{"version": it.Version, "data": sv}))
	if r := jsonReq(t, h, "POST", "/api/admin/content/"+id+"/publish", tok, map[string]any{"version": it.Version}); r.StatusCode != 200 {
		t.Fatalf("publish: %d %s", r.StatusCode, r.Body)
	}
	page := get(t, h, "/services/roof-repair")
	imgs := find(page.Doc, tag("img"))
	var hero *html.Node
	eager := 0
	for _, n := range imgs {
		if attr(n, "loading") != "lazy" {
			eager++
		}
		if strings.Contains(attr(n, "class"), "hero-photo") {
			hero = n
		}
	}
	if hero == nil {
		t.Fatal("no hero photo")
	}
	if attr(hero, "alt") != "A crew replacing shingles on a Marietta home" || attr(hero, "width") != "1600" || attr(hero, "height") != "900" ||
		!strings.Contains(attr(hero, "srcset"), "w, ") || attr(hero, "sizes") != "100vw" || !strings.EqualFold(attr(hero, "fetchpriority"), "high") {
		t.Errorf("hero photo %v", hero.Attr)
	}
	if eager != 1 {
		t.Errorf("%d images load eagerly, want only the hero", eager)
	}
	if !strings.Contains(text(bodyOf(page.Doc)), "Marietta, 2026") {
		t.Error("caption missing")
	}
	og := ""
	for _, m := range find(headOf(page.Doc), tag("meta")) {
		if attr(m, "property") == "og:image" {
			og = attr(m, "content")
		}
	}
	if !strings.HasPrefix(og, testBase+"/media/") {
		t.Errorf("og:image %q", og)
	}
	// The photo deleted: the page goes back to the gradient hero.
	if r := jsonReq(t, h, "DELETE", "/api/admin/media/"+photo.ID, tok, nil); r.StatusCode != 200 {
		t.Fatalf("delete photo: %d %s", r.StatusCode, r.Body)
	}
	for _, n := range find(get(t, h, "/services/roof-repair").Doc, tag("img")) {
		if strings.Contains(attr(n, "class"), "hero-photo") {
			t.Error("a deleted photo is still shown")
		}
	}
}
