package db

import (
	"context"
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
