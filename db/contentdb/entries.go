package contentdb

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Entry is an item as an index of the site's pages names it: where its
// live copy is served (LiveSlug) and its state. Only an item with nothing
// live has its working copy read (Draft), to name it: an index of 2,000
// cities reads their ids and slugs, not 2,000 records twice over.
type Entry struct {
	ID       string `db:"id"`
	Kind     string `db:"kind"`
	Slug     string `db:"slug"`
	LiveSlug string `db:"live_slug"` // "" when nothing is live
	Status   string `db:"status"`
	// PublishAt is when a scheduled item is due; nil unless scheduled.
	PublishAt *time.Time `db:"publish_at"`
	// Draft is the working copy when nothing is live, else "".
	Draft string `db:"draft"`
}

// Title is the name of an item with nothing live, as the editor's lists
// give it: the working copy's title, name, city or cityName, else its
// slug. An item with a live copy is named by its slug (its working copy
// is not read).
func (e Entry) Title() string {
	var m map[string]any
	json.Unmarshal([]byte(e.Draft), &m)
	for _, k := range titleFields {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return e.Slug
}

// Entries lists the items of the kinds in one query, ordered by kind,
// then as the editor lists a kind (position, slug, id). An item with
// nothing live has no live copy either (publishing sets both, taking
// down clears both), so its working copy is the one copy read.
func (s *Store) Entries(ctx context.Context, kinds ...string) ([]Entry, error) {
	out := []Entry{}
	if len(kinds) == 0 {
		return out, nil
	}
	args := make([]any, len(kinds))
	for i, k := range kinds {
		args[i] = k
	}
	x := s.s.DB()
	q := `SELECT id, kind, slug, COALESCE(live_slug, '') AS live_slug, status, publish_at,
		CASE WHEN live_slug IS NULL THEN draft ELSE '' END AS draft
		FROM content_items WHERE kind IN (?` + strings.Repeat(`, ?`, len(kinds)-1) + `)
		ORDER BY kind, position, slug, id`
	if err := x.SelectContext(ctx, &out, x.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("content entries %s: %w", strings.Join(kinds, ", "), err)
	}
	return out, nil
}
