package contentdb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/db"
)

// Redirect is one 301 (table redirects) from a path of the site to
// another path or URL.
type Redirect struct {
	From      string    `db:"from_path"` // unique
	To        string    `db:"to_path"`
	Source    string    `db:"source"` // SourceAuto or SourceManual
	CreatedAt time.Time `db:"created_at"`
	CreatedBy string    `db:"created_by"`
}

// redirectsLock names the serialisation of every redirect change,
// publishes included.
const redirectsLock = "content-redirects"

const redirectColumns = `from_path, to_path, source, created_at, created_by`

// Redirects returns every redirect, ordered by from-path.
func (s *Store) Redirects(ctx context.Context) ([]Redirect, error) {
	out, err := redirects(ctx, s.s.DB())
	if err != nil {
		return nil, fmt.Errorf("redirects: %w", err)
	}
	return out, nil
}

// RedirectsPage returns one page of the redirects, ordered by from-path
// (the primary key: read in order, never sorted), and how many match in
// all. p.Q matches the from-path and the to-path, ignoring case.
func (s *Store) RedirectsPage(ctx context.Context, p db.Page) ([]Redirect, int, error) {
	x := s.s.DB()
	where, args := "", []any(nil)
	if cond, cargs := db.Contains(p.Q, "from_path", "to_path"); cond != "" {
		where, args = ` WHERE `+cond, cargs
	}
	var total int
	if err := x.GetContext(ctx, &total, x.Rebind(`SELECT COUNT(*) FROM redirects`+where), args...); err != nil {
		return nil, 0, fmt.Errorf("count redirects: %w", err)
	}
	out := []Redirect{}
	if err := x.SelectContext(ctx, &out, x.Rebind(`SELECT `+redirectColumns+` FROM redirects`+where+` ORDER BY from_path LIMIT ? OFFSET ?`),
		append(args, p.Limit, p.Offset)...); err != nil {
		return nil, 0, fmt.Errorf("redirects: %w", err)
	}
	return out, total, nil
}

func redirects(ctx context.Context, q querier) ([]Redirect, error) {
	out := []Redirect{}
	err := q.SelectContext(ctx, &out, `SELECT `+redirectColumns+` FROM redirects ORDER BY from_path`)
	return out, err
}

// ChangeRedirects runs plan on the current redirects and applies what it
// returns (deletes first, then upserts), in one transaction serialised
// against every other redirect change and every publish, on every
// instance. The rules (no loops, no off-site targets, chains collapsed)
// are plan's: it runs on a snapshot nobody else can change before the
// commit, so two editors can never create a loop together. An error from
// plan aborts the change and is returned wrapped.
func (s *Store) ChangeRedirects(ctx context.Context, plan func(current []Redirect) (upsert []Redirect, remove []string, err error)) error {
	if plan == nil {
		return errors.New("change redirects: no plan")
	}
	err := s.s.Serialized(ctx, redirectsLock, func(tx *sqlx.Tx) error {
		return changeRedirects(ctx, tx, plan)
	})
	if err != nil {
		return fmt.Errorf("change redirects: %w", err)
	}
	return nil
}

// changeRedirects runs plan inside a transaction that holds redirectsLock.
func changeRedirects(ctx context.Context, tx *sqlx.Tx, plan RedirectPlan) error {
	current, err := redirects(ctx, tx)
	if err != nil {
		return err
	}
	upsert, remove, err := plan(current)
	if err != nil {
		return err
	}
	for _, from := range remove {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM redirects WHERE from_path = ?`), from); err != nil {
			return fmt.Errorf("redirect %s: %w", from, err)
		}
	}
	for _, r := range upsert {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO redirects (`+redirectColumns+`) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (from_path) DO UPDATE SET to_path = excluded.to_path, source = excluded.source,
				created_at = excluded.created_at, created_by = excluded.created_by`),
			r.From, r.To, r.Source, utc(r.CreatedAt), r.CreatedBy); err != nil {
			return fmt.Errorf("redirect %s: %w", r.From, err)
		}
	}
	return nil
}
