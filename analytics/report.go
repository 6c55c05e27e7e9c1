package analytics

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/atlanta-restoration/site/db"
)

// The Analytics screen's figures (ADR 023). Each one is defined
// so that the figures agree by construction:
//   - a visit is one visitor on one day with at least one page view
//     (visitor ids rotate daily); Visitors counts visits;
//   - a visit has one source, its first page view's, so the sources add
//     up to Visitors and their shares (largest remainder) to 100.0%;
//   - a lead (an estimate request or a call tap) belongs to the visit of
//     the same visitor and day, or to no counted visit (JavaScript off,
//     Do Not Track or Global Privacy Control, a bot's user agent, a page
//     view that never arrived): those are Uncounted, part of Leads but
//     not of the conversion rate;
//   - a conversion is a visit with at least one lead, so Conversions never
//     exceed Visitors and the rate never exceeds 100%;
//   - a view of the not-found page is not a page view: it makes no visit
//     and is counted apart (NotFound), never among the pages;
//   - Geography counts estimate requests by the city typed (calls carry
//     no city), every one, so its leads add up to Estimates; and visits
//     under the first area page they viewed, so its visitors add up to
//     AreaVisitors, at most Visitors.
//
// The counting is db.Store.Counts'; this file names and arranges it.

// CountStore is what a report reads.
type CountStore interface {
	Counts(ctx context.Context, from, to string) ([]db.Count, error)
}

// Report is GET /api/admin/analytics: the figures of a period of days.
type Report struct {
	Period string `json:"period"`
	From   string `json:"from"`
	To     string `json:"to"`
	// Empty: no page view and no lead in the period yet.
	Empty bool `json:"empty"`
	// Visitors counts visits: one per visitor per day with a page view.
	Visitors  int64 `json:"visitors"`
	Pageviews int64 `json:"pageviews"`
	// NotFound counts the views of the not-found page: paths the site
	// does not serve. They are not page views, make no visit and are
	// never in Pages (ADR 029).
	NotFound int64 `json:"notFound"`
	// Conversions are the visits with at least one lead.
	Conversions int64 `json:"conversions"`
	// ConversionRate is Conversions / Visitors, a percentage to one decimal.
	ConversionRate float64 `json:"conversionRate"`
	// Leads = Estimates + Calls: every lead received in the period, from a
	// counted visit or not.
	Leads     int64 `json:"leads"`
	Estimates int64 `json:"estimates"`
	Calls     int64 `json:"calls"`
	// Uncounted are the leads from visits that were not counted.
	Uncounted LeadCounts `json:"uncounted"`
	Previous  Previous   `json:"previous"`
	// Sources add up to Visitors, Conversions and Leads - Uncounted.Leads.
	Sources []SourceRow `json:"sources"`
	// Geography's leads add up to Estimates, its visitors to AreaVisitors.
	Geography    []AreaRow `json:"geography"`
	AreaVisitors int64     `json:"areaVisitors"`
	// Pages are the 50 most visited pages, all of them pages the site
	// served when viewed; their page views add up to Pageviews (when
	// fewer than 50). A visit counts on every page it viewed, so their
	// visitors do not add up to Visitors.
	Pages []PageRow `json:"pages"`
	// CallPages are the pages tap-to-call links were clicked on, most
	// calls first: every page with a call, whether or not it
	// is among Pages. Calls on the not-found page have no page and are
	// not listed, so these add up to Calls or less.
	CallPages []CallPageRow `json:"callPages"`
}

// CallPageRow is one page's tap-to-call clicks.
type CallPageRow struct {
	Path  string `json:"path"`
	Calls int64  `json:"calls"`
}

// LeadCounts are leads: Leads = Estimates + Calls.
type LeadCounts struct {
	Leads     int64 `json:"leads"`
	Estimates int64 `json:"estimates"`
	Calls     int64 `json:"calls"`
}

// Previous is the same span of days just before the period.
type Previous struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Visitors int64  `json:"visitors"`
	Leads    int64  `json:"leads"`
}

