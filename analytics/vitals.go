package analytics

import (
	"cmp"
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

// P75Of is the nearest-rank 75th percentile of counted measurements
// (sorted by Units, one metric): the step at rank ceil(0.75·n), the same
// value P75 gives for the measurements at that resolution.
func P75Of(counts []db.VitalCount) (units int64, samples int64) {
	for _, c := range counts {
		samples += c.Samples
	}
	rank := int64(math.Ceil(0.75 * float64(samples)))
	var seen int64
	for _, c := range counts {
		seen += c.Samples
		if seen >= max(rank, 1) {
			return c.Units, samples
		}
	}
	return 0, samples
}

// Vitals are the 75th percentile of each metric site-wide and per page
// kind, in Metrics order (page kinds alphabetical), of counted
// measurements (db.VitalCounts; db.BinVitals of raw ones).
func Vitals(counts []db.VitalCount) (overall, byKind []VitalRow) {
	site := map[string]map[int64]int64{}
	kinds := map[[2]string][]db.VitalCount{}
	for _, c := range counts {
		if c.Samples <= 0 {
			continue
		}
		if site[c.Metric] == nil {
			site[c.Metric] = map[int64]int64{}
		}
		site[c.Metric][c.Units] += c.Samples
		k := [2]string{c.PageKind, c.Metric}
		kinds[k] = append(kinds[k], c)
	}
	row := func(kind, metric string, cs []db.VitalCount) VitalRow {
		slices.SortFunc(cs, func(a, b db.VitalCount) int { return cmp.Compare(a.Units, b.Units) })
		u, n := P75Of(cs)
		p := db.VitalValue(metric, u)
		return VitalRow{PageKind: kind, Metric: metric, P75: p, Status: VitalStatus(metric, p), Samples: int(n)}
	}
	for _, m := range Metrics {
		if bins := site[m]; len(bins) > 0 {
			cs := make([]db.VitalCount, 0, len(bins))
			for u, n := range bins {
				cs = append(cs, db.VitalCount{Metric: m, Units: u, Samples: n})
			}
			overall = append(overall, row("", m, cs))
		}
	}
	for k, cs := range kinds {
		byKind = append(byKind, row(k[0], k[1], cs))
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

// Measurements is how many measurements counts holds.
func Measurements(counts []db.VitalCount) int {
	n := int64(0)
	for _, c := range counts {
		n += c.Samples
	}
	return int(n)
}

// PageSpeed is spec 5's performance score of the site-wide 75th
// percentile of each Core Web Vital: 100 good, 60 needs improvement, 20
// poor, averaged over the metrics measured. ok is false with no samples.
func PageSpeed(counts []db.VitalCount) (score, metrics int, ok bool) {
	overall, _ := Vitals(counts)
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
