package editor

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type env struct {
	svc     *Service
	store   *db.Store
	changes atomic.Int32
	clock   time.Time
	mu      sync.Mutex
}

func (e *env) now() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.clock
}

func (e *env) advance(d time.Duration) {
	e.mu.Lock()
	e.clock = e.clock.Add(d)
	e.mu.Unlock()
}

// newEnv is an editor over a seeded store, its clock at noon on
// 2026-11-26 UTC.
func newEnv(t *testing.T, s *db.Store) *env {
	t.Helper()
	e := &env{store: s, clock: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)}
	e.svc = &Service{Store: contentdb.New(s), Audit: s, Changed: func(string) { e.changes.Add(1) }, Log: quiet, Now: e.now}
	e.svc.Paths = func() []string { return []string{"/", "/contact", "/blog"} }
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	if n, err := e.svc.Seed(context.Background(), c); err != nil || n == 0 {
		t.Fatalf("seed: %d %v", n, err)
	}
	return e
}

var owner = Actor{ID: "u-owner", Name: "Olivia Owner"}
var other = Actor{ID: "u-editor", Name: "Eddie Editor"}

func article(slug, title, category string) json.RawMessage {
	b, _ := json.Marshal(content.Article{Slug: slug, Title: title, Excerpt: "A short excerpt.", Content: "## What to do\nShut off the water.", Category: category,
		PublishDate: "2026-11-26", ReadTime: 3, SEO: content.SEO{SEOTitle: title + " | Guide", MetaDescription: "How to act in the first hour after a burst pipe, written for metro Atlanta homeowners by our restoration team."}})
	return b
}

func TestSeedLoadAndPublish(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		embedded, _ := content.Load()
		// A second seed stores nothing.
		if n, err := e.svc.Seed(ctx, embedded); err != nil || n != 0 {
			t.Errorf("second seed: %d %v", n, err)
		}
		live, err := e.svc.Load(ctx)
		if err != nil || len(live.Cities) != len(embedded.Cities) || len(live.Articles) != len(embedded.Articles) || live.Home != embedded.Home {
			t.Fatalf("loaded %v, %d cities", err, len(live.Cities))
		}
		cat := embedded.Categories[0].Slug
		it, err := e.svc.Create(ctx, content.KindArticle, article("burst-pipe-first-hour", "Burst Pipe: The First Hour", cat), owner)
		if err != nil {
			t.Fatal(err)
		}
		if live, _ := e.svc.Load(ctx); len(live.Articles) != len(embedded.Articles) {
			t.Error("a draft is public")
		}
		it, err = e.svc.Publish(ctx, it.ID, it.Version, owner)
		if err != nil {
			t.Fatal(err)
		}
		live, _ = e.svc.Load(ctx)
		if a, ok := live.Article("burst-pipe-first-hour"); !ok || a.Title != "Burst Pipe: The First Hour" {
			t.Error("the published post is not in the site")
		}
		if e.changes.Load() != 1 {
			t.Errorf("%d changes announced, want 1", e.changes.Load())
		}
		// The audit log names who published what.
		entries, _, _ := s.ListAudit(ctx, 10, 0)
		published := false
		for _, en := range entries {
			published = published || (en.Action == AuditPublish && en.Actor == "Olivia Owner" && strings.Contains(en.Detail, "burst-pipe-first-hour"))
		}
		if !published {
			t.Errorf("audit: %+v", entries)
		}
	})
}

func TestHardProblemsBlockPublishNotSave(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		it, err := e.svc.Create(ctx, content.KindArticle, article("no-category-yet", "Draft Without Category", "no-such-category"), owner)
		if err != nil {
			t.Fatalf("a draft with a problem could not be saved: %v", err)
		}
		problems, err := e.svc.Problems(ctx, it)
		if err != nil || len(content.HardProblems(problems)) != 1 || problems[0].Field != "category" {
			t.Fatalf("problems %v %v", problems, err)
		}
		_, err = e.svc.Publish(ctx, it.ID, it.Version, owner)
		var inv *Invalid
		if !errors.As(err, &inv) || len(inv.Problems) != 1 || !strings.Contains(inv.Message, "category") {
			t.Fatalf("publish with a hard problem: %v", err)
		}
		if _, err := e.svc.Schedule(ctx, it.ID, it.Version, e.now().Add(time.Hour), owner); !errors.As(err, &inv) {
			t.Errorf("schedule with a hard problem: %v", err)
		}
		// Guidance only (a long title) does not block.
		b, _ := json.Marshal(content.Article{Slug: "no-category-yet", Title: "T", Excerpt: "x", Content: "y", Category: "restoration", PublishDate: "2026-11-26", ReadTime: 2,
			SEO: content.SEO{SEOTitle: strings.Repeat("Long ", 20), MetaDescription: "d"}})
		if it, err = e.svc.Save(ctx, it.ID, it.Version, b, owner); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Publish(ctx, it.ID, it.Version, owner); err != nil {
			t.Errorf("guidance blocked a publish: %v", err)
		}
	})
}

