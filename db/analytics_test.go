package db

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// countsMap renders counts as "kind/dim/key" -> "events visitors".
func countsMap(cs []Count) map[string]string {
	m := map[string]string{}
	for _, c := range cs {
		m[c.Kind+"/"+c.Dim+"/"+c.Key] = fmt.Sprintf("%d %d", c.Events, c.Visitors)
	}
	return m
}

func TestAnalyticsCountsAndRollUp(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		at := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
		var evs []Event
		n := 0
		add := func(day, kind, path, source, visitor, area string) {
			n++
			evs = append(evs, Event{At: at.Add(time.Duration(n) * time.Millisecond), Day: day, Kind: kind, Path: path, Source: source, Visitor: visitor, Area: area})
		}
		// Day 1: a comes from Google, clicks through to an area page, later
		// comes back from Facebook (still one visit, Organic), calls twice
		// and sends an estimate for Smyrna. b comes direct. c has
		// JavaScript off: an estimate and no page view. An opted-out
		// request's estimate has no visitor at all.
		add("2026-11-20", EventPageview, "/", "Organic Search", "a", "")
		add("2026-11-20", EventPageview, "/areas/cobb/smyrna", "Direct", "a", "cobb/smyrna")
		add("2026-11-20", EventPageview, "/", "Social", "a", "")
		add("2026-11-20", EventTelClick, "/", "", "a", "")
		add("2026-11-20", EventTelClick, "/", "", "a", "")
		add("2026-11-20", EventLead, "/estimate", "", "a", "cobb/smyrna")
		add("2026-11-20", EventPageview, "/", "Direct", "b", "")
		add("2026-11-20", EventLead, "/estimate", "", "c", AreaOther)
		add("2026-11-20", EventLead, "/estimate", "", "", "cobb/smyrna")
		// Day 2: a again (a new id: the salt rotated), from Google.
		add("2026-11-21", EventPageview, "/", "Organic Search", "a2", "")
		evs = append(evs, Event{At: at, Day: "2026-11-21", Kind: EventVital, Path: "/", PageKind: "home", Metric: "LCP", Value: 1800})
		if err := s.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{
			"pageview/total/":                  "5 3",
			"pageview/source/Organic Search":   "4 2",
			"pageview/source/Direct":           "1 1",
			"pageview/path//":                  "4 3",
			"pageview/path//areas/cobb/smyrna": "1 1",
			"pageview/area/cobb/smyrna":        "1 1",
			"tel_click/total/":                 "2 1",
			"tel_click/path//":                 "2 1",
			"tel_click/source/Organic Search":  "2 1",
			"lead/total/":                      "3 3",
			"lead/path//estimate":              "3 3",
			"lead/source/Organic Search":       "1 1",
			"lead/source/":                     "2 0",
			"lead/area/cobb/smyrna":            "2 2",
			"lead/area/other":                  "1 1",
			"conversion/total/":                "1 1",
			"conversion/source/Organic Search": "1 1",
		}
		check := func(label string) {
			t.Helper()
			got, err := s.Counts(ctx, "2026-11-20", "2026-11-21")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, countsMap(got)); diff != "" {
				t.Errorf("%s (-want, +got):\n%s", label, diff)
			}
		}
		check("raw")
		// Salts: one per day, created once.
		s1, err := s.DailySalt(ctx, "2026-11-21")
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := s.DailySalt(ctx, "2026-11-21"); again != s1 {
			t.Error("a day's salt changed")
		}
		if other, _ := s.DailySalt(ctx, "2026-11-22"); other == s1 {
			t.Error("two days share a salt")
		}
		// Roll up with "today" = 11-22: both days aggregate; raw kept from 11-21.
		days, err := s.RollUp(ctx, "2026-11-22", "2026-11-21", at)
		if err != nil || fmt.Sprint(days) != "[2026-11-20 2026-11-21]" {
			t.Fatalf("rollup: %v %v", days, err)
		}
		check("rolled up")
		var raw int
		s.db.Get(&raw, `SELECT COUNT(*) FROM analytics_events`)
		if raw != 2 {
			t.Errorf("%d raw events left, want the 2 of 11-21", raw)
		}
		var salts []string
		s.db.Select(&salts, `SELECT day FROM analytics_salts ORDER BY day`)
		if fmt.Sprint(salts) != "[2026-11-22]" {
			t.Errorf("salts left: %v (finished days' salts must be deleted)", salts)
		}
		if again, _ := s.RollUp(ctx, "2026-11-22", "2026-11-21", at); len(again) != 0 {
			t.Errorf("rolled up twice: %v", again)
		}
		check("after a second roll-up")
		// Today (not rolled up) is read from the raw events, beside the
		// aggregates of the finished days.
		if err := s.AddEvents(ctx, []Event{{At: at, Day: "2026-11-22", Kind: EventPageview, Path: "/", Source: "Direct", Visitor: "c"}}); err != nil {
			t.Fatal(err)
		}
		got, _ := s.Counts(ctx, "2026-11-20", "2026-11-22")
		if m := countsMap(got); m["pageview/total/"] != "6 4" || m["pageview/source/Direct"] != "2 2" {
			t.Errorf("aggregates plus today's raw events: %v", m)
		}
		vs, err := s.VitalSamples(ctx, "2026-11-21", "2026-11-21")
		if err != nil || len(vs) != 1 || vs[0].Value != 1800 || vs[0].PageKind != "home" {
			t.Errorf("vitals %v %v", vs, err)
		}
	})
}

