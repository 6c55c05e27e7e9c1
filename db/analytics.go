package db

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Event is one analytics event (table analytics_events).
type Event struct {
	ID          string    `db:"id"`
	At          time.Time `db:"at"`
	Day         string    `db:"day"` // YYYY-MM-DD in the business's time zone
	Kind        string    `db:"kind"`
	Path        string    `db:"path"`
	PageKind    string    `db:"page_kind"`
	Source      string    `db:"source"`
	Referrer    string    `db:"referrer"`
	UTMSource   string    `db:"utm_source"`
	UTMMedium   string    `db:"utm_medium"`
	UTMCampaign string    `db:"utm_campaign"`
	Width       string    `db:"width"`
	Visitor     string    `db:"visitor"`
	Metric      string    `db:"metric"`
	Value       float64   `db:"value"`
}

// Event kinds.
const (
	EventPageview = "pageview"
	EventTelClick = "tel_click"
	EventFormView = "form_view"
	EventLead     = "lead"
	EventVital    = "vital"
)

const eventColumns = `id, at, day, kind, path, page_kind, source, referrer, utm_source, utm_medium, utm_campaign, width, visitor, metric, value`

// AddEvents stores a batch of events in one transaction.
func (s *Store) AddEvents(ctx context.Context, evs []Event) error {
	if len(evs) == 0 {
		return nil
	}
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		// Multi-row inserts of at most 50 rows (15 columns: 750 binds).
		for start := 0; start < len(evs); start += 50 {
			batch := evs[start:min(start+50, len(evs))]
			var b strings.Builder
			b.WriteString(`INSERT INTO analytics_events (` + eventColumns + `) VALUES `)
			args := make([]any, 0, len(batch)*15)
			for i, e := range batch {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString("(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
				if e.ID == "" {
					e.ID = clusterRandomID()
				}
				args = append(args, e.ID, e.At, e.Day, e.Kind, e.Path, e.PageKind, e.Source, e.Referrer, e.UTMSource, e.UTMMedium,
					e.UTMCampaign, e.Width, e.Visitor, e.Metric, e.Value)
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(b.String()), args...); err != nil {
				return fmt.Errorf("add events: %w", err)
			}
		}
		return nil
	})
}

// DailySalt returns the salt of day, creating it once (every instance
// sharing the database gets the same one).
func (s *Store) DailySalt(ctx context.Context, day string) (string, error) {
	b := make([]byte, 32)
	rand.Read(b)
	if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO analytics_salts (day, salt) VALUES (?, ?) ON CONFLICT (day) DO NOTHING`), day, hex.EncodeToString(b)); err != nil {
		return "", fmt.Errorf("salt %s: %w", day, err)
	}
	var salt string
	if err := s.db.GetContext(ctx, &salt, s.q(`SELECT salt FROM analytics_salts WHERE day = ?`), day); err != nil {
		return "", fmt.Errorf("salt %s: %w", day, err)
	}
	return salt, nil
}

// VisitorSource is the traffic source of a visitor's first page view of
// the day ("" when there is none).
func (s *Store) VisitorSource(ctx context.Context, visitor, day string) (string, error) {
	var src []string
	err := s.db.SelectContext(ctx, &src, s.q(`SELECT source FROM analytics_events WHERE visitor = ? AND day = ? AND kind = 'pageview' ORDER BY at LIMIT 1`), visitor, day)
	if err != nil || len(src) == 0 {
		return "", err
	}
	return src[0], nil
}

// RollUp aggregates every finished day (before today) that has raw
// events and no aggregates yet, deletes raw events older than keepRaw
// days and the salts of finished days. It returns the days rolled up.
func (s *Store) RollUp(ctx context.Context, today string, keepRawFrom string, now time.Time) ([]string, error) {
	var days []string
	if err := s.db.SelectContext(ctx, &days, s.q(`SELECT DISTINCT day FROM analytics_events WHERE day < ?
		AND day NOT IN (SELECT day FROM analytics_rollups) ORDER BY day`), today); err != nil {
		return nil, fmt.Errorf("rollup days: %w", err)
	}
	for _, day := range days {
		err := s.Transact(ctx, func(tx *sqlx.Tx) error {
			for _, q := range []string{
				`INSERT INTO analytics_daily (day, kind, dim, key, events, visitors)
					SELECT day, kind, 'total', '', COUNT(*), COUNT(DISTINCT visitor) FROM analytics_events WHERE day = ? AND kind <> 'vital' GROUP BY day, kind`,
				`INSERT INTO analytics_daily (day, kind, dim, key, events, visitors)
					SELECT day, kind, 'source', source, COUNT(*), COUNT(DISTINCT visitor) FROM analytics_events WHERE day = ? AND kind <> 'vital' GROUP BY day, kind, source`,
				`INSERT INTO analytics_daily (day, kind, dim, key, events, visitors)
					SELECT day, kind, 'path', path, COUNT(*), COUNT(DISTINCT visitor) FROM analytics_events WHERE day = ? AND kind <> 'vital' GROUP BY day, kind, path`,
			} {
				if _, err := tx.ExecContext(ctx, tx.Rebind(q), day); err != nil {
					return err
				}
			}
			_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO analytics_rollups (day, rolled_at) VALUES (?, ?)`), day, now)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("roll up %s: %w", day, err)
		}
	}
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM analytics_events WHERE day < ?`), keepRawFrom); err != nil {
		return days, fmt.Errorf("prune events: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM analytics_salts WHERE day < ?`), today); err != nil {
		return days, fmt.Errorf("prune salts: %w", err)
	}
	return days, nil
}

