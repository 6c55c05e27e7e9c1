package contentdb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/db"
)

// Item is one editable record (table content_items): a working copy
// (Slug, Draft) and, once published, the copy the public site serves
// (LiveSlug, Live). Editing changes only the working copy.
type Item struct {
	ID   string `db:"id"` // a uuid; survives slug changes
	Kind string `db:"kind"`
	// Slug is the working copy's key within its kind ("county/slug" for
	// cities); unique within the kind.
	Slug string `db:"slug"`
	// LiveSlug is where the live copy is served, "" when there is none.
	LiveSlug string `db:"live_slug"`
	Status   string `db:"status"` // a Status constant
	Draft    string `db:"draft"`  // JSON, opaque to the store
	Live     string `db:"live"`   // JSON, "" when nothing is live
	// Pending says the working copy differs from what is served: nothing
	// is live, or the draft or the slug changed since the last publish.
	// It is computed on read, never stored.
	Pending bool `db:"-"`
	// Version starts at 1 and is bumped by every write to the row.
	Version  int `db:"version"`
	Position int `db:"position"` // order within the kind
	// PublishAt is when a scheduled item is due; nil unless scheduled.
	PublishAt *time.Time `db:"publish_at"`
	// PublishedAt is when the live copy was published (the sitemap's
	// lastmod); nil when nothing is live.
	PublishedAt      *time.Time `db:"published_at"`
	FirstPublishedAt *time.Time `db:"first_published_at"`
	UpdatedAt        time.Time  `db:"updated_at"`
	UpdatedBy        string     `db:"updated_by"`    // display name
	UpdatedByID      string     `db:"updated_by_id"` // user id, "pin" or "seed"
	// Origin is the key the item was seeded with from the embedded files
	// ("" for an item added later): how the code names it (migration 095).
	Origin string `db:"origin"`
}

// SeedItem is one record of the embedded content, as Seed stores it.
type SeedItem struct {
	Kind, Slug, JSON string
	Position         int
}

const itemColumns = `id, kind, slug, COALESCE(live_slug, '') AS live_slug, status, draft, COALESCE(live, '') AS live,
	version, position, publish_at, published_at, first_published_at, updated_at, updated_by, updated_by_id,
	COALESCE(origin, '') AS origin`

// querier is what both *sqlx.DB and *sqlx.Tx offer.
type querier interface {
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
	Rebind(string) string
}

func (it *Item) finish() {
	it.Pending = it.Live == "" || it.Draft != it.Live || it.Slug != it.LiveSlug
}

func finishAll(items []Item) []Item {
	for i := range items {
		items[i].finish()
	}
	return items
}

func (s *Store) selectItems(ctx context.Context, query string, args ...any) ([]Item, error) {
	out := []Item{}
	x := s.s.DB()
	if err := x.SelectContext(ctx, &out, x.Rebind(query), args...); err != nil {
		return nil, err
	}
	return finishAll(out), nil
}

// Count returns how many items are stored (0 before the first seeding).
func (s *Store) Count(ctx context.Context) (int, error) {
	var n int
	if err := s.s.DB().GetContext(ctx, &n, `SELECT COUNT(*) FROM content_items`); err != nil {
		return 0, fmt.Errorf("count content items: %w", err)
	}
	return n, nil
}

