package editor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/editor"
	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/auth/authtest"
	"github.com/atlanta-restoration/site/web/httperr"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// room is the content room over a seeded test store. render is what the
// editor renders a page with before a publish (the server's is the real
// SSR; these tests are about what the handlers and the rules do with its
// answer); renders counts the renders.
type room struct {
	*authtest.Room
	svc     *editor.Service
	store   *db.Store
	render  atomic.Value // editor.Render
	renders atomic.Int32
}

func newRoom(t testing.TB, s *db.Store) *room {
	t.Helper()
	r := &room{store: s}
	r.render.Store(editor.Render(func(_ context.Context, c *content.Set, path string) ([]byte, error) {
		if c == nil {
			return nil, errors.New("no site")
		}
		return []byte("<!doctype html><title>" + path + "</title>"), nil
	}))
	r.svc = &editor.Service{Store: contentdb.New(s), Audit: s, Changed: func(string) {}, Log: quiet,
		Paths: func() []string { return []string{"/", "/contact", "/blog"} },
		Render: func(ctx context.Context, c *content.Set, path string) ([]byte, error) {
			r.renders.Add(1)
			return r.render.Load().(editor.Render)(ctx, c, path)
		}}
	embedded, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Seed(context.Background(), embedded); err != nil {
		t.Fatal(err)
	}
	h := New(Handler{Editor: r.svc, Render: r.svc.Render, BaseURL: "https://www.example-restoration.test", Log: quiet})
	// The routes as server/install.go lists them (its guards are the
	// server's tests). A request without a token calls as nobody, as
	// these tests did before they named callers.
	r.Room = authtest.New()
	r.Caller("", auth.Principal{})
	e, as := r.Room, r.As
	e.GET("/api/admin/content", h.List, as)
	e.POST("/api/admin/content", h.Create, as)
	e.GET("/api/admin/content/:id", h.Get, as)
	e.PUT("/api/admin/content/:id", h.Save, as)
	e.DELETE("/api/admin/content/:id", h.Delete, as)
	e.POST("/api/admin/content/:id/publish", h.Publish, as)
	e.POST("/api/admin/content/:id/schedule", h.Schedule, as)
	e.POST("/api/admin/content/:id/unpublish", h.Unpublish, as)
	e.GET("/api/admin/content/:id/revisions", h.Revisions, as)
	e.GET("/api/admin/content/:id/referrers", h.Referrers, as)
	e.GET("/api/admin/not-found", h.NotFound, as)
	e.GET("/api/admin/redirects", h.Redirects, as)
	return r
}

type reply struct {
	status int
	body   []byte
}

func (r *room) do(t *testing.T, method, path string, body any) reply {
	t.Helper()
	return r.doAs(t, "", method, path, body)
}

// doAs sends body as JSON as the caller named by tok.
func (r *room) doAs(t *testing.T, tok, method, path string, body any) reply {
	t.Helper()
	res := r.Call(t, method, path, tok, body)
	return reply{res.StatusCode, []byte(res.Body)}
}

func (r *room) item(t *testing.T, a reply, what string) ItemDetail {
	t.Helper()
	var d ItemDetail
	if a.status != http.StatusOK {
		t.Fatalf("%s: %d %.400s", what, a.status, a.body)
	}
	if err := json.Unmarshal(a.body, &d); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return d
}

// sameJSON compares two JSON texts as values.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

