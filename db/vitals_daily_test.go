package db

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestVitalCountsEqualTheRawMeasurements: over generated vitals of ten
// days, some rolled up (and their raw events kept, as for 30 days on the
// live site, or pruned), VitalCounts answers exactly what counting the
// raw measurements of the same days gives (BinVitals(VitalSamples)): the
// per-visitor cap and the plausible ranges included, whichever way each
// day is held, for every span of days.
func TestVitalCountsEqualTheRawMeasurements(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		today := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
		day := func(ago int) string { return today.AddDate(0, 0, -ago).Format("2006-01-02") }
		rng := rand.New(rand.NewPCG(111, 71))
		metrics := []string{"LCP", "FCP", "TTFB", "INP", "CLS"}
		var evs []Event
		for ago := 9; ago >= 0; ago-- {
			for i := 0; i < 300; i++ {
				m := metrics[rng.IntN(len(metrics))]
				v := rng.ExpFloat64() * 2000
				if m == "CLS" {
					v = rng.ExpFloat64() * 0.08
				}
				if rng.IntN(50) == 0 {
					v = -1 // not plausible: never counted
				}
				visitor := fmt.Sprintf("v%d", rng.IntN(40)) // repeats: the cap of 3 applies
				evs = append(evs, Event{ID: fmt.Sprintf("%s-%04d", day(ago), i), At: today.AddDate(0, 0, -ago).Add(time.Duration(i) * time.Second),
					Day: day(ago), Kind: EventVital, Path: []string{"/", "/areas/fulton/atlanta"}[i%2], PageKind: []string{"home", "city"}[i%2],
					Metric: m, Value: v, Visitor: visitor})
			}
		}
		if err := s.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		check := func(stage string) {
			t.Helper()
			for _, span := range [][2]int{{9, 0}, {5, 0}, {9, 6}, {3, 3}, {0, 0}} {
				from, to := day(span[0]), day(span[1])
				got, err := s.VitalCounts(ctx, from, to)
				if err != nil {
					t.Fatal(err)
				}
				raw, err := s.VitalSamples(ctx, from, to)
				if err != nil {
					t.Fatal(err)
				}
				want := BinVitals(raw)
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("%s, %s..%s: counts differ from the raw measurements (-raw, +counts):\n%s", stage, from, to, d)
				}
				if len(want) == 0 {
					t.Fatalf("%s, %s..%s: nothing counted", stage, from, to)
				}
			}
		}
		check("nothing rolled up")
		// The roll-up of the days up to 4 days ago, their raw events kept.
		if _, err := s.RollUp(ctx, day(4), day(30), today); err != nil {
			t.Fatal(err)
		}
		var rolled int
		if err := s.db.GetContext(ctx, &rolled, `SELECT COUNT(*) FROM analytics_vitals_daily`); err != nil || rolled == 0 {
			t.Fatalf("no vitals rolled up: %d %v", rolled, err)
		}
		check("six days rolled up")
		if _, err := s.RollUp(ctx, day(0), day(30), today); err != nil {
			t.Fatal(err)
		}
		check("every finished day rolled up")

		// With the raw events of the rolled-up days gone, the counts stay:
		// they are the roll-up's.
		before, err := s.VitalCounts(ctx, day(9), day(0))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.PruneRawEvents(ctx, day(0)); err != nil {
			t.Fatal(err)
		}
		after, err := s.VitalCounts(ctx, day(9), day(0))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(before, after); d != "" {
			t.Errorf("counts changed when the raw events of rolled-up days were pruned (-before, +after):\n%s", d)
		}
		// The retention of daily totals takes the vitals' too.
		if _, err := s.PruneAnalyticsDaily(ctx, day(5)); err != nil {
			t.Fatal(err)
		}
		var old int
		if err := s.db.GetContext(ctx, &old, s.q(`SELECT COUNT(*) FROM analytics_vitals_daily WHERE day < ?`), day(5)); err != nil || old != 0 {
			t.Errorf("vitals totals before the retention: %d %v", old, err)
		}
	})
}

// A vital counts in the step that ends at or above it.
func TestVitalUnits(t *testing.T) {
	for _, c := range []struct {
		metric string
		v      float64
		units  int64
		value  float64
	}{
		{"LCP", 2500, 25, 2500}, {"LCP", 2500.01, 26, 2600}, {"LCP", 0, 0, 0}, {"INP", 201, 21, 210}, {"INP", 200, 20, 200},
		{"CLS", 0.1, 10, 0.1}, {"CLS", 0.10001, 11, 0.11}, {"CLS", 0.25, 25, 0.25}, {"TTFB", 799.9, 8, 800},
	} {
		u := VitalUnits(c.metric, c.v)
		if u != c.units || VitalValue(c.metric, u) != c.value {
			t.Errorf("%s %v: step %d (%v), want %d (%v)", c.metric, c.v, u, VitalValue(c.metric, u), c.units, c.value)
		}
	}
}