// Seed stores the embedded content when the table is empty, and nothing
// otherwise: each item published at at (live = draft, live_slug = slug,
// version 1, updated by "seed"), with its first revision, so the seeded
// text can be restored after the owner's first publish. Instances that
// boot together are serialised: exactly one seeds, the others find the
// table full and insert nothing. It returns how many items it inserted.
func (s *Store) Seed(ctx context.Context, items []SeedItem, at time.Time) (int, error) {
	at = utc(at)
	inserted := 0
	err := s.s.Serialized(ctx, "content-seed", func(tx *sqlx.Tx) error {
		var have int
		if err := tx.GetContext(ctx, &have, `SELECT COUNT(*) FROM content_items`); err != nil {
			return err
		}
		if have > 0 {
			return nil
		}
		if err := insertSeed(ctx, tx, items, at); err != nil {
			return err
		}
		inserted = len(items)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("seed content: %w", err)
	}
	return inserted, nil
}

// insertSeed inserts items as Seed describes, 50 rows per statement.
func insertSeed(ctx context.Context, tx *sqlx.Tx, items []SeedItem, at time.Time) error {
	const batch = 50 // rows per INSERT: 11 binds each
	for start := 0; start < len(items); start += batch {
		part := items[start:min(start+batch, len(items))]
		var ib, rb strings.Builder
		ib.WriteString(`INSERT INTO content_items (id, kind, slug, status, draft, live, live_slug, version, position,
			published_at, first_published_at, updated_at, updated_by, updated_by_id, origin) VALUES `)
		rb.WriteString(`INSERT INTO content_revisions (id, item_id, number, kind, slug, data, published_at,
			published_by, published_by_id) VALUES `)
		var iargs, rargs []any
		for i, it := range part {
			if i > 0 {
				ib.WriteString(",")
				rb.WriteString(",")
			}
			ib.WriteString(`(?, ?, ?, 'published', ?, ?, ?, 1, ?, ?, ?, ?, 'seed', 'seed', ?)`)
			rb.WriteString(`(?, ?, 1, ?, ?, ?, ?, 'seed', 'seed')`)
			id := uuid.NewString()
			iargs = append(iargs, id, it.Kind, it.Slug, it.JSON, it.JSON, it.Slug, it.Position, at, at, at, it.Slug)
			rargs = append(rargs, uuid.NewString(), id, it.Kind, it.Slug, it.JSON, at)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(ib.String()), iargs...); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(rb.String()), rargs...); err != nil {
			return err
		}
	}
	return nil
}

