package contentdb

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

func TestPublish(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		it := mustCreate(t, c, "article", "post", `{"v":1}`, 0)
		it, rev, err := c.Publish(ctx, it.ID, it.Version, bob, at(10).In(newYork), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := Item{ID: it.ID, Kind: "article", Slug: "post", LiveSlug: "post", Status: StatusPublished, Draft: `{"v":1}`,
			Live: `{"v":1}`, Version: 2, PublishedAt: ptr(at(10)), FirstPublishedAt: ptr(at(10)), UpdatedAt: at(10),
			UpdatedBy: "Bob", UpdatedByID: "u-bob"}
		if diff := cmp.Diff(want, it); diff != "" {
			t.Errorf("published (-want, +got):\n%s", diff)
		}
		wantRev := Revision{ID: rev.ID, ItemID: it.ID, Number: 1, Kind: "article", Slug: "post", Data: `{"v":1}`,
			PublishedAt: at(10), PublishedBy: "Bob", PublishedByID: "u-bob"}
		if diff := cmp.Diff(wantRev, rev); diff != "" {
			t.Errorf("revision (-want, +got):\n%s", diff)
		}

		// A rename and a new text: the second publish writes exactly one
		// more revision, as published, and keeps the first publish time.
		it, _ = c.SaveDraft(ctx, it.ID, it.Version, "post-2", `{"v":2}`, ann, at(11))
		old := Redirect{From: "/blog/post", To: "/blog/post-2", Source: SourceAuto, CreatedAt: at(20), CreatedBy: "Ann"}
		it, rev2 := mustPublish(t, c, it, at(20), old)
		if it.LiveSlug != "post-2" || it.Live != `{"v":2}` || !it.FirstPublishedAt.Equal(at(10)) || !it.PublishedAt.Equal(at(20)) || it.Pending {
			t.Errorf("second publish: %+v", it)
		}
		revs, err := c.Revisions(ctx, it.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]Revision{rev2, rev}, revs); diff != "" {
			t.Errorf("revisions, newest first (-want, +got):\n%s", diff)
		}
		if rev2.Number != 2 || rev2.Slug != "post-2" || rev2.Data != `{"v":2}` || rev2.PublishedBy != "Ann" {
			t.Errorf("second revision: %+v", rev2)
		}
		rs, err := c.Redirects(ctx)
		if diff := cmp.Diff([]Redirect{old}, rs); err != nil || diff != "" {
			t.Errorf("redirects after a renaming publish %v (-want, +got):\n%s", err, diff)
		}
		// Publishing an unchanged item is allowed and is one more revision.
		_, rev3 := mustPublish(t, c, it, at(30))
		if rev3.Number != 3 {
			t.Errorf("third revision number %d", rev3.Number)
		}
		if revs, _ := c.Revisions(ctx, "nope"); revs == nil || len(revs) != 0 {
			t.Errorf("revisions of an unknown item: %#v", revs)
		}
		if _, err := c.Revision(ctx, "nope"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("unknown revision: %v", err)
		}
	})
}

// A publish whose redirect cannot be stored leaves nothing behind: not
// the live copy, not the version, not the revision, not the other
// redirects.
func TestPublishIsAtomic(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		it := mustCreate(t, c, "article", "post", `{"v":1}`, 0)
		it, _ = mustPublish(t, c, it, at(1))
		it, _ = c.SaveDraft(ctx, it.ID, it.Version, "post-2", `{"v":2}`, ann, at(2))
		before, _ := c.Get(ctx, it.ID)

		good := Redirect{From: "/blog/post", To: "/blog/post-2", Source: SourceAuto, CreatedAt: at(3)}
		for name, bad := range map[string]Redirect{
			"unknown source":  {From: "/x", To: "/y", Source: "bogus", CreatedAt: at(3)},
			"to itself":       {From: "/x", To: "/x", Source: SourceAuto, CreatedAt: at(3)},
			"empty from-path": {From: "", To: "/y", Source: SourceAuto, CreatedAt: at(3)},
		} {
			_, _, err := c.Publish(ctx, it.ID, it.Version, ann, at(3), []Redirect{good, bad})
			if err == nil {
				t.Errorf("%s: publish succeeded", name)
			}
			got, _ := c.Get(ctx, it.ID)
			if diff := cmp.Diff(before, got); diff != "" {
				t.Errorf("%s: the failed publish changed the item (-want, +got):\n%s", name, diff)
			}
			if revs, _ := c.Revisions(ctx, it.ID); len(revs) != 1 {
				t.Errorf("%s: %d revisions after a failed publish, want 1", name, len(revs))
			}
			if rs, _ := c.Redirects(ctx); len(rs) != 0 {
				t.Errorf("%s: redirects after a failed publish: %+v", name, rs)
			}
		}

		// A plan that refuses aborts the publish the same way.
		refused := errors.New("refused")
		_, _, err := c.PublishWith(ctx, it.ID, it.Version, ann, at(3), func([]Redirect) ([]Redirect, []string, error) {
			return []Redirect{good}, nil, refused
		})
		if !errors.Is(err, refused) {
			t.Errorf("refusing plan: %v", err)
		}
		if got, _ := c.Get(ctx, it.ID); got.Version != before.Version {
			t.Errorf("a refused plan published: %+v", got)
		}

		// The same publish with a good redirect goes through.
		if _, _, err := c.Publish(ctx, it.ID, it.Version, ann, at(4), []Redirect{good}); err != nil {
			t.Fatal(err)
		}
	})
}