func TestTwoEditorsConflict(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		items, _ := e.svc.List(ctx, content.KindPage)
		about := items[0]
		var page content.InfoPage
		json.Unmarshal([]byte(about.Draft), &page)
		page.Title = "About Our Team"
		b, _ := json.Marshal(page)
		first, err := e.svc.Save(ctx, about.ID, about.Version, b, owner)
		if err != nil {
			t.Fatal(err)
		}
		page.Title = "About the Company"
		b, _ = json.Marshal(page)
		_, err = e.svc.Save(ctx, about.ID, about.Version, b, other)
		var c *contentdb.Conflict
		if !errors.As(err, &c) || c.By != "Olivia Owner" || c.Version != first.Version {
			t.Fatalf("stale save: %v", err)
		}
		// Nothing of the stale save was stored.
		got, _ := e.svc.Get(ctx, about.ID)
		if !strings.Contains(got.Draft, "About Our Team") {
			t.Error("the stale save overwrote the first")
		}
	})
}

func TestSlugChangeLeavesRedirect(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		cat := "restoration"
		it, _ := e.svc.Create(ctx, content.KindArticle, article("first-name", "A Post That Moves", cat), owner)
		it, err := e.svc.Publish(ctx, it.ID, it.Version, owner)
		if err != nil {
			t.Fatal(err)
		}
		for _, slug := range []string{"second-name", "third-name"} {
			if it, err = e.svc.Save(ctx, it.ID, it.Version, article(slug, "A Post That Moves", cat), owner); err != nil {
				t.Fatal(err)
			}
			if it, err = e.svc.Publish(ctx, it.ID, it.Version, owner); err != nil {
				t.Fatal(err)
			}
		}
		m, _ := e.svc.RedirectMap(ctx)
		if m["/blog/first-name"] != "/blog/third-name" || m["/blog/second-name"] != "/blog/third-name" {
			t.Errorf("redirects %v, want both old addresses straight to the new one", m)
		}
		// Moving back: the redirect from the address that is a page again goes.
		if it, err = e.svc.Save(ctx, it.ID, it.Version, article("first-name", "A Post That Moves", cat), owner); err != nil {
			t.Fatal(err)
		}
		if _, err = e.svc.Publish(ctx, it.ID, it.Version, owner); err != nil {
			t.Fatal(err)
		}
		m, _ = e.svc.RedirectMap(ctx)
		if _, ok := m["/blog/first-name"]; ok || m["/blog/third-name"] != "/blog/first-name" || m["/blog/second-name"] != "/blog/first-name" {
			t.Errorf("after moving back: %v", m)
		}
		// Fixed pages keep their address.
		svcs, _ := e.svc.List(ctx, content.KindService)
		var sv content.Service
		json.Unmarshal([]byte(svcs[0].Draft), &sv)
		sv.Slug = "renamed-service"
		b, _ := json.Marshal(sv)
		if _, err := e.svc.Save(ctx, svcs[0].ID, svcs[0].Version, b, owner); !errors.Is(err, ErrFixedSlug) {
			t.Errorf("service slug change: %v", err)
		}
		if _, err := e.svc.Save(ctx, it.ID, it.Version+10, article("Bad Slug!", "x", cat), owner); err == nil {
			t.Error("bad slug accepted")
		}
	})
}

func TestScheduledPublishOnceAcrossInstances(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		it, _ := e.svc.Create(ctx, content.KindArticle, article("six-am-post", "Published At Six", "restoration"), owner)
		if _, err := e.svc.Schedule(ctx, it.ID, it.Version, e.now().Add(-time.Minute), owner); !errors.Is(err, ErrPast) {
			t.Errorf("schedule in the past: %v", err)
		}
		it, err := e.svc.Schedule(ctx, it.ID, it.Version, e.now().Add(18*time.Hour), owner)
		if err != nil {
			t.Fatal(err)
		}
		if sum, err := e.svc.PublishDue(ctx); sum != "" || err == nil || !strings.Contains(err.Error(), "nothing due") {
			t.Errorf("before its time: %q %v", sum, err)
		}
		e.advance(18 * time.Hour)
		// Two instances' jobs at once: it is published once.
		other := &Service{Store: contentdb.New(s), Audit: s, Changed: func(string) {}, Log: quiet, Now: e.now, Paths: e.svc.Paths}
		var wg sync.WaitGroup
		for _, svc := range []*Service{e.svc, other} {
			wg.Add(1)
			go func() { defer wg.Done(); svc.PublishDue(ctx) }()
		}
		wg.Wait()
		revs, _ := e.svc.History(ctx, it.ID)
		if len(revs) != 1 {
			t.Errorf("%d revisions, want 1", len(revs))
		}
		live, _ := e.svc.Load(ctx)
		if _, ok := live.Article("six-am-post"); !ok {
			t.Error("the scheduled post is not live")
		}
	})
}

