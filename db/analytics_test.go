package db

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestAnalyticsTalliesAndRollUp(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		at := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
		var evs []Event
		add := func(day, kind, path, source, visitor string) {
			evs = append(evs, Event{At: at, Day: day, Kind: kind, Path: path, Source: source, Visitor: visitor})
		}
		// Day 1: visitor a views / and /services (Organic), b views / (Direct), b calls from /.
		add("2026-11-20", EventPageview, "/", "Organic Search", "a")
		add("2026-11-20", EventPageview, "/services", "Organic Search", "a")
		add("2026-11-20", EventPageview, "/", "Direct", "b")
		add("2026-11-20", EventTelClick, "/", "Direct", "b")
		// Day 2: a again (a new id: the salt rotated) on /.
		add("2026-11-21", EventPageview, "/", "Organic Search", "a2")
		evs = append(evs, Event{At: at, Day: "2026-11-21", Kind: EventVital, Path: "/", PageKind: "home", Metric: "LCP", Value: 1800})
		if err := s.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		check := func(label string) {
			t.Helper()
			want := map[string]string{
				"pageview/total":  "[{ 4 3}]",
				"pageview/source": "[{Organic Search 3 2} {Direct 1 1}]",
				"pageview/path":   "[{/ 3 3} {/services 1 1}]",
				"tel_click/total": "[{ 1 1}]",
			}
			for k, w := range want {
				kind, dim, _ := strings.Cut(k, "/")
				got, err := s.Tallies(ctx, kind, dim, "2026-11-20", "2026-11-21")
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(got) != w {
					t.Errorf("%s %s: %v, want %s", label, k, got, w)
				}
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
		if src, _ := s.VisitorSource(ctx, "b", "2026-11-20"); src != "Direct" {
			t.Errorf("visitor source %q", src)
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
		if got, _ := s.Tallies(ctx, EventPageview, "total", "2026-11-20", "2026-11-22"); fmt.Sprint(got) != "[{ 5 4}]" {
			t.Errorf("aggregates plus today's raw events: %v, want [{ 5 4}]", got)
		}
		vs, err := s.VitalSamples(ctx, "2026-11-21", "2026-11-21")
		if err != nil || len(vs) != 1 || vs[0].Value != 1800 || vs[0].PageKind != "home" {
			t.Errorf("vitals %v %v", vs, err)
		}
	})
}

// BenchmarkTalliesMillion: the Analytics screen's queries over a million
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
		for _, dim := range []string{"total", "source", "path"} {
			if _, err := s.Tallies(ctx, EventPageview, dim, "2026-11-01", "2026-11-28"); err != nil {
				b.Fatal(err)
			}
		}
	}
}
