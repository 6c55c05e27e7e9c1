package contentdb

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

var (
	t0         = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	ann        = Actor{ID: "u-ann", Name: "Ann"}
	bob        = Actor{ID: "u-bob", Name: "Bob"}
	ctx        = context.Background()
	newYork, _ = time.LoadLocation("America/New_York")
)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

func ptr(t time.Time) *time.Time { return &t }

func forEach(t *testing.T, fn func(t *testing.T, c *Store)) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) { fn(t, New(s)) })
}

func mustCreate(t *testing.T, c *Store, kind, slug, data string, pos int) Item {
	t.Helper()
	it, err := c.Create(ctx, kind, slug, data, pos, ann, at(0))
	if err != nil {
		t.Fatalf("create %s %s: %v", kind, slug, err)
	}
	return it
}

func mustPublish(t *testing.T, c *Store, it Item, now time.Time, rs ...Redirect) (Item, Revision) {
	t.Helper()
	it, rev, err := c.Publish(ctx, it.ID, it.Version, ann, now, rs)
	if err != nil {
		t.Fatalf("publish %s: %v", it.Slug, err)
	}
	return it, rev
}

// wantConflict checks that err is a *Conflict naming the current writer.
func wantConflict(t *testing.T, what string, err error, version int, by string, when time.Time) {
	t.Helper()
	var c *Conflict
	if !errors.As(err, &c) {
		t.Errorf("%s: %v, want a *Conflict", what, err)
		return
	}
	if c.Version != version || c.By != by || !c.At.Equal(when) {
		t.Errorf("%s: conflict %+v, want version %d by %s at %v", what, *c, version, by, when)
	}
	if want := "changed by " + by + " at " + when.UTC().Format(time.RFC3339); c.Error() != want {
		t.Errorf("%s: message %q, want %q", what, c.Error(), want)
	}
}

func TestCreateGetList(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		if n, err := c.Count(ctx); err != nil || n != 0 {
			t.Fatalf("count on a new database: %d %v", n, err)
		}
		// A time in another zone is stored as the same instant.
		it, err := c.Create(ctx, "article", "first-post", `{"title":"First"}`, 3, ann, t0.In(newYork))
		if err != nil {
			t.Fatal(err)
		}
		want := Item{ID: it.ID, Kind: "article", Slug: "first-post", Status: StatusDraft, Draft: `{"title":"First"}`,
			Pending: true, Version: 1, Position: 3, UpdatedAt: t0, UpdatedBy: "Ann", UpdatedByID: "u-ann"}
		if diff := cmp.Diff(want, it); diff != "" {
			t.Errorf("create (-want, +got):\n%s", diff)
		}
		if len(it.ID) != 36 {
			t.Errorf("id %q is not a uuid", it.ID)
		}
		got, err := c.Get(ctx, it.ID)
		if diff := cmp.Diff(want, got); err != nil || diff != "" {
			t.Errorf("get %v (-want, +got):\n%s", err, diff)
		}
		got, err = c.GetBySlug(ctx, "article", "first-post")
		if diff := cmp.Diff(want, got); err != nil || diff != "" {
			t.Errorf("get by slug %v (-want, +got):\n%s", err, diff)
		}
		if _, err := c.Get(ctx, "nope"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("get unknown: %v, want ErrNotFound", err)
		}
		if _, err := c.GetBySlug(ctx, "page", "first-post"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("get by slug of another kind: %v, want ErrNotFound", err)
		}

		// (kind, slug) is unique; the same slug in another kind is fine.
		if _, err := c.Create(ctx, "article", "first-post", `{}`, 0, bob, at(1)); !errors.Is(err, ErrSlugTaken) {
			t.Errorf("create with a taken slug: %v, want ErrSlugTaken", err)
		}
		mustCreate(t, c, "page", "first-post", `{}`, 0)
		mustCreate(t, c, "article", "b", `{}`, 1)
		mustCreate(t, c, "article", "a", `{}`, 1)
		mustCreate(t, c, "city", "fulton/roswell", `{}`, 0)

		list, err := c.List(ctx, "article")
		if err != nil {
			t.Fatal(err)
		}
		var slugs []string
		for _, it := range list {
			slugs = append(slugs, it.Slug)
		}
		if diff := cmp.Diff([]string{"a", "b", "first-post"}, slugs); diff != "" {
			t.Errorf("list order (-want, +got):\n%s", diff)
		}
		if list, err := c.List(ctx, "county"); err != nil || list == nil || len(list) != 0 {
			t.Errorf("list of an empty kind: %#v %v, want an empty slice", list, err)
		}
		if n, err := c.Count(ctx); err != nil || n != 5 {
			t.Errorf("count: %d %v, want 5", n, err)
		}
		// Seeding never touches a table that has anything in it.
		if n, err := c.Seed(ctx, seedItems(3), t0); err != nil || n != 0 {
			t.Errorf("seed a non-empty table: %d %v", n, err)
		}
		if n, _ := c.Count(ctx); n != 5 {
			t.Errorf("count after seeding a non-empty table: %d", n)
		}
	})
}

