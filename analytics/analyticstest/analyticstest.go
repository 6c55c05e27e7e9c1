// Package analyticstest generates analytics histories and checks the
// Analytics screen's figures against their invariants and definitions
// (ADR 023), for the store's, the report's and the handler's tests.
package analyticstest

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
)

var genSources = []string{analytics.SourceOrganic, analytics.SourceDirect, analytics.SourceSocial, analytics.SourceReferral, analytics.SourceEmail, analytics.SourcePaid}

// Generate makes a random history of `days` days up to now's day:
// visitors who view pages (a few arriving again the same day from another
// source), view area pages, tap a phone number and send estimates; and
// leads with no counted visit: JavaScript off (a visitor id, no page
// view), opted out (no visitor id), a call whose page view was lost, a
// lead just after midnight whose visit was the day before, and leads
// recorded before areas were (no area); and views of the not-found page,
// by visitors and by passers-by with no page view.
func Generate(r *rand.Rand, now time.Time, days int) []db.Event {
	var evs []db.Event
	n := 0
	add := func(e db.Event) {
		n++
		e.ID = fmt.Sprintf("e%07d", n)
		evs = append(evs, e)
	}
	areaPaths := map[string]string{"/areas/cobb/smyrna": "cobb/smyrna", "/areas/fulton/atlanta-service": "fulton/atlanta",
		"/areas/gwinnett/duluth": "gwinnett/duluth", "/areas/henry/gone": "henry/gone"}
	paths := []string{"/", "/services", "/contact", "/areas/cobb/smyrna", "/areas/fulton/atlanta-service", "/areas/gwinnett/duluth", "/areas/henry/gone"}
	leadAreas := []string{"cobb/smyrna", "fulton/atlanta", "gwinnett/duluth", db.AreaOther, ""}
	for d := days - 1; d >= 0; d-- {
		t0 := now.In(analytics.Zone).AddDate(0, 0, -d)
		start := time.Date(t0.Year(), t0.Month(), t0.Day(), 0, 0, 0, 0, analytics.Zone)
		day := analytics.Day(start)
		at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond).UTC() }
		visitors := r.Intn(30)
		if r.Intn(4) == 0 {
			visitors = 0 // some days have no visitor at all
		}
		for v := 0; v < visitors; v++ {
			id := fmt.Sprintf("v%s-%d", day, v)
			t := r.Intn(20 * 3600 * 1000)
			first := genSources[r.Intn(len(genSources))]
			for k := 0; k < 1+r.Intn(4); k++ {
				src := first
				if k > 0 {
					src = analytics.SourceDirect // a click within the site
					if r.Intn(4) == 0 {
						src = genSources[r.Intn(len(genSources))] // back from elsewhere
					}
					if r.Intn(6) != 0 {
						t += 1 + r.Intn(600000)
					} // else: the same instant
				}
				p := paths[r.Intn(len(paths))]
				add(db.Event{At: at(t), Day: day, Kind: db.EventPageview, Path: p, Source: src, Visitor: id, Area: areaPaths[p]})
			}
			for c := r.Intn(4) - 2; c > 0; c-- {
				t += r.Intn(60000)
				add(db.Event{At: at(t), Day: day, Kind: db.EventTelClick, Path: "/contact", Visitor: id})
			}
			if r.Intn(3) == 0 {
				t += r.Intn(60000)
				add(db.Event{At: at(t), Day: day, Kind: db.EventFormView, Path: "/", Visitor: id})
			}
			for l := r.Intn(5) - 3; l > 0; l-- {
				t += r.Intn(60000)
				add(db.Event{At: at(t), Day: day, Kind: db.EventLead, Path: "/estimate", Visitor: id, Area: leadAreas[r.Intn(len(leadAreas))]})
			}
		}
		for k := 0; k < r.Intn(4); k++ { // JavaScript off
			add(db.Event{At: at(r.Intn(86000000)), Day: day, Kind: db.EventLead, Path: "/estimate", Visitor: fmt.Sprintf("nojs%s-%d", day, k), Area: leadAreas[r.Intn(len(leadAreas))]})
		}
		for k := 0; k < r.Intn(3); k++ { // Do Not Track, Global Privacy Control, a bot's user agent
			add(db.Event{At: at(r.Intn(86000000)), Day: day, Kind: db.EventLead, Path: "/estimate", Area: leadAreas[r.Intn(len(leadAreas))]})
		}
		if r.Intn(3) == 0 { // a call tap whose page view never arrived
			add(db.Event{At: at(r.Intn(86000000)), Day: day, Kind: db.EventTelClick, Path: "/", Visitor: "lost" + day})
		}
		for k := 0; k < r.Intn(3); k++ { // the not-found page, from a visitor or a passer-by
			v := fmt.Sprintf("v%s-%d", day, r.Intn(visitors+1))
			if r.Intn(2) == 0 {
				v = fmt.Sprintf("lost%s-%d", day, k)
			}
			add(db.Event{At: at(r.Intn(86000000)), Day: day, Kind: db.EventNotFound, Visitor: v})
		}
		if r.Intn(3) == 0 { // just after midnight: yesterday's visitor has a new id today
			add(db.Event{At: at(1000), Day: day, Kind: db.EventLead, Path: "/estimate", Visitor: "midnight" + day, Area: "cobb/smyrna"})
		}
	}
	return evs
}

