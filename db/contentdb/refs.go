package contentdb

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
)

// References by identity (ADR 046): a record names the records
// it refers to by their item ids, inside its JSON. The store still does
// not read the JSON: the content service decides what changes (plans),
// and the store applies a plan in one transaction, on the rows as they are
// inside it.

// refsLock serialises every change of references across instances: the
// boot conversion and the removal of references before a take-down.
const refsLock = "content-refs"

// RefChange is a referring item's new copies: its working copy, and its
// live copy when that changes too (nil: the live copy stays).
type RefChange struct {
	ID    string
	Draft string
	Live  *string
}

// DetachPlan decides, from every item as it is inside the transaction,
// which referring items change (their references to the item being taken
// down removed or replaced), or refuses with an error.
type DetachPlan func(all []Item) ([]RefChange, error)

// All returns every item, of every kind and status.
func (s *Store) All(ctx context.Context) ([]Item, error) {
	out, err := s.selectItems(ctx, `SELECT `+itemColumns+` FROM content_items ORDER BY kind, position, slug`)
	if err != nil {
		return nil, fmt.Errorf("all content: %w", err)
	}
	return out, nil
}

// UnpublishDetaching is Unpublish after plan's changes to the items that
// refer to this one, all in one transaction: every change applies, and
// the item is taken down, or nothing is stored. The items changed are
// returned with it; one whose live copy changed gets a revision, as a
// publish would write.
func (s *Store) UnpublishDetaching(ctx context.Context, id string, base int, plan DetachPlan, by Actor, now time.Time) (Item, []Item, error) {
	return s.detaching(ctx, plan, by, now, func(tx *sqlx.Tx) (Item, error) {
		return s.update(ctx, tx, id, base, ErrNotLive, `UPDATE content_items SET live = NULL, live_slug = NULL,
			status = 'unpublished', publish_at = NULL, published_at = NULL,
			version = version + 1, updated_at = ?, updated_by = ?, updated_by_id = ?
			WHERE id = ? AND version = ? AND live IS NOT NULL RETURNING `+itemColumns,
			utc(now), by.Name, by.ID, id, base)
	})
}

// DeleteDetaching is Delete after plan's changes, in one transaction, as
// UnpublishDetaching.
func (s *Store) DeleteDetaching(ctx context.Context, id string, base int, plan DetachPlan, by Actor, now time.Time) (Item, []Item, error) {
	return s.detaching(ctx, plan, by, now, func(tx *sqlx.Tx) (Item, error) {
		return s.update(ctx, tx, id, base, nil, `DELETE FROM content_items WHERE id = ? AND version = ? RETURNING `+itemColumns, id, base)
	})
}

func (s *Store) detaching(ctx context.Context, plan DetachPlan, by Actor, now time.Time, final func(*sqlx.Tx) (Item, error)) (Item, []Item, error) {
	now = utc(now)
	var (
		target  Item
		changed []Item
	)
	err := s.s.Serialized(ctx, refsLock, func(tx *sqlx.Tx) error {
		changed = nil
		all := []Item{}
		if err := tx.SelectContext(ctx, &all, `SELECT `+itemColumns+` FROM content_items ORDER BY kind, position, slug`); err != nil {
			return err
		}
		changes, err := plan(finishAll(all))
		if err != nil {
			return err
		}
		versions := map[string]int{}
		for _, it := range all {
			versions[it.ID] = it.Version
		}
		for _, c := range changes {
			it, err := s.update(ctx, tx, c.ID, versions[c.ID], nil, `UPDATE content_items SET draft = ?,
				live = CASE WHEN live IS NULL THEN NULL ELSE COALESCE(?, live) END,
				version = version + 1, updated_at = ?, updated_by = ?, updated_by_id = ?
				WHERE id = ? AND version = ? RETURNING `+itemColumns,
				c.Draft, c.Live, now, by.Name, by.ID, c.ID, versions[c.ID])
			if err != nil {
				return err
			}
			if c.Live != nil && it.Live != "" {
				if err := insertRevision(ctx, tx, it, by, now); err != nil {
					return err
				}
			}
			changed = append(changed, it)
		}
		target, err = final(tx)
		return err
	})
	if err != nil {
		return Item{}, nil, fmt.Errorf("take down: %w", err)
	}
	return target, changed, nil
}

// insertRevision records an item's live copy as its next revision.
func insertRevision(ctx context.Context, tx *sqlx.Tx, it Item, by Actor, now time.Time) error {
	if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO content_revisions (`+revisionColumns+`)
		SELECT ?, ?, COALESCE(MAX(number), 0) + 1, ?, ?, ?, ?, ?, ? FROM content_revisions WHERE item_id = ?`),
		uuid.NewString(), it.ID, it.Kind, it.LiveSlug, it.Live, now, by.Name, by.ID, it.ID); err != nil {
		return fmt.Errorf("content item %s: revision: %w", it.ID, err)
	}
	return nil
}

// RefRewrite is a conversion of stored references: the new copies of the
// items it changes, and a function that converts a revision's data
// (false: unchanged).
type RefRewrite struct {
	Items    []RefChange
	Revision func(kind, data string) (string, bool)
}

// RewriteRefs converts stored references, once across instances: plan
// sees every item inside the transaction and says what changes. It is a
// change of form, not of content: no version is bumped and no revision
// written (an editor's open page still saves; the service converts what
// it sends). It returns how many rows (items and revisions) it changed.
func (s *Store) RewriteRefs(ctx context.Context, plan func(all []Item) RefRewrite) (int, error) {
	n := 0
	err := s.s.Serialized(ctx, refsLock, func(tx *sqlx.Tx) error {
		n = 0
		all := []Item{}
		if err := tx.SelectContext(ctx, &all, `SELECT `+itemColumns+` FROM content_items ORDER BY kind, position, slug`); err != nil {
			return err
		}
		rw := plan(finishAll(all))
		for _, c := range rw.Items {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE content_items SET draft = ?,
				live = CASE WHEN live IS NULL THEN NULL ELSE COALESCE(?, live) END WHERE id = ?`), c.Draft, c.Live, c.ID); err != nil {
				return fmt.Errorf("content item %s: %w", c.ID, err)
			}
			n++
		}
		if rw.Revision == nil {
			return nil
		}
		var revs []struct {
			ID   string `db:"id"`
			Kind string `db:"kind"`
			Data string `db:"data"`
		}
		if err := tx.SelectContext(ctx, &revs, `SELECT id, kind, data FROM content_revisions`); err != nil {
			return err
		}
		for _, r := range revs {
			data, ok := rw.Revision(r.Kind, r.Data)
			if !ok {
				continue
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE content_revisions SET data = ? WHERE id = ?`), data, r.ID); err != nil {
				return fmt.Errorf("content revision %s: %w", r.ID, err)
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("rewrite references: %w", err)
	}
	return n, nil
}