func TestSaveDraft(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		it := mustCreate(t, c, "article", "post", `{"v":1}`, 0)
		it, err := c.SaveDraft(ctx, it.ID, 1, "post-renamed", `{"v":2}`, bob, at(5))
		if err != nil {
			t.Fatal(err)
		}
		if it.Version != 2 || it.Slug != "post-renamed" || it.Draft != `{"v":2}` || it.Status != StatusDraft ||
			it.UpdatedBy != "Bob" || it.UpdatedByID != "u-bob" || !it.UpdatedAt.Equal(at(5)) || !it.Pending {
			t.Fatalf("saved draft: %+v", it)
		}

		// A published item stays published, with pending changes; the
		// live copy is untouched.
		it, _ = mustPublish(t, c, it, at(6))
		if it.Pending {
			t.Errorf("pending right after publish: %+v", it)
		}
		it, err = c.SaveDraft(ctx, it.ID, it.Version, it.Slug, `{"v":3}`, ann, at(7))
		if err != nil {
			t.Fatal(err)
		}
		if it.Status != StatusPublished || !it.Pending || it.Live != `{"v":2}` || it.LiveSlug != "post-renamed" || it.Version != 4 {
			t.Errorf("edit of a published item: %+v", it)
		}
		// Saving the live text back leaves nothing pending; a rename alone
		// is pending.
		if it, err = c.SaveDraft(ctx, it.ID, it.Version, it.Slug, `{"v":2}`, ann, at(8)); err != nil || it.Pending {
			t.Errorf("draft equal to live: pending %v, %v", it.Pending, err)
		}
		if it, err = c.SaveDraft(ctx, it.ID, it.Version, "other", `{"v":2}`, ann, at(8)); err != nil || !it.Pending {
			t.Errorf("rename only: pending %v, %v", it.Pending, err)
		}

		// An unpublished item becomes a draft once edited.
		it, err = c.Unpublish(ctx, it.ID, it.Version, ann, at(9))
		if err != nil || it.Status != StatusUnpublished {
			t.Fatalf("unpublish: %+v %v", it, err)
		}
		it, err = c.SaveDraft(ctx, it.ID, it.Version, it.Slug, `{"v":4}`, ann, at(10))
		if err != nil || it.Status != StatusDraft {
			t.Errorf("edit of an unpublished item: %+v %v", it, err)
		}

		// A scheduled item stays scheduled.
		it, err = c.Schedule(ctx, it.ID, it.Version, at(60), ann, at(11))
		if err != nil {
			t.Fatal(err)
		}
		it, err = c.SaveDraft(ctx, it.ID, it.Version, it.Slug, `{"v":5}`, ann, at(12))
		if err != nil || it.Status != StatusScheduled || it.PublishAt == nil || !it.PublishAt.Equal(at(60)) {
			t.Errorf("edit of a scheduled item: %+v %v", it, err)
		}

		if _, err := c.SaveDraft(ctx, "nope", 1, "x", `{}`, ann, at(13)); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("save unknown: %v, want ErrNotFound", err)
		}
	})
}

