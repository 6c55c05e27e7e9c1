package analytics

import (
	"math"
	"slices"
	"sort"

	"github.com/atlanta-restoration/site/db"
)

// VitalDays is the span real visitors' Core Web Vitals are read over:
// the 28 days Google's field data covers.
const VitalDays = 28

// vitalThresholds are Google's: good at or below the first, poor above
// the second.
var vitalThresholds = map[string][2]float64{"LCP": {2500, 4000}, "INP": {200, 500}, "CLS": {0.1, 0.25}, "FCP": {1800, 3000}, "TTFB": {800, 1800}}

// VitalStatus is good, needs-improvement or poor for a metric's value.
func VitalStatus(metric string, v float64) string {
	t := vitalThresholds[metric]
	switch {
	case v <= t[0]:
		return "good"
	case v > t[1]:
		return "poor"
	}
	return "needs-improvement"
}

// P75 is the nearest-rank 75th percentile. It sorts vs.
func P75(vs []float64) float64 {
	sort.Float64s(vs)
	i := int(math.Ceil(0.75*float64(len(vs)))) - 1
	return vs[max(i, 0)]
}

// VitalRow is the 75th percentile of one metric, site-wide (PageKind "")
// or on one page kind.
type VitalRow struct {
	PageKind string  `json:"pageKind"`
	Metric   string  `json:"metric"`
	P75      float64 `json:"p75"`
	Status   string  `json:"status" tstype:"'good' | 'needs-improvement' | 'poor'"`
	Samples  int     `json:"samples"`
}

// Vitals are the 75th percentile of each metric site-wide and per page
// kind, in Metrics order (page kinds alphabetical).
func Vitals(samples []db.VitalSample) (overall, byKind []VitalRow) {
	site := map[string][]float64{}
	kinds := map[[2]string][]float64{}
	for _, v := range samples {
		site[v.Metric] = append(site[v.Metric], v.Value)
		kinds[[2]string{v.PageKind, v.Metric}] = append(kinds[[2]string{v.PageKind, v.Metric}], v.Value)
	}
	for _, m := range Metrics {
		if vs := site[m]; len(vs) > 0 {
			p := P75(vs)
			overall = append(overall, VitalRow{Metric: m, P75: p, Status: VitalStatus(m, p), Samples: len(vs)})
		}
	}
	for k, vs := range kinds {
		p := P75(vs)
		byKind = append(byKind, VitalRow{PageKind: k[0], Metric: k[1], P75: p, Status: VitalStatus(k[1], p), Samples: len(vs)})
	}
	order := func(m string) int {
		if i := slices.Index(Metrics, m); i >= 0 {
			return i
		}
		return len(Metrics)
	}
	sort.Slice(byKind, func(i, j int) bool {
		if byKind[i].PageKind != byKind[j].PageKind {
			return byKind[i].PageKind < byKind[j].PageKind
		}
		return order(byKind[i].Metric) < order(byKind[j].Metric)
	})
	return overall, byKind
}

// PageSpeed is spec 5's performance score of the site-wide 75th
// percentile of each Core Web Vital: 100 good, 60 needs improvement, 20
// poor, averaged over the metrics measured. ok is false with no samples.
func PageSpeed(samples []db.VitalSample) (score, metrics int, ok bool) {
	overall, _ := Vitals(samples)
	if len(overall) == 0 {
		return 0, 0, false
	}
	points := map[string]int{"good": 100, "needs-improvement": 60, "poor": 20}
	total := 0
	for _, r := range overall {
		total += points[r.Status]
	}
	return int(math.Round(float64(total) / float64(len(overall)))), len(overall), true
}