// PublishWith's plan sees the redirects inside the transaction and can
// collapse a chain that ends at the old address.
func TestPublishWithPlan(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		err := c.ChangeRedirects(ctx, func([]Redirect) ([]Redirect, []string, error) {
			return []Redirect{
				{From: "/blog/older", To: "/blog/post", Source: SourceAuto, CreatedAt: at(0)},
				{From: "/blog/post-2", To: "/blog/elsewhere", Source: SourceManual, CreatedAt: at(0)},
			}, nil, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		it := mustCreate(t, c, "article", "post", `{}`, 0)
		it, _ = mustPublish(t, c, it, at(1))
		it, _ = c.SaveDraft(ctx, it.ID, it.Version, "post-2", `{}`, ann, at(2))
		var seen []Redirect
		_, _, err = c.PublishWith(ctx, it.ID, it.Version, ann, at(3), func(cur []Redirect) ([]Redirect, []string, error) {
			seen = cur
			return []Redirect{
				{From: "/blog/post", To: "/blog/post-2", Source: SourceAuto, CreatedAt: at(3)},
				{From: "/blog/older", To: "/blog/post-2", Source: SourceAuto, CreatedAt: at(0)},
			}, []string{"/blog/post-2"}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) != 2 {
			t.Errorf("plan saw %+v", seen)
		}
		rs, _ := c.Redirects(ctx)
		want := []Redirect{
			{From: "/blog/older", To: "/blog/post-2", Source: SourceAuto, CreatedAt: at(0)},
			{From: "/blog/post", To: "/blog/post-2", Source: SourceAuto, CreatedAt: at(3)},
		}
		if diff := cmp.Diff(want, rs); diff != "" {
			t.Errorf("redirects (-want, +got):\n%s", diff)
		}
		// A nil plan changes no redirect.
		it, _ = c.Get(ctx, it.ID)
		if _, _, err := c.PublishWith(ctx, it.ID, it.Version, ann, at(4), nil); err != nil {
			t.Fatal(err)
		}
		if rs2, _ := c.Redirects(ctx); len(rs2) != 2 {
			t.Errorf("nil plan: %+v", rs2)
		}
	})
}

func TestRestore(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		it := mustCreate(t, c, "article", "post", `{"v":1}`, 0)
		it, rev1 := mustPublish(t, c, it, at(1))
		it, _ = c.SaveDraft(ctx, it.ID, it.Version, "post-2", `{"v":2}`, ann, at(2))
		it, _ = mustPublish(t, c, it, at(3))
		it, _ = c.SaveDraft(ctx, it.ID, it.Version, "post-2", `{"v":3}`, ann, at(4))

		got, err := c.Restore(ctx, it.ID, rev1.ID, it.Version, bob, at(5))
		if err != nil {
			t.Fatal(err)
		}
		want := it
		want.Slug, want.Draft, want.Version, want.UpdatedAt, want.UpdatedBy, want.UpdatedByID = "post", `{"v":1}`, it.Version+1, at(5), "Bob", "u-bob"
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("restored: the draft and slug are the revision's, the live copy untouched (-want, +got):\n%s", diff)
		}
		if revs, _ := c.Revisions(ctx, it.ID); len(revs) != 2 {
			t.Errorf("a restore wrote a revision: %d", len(revs))
		}

		// Another item's revision, or an unknown one, is not found.
		other := mustCreate(t, c, "article", "other", `{}`, 0)
		_, orev := mustPublish(t, c, other, at(6))
		if _, err := c.Restore(ctx, it.ID, orev.ID, got.Version, bob, at(7)); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("restore another item's revision: %v", err)
		}
		if _, err := c.Restore(ctx, it.ID, "nope", got.Version, bob, at(7)); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("restore an unknown revision: %v", err)
		}
		// A revision whose slug is now another item's.
		third := mustCreate(t, c, "article", "third", `{}`, 0)
		_, trev := mustPublish(t, c, third, at(8))
		third, _ = c.Get(ctx, third.ID)
		third, _ = c.SaveDraft(ctx, third.ID, third.Version, "third-renamed", `{}`, ann, at(9))
		third, _ = mustPublish(t, c, third, at(9))
		if _, err := c.SaveDraft(ctx, got.ID, got.Version, "third", got.Draft, ann, at(10)); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Restore(ctx, third.ID, trev.ID, third.Version, ann, at(11)); !errors.Is(err, ErrSlugTaken) {
			t.Errorf("restore to a slug now taken: %v, want ErrSlugTaken", err)
		}
		// An unpublished item becomes a draft when restored.
		third, _ = c.Unpublish(ctx, third.ID, third.Version, ann, at(12))
		if r, err := c.Restore(ctx, third.ID, newestRevision(t, c, third.ID).ID, third.Version, ann, at(13)); err != nil || r.Status != StatusDraft {
			t.Errorf("restore an unpublished item: %+v %v", r, err)
		}
	})
}

// newestRevision is the newest revision of an item.
func newestRevision(t *testing.T, c *Store, id string) Revision {
	t.Helper()
	revs, err := c.Revisions(ctx, id)
	if err != nil || len(revs) == 0 {
		t.Fatalf("revisions of %s: %v", id, err)
	}
	return revs[0]
}