func TestSlugTaken(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		a := mustCreate(t, c, "service", "water", `{"a":1}`, 0)
		b := mustCreate(t, c, "service", "fire", `{"b":1}`, 1)
		mustCreate(t, c, "page", "mold", `{}`, 0)

		// Another item's working slug.
		_, err := c.SaveDraft(ctx, b.ID, b.Version, "water", `{"b":2}`, ann, at(1))
		if !errors.Is(err, ErrSlugTaken) {
			t.Errorf("save with another's slug: %v, want ErrSlugTaken", err)
		}
		if got, _ := c.Get(ctx, b.ID); got.Version != 1 || got.Draft != `{"b":1}` {
			t.Errorf("a refused save was written: %+v", got)
		}
		// The same slug in another kind is free.
		if _, err := c.SaveDraft(ctx, b.ID, b.Version, "mold", `{"b":1}`, ann, at(1)); err != nil {
			t.Errorf("slug of another kind: %v", err)
		}

		// Another item's live slug: a is served at "water" while its draft
		// is renamed; nobody else may take "water" until a publishes.
		a, _ = mustPublish(t, c, a, at(2))
		a, err = c.SaveDraft(ctx, a.ID, a.Version, "water-damage", a.Draft, ann, at(3))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Create(ctx, "service", "water", `{}`, 2, bob, at(4)); !errors.Is(err, ErrSlugTaken) {
			t.Errorf("create at another's live slug: %v, want ErrSlugTaken", err)
		}
		b, _ = c.Get(ctx, b.ID)
		if _, err := c.SaveDraft(ctx, b.ID, b.Version, "water", `{}`, bob, at(4)); !errors.Is(err, ErrSlugTaken) {
			t.Errorf("save at another's live slug: %v, want ErrSlugTaken", err)
		}
		// a itself may go back to its live slug.
		if a, err = c.SaveDraft(ctx, a.ID, a.Version, "water", a.Draft, ann, at(5)); err != nil || a.Pending {
			t.Errorf("back to its own live slug: %+v %v", a, err)
		}
		// A stale base with a taken slug is a conflict first.
		_, err = c.SaveDraft(ctx, b.ID, b.Version-1, "water", `{}`, bob, at(6))
		wantConflict(t, "stale save at a taken slug", err, b.Version, "Ann", at(1))
	})
}

func TestConflicts(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		it := mustCreate(t, c, "article", "post", `{"v":1}`, 0)
		rev1 := func() Revision {
			_, r := mustPublish(t, c, it, at(1))
			return r
		}()
		// Ann's save is the current version (3); every write based on an
		// older one fails and names her.
		cur, err := c.SaveDraft(ctx, it.ID, 2, "post", `{"v":2}`, ann, at(2).In(newYork))
		if err != nil {
			t.Fatal(err)
		}
		stale := []struct {
			name string
			do   func(base int) error
		}{
			{"save", func(base int) error {
				_, err := c.SaveDraft(ctx, it.ID, base, "post", `{"v":"bob"}`, bob, at(3))
				return err
			}},
			{"publish", func(base int) error {
				_, _, err := c.Publish(ctx, it.ID, base, bob, at(3), nil)
				return err
			}},
			{"schedule", func(base int) error {
				_, err := c.Schedule(ctx, it.ID, base, at(60), bob, at(3))
				return err
			}},
			{"unschedule", func(base int) error {
				_, err := c.Unschedule(ctx, it.ID, base, bob, at(3))
				return err
			}},
			{"unpublish", func(base int) error {
				_, err := c.Unpublish(ctx, it.ID, base, bob, at(3))
				return err
			}},
			{"delete", func(base int) error {
				_, err := c.Delete(ctx, it.ID, base)
				return err
			}},
			{"restore", func(base int) error {
				_, err := c.Restore(ctx, it.ID, rev1.ID, base, bob, at(3))
				return err
			}},
		}
		for _, tc := range stale {
			for _, base := range []int{1, 2, 4} {
				err := tc.do(base)
				wantConflict(t, fmt.Sprintf("%s at version %d", tc.name, base), err, 3, "Ann", at(2))
			}
		}
		got, err := c.Get(ctx, it.ID)
		if diff := cmp.Diff(cur, got); err != nil || diff != "" {
			t.Errorf("a stale write changed the item %v (-want, +got):\n%s", err, diff)
		}
		if revs, _ := c.Revisions(ctx, it.ID); len(revs) != 1 {
			t.Errorf("a stale publish wrote a revision: %d revisions", len(revs))
		}
		// Unknown items are not found, whatever the write.
		if _, _, err := c.Publish(ctx, "nope", 1, bob, at(3), nil); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("publish unknown: %v", err)
		}
		if _, err := c.Delete(ctx, "nope", 1); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("delete unknown: %v", err)
		}
		if _, err := c.Schedule(ctx, "nope", 1, at(60), bob, at(3)); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("schedule unknown: %v", err)
		}

		// Two editors saving from the same version at once: exactly one
		// wins, the other gets the winner in its conflict.
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, who := range []Actor{ann, bob} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = c.SaveDraft(ctx, it.ID, 3, "post", `{"by":"`+who.Name+`"}`, who, at(4))
			}()
		}
		wg.Wait()
		got, _ = c.Get(ctx, it.ID)
		var conflicts int
		for _, err := range errs {
			var cf *Conflict
			if errors.As(err, &cf) {
				conflicts++
				if cf.By != got.UpdatedBy || cf.Version != 4 {
					t.Errorf("racing save: conflict %+v, but %s wrote version %d", *cf, got.UpdatedBy, got.Version)
				}
			} else if err != nil {
				t.Errorf("racing save: %v", err)
			}
		}
		if conflicts != 1 || got.Version != 4 || got.Draft != `{"by":"`+got.UpdatedBy+`"}` {
			t.Errorf("racing saves: %d conflicts, item %+v", conflicts, got)
		}
	})
}

