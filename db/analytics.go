package db

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"math"
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
	// Area is the place of an area page view or of the city typed in an
	// estimate request: "county/slug", AreaOther, or "" (none, or not
	// recorded).
	Area string `db:"area"`
}

// AreaOther is the area of an estimate request whose city is outside the
// service area.
const AreaOther = "other"

// Event kinds.
const (
	EventPageview = "pageview"
	EventTelClick = "tel_click"
	EventFormView = "form_view"
	EventLead     = "lead"
	EventVital    = "vital"
	// EventNotFound is a page view of a path the site does not serve (the
	// not-found page's beacon). It makes no visit and is not a page; its
	// path is not kept (ADR 029).
	EventNotFound = "not_found"
)

const eventColumns = `id, at, day, kind, path, page_kind, source, referrer, utm_source, utm_medium, utm_campaign, width, visitor, metric, value, area`

// AddEvents stores a batch of events in one transaction.
func (s *Store) AddEvents(ctx context.Context, evs []Event) error {
	if len(evs) == 0 {
		return nil
	}
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		// Multi-row inserts of at most 50 rows (16 columns: 800 binds).
		for start := 0; start < len(evs); start += 50 {
			batch := evs[start:min(start+50, len(evs))]
			var b strings.Builder
			b.WriteString(`INSERT INTO analytics_events (` + eventColumns + `) VALUES `)
			args := make([]any, 0, len(batch)*16)
			for i, e := range batch {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString("(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
				if e.ID == "" {
					e.ID = newRowID()
				}
				args = append(args, e.ID, e.At, e.Day, e.Kind, e.Path, e.PageKind, e.Source, e.Referrer, e.UTMSource, e.UTMMedium,
					e.UTMCampaign, e.Width, e.Visitor, e.Metric, e.Value, e.Area)
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

// Count is one figure over a day or a range of days: for an event kind
// (or KindConversion) and a dimension, the events and the visits (or
// distinct visitors) under one key.
type Count struct {
	Kind     string `db:"kind" json:"kind"`
	Dim      string `db:"dim" json:"dim"`
	Key      string `db:"key" json:"key"`
	Events   int64  `db:"events" json:"events"`
	Visitors int64  `db:"visitors" json:"visitors"`
}

// Dimensions of a Count.
const (
	// DimTotal: key "". Page views: events are page views, visitors are
	// visits (one per visitor and day). Other kinds: events.
	DimTotal = "total"
	// DimPath: key is the page. Visitors are the visits that viewed it, so
	// they do not add up across pages.
	DimPath = "path"
	// DimSource: key is the source of the visit, the source of its first
	// page view, so each visit counts under one source. Page views: the
	// visits and their page views. Leads, calls and form views: the events
	// of the visit of the same visitor and day, and the visits that had
	// one; key "" holds those of no counted visit (no page view that day:
	// JavaScript off, an opted-out or bot request, a lost beacon).
	DimSource = "source"
	// DimArea: key is an Event.Area. Page views: visits, under the first
	// area page of the visit. Leads: estimate requests by the city typed.
	DimArea = "area"
)

// KindConversion counts converted visits: visits with at least one call
// tap or estimate request (DimTotal and DimSource).
const KindConversion = "conversion"

// NotRecorded is the source of the visitors of days rolled up before
// migration 015 whose source could not be told apart (ADR 023).
const NotRecorded = "Not recorded"

// countsSQL computes, from the raw events of the days between its two
// parameters that are not rolled up yet, one day at a time, every row the
// roll-up keeps (day, kind, dim, key, events, visitors). The roll-up
// stores exactly these rows and Counts counts the same rows in Go for the
// days not rolled up (rawCounts, held equal to this query by
// TestRawCountsEqualTheRolledUpRows), so a figure is the same whichever
// way its days are held, and every breakdown adds up to its total day by
// day:
//   - a visit is one visitor on one day with a page view; its source is
//     its first page view's, its area its first area page view's;
//   - a lead, call or form view belongs to the visit of the same visitor
//     and day, or to none: a visitor with no page view that day, or no
//     visitor id (an opted-out request's lead);
//   - a converted visit has a lead or a call.
//
// Only leads may lack a visitor id; a beacon event without one is not
// counted. Ties in time are broken by id, so a visit has one first page
// view. No join: one sort of the raw events by (day, visitor) and one of
// the area page views, materialized once (PostgreSQL 12+, SQLite 3.35+),
// so the cost grows as n log n with the raw events.
const countsSQL = `WITH ev AS (
	SELECT id, at, day, kind, path, source, visitor, area FROM analytics_events
	WHERE day >= ? AND day <= ? AND kind <> 'vital' AND (visitor <> '' OR kind = 'lead')
		AND day NOT IN (SELECT day FROM analytics_rollups)
), t AS MATERIALIZED (
	SELECT day, visitor, kind,
		ROW_NUMBER() OVER (first ROWS UNBOUNDED PRECEDING) AS n,
		FIRST_VALUE(CASE WHEN source = '' THEN 'Direct' ELSE source END) OVER (first ROWS UNBOUNDED PRECEDING) AS source,
		SUM(CASE WHEN kind = 'pageview' THEN 1 ELSE 0 END) OVER (first ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS views,
		SUM(CASE WHEN kind IN ('lead', 'tel_click') THEN 1 ELSE 0 END) OVER (first ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS leads
	FROM ev
	WINDOW first AS (PARTITION BY day, visitor ORDER BY CASE WHEN kind = 'pageview' THEN 0 ELSE 1 END, at, id)
), visits AS (
	SELECT day, visitor, source, views, leads FROM t WHERE n = 1 AND views > 0 AND visitor <> ''
), areas AS (
	SELECT day, area FROM (
		SELECT day, area, ROW_NUMBER() OVER (PARTITION BY day, visitor ORDER BY at, id) AS n
		FROM ev WHERE kind = 'pageview' AND area <> '') a
	WHERE n = 1
), acts AS (
	SELECT day, kind, CASE WHEN views > 0 AND visitor <> '' THEN source ELSE '' END AS source,
		CASE WHEN views > 0 AND visitor <> '' THEN visitor END AS visitor
	FROM t WHERE kind IN ('lead', 'tel_click', 'form_view')
), counts AS (
	SELECT day, 'pageview' AS kind, 'total' AS dim, '' AS key, SUM(views) AS events, COUNT(*) AS visitors FROM visits GROUP BY day
	UNION ALL SELECT day, kind, 'total', '', COUNT(*), COUNT(DISTINCT visitor) FROM ev WHERE kind <> 'pageview' GROUP BY day, kind
	UNION ALL SELECT day, kind, 'path', path, COUNT(*), COUNT(DISTINCT visitor) FROM ev GROUP BY day, kind, path
	UNION ALL SELECT day, 'pageview', 'source', source, SUM(views), COUNT(*) FROM visits GROUP BY day, source
	UNION ALL SELECT day, kind, 'source', source, COUNT(*), COUNT(DISTINCT visitor) FROM acts GROUP BY day, kind, source
	UNION ALL SELECT day, 'conversion', 'total', '', COUNT(*), COUNT(*) FROM visits WHERE leads > 0 GROUP BY day
	UNION ALL SELECT day, 'conversion', 'source', source, COUNT(*), COUNT(*) FROM visits WHERE leads > 0 GROUP BY day, source
	UNION ALL SELECT day, 'pageview', 'area', area, COUNT(*), COUNT(*) FROM areas GROUP BY day, area
	UNION ALL SELECT day, 'lead', 'area', area, COUNT(*), COUNT(DISTINCT visitor) FROM ev WHERE kind = 'lead' GROUP BY day, area
)`

// RawDays is how long raw events are kept (ADR 029): the roll-up job
// deletes the events of the days before today minus RawDays, after every
// finished day has been rolled up into analytics_daily. The Performance
// Monitor reads the raw vitals of the last 28 days.
const RawDays = 30

// RollUp aggregates every finished day (before today) that has raw
// events and no aggregates yet, deletes the raw events (page views,
// not-found views, actions, leads and vitals alike) of the days before
// keepRawFrom, never those of a day not rolled up, and the salts of
// finished days. It returns the days rolled up.
func (s *Store) RollUp(ctx context.Context, today string, keepRawFrom string, now time.Time) ([]string, error) {
	var days []string
	if err := s.db.SelectContext(ctx, &days, s.q(`SELECT DISTINCT day FROM analytics_events WHERE day < ?
		AND day NOT IN (SELECT day FROM analytics_rollups) ORDER BY day`), today); err != nil {
		return nil, fmt.Errorf("rollup days: %w", err)
	}
	for _, day := range days {
		err := s.Transact(ctx, func(tx *sqlx.Tx) error {
			if _, err := tx.ExecContext(ctx, tx.Rebind(countsSQL+` INSERT INTO analytics_daily (day, kind, dim, key, events, visitors)
				SELECT day, kind, dim, key, events, visitors FROM counts`), day, day); err != nil {
				return err
			}
			if err := rollUpVitals(ctx, tx, day); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO analytics_rollups (day, rolled_at) VALUES (?, ?)`), day, now)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("roll up %s: %w", day, err)
		}
	}
	if _, err := s.PruneRawEvents(ctx, keepRawFrom); err != nil {
		return days, err
	}
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM analytics_salts WHERE day < ?`), today); err != nil {
		return days, fmt.Errorf("prune salts: %w", err)
	}
	return days, nil
}

// PruneRawEvents deletes the raw events of the days before keepRawFrom
// that are rolled up (never those of a day that is not: its figures would
// be lost) and says how many. The hourly roll-up and the daily retention
// job (RETAIN_ANALYTICS_RAW_DAYS) both call it; it only deletes, so the
// two never conflict.
func (s *Store) PruneRawEvents(ctx context.Context, keepRawFrom string) (int64, error) {
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM analytics_events WHERE day < ? AND day IN (SELECT day FROM analytics_rollups)`), keepRawFrom)
	if err != nil {
		return 0, fmt.Errorf("prune events: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// snapshot begins a read-only transaction whose reads all see one state
// of the database (repeatable read on PostgreSQL; SQLite's read
// transaction is one already): for answers made of several reads that a
// roll-up committing between them would make count a day twice or not at
// all. The caller rolls it back.
func (s *Store) snapshot(ctx context.Context) (*sqlx.Tx, error) {
	opts := &sql.TxOptions{ReadOnly: true}
	if s.dialect == "postgres" {
		opts.Isolation = sql.LevelRepeatableRead
	}
	return s.db.BeginTxx(ctx, opts)
}

// Counts returns every figure over the days from..to (inclusive), summed
// over the days: aggregates for rolled-up days, the same rows computed
// from raw events for the others (countsSQL). Visits are summed per day
// (a visitor is unlinkable across days). Sorted by kind, dimension, then
// visitors (most first) and key.
func (s *Store) Counts(ctx context.Context, from, to string) ([]Count, error) {
	// The rolled-up rows and the raw events are read in one read-only
	// transaction, one snapshot (repeatable read on PostgreSQL), as the
	// single query before was: a roll-up committing between the two reads
	// would otherwise move a day out of the raw events after the
	// rolled-up rows were read without it.
	tx, err := s.snapshot(ctx)
	if err != nil {
		return nil, fmt.Errorf("counts: %w", err)
	}
	defer tx.Rollback()
	// Raw events are read only for the days after the last rolled-up one
	// (the roll-up takes every finished day in order), so a query stays an
	// index range over today's rows however many raw rows the 30 days hold.
	rawFrom := from
	var last sql.NullString
	if err := tx.GetContext(ctx, &last, `SELECT MAX(day) FROM analytics_rollups`); err != nil {
		return nil, fmt.Errorf("counts: %w", err)
	}
	if last.Valid && last.String >= rawFrom {
		if t, err := time.Parse("2006-01-02", last.String); err == nil {
			rawFrom = t.AddDate(0, 0, 1).Format("2006-01-02")
		}
	}
	// The rolled-up days are summed in SQL a month at a time, from an index
	// in the order of the sums (dailyCountsSQL), today's raw events are
	// counted in Go as they stream off the analytics_events_visits index
	// (rawCounts), and the parts are added up here: nothing is sorted but
	// the answer's few hundred rows (ADR 071).
	var parts []Count
	q, args := dailyCountsSQL(from, to)
	if err := tx.SelectContext(ctx, &parts, s.q(q), args...); err != nil {
		return nil, fmt.Errorf("counts %s..%s: %w", from, to, err)
	}
	if rawFrom <= to {
		raw, err := s.rawCounts(ctx, tx, rawFrom, to)
		if err != nil {
			return nil, err
		}
		parts = append(parts, raw...)
	}
	var out []Count // nil when there is nothing, as before
	at := make(map[countKey]int, 64)
	for _, c := range parts {
		if i, ok := at[countKey{c.Kind, c.Dim, c.Key}]; ok {
			out[i].Events += c.Events
			out[i].Visitors += c.Visitors
		} else {
			at[countKey{c.Kind, c.Dim, c.Key}] = len(out)
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Dim != b.Dim {
			return a.Dim < b.Dim
		}
		if a.Visitors != b.Visitors {
			return a.Visitors > b.Visitors
		}
		return a.Key < b.Key
	})
	return out, nil
}

type countKey struct{ kind, dim, key string }

// dailyCountsSQL is the query of the rolled-up rows of the days
// from..to summed by kind, dimension and key, one month at a time: each
// month's rows are read from the analytics_daily_months index (migration
// 118) in that order, so no month's rows are sorted, and the months' sums
// (a few dozen rows each) are added up by Counts. Days are YYYY-MM-DD;
// a span that is not, or longer than three years, is summed in one
// GROUP BY (the same totals, sorted).
func dailyCountsSQL(from, to string) (string, []any) {
	const month = `SELECT kind, dim, key, SUM(events) AS events, SUM(visitors) AS visitors FROM analytics_daily
		WHERE substr(day, 1, 7) = ? AND day >= ? AND day <= ? GROUP BY kind, dim, key`
	f, errF := time.Parse("2006-01-02", from)
	t, errT := time.Parse("2006-01-02", to)
	if errF != nil || errT != nil || t.Sub(f) > 3*366*24*time.Hour {
		return `SELECT kind, dim, key, SUM(events) AS events, SUM(visitors) AS visitors
			FROM analytics_daily WHERE day >= ? AND day <= ? GROUP BY kind, dim, key`, []any{from, to}
	}
	var (
		b    strings.Builder
		args []any
	)
	for m := time.Date(f.Year(), f.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(t); m = m.AddDate(0, 1, 0) {
		if len(args) > 0 {
			b.WriteString(" UNION ALL ")
		}
		b.WriteString(month)
		args = append(args, m.Format("2006-01"), from, to)
	}
	if len(args) == 0 {
		return month, []any{f.Format("2006-01"), from, to}
	}
	return b.String(), args
}

// rawCounts is countsSQL's rows of the days from..to, summed over the
// days, as Counts adds them up, without countsSQL's windows and sorts:
// the events are read from the analytics_events_visits index (migration
// 117) in the order of a visit, (day, visitor, at, id), and each
// visitor's events of a day are counted when the next visitor's begin.
// countsSQL stays what the roll-up stores and the reference
// TestRawCountsEqualTheRolledUpRows compares this with; the rules are
// countsSQL's:
//   - a visit is a visitor (not ”) with a page view that day; its source
//     is its first page view's (” is Direct), its area its first area
//     page view's, its events are its page views;
//   - every other event counts under its kind (total and path) and the
//     distinct visitor ids that had one, ” (a lead without one) being
//     one of them; so does a page view by path;
//   - a lead, call or form view counts under its visit's source and the
//     visits that had one, or under ” and no visit;
//   - a converted visit has a lead or a call;
//   - a lead counts under the area it names and the distinct visitor ids.
func (s *Store) rawCounts(ctx context.Context, q sqlx.QueryerContext, from, to string) ([]Count, error) {
	rows, err := q.QueryContext(ctx, s.q(`SELECT day, visitor, kind, path, source, area FROM analytics_events
		WHERE day >= ? AND day <= ? AND kind <> 'vital' AND (visitor <> '' OR kind = 'lead')
			AND day NOT IN (SELECT day FROM analytics_rollups)
		ORDER BY day, visitor, at, id`), from, to)
	if err != nil {
		return nil, fmt.Errorf("counts %s..%s: %w", from, to, err)
	}
	defer rows.Close()
	type acc struct {
		events, visitors int64
		// group is the last visitor's day that counted in visitors.
		group int
	}
	counts := map[countKey]*acc{}
	get := func(kind, dim, key string) *acc {
		k := countKey{kind, dim, key}
		a := counts[k]
		if a == nil {
			a = &acc{group: -1}
			counts[k] = a
		}
		return a
	}
	type event struct{ kind, path, source, area string }
	var (
		group    int
		day, vis string
		evs      []event
		prevDay  string
		prevVis  string
		started  bool
	)
	// visit counts one visitor's events of one day (evs, in time order).
	visit := func() {
		var views, leads int64
		source, area := "", ""
		first := true
		for _, e := range evs {
			switch e.kind {
			case EventPageview:
				if first {
					source, first = e.source, false
					if source == "" {
						source = "Direct"
					}
				}
				if area == "" {
					area = e.area
				}
				views++
			case EventLead, EventTelClick:
				leads++
			}
		}
		visited := views > 0 && prevVis != ""
		distinct := func(a *acc, events int64) {
			a.events += events
			if a.group != group {
				a.group = group
				a.visitors++
			}
		}
		if visited {
			for _, a := range []*acc{get(EventPageview, DimTotal, ""), get(EventPageview, DimSource, source)} {
				a.events += views
				a.visitors++
			}
			if leads > 0 {
				for _, a := range []*acc{get(KindConversion, DimTotal, ""), get(KindConversion, DimSource, source)} {
					a.events++
					a.visitors++
				}
			}
		}
		if area != "" {
			a := get(EventPageview, DimArea, area)
			a.events++
			a.visitors++
		}
		for _, e := range evs {
			if e.kind != EventPageview {
				distinct(get(e.kind, DimTotal, ""), 1)
			}
			distinct(get(e.kind, DimPath, e.path), 1)
			switch e.kind {
			case EventLead, EventTelClick, EventFormView:
				if visited {
					distinct(get(e.kind, DimSource, source), 1)
				} else {
					get(e.kind, DimSource, "").events++
				}
			}
			if e.kind == EventLead {
				distinct(get(EventLead, DimArea, e.area), 1)
			}
		}
	}
	for rows.Next() {
		var e event
		if err := rows.Scan(&day, &vis, &e.kind, &e.path, &e.source, &e.area); err != nil {
			return nil, fmt.Errorf("counts %s..%s: %w", from, to, err)
		}
		if !started || day != prevDay || vis != prevVis {
			if started {
				visit()
				group++
			}
			started, prevDay, prevVis, evs = true, day, vis, evs[:0]
		}
		evs = append(evs, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("counts %s..%s: %w", from, to, err)
	}
	if started {
		visit()
	}
	out := make([]Count, 0, len(counts))
	for k, a := range counts {
		out = append(out, Count{Kind: k.kind, Dim: k.dim, Key: k.key, Events: a.events, Visitors: a.visitors})
	}
	return out, nil
}

// VitalSample is one Core Web Vitals measurement.
type VitalSample struct {
	PageKind string  `db:"page_kind"`
	Metric   string  `db:"metric"`
	Value    float64 `db:"value"`
}

// VitalRanges are the plausible values of each Core Web Vital: LCP, FCP
// and TTFB up to a minute, INP up to 10 s (milliseconds), CLS up to 10
// (unitless). The collector drops any other value (ADR 029) and
// VitalSamples never returns one (samples stored before the rule).
var VitalRanges = map[string]float64{"LCP": 60_000, "FCP": 60_000, "TTFB": 60_000, "INP": 10_000, "CLS": 10}

// VitalsPerPage bounds the samples of one metric that one visitor's
// views of one page give in a day (web-vitals may report a metric again
// when a page is restored from the back/forward cache).
const VitalsPerPage = 3

// vitalPlausible is VitalRanges as SQL (constants, in a stable order).
var vitalPlausible = func() string {
	ms := make([]string, 0, len(VitalRanges))
	for m := range VitalRanges {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	var b strings.Builder
	b.WriteString("value >= 0 AND value <= CASE metric")
	for _, m := range ms {
		fmt.Fprintf(&b, " WHEN '%s' THEN %g", m, VitalRanges[m])
	}
	b.WriteString(" ELSE -1 END")
	return b.String()
}()

// VitalSamples returns the vitals recorded on days from..to (raw events
// are kept RawDays), for percentiles computed by the caller: plausible
// values only, and at most VitalsPerPage of a metric per visitor, page
// and day (the first ones), so that one client's repeats cannot weigh
// more than a visit's.
func (s *Store) VitalSamples(ctx context.Context, from, to string) ([]VitalSample, error) {
	var out []VitalSample
	if err := s.db.SelectContext(ctx, &out, s.q(vitalSamplesSQL), from, to, VitalsPerPage); err != nil {
		return nil, fmt.Errorf("vitals: %w", err)
	}
	return out, nil
}

// vitalSamplesSQL selects VitalSamples' measurements of the days between
// its first two parameters.
var vitalSamplesSQL = `SELECT page_kind, metric, value FROM (
		SELECT page_kind, metric, value, ROW_NUMBER() OVER (PARTITION BY day, visitor, metric, path ORDER BY at, id) AS n
		FROM analytics_events WHERE kind = 'vital' AND day >= ? AND day <= ? AND ` + vitalPlausible + `
	) v WHERE n <= ?`

// VitalSteps are the resolution Core Web Vitals are counted at: 100 ms
// for LCP, FCP and TTFB (the tenth of a second the figures are shown in),
// 10 ms for INP, 0.01 for CLS. Every threshold between good, needs
// improvement and poor (analytics) is a whole number of steps.
var VitalSteps = map[string]float64{"LCP": 100, "FCP": 100, "TTFB": 100, "INP": 10, "CLS": 0.01}

// VitalUnits is the step a measurement counts in: its value divided by
// the metric's step, rounded up, so a value is never counted better than
// it was (2,501 ms is 26 steps, 2.6 s: over the 2.5 s of a good LCP). A
// step under 1 multiplies by the steps per unit instead of dividing by
// the step, so that 0.1 is exactly 10 hundredths (0.1/0.01 is not 10
// in floating point).
func VitalUnits(metric string, v float64) int64 {
	step := VitalSteps[metric]
	if step == 0 {
		step = 1
	}
	if step < 1 {
		return int64(math.Ceil(v * math.Round(1/step)))
	}
	return int64(math.Ceil(v / step))
}

// VitalValue is the value at the end of a metric's units-th step.
func VitalValue(metric string, units int64) float64 {
	step := VitalSteps[metric]
	if step == 0 {
		step = 1
	}
	if step < 1 {
		// Divide by the steps per unit: 10/100 is exactly 0.1, 10*0.01 is not.
		return float64(units) / math.Round(1/step)
	}
	return float64(units) * step
}

// VitalCount is how many measurements of a metric on a page kind fell in
// one step (VitalUnits) over a span of days.
type VitalCount struct {
	PageKind string `db:"page_kind"`
	Metric   string `db:"metric"`
	Units    int64  `db:"units"`
	Samples  int64  `db:"samples"`
}

// BinVitals counts measurements by page kind, metric and step, sorted.
func BinVitals(samples []VitalSample) []VitalCount {
	type key struct {
		kind, metric string
		units        int64
	}
	counts := map[key]int64{}
	for _, v := range samples {
		counts[key{v.PageKind, v.Metric, VitalUnits(v.Metric, v.Value)}]++
	}
	out := make([]VitalCount, 0, len(counts))
	for k, n := range counts {
		out = append(out, VitalCount{PageKind: k.kind, Metric: k.metric, Units: k.units, Samples: n})
	}
	sortVitalCounts(out)
	return out
}

func sortVitalCounts(cs []VitalCount) {
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.PageKind != b.PageKind {
			return a.PageKind < b.PageKind
		}
		if a.Metric != b.Metric {
			return a.Metric < b.Metric
		}
		return a.Units < b.Units
	})
}

// rollUpVitals stores day's vitals (the measurements VitalSamples reads)
// as counts per step, in the roll-up's transaction.
func rollUpVitals(ctx context.Context, tx *sqlx.Tx, day string) error {
	var samples []VitalSample
	if err := tx.SelectContext(ctx, &samples, tx.Rebind(vitalSamplesSQL), day, day, VitalsPerPage); err != nil {
		return fmt.Errorf("vitals: %w", err)
	}
	counts := BinVitals(samples)
	for start := 0; start < len(counts); start += 100 {
		batch := counts[start:min(start+100, len(counts))]
		var b strings.Builder
		b.WriteString(`INSERT INTO analytics_vitals_daily (day, page_kind, metric, units, samples) VALUES `)
		args := make([]any, 0, len(batch)*5)
		for i, c := range batch {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("(?,?,?,?,?)")
			args = append(args, day, c.PageKind, c.Metric, c.Units, c.Samples)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(b.String()), args...); err != nil {
			return fmt.Errorf("vitals: %w", err)
		}
	}
	return nil
}

// VitalCounts returns the vitals of the days from..to (inclusive) counted
// by page kind, metric and step: from the daily roll-ups for the days
// rolled up, from the raw measurements (as VitalSamples reads them) for
// the days after, so that it equals BinVitals(VitalSamples(from, to))
// while reading a bounded number of rows: one per step, page kind,
// metric and day, and today's raw measurements.
func (s *Store) VitalCounts(ctx context.Context, from, to string) ([]VitalCount, error) {
	// One snapshot for the stored counts and today's raw measurements, as
	// Counts reads them: a roll-up committing between the two reads would
	// count its day twice (in the daily counts and still as raw).
	tx, err := s.snapshot(ctx)
	if err != nil {
		return nil, fmt.Errorf("vitals: %w", err)
	}
	defer tx.Rollback()
	rawFrom := from
	var last sql.NullString
	if err := tx.GetContext(ctx, &last, `SELECT MAX(day) FROM analytics_rollups`); err != nil {
		return nil, fmt.Errorf("vitals: %w", err)
	}
	if last.Valid && last.String >= rawFrom {
		if t, err := time.Parse("2006-01-02", last.String); err == nil {
			rawFrom = t.AddDate(0, 0, 1).Format("2006-01-02")
		}
	}
	var rolled []VitalCount
	if err := tx.SelectContext(ctx, &rolled, s.q(`SELECT page_kind, metric, units, SUM(samples) AS samples
		FROM analytics_vitals_daily WHERE day >= ? AND day <= ? GROUP BY page_kind, metric, units`), from, to); err != nil {
		return nil, fmt.Errorf("vitals: %w", err)
	}
	var raw []VitalCount
	if rawFrom <= to {
		var err error
		if raw, err = s.rawVitalCounts(ctx, tx, rawFrom, to); err != nil {
			return nil, err
		}
	}
	if len(raw) == 0 {
		sortVitalCounts(rolled)
		return rolled, nil
	}
	type key struct {
		kind, metric string
		units        int64
	}
	at := map[key]int{}
	for i, c := range rolled {
		at[key{c.PageKind, c.Metric, c.Units}] = i
	}
	for _, c := range raw {
		if i, ok := at[key{c.PageKind, c.Metric, c.Units}]; ok {
			rolled[i].Samples += c.Samples
		} else {
			rolled = append(rolled, c)
		}
	}
	sortVitalCounts(rolled)
	return rolled, nil
}

// rawVitalCounts is BinVitals(VitalSamples(from, to)) without the window
// over the table: the plausible measurements are read from the
// analytics_events_vitals index (migration 117) in the order
// VitalSamples ranks them in, (day, visitor, metric, path, at, id), and
// the first VitalsPerPage of each (day, visitor, metric, path) are
// counted as they stream by.
func (s *Store) rawVitalCounts(ctx context.Context, q sqlx.QueryerContext, from, to string) ([]VitalCount, error) {
	rows, err := q.QueryContext(ctx, s.q(`SELECT day, visitor, metric, path, page_kind, value FROM analytics_events
		WHERE kind = 'vital' AND day >= ? AND day <= ? AND `+vitalPlausible+`
		ORDER BY day, visitor, metric, path, at, id`), from, to)
	if err != nil {
		return nil, fmt.Errorf("vitals: %w", err)
	}
	defer rows.Close()
	type key struct {
		kind, metric string
		units        int64
	}
	counts := map[key]int64{}
	var day, visitor, metric, path, kind string
	var prev [4]string
	n := 0
	for rows.Next() {
		var value float64
		if err := rows.Scan(&day, &visitor, &metric, &path, &kind, &value); err != nil {
			return nil, fmt.Errorf("vitals: %w", err)
		}
		if cur := [4]string{day, visitor, metric, path}; cur != prev {
			prev, n = cur, 0
		}
		if n++; n > VitalsPerPage {
			continue
		}
		counts[key{kind, metric, VitalUnits(metric, value)}]++
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("vitals: %w", err)
	}
	out := make([]VitalCount, 0, len(counts))
	for k, c := range counts {
		out = append(out, VitalCount{PageKind: k.kind, Metric: k.metric, Units: k.units, Samples: c})
	}
	sortVitalCounts(out)
	return out, nil
}

// RollUpTable is a table of per-day roll-up rows: its name and its
// columns besides day.
type RollUpTable struct{ Name, Columns string }

// RollUpTables are the tables RollUp writes a finished day's rows to.
var RollUpTables = []RollUpTable{
	{"analytics_daily", "kind, dim, key, events, visitors"},
	{"analytics_vitals_daily", "page_kind, metric, units, samples"},
}
