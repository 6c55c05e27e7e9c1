package editor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
)

// exportLive writes the live content of e's store to a new folder.
func exportLive(t *testing.T, e *env) string {
	t.Helper()
	c, err := e.svc.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "content")
	if err := c.Export(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// edit replaces old by new in a file of dir.
func edit(t *testing.T, dir, name, old, new string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", name, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// state is everything an import could change: every item, revision and
// redirect.
func state(t *testing.T, e *env) ([]contentdb.Item, []contentdb.Revision, []contentdb.Redirect) {
	t.Helper()
	ctx := context.Background()
	var items []contentdb.Item
	var revs []contentdb.Revision
	for _, k := range content.Kinds {
		l, err := e.svc.Store.List(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, l...)
		for _, it := range l {
			r, _ := e.svc.Store.Revisions(ctx, it.ID)
			revs = append(revs, r...)
		}
	}
	rs, err := e.svc.Store.Redirects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return items, revs, rs
}

func unchanged(t *testing.T, e *env, items []contentdb.Item, revs []contentdb.Revision, rs []contentdb.Redirect) {
	t.Helper()
	i2, r2, rs2 := state(t, e)
	if diff := cmp.Diff(items, i2); diff != "" {
		t.Errorf("items changed (-before, +after):\n%s", diff)
	}
	if len(revs) != len(r2) {
		t.Errorf("%d revisions, %d before", len(r2), len(revs))
	}
	if diff := cmp.Diff(rs, rs2); diff != "" {
		t.Errorf("redirects changed (-before, +after):\n%s", diff)
	}
}

// An import checks the whole folder first: with one bad record among
// good ones, nothing is published, and one message lists every problem.
func TestImportAllOrNothing(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		dir := exportLive(t, e)
		edit(t, dir, "blog/preventing-water-damage-atlanta-homes.md", "title: Preventing Water Damage in Atlanta Homes", "title: Preventing Water Damage in Metro Atlanta Homes")
		edit(t, dir, "pages/about.md", "title: ", "title: Edited ")
		// Three bad records, each a kind of refusal: a rule's hard
		// problem, a page of a kind that cannot be added, a post over
		// the admin's size limit.
		edit(t, dir, "blog/mold-remediation-atlanta-comprehensive-guide.md", "category: ", "category: nowhere-")
		os.WriteFile(filepath.Join(dir, "pages", "careers.md"), []byte("---\ntitle: Careers\nseoTitle: Careers\nmetaDescription: Work with us.\n---\nWe are hiring."), 0o644)
		edit(t, dir, "blog/fire-damage-restoration-process-atlanta.md", "\n---\n", "\n---\n"+strings.Repeat("A long paragraph of text. ", 300<<10/26)+"\n")
		items, revs, rs := state(t, e)
		changes := e.changes.Load()

		c, err := content.ReadFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.Import(ctx, c, owner)
		var ie *ImportError
		if !errors.As(err, &ie) {
			t.Fatalf("import: %v", err)
		}
		msg := err.Error()
		for _, want := range []string{"nothing was imported", "article mold-remediation-atlanta-comprehensive-guide: field category",
			"page careers: is not on the site", "article fire-damage-restoration-process-atlanta: is 3", "at most 256 KB"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the message lacks %q:\n%s", want, msg)
			}
		}
		unchanged(t, e, items, revs, rs)
		if e.changes.Load() != changes {
			t.Error("a refused import announced a change")
		}
	})
}

// conflictStore is the store with another editor saving the last record
// of a batch just before it is published: the store refuses that record
// inside the transaction.
type conflictStore struct {
	Store
	by Actor
}

func (c conflictStore) PublishBatch(ctx context.Context, recs []contentdb.BatchRecord, by contentdb.Actor, now time.Time, plan contentdb.RedirectPlan) ([]contentdb.Item, error) {
	last := recs[len(recs)-1]
	if _, err := c.Store.SaveDraft(ctx, last.ID, last.Base, last.Slug, last.JSON, c.by, now); err != nil {
		return nil, err
	}
	return c.Store.PublishBatch(ctx, recs, by, now, plan)
}