// Counts are a report's counts computed straight from the events, by the
// definitions (analytics/report.go).
type Counts struct {
	visitors, pageviews, notFound, conversions, estimates, calls int64
	uncountedEstimates, uncountedCalls                           int64
	sourceVisitors, sourceConversions, sourceLeads               map[string]int64
	areaVisitors, areaLeads                                      map[string]int64
}

// Oracle counts the events of the days from..to; label names a place.
func Oracle(evs []db.Event, from, to string, label func(string) string) Counts {
	o := Counts{sourceVisitors: map[string]int64{}, sourceConversions: map[string]int64{}, sourceLeads: map[string]int64{},
		areaVisitors: map[string]int64{}, areaLeads: map[string]int64{}}
	in := func(e db.Event) bool { return e.Day >= from && e.Day <= to }
	byVisit := map[[2]string][]db.Event{}
	for _, e := range evs {
		if in(e) && e.Kind == db.EventNotFound && e.Visitor != "" {
			o.notFound++
		}
		if in(e) && e.Kind == db.EventPageview && e.Visitor != "" {
			k := [2]string{e.Day, e.Visitor}
			byVisit[k] = append(byVisit[k], e)
			o.pageviews++
		}
	}
	source := map[[2]string]string{}
	for k, pvs := range byVisit {
		sort.Slice(pvs, func(i, j int) bool {
			if !pvs[i].At.Equal(pvs[j].At) {
				return pvs[i].At.Before(pvs[j].At)
			}
			return pvs[i].ID < pvs[j].ID
		})
		source[k] = pvs[0].Source
		o.visitors++
		o.sourceVisitors[pvs[0].Source]++
		for _, e := range pvs {
			if e.Area != "" {
				o.areaVisitors[label(e.Area)]++
				break
			}
		}
	}
	converted := map[[2]string]bool{}
	for _, e := range evs {
		if !in(e) || (e.Kind != db.EventLead && e.Kind != db.EventTelClick) || (e.Kind == db.EventTelClick && e.Visitor == "") {
			continue
		}
		k := [2]string{e.Day, e.Visitor}
		src, counted := source[k]
		counted = counted && e.Visitor != ""
		if e.Kind == db.EventLead {
			o.estimates++
			o.areaLeads[label(e.Area)]++
		} else {
			o.calls++
		}
		switch {
		case !counted && e.Kind == db.EventLead:
			o.uncountedEstimates++
		case !counted:
			o.uncountedCalls++
		default:
			o.sourceLeads[src]++
			if !converted[k] {
				converted[k] = true
				o.conversions++
				o.sourceConversions[src]++
			}
		}
	}
	return o
}

// Tenths is a share as a whole number of tenths of a percent.
func Tenths(p float64) int64 { return int64(math.Round(p * 10)) }