func TestUnpublishDeleteRestore(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		it, _ := e.svc.Create(ctx, content.KindArticle, article("short-lived", "Short Lived Post", "restoration"), owner)
		it, _ = e.svc.Publish(ctx, it.ID, it.Version, owner)
		v1 := it.Version
		it, _ = e.svc.Save(ctx, it.ID, it.Version, article("short-lived", "Short Lived Post, Edited", "restoration"), owner)
		it, _ = e.svc.Publish(ctx, it.ID, it.Version, owner)
		hist, _ := e.svc.History(ctx, it.ID)
		if len(hist) != 2 || hist[0].Number != 2 || len(hist[0].Changes) == 0 {
			t.Fatalf("history %+v", hist)
		}
		var titleDiff *FieldDiff
		for i := range hist[0].Changes {
			if hist[0].Changes[i].Field == "title" {
				titleDiff = &hist[0].Changes[i]
			}
		}
		if titleDiff == nil || titleDiff.Lines[0].Op != "-" || titleDiff.Lines[1].Text != "Short Lived Post, Edited" {
			t.Errorf("title diff %+v", titleDiff)
		}
		it, err := e.svc.Restore(ctx, it.ID, hist[1].ID, it.Version, owner)
		if err != nil || !strings.Contains(it.Draft, `"title":"Short Lived Post"`) || !it.Pending {
			t.Fatalf("restore: %v %s", err, it.Draft)
		}
		if _, err := e.svc.Unpublish(ctx, it.ID, v1, owner); err == nil {
			t.Error("unpublish with a stale version")
		}
		if it, err = e.svc.Unpublish(ctx, it.ID, it.Version, owner); err != nil {
			t.Fatal(err)
		}
		live, _ := e.svc.Load(ctx)
		if _, ok := live.Article("short-lived"); ok {
			t.Error("an unpublished post is live")
		}
		if _, err := e.svc.Delete(ctx, it.ID, it.Version, owner); err != nil {
			t.Fatal(err)
		}
		if hist, _ := e.svc.History(ctx, it.ID); len(hist) != 2 {
			t.Error("deleting a page lost its history")
		}
		// Pages that cannot be added cannot be deleted or taken down.
		pages, _ := e.svc.List(ctx, content.KindPage)
		if _, err := e.svc.Delete(ctx, pages[0].ID, pages[0].Version, owner); !errors.Is(err, ErrNotCreatable) {
			t.Errorf("delete an info page: %v", err)
		}
		if _, err := e.svc.Create(ctx, content.KindService, json.RawMessage(`{}`), owner); !errors.Is(err, ErrNotCreatable) {
			t.Errorf("create a service: %v", err)
		}
	})
}

func TestRedirectRules(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		host := "www.example.test"
		add := func(from, to string) error { _, err := e.svc.AddRedirect(ctx, from, to, host, owner); return err }
		for _, c := range []struct{ from, to, why string }{
			{"/old", "https://evil.example/x", "off-site"},
			{"/old", "//evil.example/x", "protocol-relative"},
			{"/old", "/a/../b", "dot segments"},
			{"/old", "/x?y=1", "query"},
			{"/admin/leads", "/contact", "reserved"},
			{"/contact", "/blog", "a live page"},
			{"/", "/blog", "home"},
			{"/same", "/same", "itself"},
			{"/old\x00x", "/blog", "NUL"},
		} {
			if err := add(c.from, c.to); err == nil {
				t.Errorf("%s accepted: %s -> %s", c.why, c.from, c.to)
			}
		}
		if err := add("/a", "/b"); err != nil {
			t.Fatal(err)
		}
		if err := add("https://www.example.test/b", "/c/"); err != nil {
			t.Fatal(err)
		}
		m, _ := e.svc.RedirectMap(ctx)
		if m["/a"] != "/c" || m["/b"] != "/c" {
			t.Errorf("chain not collapsed: %v", m)
		}
		if err := add("/c", "/a"); err == nil {
			t.Error("loop accepted")
		}
		if err := e.svc.DeleteRedirect(ctx, "/a", host, owner); err != nil {
			t.Fatal(err)
		}
		if err := e.svc.DeleteRedirect(ctx, "/a", host, owner); !errors.Is(err, ErrNotFound) {
			t.Errorf("delete twice: %v", err)
		}
	})
}