// A folder that passes every check but whose last record the store
// refuses (another editor saved it meanwhile) publishes nothing: the
// earlier records are not live.
func TestImportStoreRefusalChangesNothing(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		dir := exportLive(t, e)
		edit(t, dir, "blog/preventing-water-damage-atlanta-homes.md", "title: Preventing Water Damage in Atlanta Homes", "title: Preventing Water Damage in Metro Atlanta Homes")
		edit(t, dir, "pages/terms.md", "title: ", "title: Edited ")
		c, err := content.ReadFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		real := e.svc.Store
		e.svc.Store = conflictStore{Store: real, by: other}
		items, revs, rs := state(t, e)
		_, err = e.svc.Import(ctx, c, owner)
		var ie *ImportError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "page terms: was changed by Eddie Editor while the import ran") {
			t.Fatalf("import: %v", err)
		}
		// The other editor's save is there; nothing of the import is.
		e.svc.Store = real
		i2, r2, _ := state(t, e)
		if len(r2) != len(revs) {
			t.Errorf("%d revisions, %d before", len(r2), len(revs))
		}
		for i := range items {
			if items[i].Kind == content.KindPage && items[i].Slug == "terms" {
				if i2[i].UpdatedBy != "Eddie Editor" || i2[i].Live != items[i].Live {
					t.Errorf("terms: %+v", i2[i])
				}
				continue
			}
			if diff := cmp.Diff(items[i], i2[i]); diff != "" {
				t.Errorf("%s %s changed:\n%s", items[i].Kind, items[i].Slug, diff)
			}
		}
		if live, _ := e.svc.Load(ctx); strings.Contains(live.Articles[len(live.Articles)-1].Title+live.Articles[0].Title, "Metro") {
			t.Error("an earlier record of the refused import is live")
		}
		if rs2, _ := e.svc.Store.Redirects(ctx); len(rs2) != len(rs) {
			t.Errorf("redirects: %d, %d before", len(rs2), len(rs))
		}

		// Without the other editor, the same folder imports whole: both
		// records, one announcement.
		dir = exportLive(t, e)
		edit(t, dir, "blog/preventing-water-damage-atlanta-homes.md", "title: Preventing Water Damage in Atlanta Homes", "title: Preventing Water Damage in Metro Atlanta Homes")
		edit(t, dir, "pages/terms.md", "title: ", "title: Edited ")
		c, _ = content.ReadFolder(dir)
		changes := e.changes.Load()
		rep, err := e.svc.Import(ctx, c, owner)
		if err != nil || rep.Published != 2 || e.changes.Load() != changes+1 {
			t.Fatalf("import: %+v %v", rep, err)
		}
		live, _ := e.svc.Load(ctx)
		if a, _ := live.Article("preventing-water-damage-atlanta-homes"); a.Title != "Preventing Water Damage in Metro Atlanta Homes" || !strings.HasPrefix(live.Pages["terms"].Title, "Edited ") {
			t.Errorf("after the import: %q %q", a.Title, live.Pages["terms"].Title)
		}
	})
}

// A post the database does not have is added and published.
func TestImportAddsAPost(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		dir := exportLive(t, e)
		b, _ := os.ReadFile(filepath.Join(dir, "blog", "preventing-water-damage-atlanta-homes.md"))
		os.WriteFile(filepath.Join(dir, "blog", "frozen-pipes-atlanta.md"), []byte(strings.Replace(string(b),
			"title: Preventing Water Damage in Atlanta Homes", "title: Frozen Pipes in Atlanta", 1)), 0o644)
		edit(t, dir, "blog/frozen-pipes-atlanta.md", "seoTitle: ", "seoTitle: Frozen ")
		edit(t, dir, "blog/frozen-pipes-atlanta.md", "metaDescription: ", "metaDescription: Frozen pipes. ")
		c, err := content.ReadFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.svc.Import(ctx, c, owner)
		if err != nil || rep.Published != 1 {
			t.Fatalf("import: %+v %v", rep, err)
		}
		live, _ := e.svc.Load(ctx)
		if a, ok := live.Article("frozen-pipes-atlanta"); !ok || a.Title != "Frozen Pipes in Atlanta" {
			t.Error("the new post is not live")
		}
	})
}

// chainPlans applies each publish's redirect change to the state the one
// before left: a chain made by two renames in one import is collapsed,
// and a redirect from an address a page takes again goes.
func TestChainPlans(t *testing.T) {
	svc := &Service{Now: func() time.Time { return time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC) }}
	current := []contentdb.Redirect{{From: "/blog/c", To: "/blog/elsewhere", Source: contentdb.SourceManual}}
	plans := []contentdb.RedirectPlan{
		svc.movePlan(contentdb.Item{Kind: content.KindArticle, LiveSlug: "a", Slug: "b"}, owner),
		svc.movePlan(contentdb.Item{Kind: content.KindArticle, LiveSlug: "b", Slug: "c"}, owner),
	}
	up, rm, err := chainPlans(plans)(current)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range up {
		got[r.From] = r.To
	}
	if diff := cmp.Diff(map[string]string{"/blog/a": "/blog/c", "/blog/b": "/blog/c"}, got); diff != "" {
		t.Errorf("upserts (-want, +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/blog/c"}, rm); diff != "" {
		t.Errorf("removes (-want, +got):\n%s", diff)
	}
}