func TestScheduleDueUnschedule(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		post := mustCreate(t, c, "article", "new-post", `{"v":1}`, 0)
		page := mustCreate(t, c, "page", "about", `{"v":1}`, 0)
		page, _ = mustPublish(t, c, page, at(1))
		page, _ = c.SaveDraft(ctx, page.ID, page.Version, "about", `{"v":2}`, ann, at(2))

		post, err := c.Schedule(ctx, post.ID, post.Version, at(60).In(newYork), bob, at(3))
		if err != nil {
			t.Fatal(err)
		}
		if post.Status != StatusScheduled || post.PublishAt == nil || !post.PublishAt.Equal(at(60)) || post.Version != 2 || post.UpdatedBy != "Bob" {
			t.Errorf("scheduled: %+v", post)
		}
		page, err = c.Schedule(ctx, page.ID, page.Version, at(30), bob, at(3))
		if err != nil {
			t.Fatal(err)
		}
		// The page's live copy stays served while its new draft waits.
		live, err := c.Live(ctx)
		if err != nil || len(live) != 1 || live[0].ID != page.ID || live[0].Live != `{"v":1}` {
			t.Errorf("live while scheduled: %+v %v", live, err)
		}

		dueIDs := func(now time.Time) []string {
			t.Helper()
			due, err := c.Due(ctx, now)
			if err != nil {
				t.Fatal(err)
			}
			ids := []string{}
			for _, it := range due {
				ids = append(ids, it.ID)
			}
			return ids
		}
		if diff := cmp.Diff([]string{}, dueIDs(at(29))); diff != "" {
			t.Errorf("due before any time (-want, +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{page.ID}, dueIDs(at(30))); diff != "" {
			t.Errorf("due at the page's time (-want, +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{page.ID, post.ID}, dueIDs(at(90).In(newYork))); diff != "" {
			t.Errorf("due after both, oldest first (-want, +got):\n%s", diff)
		}

		// The job publishes what is due; it is no longer due.
		due, _ := c.Due(ctx, at(30))
		page, _ = mustPublish(t, c, due[0], at(30))
		if page.Status != StatusPublished || page.PublishAt != nil || page.Live != `{"v":2}` {
			t.Errorf("published when due: %+v", page)
		}
		if diff := cmp.Diff([]string{post.ID}, dueIDs(at(90))); diff != "" {
			t.Errorf("due after the page's publish (-want, +got):\n%s", diff)
		}

		// Unscheduling a never-published item makes it a draft again.
		post, err = c.Unschedule(ctx, post.ID, post.Version, ann, at(4))
		if err != nil || post.Status != StatusDraft || post.PublishAt != nil || post.Version != 3 {
			t.Errorf("unscheduled draft: %+v %v", post, err)
		}
		if _, err := c.Unschedule(ctx, post.ID, post.Version, ann, at(5)); !errors.Is(err, ErrNotScheduled) {
			t.Errorf("unschedule a draft: %v, want ErrNotScheduled", err)
		}
		// Unscheduling a live item leaves it published.
		page, _ = c.Schedule(ctx, page.ID, page.Version, at(120), ann, at(31))
		page, err = c.Unschedule(ctx, page.ID, page.Version, ann, at(32))
		if err != nil || page.Status != StatusPublished || page.PublishAt != nil {
			t.Errorf("unscheduled live item: %+v %v", page, err)
		}
		if diff := cmp.Diff([]string{}, dueIDs(at(1000))); diff != "" {
			t.Errorf("due after unscheduling (-want, +got):\n%s", diff)
		}
	})
}