// Check lists the report's figures that break an invariant or differ
// from the oracle's counts of the same events; nil when all agree.
func Check(r analytics.Report, o Counts) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var visitors, conversions, leads, estimates, calls, shares int64
	for _, s := range r.Sources {
		visitors += s.Visitors
		conversions += s.Conversions
		leads += s.Leads
		estimates += s.Estimates
		calls += s.Calls
		shares += Tenths(s.Percentage)
		if s.Conversions > s.Visitors || s.ConversionRate > 100 || s.ConversionRate != analytics.Rate(s.Conversions, s.Visitors) {
			fail("source %s: %d conversions of %d visitors, rate %.1f", s.Source, s.Conversions, s.Visitors, s.ConversionRate)
		}
		if s.Leads != s.Estimates+s.Calls {
			fail("source %s: leads %d != %d estimates + %d calls", s.Source, s.Leads, s.Estimates, s.Calls)
		}
	}
	if visitors != r.Visitors {
		fail("sources add up to %d visitors, headline %d", visitors, r.Visitors)
	}
	if r.Visitors > 0 && shares != 1000 {
		fail("source shares add up to %.1f%%", float64(shares)/10)
	}
	if r.Visitors == 0 && shares != 0 {
		fail("shares of no traffic add up to %.1f%%", float64(shares)/10)
	}
	if conversions != r.Conversions {
		fail("sources add up to %d conversions, headline %d", conversions, r.Conversions)
	}
	if r.Conversions > r.Visitors || r.ConversionRate > 100 || r.ConversionRate != analytics.Rate(r.Conversions, r.Visitors) {
		fail("%d conversions of %d visitors, rate %.1f", r.Conversions, r.Visitors, r.ConversionRate)
	}
	if r.Leads != r.Estimates+r.Calls || r.Uncounted.Leads != r.Uncounted.Estimates+r.Uncounted.Calls {
		fail("leads %d != %d + %d, uncounted %+v", r.Leads, r.Estimates, r.Calls, r.Uncounted)
	}
	if leads+r.Uncounted.Leads != r.Leads || estimates+r.Uncounted.Estimates != r.Estimates || calls+r.Uncounted.Calls != r.Calls {
		fail("leads from counted visits %d (%d + %d) + uncounted %+v != all %d (%d + %d)", leads, estimates, calls, r.Uncounted, r.Leads, r.Estimates, r.Calls)
	}
	if r.Conversions > leads {
		fail("%d conversions from %d leads of counted visits", r.Conversions, leads)
	}
	var geoVisitors, geoLeads, geoShares int64
	for _, g := range r.Geography {
		geoVisitors += g.Visitors
		geoLeads += g.Leads
		geoShares += Tenths(g.Percentage)
	}
	if geoLeads != r.Estimates || geoVisitors != r.AreaVisitors || r.AreaVisitors > r.Visitors {
		fail("geography: %d leads (estimates %d), %d visitors (area visitors %d, visitors %d)", geoLeads, r.Estimates, geoVisitors, r.AreaVisitors, r.Visitors)
	}
	if (r.Estimates > 0 && geoShares != 1000) || (r.Estimates == 0 && geoShares != 0) {
		fail("geography shares add up to %.1f%% for %d leads", float64(geoShares)/10, r.Estimates)
	}
	var pageviews int64
	for _, p := range r.Pages {
		pageviews += p.Pageviews
		if p.Path == "" {
			fail("a page without a path in Pages: %+v", p)
		}
	}
	if len(r.Pages) < analytics.MaxPages && pageviews != r.Pageviews {
		fail("pages add up to %d page views, headline %d", pageviews, r.Pageviews)
	}

	// The definitions, counted independently.
	got := map[string]int64{"visitors": r.Visitors, "pageviews": r.Pageviews, "not found": r.NotFound, "conversions": r.Conversions, "estimates": r.Estimates,
		"calls": r.Calls, "uncounted estimates": r.Uncounted.Estimates, "uncounted calls": r.Uncounted.Calls}
	want := map[string]int64{"visitors": o.visitors, "pageviews": o.pageviews, "not found": o.notFound, "conversions": o.conversions, "estimates": o.estimates,
		"calls": o.calls, "uncounted estimates": o.uncountedEstimates, "uncounted calls": o.uncountedCalls}
	for _, s := range r.Sources {
		if s.Visitors > 0 || s.Leads > 0 {
			got["visitors from "+s.Source] = s.Visitors
			got["conversions from "+s.Source] = s.Conversions
			got["leads from "+s.Source] = s.Leads
		}
	}
	for s, n := range o.sourceVisitors {
		want["visitors from "+s] = n
		want["conversions from "+s] = o.sourceConversions[s]
		want["leads from "+s] = o.sourceLeads[s]
	}
	for _, g := range r.Geography {
		got["area visitors "+g.Area] = g.Visitors
		got["area leads "+g.Area] = g.Leads
	}
	for a, n := range o.areaVisitors {
		want["area visitors "+a] = n
		want["area leads "+a] += 0
	}
	for a, n := range o.areaLeads {
		want["area leads "+a] = n
		want["area visitors "+a] += 0
	}
	if diff := cmp.Diff(want, got); diff != "" {
		fail("figures against their definitions (-want, +got):\n%s", diff)
	}
	return problems
}

// CheckStoredText fails t for any stored event's text field that is not
// valid UTF-8 of printable characters, or is longer than 300 bytes:
// text a database could refuse or the screen could not show.
func CheckStoredText(t testing.TB, store *db.Store) {
	t.Helper()
	rows, err := store.SQL().Query(`SELECT id, kind, path, page_kind, source, referrer, utm_source, utm_medium, utm_campaign, width, visitor, metric, area FROM analytics_events`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		f := make([]string, 13)
		p := make([]any, 13)
		for i := range f {
			p[i] = &f[i]
		}
		if err := rows.Scan(p...); err != nil {
			t.Fatal(err)
		}
		for i, s := range f {
			if !storableText(s) || len(s) > 300 {
				t.Errorf("event %s: field %d stored as %q", f[0], i, s)
			}
		}
	}
}

// storableText is valid UTF-8 of graphic characters only.
func storableText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsGraphic(r) {
			return false
		}
	}
	return true
}

// StoredEvents reads back every stored analytics event, for Oracle.
func StoredEvents(t testing.TB, store *db.Store) []db.Event {
	t.Helper()
	rows, err := store.SQL().Query(`SELECT id, at, day, kind, path, source, visitor, area FROM analytics_events`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var evs []db.Event
	for rows.Next() {
		var e db.Event
		if err := rows.Scan(&e.ID, &e.At, &e.Day, &e.Kind, &e.Path, &e.Source, &e.Visitor, &e.Area); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	return evs
}
