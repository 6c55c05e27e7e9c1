package analytics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

func TestVitalStatusAndP75(t *testing.T) {
	for _, c := range []struct {
		metric string
		v      float64
		want   string
	}{{"LCP", 2500, "good"}, {"LCP", 2501, "needs-improvement"}, {"LCP", 4000, "needs-improvement"}, {"LCP", 4001, "poor"}, {"CLS", 0.1, "good"}, {"CLS", 0.26, "poor"}} {
		if got := VitalStatus(c.metric, c.v); got != c.want {
			t.Errorf("VitalStatus(%s, %v) = %s, want %s", c.metric, c.v, got, c.want)
		}
	}
	if got := P75([]float64{4, 1, 3, 2}); got != 3 {
		t.Errorf("P75 of 1..4 = %v, want 3 (nearest rank)", got)
	}
	if got := P75([]float64{7}); got != 7 {
		t.Errorf("P75 of one = %v", got)
	}
}

func TestVitalsAndPageSpeed(t *testing.T) {
	if _, _, ok := PageSpeed(nil); ok {
		t.Error("a score with no samples")
	}
	samples := []db.VitalSample{
		{PageKind: "home", Metric: "LCP", Value: 1000}, {PageKind: "home", Metric: "LCP", Value: 5000},
		{PageKind: "city", Metric: "LCP", Value: 1200}, {PageKind: "city", Metric: "LCP", Value: 1100}, {PageKind: "city", Metric: "CLS", Value: 0.3},
	}
	overall, byKind := Vitals(db.BinVitals(samples))
	want := []VitalRow{{Metric: "LCP", P75: 1200, Status: "good", Samples: 4}, {Metric: "CLS", P75: 0.3, Status: "poor", Samples: 1}}
	if d := cmp.Diff(want, overall); d != "" {
		t.Errorf("overall (-want, +got):\n%s", d)
	}
	if len(byKind) != 3 || byKind[0].PageKind != "city" || byKind[0].Metric != "LCP" || byKind[1].Metric != "CLS" || byKind[2].P75 != 5000 {
		t.Errorf("byKind: %+v", byKind)
	}
	score, n, ok := PageSpeed(db.BinVitals(samples))
	if !ok || n != 2 || score != 60 { // (100 + 20) / 2
		t.Errorf("PageSpeed = %d over %d, want 60 over 2", score, n)
	}
}

// TestVitalsFromCountsEqualTheMeasurements: the 75th percentile of
// counted measurements is the nearest-rank 75th percentile of the same
// measurements at the metric's step (rounded up), for random sets of
// every metric and size, and a status is the status of the raw value.
func TestVitalsFromCountsEqualTheMeasurements(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 71))
	for round := 0; round < 300; round++ {
		var samples []db.VitalSample
		n := 1 + rng.IntN(400)
		kinds := []string{"home", "city", "service"}
		for i := 0; i < n; i++ {
			m := Metrics[rng.IntN(len(Metrics))]
			v := rng.Float64() * 6000
			if m == "CLS" {
				v = rng.Float64() * 0.6
			}
			if rng.IntN(5) == 0 { // exactly on a threshold
				v = vitalThresholds[m][rng.IntN(2)]
			}
			samples = append(samples, db.VitalSample{PageKind: kinds[rng.IntN(len(kinds))], Metric: m, Value: v})
		}
		overall, byKind := Vitals(db.BinVitals(samples))
		want := func(kind, metric string) (float64, int) {
			var vs []float64
			for _, s := range samples {
				if s.Metric == metric && (kind == "" || s.PageKind == kind) {
					vs = append(vs, db.VitalValue(metric, db.VitalUnits(metric, s.Value)))
				}
			}
			if len(vs) == 0 {
				return 0, 0
			}
			return P75(vs), len(vs)
		}
		for _, r := range append(overall, byKind...) {
			p, n := want(r.PageKind, r.Metric)
			if r.P75 != p || r.Samples != n {
				t.Fatalf("round %d, %s %s: p75 %v over %d, measured %v over %d", round, r.PageKind, r.Metric, r.P75, r.Samples, p, n)
			}
		}
	}
	// A step never moves a value across a threshold.
	for m, th := range vitalThresholds {
		for _, v := range []float64{th[0], th[1], th[0] + 1e-6, th[1] + 1e-6, th[0] - 1e-6, math.Nextafter(th[0], 0), math.Nextafter(th[1], math.Inf(1))} {
			if got, want := VitalStatus(m, db.VitalValue(m, db.VitalUnits(m, v))), VitalStatus(m, v); got != want {
				t.Errorf("%s %v: %s at its step, %s measured", m, v, got, want)
			}
		}
	}
}