// Tally is a count of events and distinct daily visitors for one key.
type Tally struct {
	Key      string `db:"key" json:"key"`
	Events   int64  `db:"events" json:"events"`
	Visitors int64  `db:"visitors" json:"visitors"`
}

// Tallies returns, for one event kind and dimension ("total", "source" or
// "path"), the events and visitors per key over the days from..to
// (inclusive): aggregates for rolled-up days, raw events for the others.
// Visitors are summed per day (a visitor is unlinkable across days).
func (s *Store) Tallies(ctx context.Context, kind, dim, from, to string) ([]Tally, error) {
	col := map[string]string{"total": "''", "source": "source", "path": "path"}[dim]
	if col == "" {
		return nil, fmt.Errorf("tallies: unknown dimension %q", dim)
	}
	groupBy := "day"
	if dim != "total" {
		groupBy += ", " + col
	}
	// Raw events are read only for the days after the last rolled-up one
	// (the roll-up takes every finished day in order), so a query stays an
	// index range over today's rows however many raw rows the 30 days hold.
	rawFrom := from
	var last sql.NullString
	if err := s.db.GetContext(ctx, &last, `SELECT MAX(day) FROM analytics_rollups`); err != nil {
		return nil, fmt.Errorf("tallies: %w", err)
	}
	if last.Valid && last.String >= rawFrom {
		if t, err := time.Parse("2006-01-02", last.String); err == nil {
			rawFrom = t.AddDate(0, 0, 1).Format("2006-01-02")
		}
	}
	q := `SELECT key, SUM(events) AS events, SUM(visitors) AS visitors FROM (
		SELECT key, events, visitors FROM analytics_daily WHERE kind = ? AND dim = ? AND day >= ? AND day <= ?
		UNION ALL
		SELECT ` + col + ` AS key, COUNT(*) AS events, COUNT(DISTINCT visitor) AS visitors FROM analytics_events
			WHERE kind = ? AND day >= ? AND day <= ? AND day NOT IN (SELECT day FROM analytics_rollups) GROUP BY ` + groupBy + `
	) t GROUP BY key`
	var out []Tally
	if err := s.db.SelectContext(ctx, &out, s.q(q), kind, dim, from, to, kind, rawFrom, to); err != nil {
		return nil, fmt.Errorf("tallies %s/%s: %w", kind, dim, err)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Visitors != out[j].Visitors {
			return out[i].Visitors > out[j].Visitors
		}
		return out[i].Key < out[j].Key
	})
	return out, nil
}

// VitalSample is one Core Web Vitals measurement.
type VitalSample struct {
	PageKind string  `db:"page_kind"`
	Metric   string  `db:"metric"`
	Value    float64 `db:"value"`
}

// VitalSamples returns the vitals recorded on days from..to (raw events
// are kept 30 days), for percentiles computed by the caller.
func (s *Store) VitalSamples(ctx context.Context, from, to string) ([]VitalSample, error) {
	var out []VitalSample
	if err := s.db.SelectContext(ctx, &out, s.q(`SELECT page_kind, metric, value FROM analytics_events WHERE kind = 'vital' AND day >= ? AND day <= ?`), from, to); err != nil {
		return nil, fmt.Errorf("vitals: %w", err)
	}
	return out, nil
}

// LeadsByCity counts the leads stored since `since`, per city as typed.
func (s *Store) LeadsByCity(ctx context.Context, since time.Time) ([]Tally, error) {
	var out []Tally
	if err := s.db.SelectContext(ctx, &out, s.q(`SELECT city AS key, COUNT(*) AS events, 0 AS visitors FROM avatar_leads WHERE created_at >= ? GROUP BY city`), since); err != nil {
		return nil, fmt.Errorf("leads by city: %w", err)
	}
	return out, nil
}