// SourceRow is one traffic source: the visits it brought and their leads.
type SourceRow struct {
	Source string `json:"source"`
	// Visitors are the visits whose first page view came from Source.
	Visitors int64 `json:"visitors"`
	// Percentage is the share of Visitors; the rows add up to 100.0.
	Percentage float64 `json:"percentage"`
	// Conversions are those visits with at least one lead.
	Conversions    int64   `json:"conversions"`
	ConversionRate float64 `json:"conversionRate"`
	// Leads = Estimates + Calls of those visits.
	Leads     int64 `json:"leads"`
	Estimates int64 `json:"estimates"`
	Calls     int64 `json:"calls"`
}

// AreaRow is one place of the Geography table.
type AreaRow struct {
	Area string `json:"area"`
	// Visitors are the visits whose first area page was this place's.
	Visitors int64 `json:"visitors"`
	// Leads are the estimate requests whose city is this place.
	Leads int64 `json:"leads"`
	// Percentage is the share of Leads; the rows add up to 100.0.
	Percentage float64 `json:"percentage"`
}

// PageRow is one page's visits and leads.
type PageRow struct {
	Path      string `json:"path"`
	Visitors  int64  `json:"visitors"`
	Pageviews int64  `json:"pageviews"`
	Estimates int64  `json:"estimates"`
	Calls     int64  `json:"calls"`
	FormViews int64  `json:"formViews"`
}

// Span is the last `days` days up to now's day (included) in the
// business's time zone, and the same number of days before them.
func Span(now time.Time, days int) (from, to, prevFrom, prevTo string) {
	return Day(now.AddDate(0, 0, -(days - 1))), Day(now), Day(now.AddDate(0, 0, -(2*days - 1))), Day(now.AddDate(0, 0, -days))
}

// listedSources are shown even with no visitor, so the table always
// names them (Paid Search only once it has one).
var listedSources = []string{SourceOrganic, SourceDirect, SourceSocial, SourceReferral, SourceEmail}

// MaxPages bounds Report.Pages.
const MaxPages = 50

// counts indexes a period's counts by kind, dimension and key.
type counts map[[3]string]db.Count

func index(cs []db.Count) counts {
	m := counts{}
	for _, c := range cs {
		m[[3]string{c.Kind, c.Dim, c.Key}] = c
	}
	return m
}

func (m counts) get(kind, dim, key string) db.Count { return m[[3]string{kind, dim, key}] }

// BuildReport reads the counts of the last `days` days (and of the days
// before, for the changes) and arranges them into the screen's figures.
func BuildReport(ctx context.Context, store CountStore, places *Places, now time.Time, days int) (Report, error) {
	from, to, pfrom, pto := Span(now, days)
	// The two periods are read side by side: over a year each is a year
	// of daily rows to add up (ADR 071).
	var cur, prev []db.Count
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { cur, err = store.Counts(gctx, from, to); return err })
	g.Go(func() (err error) { prev, err = store.Counts(gctx, pfrom, pto); return err })
	if err := g.Wait(); err != nil {
		return Report{}, err
	}
	r := arrange(cur, places)
	r.Period, r.From, r.To = fmt.Sprintf("Last %d days", days), from, to
	p := index(prev)
	r.Previous = Previous{From: pfrom, To: pto, Visitors: p.get(db.EventPageview, db.DimTotal, "").Visitors,
		Leads: p.get(db.EventLead, db.DimTotal, "").Events + p.get(db.EventTelClick, db.DimTotal, "").Events}
	return r, nil
}