// Twenty editors adding the two halves of a loop at once never land both.
func TestRedirectsNoLoopUnderRace(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				if i%2 == 0 {
					e.svc.AddRedirect(ctx, "/x", "/y", "h", owner)
				} else {
					e.svc.AddRedirect(ctx, "/y", "/x", "h", owner)
				}
			}(i)
		}
		wg.Wait()
		m, _ := e.svc.RedirectMap(ctx)
		if m["/x"] == "/y" && m["/y"] == "/x" {
			t.Error("a loop landed")
		}
		if len(m) != 1 {
			t.Errorf("redirects %v, want exactly one of the two", m)
		}
	})
}

// Bots cannot fill the 404 monitor: one client adds at most
// NotFoundNewPerClient paths a day, the day at most NotFoundPathsPerDay.
func TestNotFoundLogIsBounded(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		l := &NotFoundLog{Store: contentdb.New(s)}
		now := e.now()
		for i := 0; i < 500; i++ {
			l.Hit("/bot-"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+itoaTest(i), "bot-1", now)
		}
		for i := 0; i < 3; i++ {
			l.Hit("/old-page", "visitor", now)
		}
		l.Hit("/admin/x", "visitor", now)
		l.Hit("/"+strings.Repeat("y", 300), "visitor", now)
		if err := l.Flush(ctx, now); err != nil {
			t.Fatal(err)
		}
		rows, err := e.svc.NotFound(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != NotFoundNewPerClient+1 || rows[0].Path != "/old-page" || rows[0].Hits != 3 {
			t.Errorf("%d rows, first %+v", len(rows), rows)
		}
		// A redirect takes a path off the list.
		if _, err := e.svc.AddRedirect(ctx, "/old-page", "/contact", "h", owner); err != nil {
			t.Fatal(err)
		}
		rows, _ = e.svc.NotFound(ctx, 100)
		for _, r := range rows {
			if r.Path == "/old-page" {
				t.Error("a redirected path is still listed")
			}
		}
	})
}

func itoaTest(i int) string { return strings.TrimLeft(time.Duration(i).String(), "") }

func TestDiff(t *testing.T) {
	d := Diff(`{"title":"A","body":["one","two"],"faqs":[{"q":"x"}]}`, `{"title":"B","body":["one","three"],"faqs":[{"q":"x"}],"new":true}`)
	fields := []string{}
	for _, f := range d {
		fields = append(fields, f.Field)
	}
	if strings.Join(fields, ",") != "body,new,title" {
		t.Errorf("fields %v", fields)
	}
	if len(d) == 3 && (len(d[0].Lines) != 3 || d[0].Lines[0].Op != "=" || d[0].Lines[1].Op != "-" || d[0].Lines[2].Text != "three") {
		t.Errorf("body diff %+v", d[0].Lines)
	}
}

// A page published at an address takes it off the 404 monitor, and so
// does the 301 a rename leaves at the old one.
func TestPublishClearsTheNotFoundList(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		l := &NotFoundLog{Store: contentdb.New(s)}
		for _, p := range []string{"/blog/wanted-post", "/blog/renamed-post"} {
			l.Hit(p, "visitor", e.now())
		}
		l.Flush(ctx, e.now())
		it, _ := e.svc.Create(ctx, content.KindArticle, article("wanted-post", "The Wanted Post", "restoration"), owner)
		it, err := e.svc.Publish(ctx, it.ID, it.Version, owner)
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := e.svc.NotFound(ctx, 10)
		if len(rows) != 1 || rows[0].Path != "/blog/renamed-post" {
			t.Fatalf("after publishing /blog/wanted-post: %+v", rows)
		}
		l.Hit("/blog/wanted-post", "visitor", e.now())
		l.Flush(ctx, e.now())
		it, _ = e.svc.Save(ctx, it.ID, it.Version, article("renamed-post", "The Wanted Post", "restoration"), owner)
		if _, err := e.svc.Publish(ctx, it.ID, it.Version, owner); err != nil {
			t.Fatal(err)
		}
		if rows, _ := e.svc.NotFound(ctx, 10); len(rows) != 0 {
			t.Errorf("after the rename: %+v", rows)
		}
	})
}