// Every record of every kind goes through the editor's round trip: load
// it, save it unchanged (the draft as the API gave it), publish it. Each
// step answers 200, the saved and published copies are the loaded one,
// and the live site still loads.
func TestEveryKindRoundTrips(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		for _, kind := range content.Kinds {
			a := r.do(t, "GET", "/api/admin/content?perPage=200&kind="+kind, nil)
			var l ItemList
			if a.status != http.StatusOK || json.Unmarshal(a.body, &l) != nil || len(l.Items) == 0 || len(l.Items) != l.Total {
				t.Fatalf("list %s: %d %.300s", kind, a.status, a.body)
			}
			for _, v := range l.Items {
				what := kind + " " + v.Slug
				loaded := r.item(t, r.do(t, "GET", "/api/admin/content/"+v.ID, nil), "load "+what)
				saved := r.item(t, r.do(t, "PUT", "/api/admin/content/"+v.ID, map[string]any{"version": loaded.Version, "data": loaded.Draft}), "save "+what)
				if !sameJSON(saved.Draft, loaded.Draft) || saved.Slug != loaded.Slug || saved.Version != loaded.Version+1 {
					t.Errorf("%s: saved %s (slug %q, version %d), loaded %s", what, saved.Draft, saved.Slug, saved.Version, loaded.Draft)
				}
				pub := r.item(t, r.do(t, "POST", "/api/admin/content/"+v.ID+"/publish", map[string]any{"version": saved.Version}), "publish "+what)
				if pub.Status != contentdb.StatusPublished || pub.Pending || !sameJSON(pub.Live, loaded.Draft) || pub.LiveSlug != loaded.Slug {
					t.Errorf("%s: published %+v live %s", what, pub.ItemView, pub.Live)
				}
			}
		}
		if n := r.renders.Load(); n == 0 {
			t.Error("no publish rendered its page")
		}
		if _, err := r.svc.Load(context.Background()); err != nil {
			t.Fatalf("the live site after the round trip: %v", err)
		}
	})
}

// firstOf is the first item of a kind.
func (r *room) firstOf(t *testing.T, kind, slug string) ItemDetail {
	t.Helper()
	var l ItemList
	a := r.do(t, "GET", "/api/admin/content?kind="+kind, nil)
	if err := json.Unmarshal(a.body, &l); err != nil {
		t.Fatal(err)
	}
	for _, v := range l.Items {
		if slug == "" || v.Slug == slug {
			return r.item(t, r.do(t, "GET", "/api/admin/content/"+v.ID, nil), kind+" "+slug)
		}
	}
	t.Fatalf("no %s %q", kind, slug)
	return ItemDetail{}
}

// A FAQ block (a list, not an object) saves with its own draft, and with
// an answer changed.
func TestFAQBlockSaves(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		it := r.firstOf(t, content.KindFAQ, "home")
		var faqs []content.FAQ
		if err := json.Unmarshal(it.Draft, &faqs); err != nil || len(faqs) == 0 {
			t.Fatalf("FAQ draft %s: %v", it.Draft, err)
		}
		faqs[0].Answer = "Within the hour, day or night."
		saved := r.item(t, r.do(t, "PUT", "/api/admin/content/"+it.ID, map[string]any{"version": it.Version, "data": faqs}), "save FAQ")
		var got []content.FAQ
		json.Unmarshal(saved.Draft, &got)
		if len(got) != len(faqs) || got[0].Answer != "Within the hour, day or night." {
			t.Errorf("saved %s", saved.Draft)
		}
		// Still a record of its kind: an object or an unknown field is refused.
		for _, bad := range []any{map[string]any{"question": "Q?", "answer": "A."}, []map[string]any{{"question": "Q?", "answer": "A.", "evil": 1}}} {
			if a := r.do(t, "PUT", "/api/admin/content/"+it.ID, map[string]any{"version": saved.Version, "data": bad}); a.status != http.StatusUnprocessableEntity {
				t.Errorf("FAQ %v: %d %s", bad, a.status, a.body)
			}
		}
	})
}