func TestUnpublishAndLive(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		s2 := mustCreate(t, c, "service", "fire", `{"s":2}`, 2)
		s1 := mustCreate(t, c, "service", "water", `{"s":1}`, 1)
		draft := mustCreate(t, c, "service", "mold", `{"s":3}`, 0)
		art := mustCreate(t, c, "article", "post", `{"a":1}`, 0)
		s2, _ = mustPublish(t, c, s2, at(1))
		s1, _ = mustPublish(t, c, s1, at(1))
		art, _ = mustPublish(t, c, art, at(1))
		// An unpublished rename does not reorder or move the live list.
		s1, _ = c.SaveDraft(ctx, s1.ID, s1.Version, "zzz", `{"s":"edited"}`, ann, at(2))

		live, err := c.Live(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range live {
			got = append(got, it.Kind+":"+it.LiveSlug+":"+it.Live)
		}
		want := []string{`article:post:{"a":1}`, `service:water:{"s":1}`, `service:fire:{"s":2}`}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("live (-want, +got):\n%s", diff)
		}

		s2, err = c.Unpublish(ctx, s2.ID, s2.Version, bob, at(3))
		if err != nil {
			t.Fatal(err)
		}
		wantItem := Item{ID: s2.ID, Kind: "service", Slug: "fire", Status: StatusUnpublished, Draft: `{"s":2}`, Pending: true,
			Version: 3, Position: 2, FirstPublishedAt: ptr(at(1)), UpdatedAt: at(3), UpdatedBy: "Bob", UpdatedByID: "u-bob"}
		if diff := cmp.Diff(wantItem, s2); diff != "" {
			t.Errorf("unpublished (-want, +got):\n%s", diff)
		}
		if _, err := c.Unpublish(ctx, s2.ID, s2.Version, bob, at(4)); !errors.Is(err, ErrNotLive) {
			t.Errorf("unpublish twice: %v, want ErrNotLive", err)
		}
		if _, err := c.Unpublish(ctx, draft.ID, draft.Version, bob, at(4)); !errors.Is(err, ErrNotLive) {
			t.Errorf("unpublish a draft: %v, want ErrNotLive", err)
		}
		// Unpublishing a live item with a pending schedule cancels it.
		art, _ = c.Schedule(ctx, art.ID, art.Version, at(60), ann, at(4))
		art, err = c.Unpublish(ctx, art.ID, art.Version, ann, at(5))
		if err != nil || art.PublishAt != nil || art.Status != StatusUnpublished {
			t.Errorf("unpublish a scheduled live item: %+v %v", art, err)
		}
		if due, _ := c.Due(ctx, at(100)); len(due) != 0 {
			t.Errorf("an unpublished item is still due: %+v", due)
		}
		live, _ = c.Live(ctx)
		if len(live) != 1 || live[0].ID != s1.ID {
			t.Errorf("live after unpublishing: %+v", live)
		}
		// Republishing keeps the first publish time.
		s2, _ = mustPublish(t, c, s2, at(10))
		if !s2.FirstPublishedAt.Equal(at(1)) || !s2.PublishedAt.Equal(at(10)) {
			t.Errorf("republished: first %v, published %v", s2.FirstPublishedAt, s2.PublishedAt)
		}
	})
}

