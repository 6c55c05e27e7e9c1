package benchdata

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
)

// The generated leads and traffic are what the figures of make bench-data
// claim: n leads over two years, found by the search as any stored lead
// is; raw events for the raw days, rolled up as the live site rolls
// them up (vitals included), and the rolled-up days before.
func TestLeadsAndTraffic(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, st *db.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 17, 0, 0, 0, time.UTC)
		rng := rand.New(rand.NewPCG(1, 2))
		if err := Leads(ctx, st, 450, now, rng); err != nil {
			t.Fatal(err)
		}
		all, total, err := st.QueryLeads(ctx, db.LeadQuery{})
		if err != nil || total != 450 {
			t.Fatalf("%d leads, %v", total, err)
		}
		oldest, newest := all[len(all)-1].CreatedAt, all[0].CreatedAt
		if now.Sub(oldest) > LeadSpan || now.Sub(oldest) < LeadSpan-30*24*time.Hour || newest.After(now) {
			t.Errorf("leads from %v to %v, want two years to now", oldest, newest)
		}
		// Every lead is found by its own name and phone digits.
		for _, l := range all[:20] {
			_, n, err := st.QueryLeads(ctx, db.LeadQuery{Q: l.FirstName + " " + l.LastName})
			if err != nil || n == 0 {
				t.Fatalf("%s %s not found: %v", l.FirstName, l.LastName, err)
			}
			ls, _, err := st.QueryLeads(ctx, db.LeadQuery{Q: l.Phone[2:], SearchContact: true})
			if err != nil || len(ls) == 0 || ls[0].Phone != l.Phone {
				t.Fatalf("phone %s not found: %v", l.Phone, err)
			}
		}

		n, err := Analytics(ctx, st, Traffic{VisitsPerDay: 20, RawDays: 5, RolledDays: 10, Pages: Pages([]string{"fulton/atlanta"})}, now, rng)
		if err != nil {
			t.Fatal(err)
		}
		if n < 4*20*5 || n > 5*20*15 {
			t.Errorf("%d raw events for 5 days of 20 visits", n)
		}
		from, to := analytics.Day(now.AddDate(0, 0, -14)), analytics.Day(now)
		cs, err := st.Counts(ctx, from, to)
		if err != nil {
			t.Fatal(err)
		}
		var visits int64
		for _, c := range cs {
			if c.Kind == db.EventPageview && c.Dim == db.DimTotal {
				visits = c.Visitors
			}
		}
		// Four finished raw days of 20 visits, today's before 17:00 UTC,
		// ten copies of the oldest raw day.
		if visits < 4*20+10*20 || visits > 15*20 {
			t.Errorf("%d visits over 15 days of 20", visits)
		}
		vs, err := st.VitalCounts(ctx, from, to)
		if err != nil || analytics.Measurements(vs) == 0 {
			t.Errorf("no vitals counted: %v", err)
		}
	})
}
