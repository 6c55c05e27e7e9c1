package analytics

import (
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
	overall, byKind := Vitals(samples)
	want := []VitalRow{{Metric: "LCP", P75: 1200, Status: "good", Samples: 4}, {Metric: "CLS", P75: 0.3, Status: "poor", Samples: 1}}
	if d := cmp.Diff(want, overall); d != "" {
		t.Errorf("overall (-want, +got):\n%s", d)
	}
	if len(byKind) != 3 || byKind[0].PageKind != "city" || byKind[0].Metric != "LCP" || byKind[1].Metric != "CLS" || byKind[2].P75 != 5000 {
		t.Errorf("byKind: %+v", byKind)
	}
	score, n, ok := PageSpeed(samples)
	if !ok || n != 2 || score != 60 { // (100 + 20) / 2
		t.Errorf("PageSpeed = %d over %d, want 60 over 2", score, n)
	}
}