// A page that cannot be rendered (an error, or too long in the renderer)
// is neither published nor scheduled, and the answer says why in plain
// words; the live copy stays what it was.
func TestRenderFailureBlocksPublish(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		it := r.firstOf(t, content.KindPage, "about")
		var page content.InfoPage
		json.Unmarshal(it.Draft, &page)
		page.Title = "About Our Crews"
		saved := r.item(t, r.do(t, "PUT", "/api/admin/content/"+it.ID, map[string]any{"version": it.Version, "data": page}), "save")
		for _, c := range []struct {
			err  error
			want string
		}{
			{ssr.ErrRenderTimeout, "takes too long to build"},
			{errors.New("ssr: render info: TypeError: cannot read property"), "could not be built with this text"},
		} {
			r.render.Store(editor.Render(func(context.Context, *content.Set, string) ([]byte, error) {
				return nil, c.err
			}))
			for _, step := range []struct{ path, body string }{
				{"/publish", ""},
				{"/schedule", time.Now().Add(time.Hour).UTC().Format(time.RFC3339)},
			} {
				body := map[string]any{"version": saved.Version}
				if step.body != "" {
					body["at"] = step.body
				}
				a := r.do(t, "POST", "/api/admin/content/"+it.ID+step.path, body)
				var inv InvalidAnswer
				json.Unmarshal(a.body, &inv)
				if a.status != http.StatusUnprocessableEntity || !strings.Contains(inv.Error, c.want) || len(inv.Problems) == 0 ||
					strings.Contains(inv.Error, "ssr") || strings.Contains(inv.Error, "TypeError") {
					t.Errorf("%s with %v: %d %s", step.path, c.err, a.status, a.body)
				}
			}
		}
		now := r.item(t, r.do(t, "GET", "/api/admin/content/"+it.ID, nil), "reload")
		if now.Version != saved.Version || now.Status != contentdb.StatusPublished || !sameJSON(now.Live, it.Live) {
			t.Errorf("after refused publishes: version %d status %s live %.80s", now.Version, now.Status, now.Live)
		}
	})
}

// Revisions of an id that names no item answer 404; a deleted item's
// history stays readable.
func TestRevisionsOfUnknownItem(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		if a := r.do(t, "GET", "/api/admin/content/no-such-id/revisions", nil); a.status != http.StatusNotFound {
			t.Errorf("unknown id: %d %s", a.status, a.body)
		}
		it := r.firstOf(t, content.KindService, "")
		a := r.do(t, "GET", "/api/admin/content/"+it.ID+"/revisions", nil)
		var hist History
		if a.status != http.StatusOK || json.Unmarshal(a.body, &hist) != nil || len(hist.Revisions) != 1 {
			t.Errorf("a seeded item: %d %s", a.status, a.body)
		}
		// A post published then deleted keeps its history.
		ctx := context.Background()
		art := r.firstOf(t, content.KindArticle, "")
		if _, err := r.svc.Delete(ctx, art.ID, art.Version, editor.Actor{Name: "Test"}); err != nil {
			t.Fatal(err)
		}
		if a := r.do(t, "GET", "/api/admin/content/"+art.ID+"/revisions", nil); a.status != http.StatusOK || !strings.Contains(string(a.body), `"number":1`) {
			t.Errorf("a deleted post's history: %d %.200s", a.status, a.body)
		}
	})
}

// A fixed page's slug is not the owner's to change: a draft with another
// one is refused with a message, and nothing is saved.
func TestFixedSlugRefused(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		for _, c := range []struct{ kind, slug string }{
			{content.KindPage, "about"},
			{content.KindService, ""},
			{content.KindCounty, ""},
			{content.KindCategory, ""},
		} {
			it := r.firstOf(t, c.kind, c.slug)
			var m map[string]any
			json.Unmarshal(it.Draft, &m)
			m["slug"] = "a-new-address"
			a := r.do(t, "PUT", "/api/admin/content/"+it.ID, map[string]any{"version": it.Version, "data": m})
			if a.status != http.StatusUnprocessableEntity || !strings.Contains(string(a.body), "address cannot change") {
				t.Errorf("%s %s: %d %s", c.kind, it.Slug, a.status, a.body)
			}
			if now := r.item(t, r.do(t, "GET", "/api/admin/content/"+it.ID, nil), "reload"); now.Version != it.Version || !sameJSON(now.Draft, it.Draft) {
				t.Errorf("%s %s: saved anyway (%s)", c.kind, it.Slug, now.Draft)
			}
		}
	})
}

