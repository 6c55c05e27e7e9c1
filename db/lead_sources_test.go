package db

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// LeadSources groups the leads of a window by attribution on both
// databases, with the ad platform of a click id and the emergencies.
func TestLeadSources(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		add := func(id string, at time.Time, emergency bool, a Attribution) {
			t.Helper()
			l := outboxLead(id, at)
			l.IsEmergency, l.Attribution = emergency, a
			if err := s.CreateLead(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		flood := Attribution{UTMSource: "google", UTMMedium: "cpc", UTMCampaign: "flood"}
		add("a", now.Add(-time.Hour), true, flood)
		add("b", now.Add(-2*time.Hour), false, flood)
		add("c", now.Add(-3*time.Hour), true, Attribution{FBCLID: "IwAR1"})
		add("d", now.Add(-4*time.Hour), false, Attribution{GBRAID: "0AAA"})
		add("e", now.Add(-5*time.Hour), false, Attribution{ReferrerHost: "www.yelp.com"})
		add("f", now.Add(-6*time.Hour), false, Attribution{})
		add("old", now.Add(-40*24*time.Hour), true, flood)
		got, err := s.LeadSources(ctx, now.Add(-24*time.Hour), now)
		if err != nil {
			t.Fatal(err)
		}
		key := func(c LeadSourceCount) string { return c.UTMSource + "|" + c.ClickFrom + "|" + c.ReferrerHost }
		sort.Slice(got, func(i, j int) bool { return key(got[i]) < key(got[j]) })
		want := []LeadSourceCount{
			{Leads: 1},
			{ReferrerHost: "www.yelp.com", Leads: 1},
			{ClickFrom: "google", Leads: 1},
			{ClickFrom: "meta", Leads: 1, Emergencies: 1},
			{UTMSource: "google", UTMMedium: "cpc", UTMCampaign: "flood", Leads: 2, Emergencies: 1},
		}
		sort.Slice(want, func(i, j int) bool { return key(want[i]) < key(want[j]) })
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("lead sources (-want +got):\n%s", diff)
		}
		if none, err := s.LeadSources(ctx, now, now.Add(time.Hour)); err != nil || len(none) != 0 {
			t.Errorf("an empty window: %v %v", none, err)
		}
	})
}

// leadSourcesByColumns is how LeadSources counted before migration 117,
// grouping the rows' own columns: the reference its source_key must
// equal.
const leadSourcesByColumns = `SELECT utm_source, utm_medium, utm_campaign, referrer_host, click_from,
		COUNT(*) AS leads, SUM(emergency) AS emergencies FROM (
			SELECT utm_source, utm_medium, utm_campaign, referrer_host,
				CASE WHEN gclid <> '' OR gbraid <> '' OR wbraid <> '' THEN 'google' WHEN fbclid <> '' THEN 'meta' WHEN msclkid <> '' THEN 'microsoft' ELSE '' END AS click_from,
				CASE WHEN is_emergency THEN 1 ELSE 0 END AS emergency
			FROM avatar_leads WHERE created_at >= ? AND created_at < ?) l
		GROUP BY utm_source, utm_medium, utm_campaign, referrer_host, click_from`

// TestLeadSourcesEqualTheGroupedColumns: over 3,000 generated leads with
// attributions that differ in one field, in a field's length or across a
// field's boundary ("ab"+"c" and "a"+"bc"), with colons, digits and
// separators inside, click ids of every platform and none, LeadSources
// (grouped on source_key) answers exactly what grouping the columns
// gives, for leads stored by the store and for leads written without a
// key and filled at start (fillLeadSourceKey), on windows of a day to
// everything.
func TestLeadSourcesEqualTheGroupedColumns(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
		rng := rand.New(rand.NewPCG(117, 71))
		parts := []string{"", "", "a", "ab", "c", "bc", "google", "cpc", "1:x", "2:", ":", "\x1f", "é", "www.google.com"}
		pick := func() string { return parts[rng.IntN(len(parts))] }
		ids := []string{"", "", "", "", "id1"}
		var bulk []Lead
		for i := 0; i < 3000; i++ {
			l := outboxLead(fmt.Sprintf("l%04d", i), now.Add(-time.Duration(rng.IntN(400*24))*time.Hour))
			l.IsEmergency = rng.IntN(4) == 0
			l.Attribution = Attribution{UTMSource: pick(), UTMMedium: pick(), UTMCampaign: pick(), ReferrerHost: pick(),
				GCLID: ids[rng.IntN(5)], GBRAID: ids[rng.IntN(5)], WBRAID: ids[rng.IntN(5)], FBCLID: ids[rng.IntN(5)], MSCLKID: ids[rng.IntN(5)]}
			if i%3 == 0 {
				bulk = append(bulk, l)
				continue
			}
			if err := s.CreateLead(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		// A third written as a bulk load or an older version writes them:
		// no source_key, filled at start.
		for _, l := range bulk {
			if _, err := s.db.NamedExecContext(ctx, `INSERT INTO avatar_leads (`+leadColumns+`) VALUES (`+leadValues+`)`, l.Normalized()); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.fillLeadSourceKey(ctx); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, s, "avatar_leads WHERE source_key = ''"); n != 0 {
			t.Fatalf("%d leads left without a source_key", n)
		}
		order := func(cs []LeadSourceCount) {
			sort.Slice(cs, func(i, j int) bool {
				a, b := cs[i], cs[j]
				return fmt.Sprintf("%q", []string{a.UTMSource, a.UTMMedium, a.UTMCampaign, a.ReferrerHost, a.ClickFrom}) <
					fmt.Sprintf("%q", []string{b.UTMSource, b.UTMMedium, b.UTMCampaign, b.ReferrerHost, b.ClickFrom})
			})
		}
		for _, days := range []int{1, 30, 365, 1000} {
			from, to := now.AddDate(0, 0, -days), now
			got, err := s.LeadSources(ctx, from, to)
			if err != nil {
				t.Fatal(err)
			}
			want := []LeadSourceCount{}
			if err := s.db.SelectContext(ctx, &want, s.q(leadSourcesByColumns), from.UTC(), to.UTC()); err != nil {
				t.Fatal(err)
			}
			order(got)
			order(want)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%d days: LeadSources differs from the grouped columns (-columns, +source_key):\n%s", days, d)
			}
			if days >= 30 && len(want) < 100 {
				t.Fatalf("%d days: only %d groups, the data does not test much", days, len(want))
			}
		}
	})
}
