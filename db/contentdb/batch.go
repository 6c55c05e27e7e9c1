package contentdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
)

// BatchRecord is one record of a batch publish: an existing item (ID, at
// version Base) whose working copy becomes Slug and JSON, or a new item
// (ID "") of Kind at Position.
type BatchRecord struct {
	ID       string
	Base     int
	Kind     string
	Slug     string
	JSON     string
	Position int
}

// BatchError is a batch publish refused by one of its records: which
// record, and why (ErrSlugTaken or a *Conflict, wrapped).
type BatchError struct {
	Kind, Slug string
	Err        error
}

func (e *BatchError) Error() string { return fmt.Sprintf("%s %s: %v", e.Kind, e.Slug, e.Err) }
func (e *BatchError) Unwrap() error { return e.Err }

// PublishBatch saves and publishes several records at once (`site content
// import`): each new record is created, each existing one gets its new
// working copy (version-checked), and every one is published with its
// revision; then plan changes the redirects. It is one transaction,
// serialised with every redirect change and every publish: if any part
// fails, nothing of it is stored, and the error is a *BatchError naming
// the record. It returns the published items in the records' order.
func (s *Store) PublishBatch(ctx context.Context, recs []BatchRecord, by Actor, now time.Time, plan RedirectPlan) ([]Item, error) {
	now = utc(now)
	var out []Item
	err := s.s.Serialized(ctx, redirectsLock, func(tx *sqlx.Tx) error {
		out = make([]Item, 0, len(recs))
		for _, r := range recs {
			it, err := s.saveIn(ctx, tx, r, by, now)
			if err == nil {
				it, _, err = s.publishIn(ctx, tx, it.ID, it.Version, by, now)
			}
			if err != nil {
				return &BatchError{Kind: r.Kind, Slug: r.Slug, Err: err}
			}
			out = append(out, it)
		}
		if plan == nil {
			return nil
		}
		return changeRedirects(ctx, tx, plan)
	})
	if err != nil {
		return nil, fmt.Errorf("publish batch: %w", err)
	}
	return out, nil
}

// saveIn creates a batch record's item or replaces its working copy, as
// Create and SaveDraft do, inside tx.
func (s *Store) saveIn(ctx context.Context, tx *sqlx.Tx, r BatchRecord, by Actor, now time.Time) (Item, error) {
	if r.ID != "" {
		return s.update(ctx, tx, r.ID, r.Base, ErrSlugTaken, `UPDATE content_items SET slug = ?, draft = ?,
			status = CASE WHEN status = 'unpublished' THEN 'draft' ELSE status END,
			version = version + 1, updated_at = ?, updated_by = ?, updated_by_id = ?
			WHERE id = ? AND version = ? AND `+slugFree+` RETURNING `+itemColumns,
			r.Slug, r.JSON, now, by.Name, by.ID, r.ID, r.Base, r.Slug)
	}
	var it Item
	err := tx.GetContext(ctx, &it, tx.Rebind(`INSERT INTO content_items (id, kind, slug, status, draft, version, position,
			updated_at, updated_by, updated_by_id)
		SELECT ?, ?, ?, 'draft', ?, 1, ?, ?, ?, ?
		WHERE NOT EXISTS (SELECT 1 FROM content_items WHERE kind = ? AND live_slug = ?)
		RETURNING `+itemColumns),
		uuid.NewString(), r.Kind, r.Slug, r.JSON, r.Position, now, by.Name, by.ID, r.Kind, r.Slug)
	if err != nil {
		if isUniqueViolation(err) || errors.Is(err, sql.ErrNoRows) {
			return Item{}, ErrSlugTaken
		}
		return Item{}, err
	}
	it.finish()
	return it, nil
}