// arrange turns one period's counts into a Report (without its dates).
func arrange(cs []db.Count, places *Places) Report {
	m := index(cs)
	total := m.get(db.EventPageview, db.DimTotal, "")
	r := Report{
		Visitors: total.Visitors, Pageviews: total.Events,
		NotFound:    m.get(db.EventNotFound, db.DimTotal, "").Events,
		Conversions: m.get(db.KindConversion, db.DimTotal, "").Visitors,
		Estimates:   m.get(db.EventLead, db.DimTotal, "").Events,
		Calls:       m.get(db.EventTelClick, db.DimTotal, "").Events,
	}
	r.Leads = r.Estimates + r.Calls
	r.ConversionRate = Rate(r.Conversions, r.Visitors)
	u := LeadCounts{Estimates: m.get(db.EventLead, db.DimSource, "").Events, Calls: m.get(db.EventTelClick, db.DimSource, "").Events}
	u.Leads = u.Estimates + u.Calls
	r.Uncounted = u
	r.Empty = r.Pageviews == 0 && r.Leads == 0

	// Sources: every key a visit or a linked lead has, and the usual ones.
	seen := map[string]bool{}
	var names []string
	for _, c := range cs {
		if c.Dim == db.DimSource && c.Key != "" && !seen[c.Key] {
			seen[c.Key] = true
			names = append(names, c.Key)
		}
	}
	for _, s := range listedSources {
		if !seen[s] {
			names = append(names, s)
		}
	}
	for _, s := range names {
		row := SourceRow{Source: s, Visitors: m.get(db.EventPageview, db.DimSource, s).Visitors,
			Conversions: m.get(db.KindConversion, db.DimSource, s).Visitors,
			Estimates:   m.get(db.EventLead, db.DimSource, s).Events, Calls: m.get(db.EventTelClick, db.DimSource, s).Events}
		row.Leads = row.Estimates + row.Calls
		row.ConversionRate = Rate(row.Conversions, row.Visitors)
		r.Sources = append(r.Sources, row)
	}
	sort.SliceStable(r.Sources, func(i, j int) bool {
		a, b := r.Sources[i], r.Sources[j]
		if a.Visitors != b.Visitors {
			return a.Visitors > b.Visitors
		}
		if a.Leads != b.Leads {
			return a.Leads > b.Leads
		}
		return a.Source < b.Source
	})
	visits := make([]int64, len(r.Sources))
	for i, s := range r.Sources {
		visits[i] = s.Visitors
	}
	for i, p := range Shares(visits) {
		r.Sources[i].Percentage = p
	}

	// Geography: places by label (a key the content no longer knows counts
	// under Other areas).
	byLabel := map[string]*AreaRow{}
	var order []string
	row := func(key string) *AreaRow {
		label := places.Label(key)
		if byLabel[label] == nil {
			byLabel[label] = &AreaRow{Area: label}
			order = append(order, label)
		}
		return byLabel[label]
	}
	for _, c := range cs {
		switch {
		case c.Kind == db.EventPageview && c.Dim == db.DimArea:
			row(c.Key).Visitors += c.Visitors
			r.AreaVisitors += c.Visitors
		case c.Kind == db.EventLead && c.Dim == db.DimArea:
			row(c.Key).Leads += c.Events
		}
	}
	r.Geography = make([]AreaRow, 0, len(order))
	for _, l := range order {
		r.Geography = append(r.Geography, *byLabel[l])
	}
	sort.SliceStable(r.Geography, func(i, j int) bool {
		a, b := r.Geography[i], r.Geography[j]
		if a.Leads != b.Leads {
			return a.Leads > b.Leads
		}
		if a.Visitors != b.Visitors {
			return a.Visitors > b.Visitors
		}
		return a.Area < b.Area
	})
	leads := make([]int64, len(r.Geography))
	for i, g := range r.Geography {
		leads[i] = g.Leads
	}
	for i, p := range Shares(leads) {
		r.Geography[i].Percentage = p
	}

	// Pages: the most visited, with their leads.
	for _, c := range cs {
		if c.Kind == db.EventPageview && c.Dim == db.DimPath {
			r.Pages = append(r.Pages, PageRow{Path: c.Key, Visitors: c.Visitors, Pageviews: c.Events,
				Estimates: m.get(db.EventLead, db.DimPath, c.Key).Events, Calls: m.get(db.EventTelClick, db.DimPath, c.Key).Events,
				FormViews: m.get(db.EventFormView, db.DimPath, c.Key).Events})
		}
	}
	sort.SliceStable(r.Pages, func(i, j int) bool {
		if r.Pages[i].Visitors != r.Pages[j].Visitors {
			return r.Pages[i].Visitors > r.Pages[j].Visitors
		}
		return r.Pages[i].Path < r.Pages[j].Path
	})
	if len(r.Pages) > MaxPages {
		r.Pages = r.Pages[:MaxPages]
	}
	if r.Pages == nil {
		r.Pages = []PageRow{}
	}

	// Calls by page.
	r.CallPages = []CallPageRow{}
	for _, c := range cs {
		if c.Kind == db.EventTelClick && c.Dim == db.DimPath && c.Key != "" && c.Events > 0 {
			r.CallPages = append(r.CallPages, CallPageRow{Path: c.Key, Calls: c.Events})
		}
	}
	sort.SliceStable(r.CallPages, func(i, j int) bool {
		if r.CallPages[i].Calls != r.CallPages[j].Calls {
			return r.CallPages[i].Calls > r.CallPages[j].Calls
		}
		return r.CallPages[i].Path < r.CallPages[j].Path
	})
	if len(r.CallPages) > MaxPages {
		r.CallPages = r.CallPages[:MaxPages]
	}
	return r
}

