package db

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Raw events are kept RawDays (ADR 029): the roll-up deletes every kind
// of raw event (page views, not-found views, calls, leads, vitals) of
// the days before today minus RawDays once their day is rolled up, keeps
// their aggregates (not-found views included), and never deletes the raw
// events of a day that is not rolled up.
func TestAnalyticsRetention(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		today := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		day := func(ago int) string { return today.AddDate(0, 0, -ago).Format("2006-01-02") }
		var evs []Event
		for _, ago := range []int{45, RawDays + 1, RawDays, 1, 0} {
			d := day(ago)
			at := today.AddDate(0, 0, -ago)
			for _, e := range []Event{
				{Kind: EventPageview, Path: "/", Source: "Direct", Visitor: "a"},
				{Kind: EventNotFound, Visitor: "a"},
				{Kind: EventNotFound, Visitor: "b"},
				{Kind: EventTelClick, Path: "/", Visitor: "a"},
				{Kind: EventLead, Path: "/estimate", Area: AreaOther},
				{Kind: EventVital, Path: "/", PageKind: "home", Metric: "LCP", Value: 1000, Visitor: "a"},
			} {
				e.ID, e.At, e.Day = fmt.Sprintf("%s-%s-%s", d, e.Kind, e.Visitor), at, d
				evs = append(evs, e)
			}
		}
		if err := s.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		rawDays := func() []string {
			var ds []string
			if err := s.db.SelectContext(ctx, &ds, `SELECT DISTINCT day FROM analytics_events`); err != nil {
				t.Fatal(err)
			}
			sort.Strings(ds)
			return ds
		}
		// A roll-up that reached only the days before 45 days ago prunes
		// nothing: the older days are not rolled up yet.
		if _, err := s.RollUp(ctx, day(45), day(RawDays), today); err != nil {
			t.Fatal(err)
		}
		if got := rawDays(); len(got) != 5 {
			t.Errorf("raw days of days not rolled up were deleted: %v", got)
		}
		if _, err := s.RollUp(ctx, day(0), day(RawDays), today); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{day(RawDays), day(1), day(0)}, rawDays()); diff != "" {
			t.Errorf("raw days kept (-want, +got):\n%s", diff)
		}
		var kinds []string
		s.db.SelectContext(ctx, &kinds, s.q(`SELECT DISTINCT kind FROM analytics_events WHERE day < ?`), day(RawDays))
		if len(kinds) != 0 {
			t.Errorf("raw events older than %d days left: %v", RawDays, kinds)
		}
		// The pruned days' figures are kept: not-found views included.
		for _, ago := range []int{45, RawDays + 1} {
			got, err := s.Counts(ctx, day(ago), day(ago))
			if err != nil {
				t.Fatal(err)
			}
			m := countsMap(got)
			if m["pageview/total/"] != "1 1" || m["not_found/total/"] != "2 2" || m["lead/total/"] != "1 1" || m["tel_click/total/"] != "1 1" {
				t.Errorf("%s rolled up: %v", day(ago), m)
			}
			if _, ok := m["pageview/path/"]; ok {
				t.Errorf("a not-found view counted as a page: %v", m)
			}
		}
		// The vitals of the pruned days are gone with them.
		vs, err := s.VitalSamples(ctx, day(60), day(0))
		if err != nil || len(vs) != 3 {
			t.Errorf("vitals after pruning: %d %v", len(vs), err)
		}
	})
}

// VitalSamples returns plausible values only (samples stored before the
// intake checked them are left out) and at most VitalsPerPage of a
// metric per visitor, page and day.
func TestVitalSamplesPlausibleAndBounded(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		var evs []Event
		add := func(visitor, path, metric string, v float64, n int) {
			for i := 0; i < n; i++ {
				evs = append(evs, Event{ID: fmt.Sprintf("%d", len(evs)), At: at.Add(time.Duration(len(evs)) * time.Second), Day: "2026-11-20",
					Kind: EventVital, Path: path, PageKind: "home", Metric: metric, Value: v, Visitor: visitor})
			}
		}
		add("real", "/", "LCP", 1200, 1)
		add("real", "/", "CLS", 0.02, 1)
		add("attacker", "/", "LCP", 119000, 400) // implausible
		add("attacker", "/", "LCP", 59000, 50)   // plausible, repeated
		add("attacker", "/", "CLS", 50, 5)       // implausible
		add("attacker", "/", "INP", -3, 5)       // implausible
		add("attacker", "/", "FID", 10, 5)       // not a metric collected
		add("other", "/", "LCP", 2000, 5)
		add("other", "/services", "LCP", 2100, 1)
		if err := s.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		vs, err := s.VitalSamples(ctx, "2026-11-20", "2026-11-20")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, v := range vs {
			got[fmt.Sprintf("%s %g", v.Metric, v.Value)]++
		}
		want := map[string]int{"LCP 1200": 1, "CLS 0.02": 1, "LCP 59000": VitalsPerPage, "LCP 2000": VitalsPerPage, "LCP 2100": 1}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("samples (-want, +got):\n%s", diff)
		}
	})
}