// TestRawVitalCountsEqualTheWindowedSamples: today's measurements, which
// VitalCounts counts from the analytics_events_vitals index as they
// stream by (rawVitalCounts), count exactly as BinVitals of VitalSamples'
// window over the table: the first three of each visitor, page and
// metric by time, ties in time broken by id, implausible values never
// counted nor ranked, over three days with several visitors, pages, page
// kinds and metrics.
func TestRawVitalCountsEqualTheWindowedSamples(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
		rng := rand.New(rand.NewPCG(117, 35))
		metrics := []string{"LCP", "FCP", "TTFB", "INP", "CLS"}
		pages := []struct{ path, kind string }{{"/", "home"}, {"/areas/fulton/atlanta", "city"}, {"/contact", "contact"}}
		var evs []Event
		for d := 0; d < 3; d++ {
			day := base.AddDate(0, 0, d)
			for i := 0; i < 2000; i++ {
				m, p := metrics[rng.IntN(len(metrics))], pages[rng.IntN(len(pages))]
				v := rng.ExpFloat64() * 2500
				if m == "CLS" {
					v = rng.ExpFloat64() * 0.1
				}
				if rng.IntN(30) == 0 {
					v = 1e9 // implausible: neither counted nor ranked
				}
				// Few distinct times, so that many ties are broken by id.
				at := day.Add(time.Duration(rng.IntN(5)) * time.Second)
				evs = append(evs, Event{ID: fmt.Sprintf("%d-%05d", d, rng.IntN(100000)) + fmt.Sprint(i), At: at, Day: day.Format("2006-01-02"), Kind: EventVital,
					Path: p.path, PageKind: p.kind, Metric: m, Value: v, Visitor: fmt.Sprintf("v%d", rng.IntN(60))})
			}
		}
		if err := s.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		for _, span := range [][2]string{{"2026-11-27", "2026-11-29"}, {"2026-11-28", "2026-11-28"}, {"2026-11-29", "2026-11-30"}} {
			got, err := s.rawVitalCounts(ctx, s.DB(), span[0], span[1])
			if err != nil {
				t.Fatal(err)
			}
			raw, err := s.VitalSamples(ctx, span[0], span[1])
			if err != nil {
				t.Fatal(err)
			}
			want := BinVitals(raw)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%s..%s: the streamed counts differ from the window's (-window, +streamed):\n%s", span[0], span[1], d)
			}
			if len(raw) == 0 || len(raw) == 2000*3 {
				t.Fatalf("%s..%s: %d samples: the cap was not tested", span[0], span[1], len(raw))
			}
		}
	})
}

// TestVitalCountsDuringRollUp: while the roll-up moves day after day from
// the raw measurements (kept, as for 30 days on the live site) into the
// daily counts, every answer of VitalCounts counts each day once: the
// stored counts and the raw ones are read in one snapshot.
func TestVitalCountsDuringRollUp(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		today := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
		day := func(ago int) string { return today.AddDate(0, 0, -ago).Format("2006-01-02") }
		rng := rand.New(rand.NewPCG(112, 72))
		var evs []Event
		for ago := 9; ago >= 0; ago-- {
			for i := 0; i < 200; i++ {
				evs = append(evs, Event{ID: fmt.Sprintf("%s-%04d", day(ago), i), At: today.AddDate(0, 0, -ago).Add(time.Duration(i) * time.Second),
					Day: day(ago), Kind: EventVital, Path: "/", PageKind: "home", Metric: "LCP", Value: rng.ExpFloat64() * 2000,
					Visitor: fmt.Sprintf("v%d", i)})
			}
		}
		if err := s.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		total := func(cs []VitalCount) (n int64) {
			for _, c := range cs {
				n += c.Samples
			}
			return n
		}
		want, err := s.VitalCounts(ctx, day(9), day(0))
		if err != nil || total(want) != 2000 {
			t.Fatalf("before the roll-up: %d measurements counted, %v, want 2000", total(want), err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			for d := 9; d >= 1; d-- {
				if _, err := s.RollUp(ctx, day(d), day(30), today); err != nil {
					t.Error(err)
				}
			}
		}()
		var wg sync.WaitGroup
		var reads, wrong atomic.Int64
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-done:
						return
					default:
					}
					got, err := s.VitalCounts(ctx, day(9), day(0))
					if err != nil {
						t.Error(err)
						return
					}
					reads.Add(1)
					if d := cmp.Diff(want, got); d != "" && wrong.Add(1) == 1 {
						t.Errorf("an answer during the roll-up counted %d measurements, want 2000 (-before, +during):\n%s", total(got), d)
					}
				}
			}()
		}
		wg.Wait()
		t.Logf("%d answers during the roll-up, %d wrong", reads.Load(), wrong.Load())
	})
}
