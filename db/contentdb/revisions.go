package contentdb

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/db"
)

// Revision is one published copy of an item (table content_revisions),
// written by every publish (and by Seed). Revisions outlive their item:
// ItemID may name a deleted item.
type Revision struct {
	ID     string `db:"id"`
	ItemID string `db:"item_id"`
	// Number counts the item's revisions from 1, in publishing order.
	Number        int       `db:"number"`
	Kind          string    `db:"kind"`
	Slug          string    `db:"slug"` // as published
	Data          string    `db:"data"` // the JSON published
	PublishedAt   time.Time `db:"published_at"`
	PublishedBy   string    `db:"published_by"`
	PublishedByID string    `db:"published_by_id"`
}

const revisionColumns = `id, item_id, number, kind, slug, data, published_at, published_by, published_by_id`

// RedirectPlan decides a redirect change from the current redirects: the
// rows to upsert and the from-paths to delete, or an error that aborts
// the whole change.
type RedirectPlan func(current []Redirect) (upsert []Redirect, remove []string, err error)

// Publish makes an item's working copy live: live = draft, live_slug =
// slug, status published, any schedule cleared, published_at = now,
// first_published_at set once. It writes one revision and upserts
// redirects (the old address of a renamed page), all in one transaction
// serialised with every other redirect change: if any part fails, nothing
// of it is stored. A *Conflict when base is stale.
func (s *Store) Publish(ctx context.Context, id string, base int, by Actor, now time.Time, redirects []Redirect) (Item, Revision, error) {
	return s.PublishWith(ctx, id, base, by, now, func([]Redirect) ([]Redirect, []string, error) {
		return redirects, nil, nil
	})
}

// PublishWith is Publish with the redirect change decided by plan on the
// redirects as they are inside the transaction, as ChangeRedirects does.
// A fixed list cannot be checked that way: collapsing a chain that ends at
// the old address, or dropping a redirect away from the new one, needs the
// current set under the lock. A nil plan changes no redirect.
func (s *Store) PublishWith(ctx context.Context, id string, base int, by Actor, now time.Time, plan RedirectPlan) (Item, Revision, error) {
	now = utc(now)
	var (
		it  Item
		rev Revision
	)
	err := s.s.Serialized(ctx, redirectsLock, func(tx *sqlx.Tx) error {
		var err error
		if it, rev, err = s.publishIn(ctx, tx, id, base, by, now); err != nil {
			return err
		}
		if plan == nil {
			return nil
		}
		return changeRedirects(ctx, tx, plan)
	})
	if err != nil {
		return Item{}, Revision{}, fmt.Errorf("publish: %w", err)
	}
	return it, rev, nil
}

// publishIn makes an item's working copy live and writes its revision,
// inside tx (Publish and PublishBatch).
func (s *Store) publishIn(ctx context.Context, tx *sqlx.Tx, id string, base int, by Actor, now time.Time) (Item, Revision, error) {
	it, err := s.update(ctx, tx, id, base, nil, `UPDATE content_items SET live = draft, live_slug = slug,
		status = 'published', publish_at = NULL, published_at = ?, first_published_at = COALESCE(first_published_at, ?),
		version = version + 1, updated_at = ?, updated_by = ?, updated_by_id = ?
		WHERE id = ? AND version = ? RETURNING `+itemColumns,
		now, now, now, by.Name, by.ID, id, base)
	if err != nil {
		return Item{}, Revision{}, err
	}
	// The item's row is locked by the update until commit, so the next
	// number cannot be taken twice.
	var rev Revision
	if err := tx.GetContext(ctx, &rev, tx.Rebind(`INSERT INTO content_revisions (`+revisionColumns+`)
		SELECT ?, ?, COALESCE(MAX(number), 0) + 1, ?, ?, ?, ?, ?, ? FROM content_revisions WHERE item_id = ?
		RETURNING `+revisionColumns),
		uuid.NewString(), it.ID, it.Kind, it.LiveSlug, it.Live, now, by.Name, by.ID, it.ID); err != nil {
		return Item{}, Revision{}, fmt.Errorf("content item %s: revision: %w", id, err)
	}
	return it, rev, nil
}

// Revisions returns an item's revisions, newest first, whether or not the
// item still exists.
func (s *Store) Revisions(ctx context.Context, itemID string) ([]Revision, error) {
	x := s.s.DB()
	out := []Revision{}
	if err := x.SelectContext(ctx, &out, x.Rebind(`SELECT `+revisionColumns+` FROM content_revisions
		WHERE item_id = ? ORDER BY number DESC`), itemID); err != nil {
		return nil, fmt.Errorf("revisions of %s: %w", itemID, err)
	}
	return out, nil
}

// Revision returns one revision; db.ErrNotFound when there is none.
func (s *Store) Revision(ctx context.Context, id string) (Revision, error) {
	x := s.s.DB()
	var r Revision
	if err := x.GetContext(ctx, &r, x.Rebind(`SELECT `+revisionColumns+` FROM content_revisions WHERE id = ?`), id); err != nil {
		return Revision{}, fmt.Errorf("revision %s: %w", id, notFound(err))
	}
	return r, nil
}

// Restore makes a revision of the item its working copy again (draft and
// slug), as SaveDraft would: the live copy is untouched until the next
// publish. db.ErrNotFound when the revision is not the item's;
// ErrSlugTaken when its slug is now another item's; a *Conflict when base
// is stale.
func (s *Store) Restore(ctx context.Context, itemID, revisionID string, base int, by Actor, now time.Time) (Item, error) {
	r, err := s.Revision(ctx, revisionID)
	if err != nil {
		return Item{}, fmt.Errorf("restore %s: %w", itemID, err)
	}
	if r.ItemID != itemID {
		return Item{}, fmt.Errorf("restore %s: revision %s is another item's: %w", itemID, revisionID, db.ErrNotFound)
	}
	return s.SaveDraft(ctx, itemID, base, r.Slug, r.Data, by, now)
}