func TestDeleteKeepsRevisions(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		it := mustCreate(t, c, "article", "gone", `{"v":1}`, 0)
		it, rev := mustPublish(t, c, it, at(1))
		deleted, err := c.Delete(ctx, it.ID, it.Version)
		if diff := cmp.Diff(it, deleted); err != nil || diff != "" {
			t.Errorf("delete returns the row %v (-want, +got):\n%s", err, diff)
		}
		if deleted.LiveSlug != "gone" {
			t.Errorf("deleted live slug %q", deleted.LiveSlug)
		}
		if _, err := c.Get(ctx, it.ID); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("get after delete: %v", err)
		}
		if _, err := c.Delete(ctx, it.ID, it.Version); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("delete twice: %v", err)
		}
		revs, err := c.Revisions(ctx, it.ID)
		if err != nil || len(revs) != 1 || revs[0] != rev {
			t.Errorf("revisions of a deleted item: %+v %v", revs, err)
		}
		if r, err := c.Revision(ctx, rev.ID); err != nil || r != rev {
			t.Errorf("revision of a deleted item: %+v %v", r, err)
		}
		// Its slug is free again.
		mustCreate(t, c, "article", "gone", `{}`, 0)
	})
}

func seedItems(n int) []SeedItem {
	out := make([]SeedItem, n)
	for i := range out {
		out[i] = SeedItem{Kind: []string{"service", "city", "article"}[i%3], Slug: fmt.Sprintf("slug-%03d", i), JSON: fmt.Sprintf(`{"i":%d}`, i), Position: i}
	}
	return out
}

func TestSeed(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		items := seedItems(120) // more than one insert batch
		n, err := c.Seed(ctx, items, t0.In(newYork))
		if err != nil || n != 120 {
			t.Fatalf("seed: %d %v", n, err)
		}
		if n, err := c.Seed(ctx, items, at(1)); err != nil || n != 0 {
			t.Errorf("seed again: %d %v, want 0", n, err)
		}
		if n, _ := c.Count(ctx); n != 120 {
			t.Errorf("count after seeding twice: %d", n)
		}
		it, err := c.GetBySlug(ctx, "city", "slug-004")
		if err != nil {
			t.Fatal(err)
		}
		want := Item{ID: it.ID, Kind: "city", Slug: "slug-004", LiveSlug: "slug-004", Status: StatusPublished,
			Draft: `{"i":4}`, Live: `{"i":4}`, Version: 1, Position: 4, PublishedAt: ptr(t0), FirstPublishedAt: ptr(t0),
			UpdatedAt: t0, UpdatedBy: "seed", UpdatedByID: "seed", Origin: "slug-004"}
		if diff := cmp.Diff(want, it); diff != "" {
			t.Errorf("seeded item (-want, +got):\n%s", diff)
		}
		revs, err := c.Revisions(ctx, it.ID)
		if err != nil || len(revs) != 1 || revs[0].Number != 1 || revs[0].Data != `{"i":4}` || revs[0].PublishedByID != "seed" || !revs[0].PublishedAt.Equal(t0) {
			t.Errorf("seeded revision: %+v %v", revs, err)
		}
		if live, _ := c.Live(ctx); len(live) != 120 {
			t.Errorf("live after seeding: %d items", len(live))
		}
	})
}

func TestSeedConcurrent(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		items := seedItems(60)
		const instances = 4
		var wg sync.WaitGroup
		ns := make([]int, instances)
		errs := make([]error, instances)
		start := make(chan struct{})
		for i := range instances {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				ns[i], errs[i] = c.Seed(ctx, items, t0)
			}()
		}
		close(start)
		wg.Wait()
		var seeded int
		for i := range instances {
			if errs[i] != nil {
				t.Errorf("instance %d: %v", i, errs[i])
			}
			switch ns[i] {
			case 60:
				seeded++
			case 0:
			default:
				t.Errorf("instance %d inserted %d", i, ns[i])
			}
		}
		if n, _ := c.Count(ctx); seeded != 1 || n != 60 {
			t.Errorf("%d instances seeded, %d items stored; want 1 and 60", seeded, n)
		}
	})
}
