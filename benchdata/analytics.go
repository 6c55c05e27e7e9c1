package benchdata

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
)

// Page is a page the generated visits view.
type Page struct {
	Path, Kind, Area string
}

// Pages are the home page, the services, a few other pages and one
// page per city in cities ("county/slug"), the pages a visit lands on.
func Pages(cities []string) []Page {
	ps := []Page{{"/", "home", ""}, {"/contact", "contact", ""}, {"/about", "about", ""}, {"/blog", "blog", ""},
		{"/water-damage-restoration", "service", ""}, {"/fire-damage-restoration", "service", ""},
		{"/storm-damage-restoration", "service", ""}, {"/mold-remediation", "service", ""},
		{"/service-areas/fulton-county", "county", ""}, {"/service-areas/cobb-county", "county", ""}}
	for _, c := range cities {
		ps = append(ps, Page{"/areas/" + c, "city", c})
	}
	return ps
}

// Traffic is what Analytics generates.
type Traffic struct {
	// VisitsPerDay on the days with raw events; RawDays of them (today
	// included, up to now) keep raw events, as the live site does.
	VisitsPerDay int
	RawDays      int
	// RolledDays before those exist only as daily roll-ups.
	RolledDays int
	Pages      []Page
}

// Analytics stores generated traffic: raw events (page views, Core Web
// Vitals, form views, calls and leads) for the last t.RawDays days,
// rolled up by the store's own roll-up for every finished day as the
// hourly job does; and, for the t.RolledDays days before, the same
// roll-up rows as the first finished day (copied, so a year of history
// costs one day's roll-up). It returns the raw events it wrote.
func Analytics(ctx context.Context, st *db.Store, t Traffic, now time.Time, rng *mrand.Rand) (int, error) {
	total := 0
	today := analytics.Day(now)
	for d := t.RawDays - 1; d >= 0; d-- {
		dayStart := now.AddDate(0, 0, -d)
		evs := dayEvents(t, dayStart, d == 0, now, rng)
		for start := 0; start < len(evs); start += 5000 {
			if err := st.AddEvents(ctx, evs[start:min(start+5000, len(evs))]); err != nil {
				return total, err
			}
		}
		total += len(evs)
	}
	if _, err := st.RollUp(ctx, today, analytics.Day(now.AddDate(0, 0, -db.RawDays)), now.UTC()); err != nil {
		return total, err
	}
	if t.RolledDays == 0 || t.RawDays < 2 {
		return total, nil
	}
	template := analytics.Day(now.AddDate(0, 0, -(t.RawDays - 1)))
	for d := t.RawDays; d < t.RawDays+t.RolledDays; d++ {
		if err := copyRollUp(ctx, st, template, analytics.Day(now.AddDate(0, 0, -d)), now.UTC()); err != nil {
			return total, fmt.Errorf("copy roll-up: %w", err)
		}
	}
	return total, nil
}

func visitorID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

var sources = []string{analytics.SourceOrganic, analytics.SourceOrganic, analytics.SourceOrganic, analytics.SourceDirect,
	analytics.SourceDirect, analytics.SourcePaid, analytics.SourceSocial, analytics.SourceReferral}

// vital draws a plausible value of a metric: most visits good, a tail
// that needs improvement or is poor.
func vital(metric string, rng *mrand.Rand) float64 {
	x := rng.ExpFloat64()
	switch metric {
	case "LCP":
		return 900 + x*1100
	case "FCP":
		return 600 + x*700
	case "TTFB":
		return 120 + x*300
	case "INP":
		return 40 + x*120
	}
	return float64(int(x*0.06*1000)) / 1000 // CLS
}

// dayEvents are one day's events; on today only those before now.
func dayEvents(t Traffic, day time.Time, isToday bool, now time.Time, rng *mrand.Rand) []db.Event {
	dayName := analytics.Day(day)
	midnight, _ := time.ParseInLocation("2006-01-02", dayName, analytics.Zone)
	var evs []db.Event
	for v := 0; v < t.VisitsPerDay; v++ {
		at := midnight.Add(time.Duration(rng.Int64N(int64(24 * time.Hour))))
		if isToday && at.After(now) {
			continue
		}
		visitor := visitorID()
		src := pick(rng, sources)
		views := 1 + rng.IntN(2)
		width := pick(rng, []string{"mobile", "mobile", "mobile", "desktop", "laptop", "tablet"})
		for i := 0; i < views; i++ {
			p := t.Pages[rng.IntN(len(t.Pages))]
			at = at.Add(time.Duration(5+rng.IntN(90)) * time.Second)
			evs = append(evs, db.Event{At: at.UTC(), Day: dayName, Kind: db.EventPageview, Path: p.Path, PageKind: p.Kind,
				Source: src, Width: width, Visitor: visitor, Area: p.Area})
			for _, m := range analytics.Metrics {
				if m == "INP" && rng.IntN(10) < 3 {
					continue // no interaction on this view
				}
				evs = append(evs, db.Event{At: at.Add(2 * time.Second).UTC(), Day: dayName, Kind: db.EventVital, Path: p.Path,
					PageKind: p.Kind, Visitor: visitor, Metric: m, Value: vital(m, rng)})
			}
			if p.Kind == "contact" || rng.IntN(4) == 0 {
				evs = append(evs, db.Event{At: at.Add(10 * time.Second).UTC(), Day: dayName, Kind: db.EventFormView, Path: p.Path, Visitor: visitor})
			}
		}
		switch r := rng.IntN(100); {
		case r < 3:
			evs = append(evs, db.Event{At: at.Add(time.Minute).UTC(), Day: dayName, Kind: db.EventLead, Path: "/contact", Visitor: visitor})
		case r < 6:
			evs = append(evs, db.Event{At: at.Add(time.Minute).UTC(), Day: dayName, Kind: db.EventTelClick, Path: "/", Visitor: visitor})
		}
	}
	return evs
}

// copyRollUp gives day the roll-up rows of template, as if its traffic
// had been the same, and marks it rolled up.
func copyRollUp(ctx context.Context, st *db.Store, template, day string, now time.Time) error {
	return st.Transact(ctx, func(tx *sqlx.Tx) error {
		for _, table := range db.RollUpTables {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO `+table.Name+` (day, `+table.Columns+`) SELECT ?, `+table.Columns+
				` FROM `+table.Name+` WHERE day = ?`), day, template); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO analytics_rollups (day, rolled_at) VALUES (?, ?)`), day, now)
		return err
	})
}