// Rate is part/whole as a percentage to one decimal, rounded half up (0
// when whole is 0). With part <= whole it is at most 100.0.
func Rate(part, whole int64) float64 {
	if whole <= 0 || part <= 0 {
		return 0
	}
	tenths := (part*2000 + whole) / (2 * whole)
	return float64(tenths) / 10
}

// Shares divides 100.0% among parts in proportion, to one decimal, by
// largest remainder, so the shares add up to exactly 100.0 (1,000 tenths)
// however they round; all are 0 when the parts add up to 0. Among equal
// remainders the larger part, then the earlier one, gets the tenth.
func Shares(parts []int64) []float64 {
	out := make([]float64, len(parts))
	var total int64
	for _, p := range parts {
		total += max(p, 0)
	}
	if total == 0 {
		return out
	}
	tenths := make([]int64, len(parts))
	rem := make([]int64, len(parts))
	var given int64
	for i, p := range parts {
		q := max(p, 0) * 1000
		tenths[i], rem[i] = q/total, q%total
		given += tenths[i]
	}
	idx := make([]int, len(parts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		i, j := idx[a], idx[b]
		if rem[i] != rem[j] {
			return rem[i] > rem[j]
		}
		return parts[i] > parts[j]
	})
	for k := 0; given < 1000; k++ {
		tenths[idx[k]]++
		given++
	}
	for i, t := range tenths {
		out[i] = float64(t) / 10
	}
	return out
}

// Places maps pages and typed cities to the Geography table's places:
// the cities of the service area, keyed "county/slug".
type Places struct {
	byPath map[string]string
	byName map[string]string
	labels map[string]string
}

// NewPlaces returns an empty map of places.
func NewPlaces() *Places {
	return &Places{byPath: map[string]string{}, byName: map[string]string{}, labels: map[string]string{}}
}

// Add names a place: its key, its label, the city's name as people type
// it, and the paths of its pages.
func (p *Places) Add(key, label, name string, paths ...string) {
	p.labels[key] = label
	p.byName[cityName(name)] = key
	for _, path := range paths {
		p.byPath[path] = key
	}
}

// OfPath is the place of an area page, "" for any other page. A trailing
// slash is allowed.
func (p *Places) OfPath(path string) string {
	if p == nil || !strings.HasPrefix(path, "/areas/") {
		return ""
	}
	return p.byPath[strings.TrimSuffix(path, "/")]
}

// OfCity is the place of the city typed in an estimate request:
// db.AreaOther when it is not one of the service area's.
func (p *Places) OfCity(city string) string {
	if p != nil {
		if k, ok := p.byName[cityName(city)]; ok {
			return k
		}
	}
	return db.AreaOther
}

// Labels of the places that are not a city of the service area.
const (
	LabelOtherAreas  = "Other areas"
	LabelNotRecorded = "Area not recorded"
)

// Label names a place for the table. "" is a lead recorded before areas
// were (migration 015); a key no longer known counts as Other areas.
func (p *Places) Label(key string) string {
	if key == "" {
		return LabelNotRecorded
	}
	if p != nil {
		if l, ok := p.labels[key]; ok {
			return l
		}
	}
	return LabelOtherAreas
}

// cityName is a typed city reduced for matching: lower case, single
// spaces, without a trailing state ("Smyrna, GA", "smyrna georgia").
func cityName(s string) string {
	s = strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == ',' || r == '.' || r == '\t' }), " ")
	for _, st := range []string{" georgia", " ga"} {
		s = strings.TrimSuffix(s, st)
	}
	return s
}
