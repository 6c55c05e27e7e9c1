package db

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// countsReference is Counts as it was before rawCounts (migration 117's
// query): countsSQL's rows of the raw days not rolled up and the rolled-up
// rows, added up in one GROUP BY, in Counts' order.
func countsReference(t *testing.T, s *Store, from, to string) []Count {
	t.Helper()
	q := countsSQL + ` SELECT kind, dim, key, SUM(events) AS events, SUM(visitors) AS visitors FROM (
		SELECT kind, dim, key, events, visitors FROM analytics_daily WHERE day >= ? AND day <= ?
		UNION ALL
		SELECT kind, dim, key, events, visitors FROM counts
	) t GROUP BY kind, dim, key`
	var out []Count
	if err := s.db.SelectContext(context.Background(), &out, s.q(q), from, to, from, to); err != nil {
		t.Fatal(err)
	}
	sortCounts(out)
	return out
}

func sortCounts(cs []Count) {
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
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
}

// TestRawCountsEqualTheRolledUpRows: the raw days' figures Counts now
// counts in Go as the events stream off the analytics_events_visits index
// (rawCounts) are exactly countsSQL's, the rows the roll-up stores; and
// Counts, adding them to the rolled-up days summed a month at a time
// (dailyCountsSQL, migration 118), answers exactly what the former single
// query answered, for every window of 1 to 366 days ending today, windows
// ending on earlier days, and spans over three years. The generated traffic
// has visitors with and without page views, leads without a visitor id,
// page views tied in time (broken by id) from different sources and
// areas, empty sources (Direct) and areas, not-found views and vitals
// (never counted here), over days a year apart: rolled up, and four raw
// days (today and three not rolled up yet).
func TestRawCountsEqualTheRolledUpRows(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
		day := func(ago int) string { return today.AddDate(0, 0, -ago).Format("2006-01-02") }
		rng := rand.New(rand.NewPCG(118, 35))
		kinds := []string{EventPageview, EventPageview, EventPageview, EventFormView, EventTelClick, EventLead, EventNotFound, EventVital}
		paths := []string{"/", "/contact", "/areas/fulton/atlanta", "/areas/cobb/marietta", "/services/water"}
		sources := []string{"", "Organic Search", "Social", "Referral", "Paid Search"}
		areas := []string{"", "", "fulton/atlanta", "cobb/marietta", AreaOther}
		var evs []Event
		n := 0
		for _, ago := range []int{400, 366, 365, 364, 200, 45, 29, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0} {
			base := today.AddDate(0, 0, -ago).Add(10 * time.Hour)
			for i := 0; i < 300; i++ {
				n++
				visitor := fmt.Sprintf("v%d", rng.IntN(40))
				kind := kinds[rng.IntN(len(kinds))]
				if kind == EventLead && rng.IntN(3) == 0 {
					visitor = "" // an opted-out request's lead
				}
				ev := Event{
					// Few distinct times and ids in no time order, so
					// that first page views are often decided by id.
					ID: fmt.Sprintf("%s-%06d", day(ago), rng.IntN(1_000_000)) + fmt.Sprint(n), At: base.Add(time.Duration(rng.IntN(4)) * time.Minute),
					Day: day(ago), Kind: kind, Path: paths[rng.IntN(len(paths))], Source: sources[rng.IntN(len(sources))],
					Visitor: visitor, Area: areas[rng.IntN(len(areas))],
				}
				if kind == EventVital {
					ev.Metric, ev.Value = "LCP", 1800
				}
				if kind == EventNotFound {
					ev.Path = ""
				}
				evs = append(evs, ev)
			}
		}
		if err := s.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		// Every day before three days ago is rolled up; nothing is pruned.
		if _, err := s.RollUp(ctx, day(3), day(1000), today); err != nil {
			t.Fatal(err)
		}
		// rawCounts alone equals countsSQL's rows summed over the raw days.
		for _, span := range [][2]string{{day(3), day(0)}, {day(0), day(0)}, {day(2), day(1)}, {day(10), day(3)}, {day(9), day(4)}} {
			var want []Count
			if err := s.db.SelectContext(ctx, &want, s.q(countsSQL+` SELECT kind, dim, key, SUM(events) AS events, SUM(visitors) AS visitors
				FROM counts GROUP BY kind, dim, key`), span[0], span[1]); err != nil {
				t.Fatal(err)
			}
			got, err := s.rawCounts(ctx, s.db, span[0], span[1])
			if err != nil {
				t.Fatal(err)
			}
			sortCounts(want)
			sortCounts(got)
			if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("%s..%s: the streamed counts differ from countsSQL's (-countsSQL, +streamed):\n%s", span[0], span[1], d)
			}
			if span[0] == day(3) && len(want) < 40 {
				t.Fatalf("%s..%s: only %d rows: the generated traffic does not reach every figure", span[0], span[1], len(want))
			}
		}
		checked := 0
		for _, end := range []int{0, 2, 5, 30} {
			for days := 1; days <= 366; days++ {
				if end != 0 && days%30 != 1 && days > 8 && days < 364 {
					continue
				}
				from, to := day(end+days-1), day(end)
				want := countsReference(t, s, from, to)
				got, err := s.Counts(ctx, from, to)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("%s..%s (%d days): Counts differs from the former query (-former, +now):\n%s", from, to, days, d)
				}
				checked++
			}
		}
		// Spans over three years are summed in one GROUP BY; an empty span
		// has no figures.
		for _, span := range [][2]string{{day(1500), day(0)}, {day(1500), day(380)}, {day(0), day(1)}} {
			want := countsReference(t, s, span[0], span[1])
			got, err := s.Counts(ctx, span[0], span[1])
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%s..%s: Counts differs from the former query (-former, +now):\n%s", span[0], span[1], d)
			}
		}
		// The figures of a year include the rolled-up and the raw days.
		year := countsReference(t, s, day(364), day(0))
		for _, c := range year {
			if c.Kind == EventPageview && c.Dim == DimTotal && c.Visitors < 13*30 {
				t.Fatalf("a year's visits are %d: the windows did not reach both rolled-up and raw days", c.Visitors)
			}
		}
		t.Logf("%d windows compared", checked)
	})
}
