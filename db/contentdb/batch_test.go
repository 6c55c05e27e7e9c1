package contentdb

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A batch publishes every record with its revision and the redirect plan
// in one transaction; one record refused (a slug another item is served
// at, a stale version) leaves everything as it was, redirects included.
func TestPublishBatch(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		a := mustCreate(t, c, "article", "first", `{"t":1}`, 0)
		a, _, err := c.Publish(ctx, a.ID, a.Version, ann, at(0), nil)
		if err != nil {
			t.Fatal(err)
		}
		b := mustCreate(t, c, "article", "second", `{"t":2}`, 1)
		b, _, err = c.Publish(ctx, b.ID, b.Version, ann, at(0), nil)
		if err != nil {
			t.Fatal(err)
		}
		redirect := func(current []Redirect) ([]Redirect, []string, error) {
			return []Redirect{{From: "/blog/old", To: "/blog/first-moved", Source: SourceAuto, CreatedAt: at(5), CreatedBy: "import"}}, nil, nil
		}
		snapshot := func() ([]Item, []Redirect) {
			t.Helper()
			items, err := c.List(ctx, "article")
			if err != nil {
				t.Fatal(err)
			}
			rs, err := c.Redirects(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return items, rs
		}
		beforeItems, beforeRedirects := snapshot()
		for name, recs := range map[string][]BatchRecord{
			"a new record at a live slug": {
				{ID: a.ID, Base: a.Version, Kind: "article", Slug: "first-moved", JSON: `{"t":11}`},
				{Kind: "article", Slug: "second", JSON: `{"t":3}`, Position: 2},
			},
			"a stale version last": {
				{ID: a.ID, Base: a.Version, Kind: "article", Slug: "first", JSON: `{"t":11}`},
				{Kind: "article", Slug: "third", JSON: `{"t":3}`, Position: 2},
				{ID: b.ID, Base: b.Version - 1, Kind: "article", Slug: "second", JSON: `{"t":22}`},
			},
		} {
			_, err := c.PublishBatch(ctx, recs, ann, at(5), redirect)
			var be *BatchError
			if !errors.As(err, &be) || be.Slug != recs[len(recs)-1].Slug {
				t.Errorf("%s: %v", name, err)
			}
			items, rs := snapshot()
			if diff := cmp.Diff(beforeItems, items); diff != "" {
				t.Errorf("%s: the items changed (-before, +after):\n%s", name, diff)
			}
			if diff := cmp.Diff(beforeRedirects, rs); diff != "" {
				t.Errorf("%s: the redirects changed (-before, +after):\n%s", name, diff)
			}
			revs, _ := c.Revisions(ctx, a.ID)
			if len(revs) != 1 {
				t.Errorf("%s: %d revisions of the first record", name, len(revs))
			}
		}
		var conflict *Conflict
		if _, err := c.PublishBatch(ctx, []BatchRecord{{ID: b.ID, Base: b.Version - 1, Kind: "article", Slug: "second", JSON: `{}`}}, ann, at(5), nil); !errors.As(err, &conflict) {
			t.Errorf("a stale version: %v", err)
		}
		if _, err := c.PublishBatch(ctx, []BatchRecord{{Kind: "article", Slug: "second", JSON: `{}`}}, ann, at(5), nil); !errors.Is(err, ErrSlugTaken) {
			t.Errorf("a taken slug: %v", err)
		}

		// All good: every record is live with a revision, and the plan ran.
		out, err := c.PublishBatch(ctx, []BatchRecord{
			{ID: a.ID, Base: a.Version, Kind: "article", Slug: "first-moved", JSON: `{"t":11}`},
			{Kind: "article", Slug: "third", JSON: `{"t":3}`, Position: 2},
		}, bob, at(5), redirect)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != 2 || out[0].LiveSlug != "first-moved" || out[0].Live != `{"t":11}` || out[1].Status != StatusPublished || out[1].Live != `{"t":3}` || out[1].UpdatedBy != "Bob" {
			t.Errorf("published %+v", out)
		}
		if revs, _ := c.Revisions(ctx, a.ID); len(revs) != 2 || revs[0].Slug != "first-moved" {
			t.Errorf("revisions %+v", revs)
		}
		if revs, _ := c.Revisions(ctx, out[1].ID); len(revs) != 1 {
			t.Errorf("new record's revisions %+v", revs)
		}
		if rs, _ := c.Redirects(ctx); len(rs) != 1 || rs[0].To != "/blog/first-moved" {
			t.Errorf("redirects %+v", rs)
		}
	})
}