// Two page views of one visitor at the same instant: the visit still
// counts once, under one source (the first id).
func TestAnalyticsFirstPageViewTie(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		at := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
		err := s.AddEvents(ctx, []Event{
			{ID: "2", At: at, Day: "2026-11-20", Kind: EventPageview, Path: "/", Source: "Social", Visitor: "a"},
			{ID: "1", At: at, Day: "2026-11-20", Kind: EventPageview, Path: "/", Source: "Email", Visitor: "a"},
		})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := s.Counts(ctx, "2026-11-20", "2026-11-20")
		if m := countsMap(got); m["pageview/source/Email"] != "2 1" || m["pageview/source/Social"] != "" {
			t.Errorf("tie: %v", m)
		}
	})
}

// Migration 015 on a database that has days rolled up the old way: days
// whose raw events are kept are rolled up again with the new figures;
// older days keep their totals, their sources where they added up, and
// count their leads and calls apart.
func TestAnalyticsMigration015(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := s.db.ExecContext(ctx, s.q(q), args...); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		// Back to the schema before 015 (the index of migration 117 holds
		// the column; SQLite drops no column an index holds).
		exec(`DROP INDEX analytics_events_visits`)
		exec(`ALTER TABLE analytics_events DROP COLUMN area`)
		exec(`DELETE FROM schema_migrations WHERE version = 15`)
		at := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
		old := func(day, kind, dim, key string, events, visitors int) {
			exec(`INSERT INTO analytics_daily (day, kind, dim, key, events, visitors) VALUES (?, ?, ?, ?, ?, ?)`, day, kind, dim, key, events, visitors)
		}
		// 10-01: sources add up (exact). 10-02: a visitor under two sources.
		old("2026-10-01", "pageview", "total", "", 9, 5)
		old("2026-10-01", "pageview", "source", "Organic Search", 6, 3)
		old("2026-10-01", "pageview", "source", "Direct", 3, 2)
		old("2026-10-01", "lead", "total", "", 2, 2)
		old("2026-10-01", "lead", "source", "Direct", 2, 2)
		old("2026-10-02", "pageview", "total", "", 4, 2)
		old("2026-10-02", "pageview", "source", "Organic Search", 2, 1)
		old("2026-10-02", "pageview", "source", "Social", 1, 1)
		old("2026-10-02", "pageview", "source", "Direct", 1, 1)
		old("2026-10-02", "tel_click", "total", "", 3, 1)
		old("2026-10-02", "tel_click", "source", "Organic Search", 3, 1)
		// 10-20: rolled up, raw events still kept.
		old("2026-10-20", "pageview", "total", "", 2, 1)
		old("2026-10-20", "pageview", "source", "Organic Search", 1, 1)
		old("2026-10-20", "pageview", "source", "Social", 1, 1)
		for _, d := range []string{"2026-10-01", "2026-10-02", "2026-10-20"} {
			exec(`INSERT INTO analytics_rollups (day, rolled_at) VALUES (?, ?)`, d, at)
		}
		for i, e := range []struct{ path, source string }{{"/", "Organic Search"}, {"/areas/cobb/smyrna/", "Social"}} {
			exec(`INSERT INTO analytics_events (id, at, day, kind, path, source, visitor) VALUES (?, ?, ?, 'pageview', ?, ?, 'a')`,
				fmt.Sprint("e", i), at.Add(time.Duration(i)*time.Minute), "2026-10-20", e.path, e.source)
		}
		if err := s.migrate(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := s.Counts(ctx, "2026-10-01", "2026-10-02")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{
			"pageview/total/":                "13 7",
			"pageview/source/Organic Search": "6 3",
			"pageview/source/Direct":         "3 2",
			"pageview/source/Not recorded":   "4 2",
			"lead/total/":                    "2 2",
			"lead/source/":                   "2 2",
			"lead/area/":                     "2 2",
			"tel_click/total/":               "3 1",
			"tel_click/source/":              "3 1",
		}
		if diff := cmp.Diff(want, countsMap(got)); diff != "" {
			t.Errorf("old days (-want, +got):\n%s", diff)
		}
		got, _ = s.Counts(ctx, "2026-10-20", "2026-10-20")
		want = map[string]string{
			"pageview/total/":                   "2 1",
			"pageview/source/Organic Search":    "2 1",
			"pageview/path//":                   "1 1",
			"pageview/path//areas/cobb/smyrna/": "1 1",
			"pageview/area/cobb/smyrna":         "1 1",
		}
		if diff := cmp.Diff(want, countsMap(got)); diff != "" {
			t.Errorf("a day with raw events, read raw (-want, +got):\n%s", diff)
		}
		if days, err := s.RollUp(ctx, "2026-10-21", "2026-09-21", at); err != nil || fmt.Sprint(days) != "[2026-10-20]" {
			t.Fatalf("roll-up after the migration: %v %v", days, err)
		}
		got, _ = s.Counts(ctx, "2026-10-20", "2026-10-20")
		if diff := cmp.Diff(want, countsMap(got)); diff != "" {
			t.Errorf("a day with raw events, rolled up again (-want, +got):\n%s", diff)
		}
	})
}

// BenchmarkTalliesMillion: the Analytics screen's reads over a million
// raw events (report only; run with -bench).
func BenchmarkTalliesMillion(b *testing.B) {
	s := NewTestSQLite(b)
	ctx := context.Background()
	at := time.Now().UTC()
	const n = 1_000_000
	batch := make([]Event, 0, 5000)
	for i := 0; i < n; i++ {
		batch = append(batch, Event{At: at, Day: fmt.Sprintf("2026-11-%02d", 1+i%28), Kind: EventPageview, Path: fmt.Sprintf("/p%d", i%120),
			Source: []string{"Organic Search", "Direct", "Social", "Referral", "Email"}[i%5], Visitor: fmt.Sprintf("v%d", i%20000)})
		if len(batch) == cap(batch) {
			if err := s.AddEvents(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if _, err := s.RollUp(ctx, "2026-11-28", "2026-10-29", at); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// The screen's two reads: the period and the one before.
		for _, r := range [][2]string{{"2026-11-01", "2026-11-28"}, {"2026-10-04", "2026-10-31"}} {
			if _, err := s.Counts(ctx, r[0], r[1]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