// SeedMissing stores, in a database already seeded, the items whose kind
// and key it does not hold yet, as Seed stores them: a record kind added
// after the first boot (the site's wording) then exists for the editor
// with its defaults. Callers pass only kinds that are never deleted, so
// this never brings back an item the owner deleted. Instances that boot
// together are serialised; it returns how many it inserted.
func (s *Store) SeedMissing(ctx context.Context, items []SeedItem, at time.Time) (int, error) {
	at = utc(at)
	inserted := 0
	err := s.s.Serialized(ctx, "content-seed", func(tx *sqlx.Tx) error {
		var missing []SeedItem
		for _, it := range items {
			var have int
			if err := tx.GetContext(ctx, &have, tx.Rebind(`SELECT COUNT(*) FROM content_items WHERE kind = ? AND slug = ?`), it.Kind, it.Slug); err != nil {
				return err
			}
			if have == 0 {
				missing = append(missing, it)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		if err := insertSeed(ctx, tx, missing, at); err != nil {
			return err
		}
		inserted = len(missing)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("seed new content: %w", err)
	}
	return inserted, nil
}

// Live returns what the public site serves: every item with a live copy,
// whatever its status (a published item keeps being served while a new
// draft of it is scheduled), never an unpublished one (it has no live
// copy). Ordered by kind, position and live slug: only published state
// decides the order, so an unpublished rename never reorders a list.
func (s *Store) Live(ctx context.Context) ([]Item, error) {
	out, err := s.selectItems(ctx, `SELECT `+itemColumns+` FROM content_items
		WHERE live IS NOT NULL AND status <> 'unpublished' ORDER BY kind, position, live_slug`)
	if err != nil {
		return nil, fmt.Errorf("live content: %w", err)
	}
	return out, nil
}

// List returns every item of a kind, whatever its status, ordered by
// position and slug.
func (s *Store) List(ctx context.Context, kind string) ([]Item, error) {
	out, err := s.selectItems(ctx, `SELECT `+itemColumns+` FROM content_items WHERE kind = ? ORDER BY position, slug`, kind)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", kind, err)
	}
	return out, nil
}

// titleFields are the draft's fields that name a record, in the order
// the editor reads them (web/editor titleOf).
var titleFields = []string{"title", "name", "city", "cityName"}

// draftNames is the SQL text of the draft's name fields (titleFields),
// for a search: on SQLite one json_extract of every path (a JSON array of
// their values, the draft parsed once per row), on PostgreSQL the fields
// joined by spaces. NULL or empty when the draft has none, or is a list.
func (s *Store) draftNames() string {
	if s.s.Dialect() == "postgres" {
		parts := make([]string, len(titleFields))
		for i, f := range titleFields {
			parts[i] = `d ->> '` + f + `'`
		}
		return `(SELECT concat_ws(' ', ` + strings.Join(parts, ", ") + `) FROM (SELECT draft::jsonb AS d) AS j)`
	}
	paths := make([]string, len(titleFields))
	for i, f := range titleFields {
		paths[i] = `'$.` + f + `'`
	}
	return `json_extract(draft, ` + strings.Join(paths, ", ") + `)`
}

// Filter narrows a kind's list for the editor's record pickers. The zero
// Filter keeps every item.
type Filter struct {
	// IDs, when not nil, keeps those items only (none when empty): the
	// records a field names, read by id.
	IDs []string
	// Under keeps the items whose working slug starts with Under + "/":
	// a county's cities ("cobb" keeps "cobb/marietta").
	Under string
	// Not leaves one item out: a record is never its own choice.
	Not string
}

// where is f's SQL condition (" AND ...", nothing for the zero Filter)
// and its arguments.
func (f Filter) where() (string, []any) {
	var sql string
	var args []any
	if f.IDs != nil {
		if len(f.IDs) == 0 {
			return ` AND 1 = 0`, nil
		}
		sql += ` AND id IN (?` + strings.Repeat(`, ?`, len(f.IDs)-1) + `)`
		for _, id := range f.IDs {
			args = append(args, id)
		}
	}
	if f.Under != "" {
		sql += ` AND slug LIKE ? ESCAPE '\'`
		args = append(args, db.LikeEscape(f.Under)+"/%")
	}
	if f.Not != "" {
		sql += ` AND id <> ?`
		args = append(args, f.Not)
	}
	return sql, args
}

// ListPage returns one page of the items of a kind that f keeps, ordered
// by position, slug and id, with how many match in all. p.Q matches,
// ignoring case, the working slug, the live slug and the working copy's
// name (its title, name, city or cityName field). The kind is matched on
// the index content_items_list (kind, position, slug, id: migration 112),
// so a page is read in order without sorting the kind, and a search reads
// one kind's rows only.
func (s *Store) ListPage(ctx context.Context, kind string, p db.Page, f Filter) ([]Item, int, error) {
	where := ` WHERE kind = ?`
	args := []any{kind}
	if cond, cargs := db.Contains(p.Q, "slug", "COALESCE(live_slug, '')", "COALESCE("+s.draftNames()+", '')"); cond != "" {
		where += ` AND ` + cond
		args = append(args, cargs...)
	}
	fsql, fargs := f.where()
	where += fsql
	args = append(args, fargs...)
	// Two reads, a count and the page: a window count on the page's query
	// would read every row of the kind, drafts and all, before the limit
	// (745 ms against 3 ms for a page of 2,000 cities, measured).
	x := s.s.DB()
	var total int
	if err := x.GetContext(ctx, &total, x.Rebind(`SELECT COUNT(*) FROM content_items`+where), args...); err != nil {
		return nil, 0, fmt.Errorf("count %s: %w", kind, err)
	}
	out, err := s.selectItems(ctx, `SELECT `+itemColumns+` FROM content_items`+where+` ORDER BY position, slug, id LIMIT ? OFFSET ?`,
		append(args, p.Limit, p.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", kind, err)
	}
	return out, total, nil
}

func getItem(ctx context.Context, q querier, where string, args ...any) (Item, error) {
	var it Item
	if err := q.GetContext(ctx, &it, q.Rebind(`SELECT `+itemColumns+` FROM content_items WHERE `+where), args...); err != nil {
		return Item{}, notFound(err)
	}
	it.finish()
	return it, nil
}

// Get returns one item by id; db.ErrNotFound when there is none.
func (s *Store) Get(ctx context.Context, id string) (Item, error) {
	it, err := getItem(ctx, s.s.DB(), `id = ?`, id)
	if err != nil {
		return Item{}, fmt.Errorf("content item %s: %w", id, err)
	}
	return it, nil
}

// GetBySlug returns the item of a kind whose working slug is slug (not
// its live slug); db.ErrNotFound when there is none.
func (s *Store) GetBySlug(ctx context.Context, kind, slug string) (Item, error) {
	it, err := getItem(ctx, s.s.DB(), `kind = ? AND slug = ?`, kind, slug)
	if err != nil {
		return Item{}, fmt.Errorf("content %s %q: %w", kind, slug, err)
	}
	return it, nil
}

// Create stores a new item as a draft at version 1. ErrSlugTaken when
// another item of the kind uses the slug (working or live).
func (s *Store) Create(ctx context.Context, kind, slug, draftJSON string, position int, by Actor, now time.Time) (Item, error) {
	x := s.s.DB()
	var it Item
	err := x.GetContext(ctx, &it, x.Rebind(`INSERT INTO content_items (id, kind, slug, status, draft, version, position,
			updated_at, updated_by, updated_by_id)
		SELECT ?, ?, ?, 'draft', ?, 1, ?, ?, ?, ?
		WHERE NOT EXISTS (SELECT 1 FROM content_items WHERE kind = ? AND live_slug = ?)
		RETURNING `+itemColumns),
		uuid.NewString(), kind, slug, draftJSON, position, utc(now), by.Name, by.ID, kind, slug)
	if err != nil {
		if isUniqueViolation(err) || errors.Is(notFound(err), db.ErrNotFound) {
			err = ErrSlugTaken
		}
		return Item{}, fmt.Errorf("create %s %q: %w", kind, slug, err)
	}
	it.finish()
	return it, nil
}

// slugFree is the condition, inside an UPDATE of content_items, that no
// other item of the kind is served at the slug bound to it.
const slugFree = `NOT EXISTS (SELECT 1 FROM content_items o
	WHERE o.kind = content_items.kind AND o.id <> content_items.id AND o.live_slug = ?)`

// SaveDraft replaces an item's working copy (slug and draft). The live
// copy is untouched. The status is kept (a published item stays published
// with Pending set; a scheduled one stays scheduled, and the draft as it
// is at PublishAt is what goes live), except that an unpublished item
// becomes a draft: it has been edited since it was taken down.
// ErrSlugTaken when another item of the kind uses the slug; a *Conflict
// when base is not the current version.
func (s *Store) SaveDraft(ctx context.Context, id string, base int, slug, draftJSON string, by Actor, now time.Time) (Item, error) {
	return s.update(ctx, s.s.DB(), id, base, ErrSlugTaken, `UPDATE content_items SET slug = ?, draft = ?,
		status = CASE WHEN status = 'unpublished' THEN 'draft' ELSE status END,
		version = version + 1, updated_at = ?, updated_by = ?, updated_by_id = ?
		WHERE id = ? AND version = ? AND `+slugFree+` RETURNING `+itemColumns,
		slug, draftJSON, utc(now), by.Name, by.ID, id, base, slug)
}

// Schedule marks an item to be published at at (the job runner publishes
// what Due returns). A live copy, if any, stays served until then.
func (s *Store) Schedule(ctx context.Context, id string, base int, at time.Time, by Actor, now time.Time) (Item, error) {
	return s.update(ctx, s.s.DB(), id, base, nil, `UPDATE content_items SET status = 'scheduled', publish_at = ?,
		version = version + 1, updated_at = ?, updated_by = ?, updated_by_id = ?
		WHERE id = ? AND version = ? RETURNING `+itemColumns,
		utc(at), utc(now), by.Name, by.ID, id, base)
}

// Unschedule cancels a schedule: the item is published again if it has a
// live copy, else a draft. ErrNotScheduled when it is not scheduled.
func (s *Store) Unschedule(ctx context.Context, id string, base int, by Actor, now time.Time) (Item, error) {
	return s.update(ctx, s.s.DB(), id, base, ErrNotScheduled, `UPDATE content_items SET
		status = CASE WHEN live IS NULL THEN 'draft' ELSE 'published' END, publish_at = NULL,
		version = version + 1, updated_at = ?, updated_by = ?, updated_by_id = ?
		WHERE id = ? AND version = ? AND status = 'scheduled' RETURNING `+itemColumns,
		utc(now), by.Name, by.ID, id, base)
}

// Due returns the scheduled items whose time has come (PublishAt <= now),
// oldest first.
func (s *Store) Due(ctx context.Context, now time.Time) ([]Item, error) {
	out, err := s.selectItems(ctx, `SELECT `+itemColumns+` FROM content_items
		WHERE status = 'scheduled' AND publish_at <= ? ORDER BY publish_at, id`, utc(now))
	if err != nil {
		return nil, fmt.Errorf("due content: %w", err)
	}
	return out, nil
}

// Unpublish takes an item down: nothing of it is served any more (live,
// live slug and published time cleared) and a pending schedule is
// cancelled, so it cannot come back by itself. The working copy and the
// revisions stay. ErrNotLive when nothing of it is live.
func (s *Store) Unpublish(ctx context.Context, id string, base int, by Actor, now time.Time) (Item, error) {
	return s.update(ctx, s.s.DB(), id, base, ErrNotLive, `UPDATE content_items SET live = NULL, live_slug = NULL,
		status = 'unpublished', publish_at = NULL, published_at = NULL,
		version = version + 1, updated_at = ?, updated_by = ?, updated_by_id = ?
		WHERE id = ? AND version = ? AND live IS NOT NULL RETURNING `+itemColumns,
		utc(now), by.Name, by.ID, id, base)
}

// Delete removes an item and returns it as it was (the caller needs its
// live slug to drop the page). Its revisions are kept.
func (s *Store) Delete(ctx context.Context, id string, base int) (Item, error) {
	return s.update(ctx, s.s.DB(), id, base, nil, `DELETE FROM content_items WHERE id = ? AND version = ? RETURNING `+itemColumns, id, base)
}

// update runs a version-checked write that returns the row (UPDATE or
// DELETE ... RETURNING). When no row is returned, it reads the item to
// tell why: not found, a stale base (*Conflict), or else refused, the
// write's own condition (ErrSlugTaken, ErrNotScheduled, ErrNotLive).
func (s *Store) update(ctx context.Context, q querier, id string, base int, refused error, query string, args ...any) (Item, error) {
	var it Item
	err := q.GetContext(ctx, &it, q.Rebind(query), args...)
	switch {
	case err == nil:
		it.finish()
		return it, nil
	case isUniqueViolation(err):
		err = ErrSlugTaken
	case errors.Is(notFound(err), db.ErrNotFound):
		err = whyNot(ctx, q, id, base, refused)
	}
	return Item{}, fmt.Errorf("content item %s: %w", id, err)
}

func whyNot(ctx context.Context, q querier, id string, base int, refused error) error {
	var cur struct {
		Version   int       `db:"version"`
		UpdatedBy string    `db:"updated_by"`
		UpdatedAt time.Time `db:"updated_at"`
	}
	if err := q.GetContext(ctx, &cur, q.Rebind(`SELECT version, updated_by, updated_at FROM content_items WHERE id = ?`), id); err != nil {
		return notFound(err)
	}
	if cur.Version != base {
		return &Conflict{Version: cur.Version, By: cur.UpdatedBy, At: cur.UpdatedAt}
	}
	if refused == nil {
		return fmt.Errorf("version %d: write refused", base)
	}
	return refused
}
