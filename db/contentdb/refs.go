package contentdb

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
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
	return s.rewriteRefs(ctx, nil, plan)
}

// RefScope is the part of the content a rewrite of references reads: the
// items with IDs, and the items of Kinds whose working or live copy Holds
// finds (the service's test of a record's JSON: the store does not read
// it), with the revisions of all of them and the revisions of Kinds whose
// data Holds finds. Holds nil finds nothing.
type RefScope struct {
	IDs   []string
	Kinds []string
	Holds func(data string) bool
}

// RewriteRefsIn is RewriteRefs on a part of the content: plan sees the
// items in scope as they are inside the transaction (ordered by kind,
// position and slug), and the revisions converted are those in scope.
// Only the rows of the scope's kinds are read, in one pass.
func (s *Store) RewriteRefsIn(ctx context.Context, scope RefScope, plan func(items []Item) RefRewrite) (int, error) {
	return s.rewriteRefs(ctx, &scope, plan)
}

// scopeChunk bounds the placeholders of one query (SQLite allows 32,766).
const scopeChunk = 500

func (s *Store) rewriteRefs(ctx context.Context, scope *RefScope, plan func(all []Item) RefRewrite) (int, error) {
	n := 0
	err := s.s.Serialized(ctx, refsLock, func(tx *sqlx.Tx) error {
		n = 0
		all, err := s.scopeItems(ctx, tx, scope)
		if err != nil {
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
		revs, err := s.scopeRevisions(ctx, tx, scope, all)
		if err != nil {
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

// scopeItems reads the items in scope (every item when scope is nil), in
// the order of All.
func (s *Store) scopeItems(ctx context.Context, tx *sqlx.Tx, scope *RefScope) ([]Item, error) {
	const order = ` ORDER BY kind, position, slug`
	all := []Item{}
	if scope == nil {
		err := tx.SelectContext(ctx, &all, `SELECT `+itemColumns+` FROM content_items`+order)
		return all, err
	}
	ids := map[string]bool{}
	for _, id := range scope.IDs {
		ids[id] = true
	}
	holds := func(data string) bool { return scope.Holds != nil && data != "" && scope.Holds(data) }
	if len(scope.Kinds) > 0 {
		var rows []Item
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(`SELECT `+itemColumns+` FROM content_items WHERE kind IN (`+marks(len(scope.Kinds))+`)`), anys(scope.Kinds)...); err != nil {
			return nil, err
		}
		for _, it := range rows {
			if ids[it.ID] || holds(it.Draft) || holds(it.Live) {
				all = append(all, it)
				delete(ids, it.ID)
			}
		}
	}
	rest := slices.Sorted(maps.Keys(ids))
	for chunk := range slices.Chunk(rest, scopeChunk) {
		var rows []Item
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(`SELECT `+itemColumns+` FROM content_items WHERE id IN (`+marks(len(chunk))+`)`), anys(chunk)...); err != nil {
			return nil, err
		}
		all = append(all, rows...)
	}
	slices.SortStableFunc(all, func(a, b Item) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Position, b.Position), cmp.Compare(a.Slug, b.Slug))
	})
	return all, nil
}

type revisionData struct {
	ID     string `db:"id"`
	ItemID string `db:"item_id"`
	Kind   string `db:"kind"`
	Data   string `db:"data"`
}

// scopeRevisions reads the revisions in scope: every one when scope is
// nil; else those of items and those of scope's kinds Holds finds.
func (s *Store) scopeRevisions(ctx context.Context, tx *sqlx.Tx, scope *RefScope, items []Item) ([]revisionData, error) {
	const columns = `SELECT id, item_id, kind, data FROM content_revisions`
	var revs []revisionData
	if scope == nil {
		err := tx.SelectContext(ctx, &revs, columns)
		return revs, err
	}
	of := map[string]bool{}
	for _, it := range items {
		of[it.ID] = true
	}
	if len(scope.Kinds) > 0 {
		var rows []revisionData
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(columns+` WHERE kind IN (`+marks(len(scope.Kinds))+`)`), anys(scope.Kinds)...); err != nil {
			return nil, err
		}
		for _, r := range rows {
			if of[r.ItemID] || (scope.Holds != nil && scope.Holds(r.Data)) {
				revs = append(revs, r)
			}
		}
	}
	var rest []string
	for _, it := range items {
		if !slices.Contains(scope.Kinds, it.Kind) {
			rest = append(rest, it.ID)
		}
	}
	for chunk := range slices.Chunk(rest, scopeChunk) {
		var rows []revisionData
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(columns+` WHERE item_id IN (`+marks(len(chunk))+`)`), anys(chunk)...); err != nil {
			return nil, err
		}
		revs = append(revs, rows...)
	}
	return revs, nil
}

func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