// The 404 monitor shows a path stored before hidden characters were
// refused escaped, never as it would read.
func TestNotFoundShowsHiddenEscaped(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		day := time.Now().UTC().Format("2006-01-02")
		x := s.DB()
		for _, p := range []string{"/old\r\nSet-Cookie: a=b", "/invoice\u202Egpj.exe", "/plain-old-page"} {
			if _, err := x.Exec(x.Rebind(`INSERT INTO not_found_hits (day, path, hits, last_seen) VALUES (?, ?, 1, ?)`), day, p, time.Now().UTC()); err != nil {
				t.Fatal(err)
			}
		}
		a := r.do(t, "GET", "/api/admin/not-found", nil)
		var l NotFoundList
		if a.status != http.StatusOK || json.Unmarshal(a.body, &l) != nil {
			t.Fatalf("%d %s", a.status, a.body)
		}
		got := map[string]bool{}
		for _, p := range l.Paths {
			got[p.Path] = true
		}
		for _, want := range []string{"/old%0D%0ASet-Cookie: a=b", "/invoice%E2%80%AEgpj.exe", "/plain-old-page"} {
			if !got[want] {
				t.Errorf("missing %q in %v", want, got)
			}
		}
	})
}

// A post of 40,000 repeated headings (200 KB, under the size cap) saves
// as a draft but is never published: the rules refuse it before any
// render, with a message that says what to do.
func TestFortyThousandHeadingsRefused(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		it := r.firstOf(t, content.KindArticle, "")
		var a content.Article
		json.Unmarshal(it.Draft, &a)
		a.Content = strings.Repeat("## A\n", 40000)
		saved := r.item(t, r.do(t, "PUT", "/api/admin/content/"+it.ID, map[string]any{"version": it.Version, "data": a}), "save")
		before := r.renders.Load()
		start := time.Now()
		res := r.do(t, "POST", "/api/admin/content/"+it.ID+"/publish", map[string]any{"version": saved.Version})
		var inv InvalidAnswer
		json.Unmarshal(res.body, &inv)
		if res.status != http.StatusUnprocessableEntity || !strings.Contains(inv.Error, "has 40000 headings; a page can have at most 200") {
			t.Errorf("publish: %d %.300s", res.status, res.body)
		}
		if r.renders.Load() != before {
			t.Error("the refused page was rendered")
		}
		t.Logf("refused in %v", time.Since(start))
	})
}

// One preview or check renders at a time. A save's checks give up their
// wait for that turn ("try again", the next save asks again); a preview,
// which the owner asked for and is looking at, waits its turn, and stops
// waiting when its request ends.
func TestPreviewWaitsItsTurn(t *testing.T) {
	h := New(Handler{})
	h.checkWait = 10 * time.Millisecond
	held, release := make(chan struct{}), make(chan struct{})
	go h.withRender(context.Background(), h.checkWait, func() error { close(held); <-release; return nil })
	<-held

	ran := make(chan error, 1)
	go func() { ran <- h.withRender(context.Background(), h.previewWait, func() error { return nil }) }()
	// A check asked after the preview waits its own short while and is
	// told to try again; the preview is still waiting after that.
	err := h.withRender(context.Background(), h.checkWait, func() error { t.Error("a check ran beside another render"); return nil })
	var he *httperr.Error
	if !errors.As(err, &he) || he.Status != http.StatusServiceUnavailable {
		t.Fatalf("a check that found the turn taken: %v, want a 503 to try again", err)
	}
	select {
	case err := <-ran:
		t.Fatalf("the preview answered %v while the turn was taken", err)
	default:
	}

	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error, 1)
	go func() { gone <- h.withRender(ctx, h.previewWait, func() error { return errors.New("ran") }) }()
	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Errorf("a preview whose browser left: %v, want it to stop waiting", err)
	}

	close(release)
	if err := <-ran; err != nil {
		t.Errorf("the preview, once its turn came: %v", err)
	}
}

// However many previews are asked for at once, one renders at a time and
// every one of them gets its turn.
func TestParallelPreviewsRenderOneAtATime(t *testing.T) {
	h := New(Handler{})
	var running, most, done atomic.Int32
	errs := make(chan error, 100)
	for i := 0; i < 100; i++ {
		go func() {
			errs <- h.withRender(context.Background(), h.previewWait, func() error {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(time.Millisecond)
				running.Add(-1)
				done.Add(1)
				return nil
			})
		}()
	}
	for i := 0; i < 100; i++ {
		if err := <-errs; err != nil {
			t.Fatalf("a preview was refused: %v", err)
		}
	}
	if most.Load() != 1 || done.Load() != 100 {
		t.Errorf("%d renders at once at most, %d done; want 1 and 100", most.Load(), done.Load())
	}
}
