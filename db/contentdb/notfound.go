package contentdb

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
)

// NotFoundRow is a path of the 404 monitor with its hits over a range of
// days and when it was last requested.
type NotFoundRow struct {
	Path     string
	Hits     int
	LastSeen time.Time
}

const notFoundLock = "content-not-found"

// AddNotFoundHits adds counted 404s of one day (YYYY-MM-DD) to the
// monitor; a path that is not plain text (guard.PlainText) is dropped. Paths already recorded that day are counted up; a new path is
// added only while the day holds fewer than maxPathsPerDay paths (none
// when maxPathsPerDay <= 0), the most hit first, so storage stays bounded
// whatever bots request. Writers are serialised, so the cap holds across
// instances.
func (s *Store) AddNotFoundHits(ctx context.Context, day string, hits map[string]int, now time.Time, maxPathsPerDay int) error {
	paths := make([]string, 0, len(hits))
	for p, n := range hits {
		// A path with a hidden character (CR, LF, TAB, U+202E...) is
		// never stored, whoever counted it.
		if n > 0 && guard.PlainText(p) {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	sort.Slice(paths, func(i, j int) bool {
		if hits[paths[i]] != hits[paths[j]] {
			return hits[paths[i]] > hits[paths[j]]
		}
		return paths[i] < paths[j]
	})
	now = utc(now)
	err := s.s.Serialized(ctx, notFoundLock, func(tx *sqlx.Tx) error {
		var fresh []string
		for _, p := range paths {
			res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE not_found_hits SET hits = hits + ?,
				last_seen = CASE WHEN last_seen < ? THEN ? ELSE last_seen END WHERE day = ? AND path = ?`),
				hits[p], now, now, day, p)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				fresh = append(fresh, p)
			}
		}
		if len(fresh) == 0 {
			return nil
		}
		var have int
		if err := tx.GetContext(ctx, &have, tx.Rebind(`SELECT COUNT(*) FROM not_found_hits WHERE day = ?`), day); err != nil {
			return err
		}
		for _, p := range fresh[:max(0, min(len(fresh), maxPathsPerDay-have))] {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO not_found_hits (day, path, hits, last_seen) VALUES (?, ?, ?, ?)`),
				day, p, hits[p], now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("not-found hits %s: %w", day, err)
	}
	return nil
}

// TopNotFound returns up to limit paths with their hits summed over the
// days from fromDay on, most hits first, ties by path.
func (s *Store) TopNotFound(ctx context.Context, fromDay string, limit int) ([]NotFoundRow, error) {
	rows, _, err := s.NotFoundPage(ctx, fromDay, db.Page{Limit: limit})
	return rows, err
}

// NotFoundPage returns one page of the paths that answered 404 on the days
// from fromDay on, their hits summed, most hits first, ties by path, and
// how many paths match in all. p.Q matches the path, ignoring case. The
// days are read on the primary key (day, path); a day holds at most the
// writer's cap of paths, so the window's rows stay bounded.
func (s *Store) NotFoundPage(ctx context.Context, fromDay string, p db.Page) ([]NotFoundRow, int, error) {
	x := s.s.DB()
	where := ` WHERE day >= ?`
	args := []any{fromDay}
	if cond, cargs := db.Contains(p.Q, "path"); cond != "" {
		where += ` AND ` + cond
		args = append(args, cargs...)
	}
	var total int
	if err := x.GetContext(ctx, &total, x.Rebind(`SELECT COUNT(DISTINCT path) FROM not_found_hits`+where), args...); err != nil {
		return nil, 0, fmt.Errorf("count not-found: %w", err)
	}
	var rows []struct {
		Path     string  `db:"path"`
		Hits     int     `db:"hits"`
		LastSeen sqlTime `db:"last_seen"`
	}
	if err := x.SelectContext(ctx, &rows, x.Rebind(`SELECT path, SUM(hits) AS hits, MAX(last_seen) AS last_seen
		FROM not_found_hits`+where+` GROUP BY path ORDER BY hits DESC, path LIMIT ? OFFSET ?`), append(args, p.Limit, p.Offset)...); err != nil {
		return nil, 0, fmt.Errorf("top not-found: %w", err)
	}
	out := make([]NotFoundRow, len(rows))
	for i, r := range rows {
		out[i] = NotFoundRow{Path: r.Path, Hits: r.Hits, LastSeen: r.LastSeen.Time}
	}
	return out, total, nil
}

// PruneNotFound deletes the days before beforeDay and returns how many
// rows went.
func (s *Store) PruneNotFound(ctx context.Context, beforeDay string) (int64, error) {
	x := s.s.DB()
	res, err := x.ExecContext(ctx, x.Rebind(`DELETE FROM not_found_hits WHERE day < ?`), beforeDay)
	if err != nil {
		return 0, fmt.Errorf("prune not-found before %s: %w", beforeDay, err)
	}
	return res.RowsAffected()
}

// DeleteNotFound removes a path from the monitor, every day of it: once a
// path has a redirect it no longer answers 404.
func (s *Store) DeleteNotFound(ctx context.Context, path string) error {
	x := s.s.DB()
	if _, err := x.ExecContext(ctx, x.Rebind(`DELETE FROM not_found_hits WHERE path = ?`), path); err != nil {
		return fmt.Errorf("delete not-found %s: %w", path, err)
	}
	return nil
}
