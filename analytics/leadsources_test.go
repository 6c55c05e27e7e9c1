package analytics

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

func TestLeadSourceRows(t *testing.T) {
	cs := []db.LeadSourceCount{
		{UTMSource: "google", UTMMedium: "cpc", UTMCampaign: "flood", Leads: 3, Emergencies: 2},
		// The same label from two groups (a referrer that differs) folds.
		{UTMSource: "google", UTMMedium: "cpc", UTMCampaign: "flood", ReferrerHost: "www.google.com", Leads: 1},
		{UTMSource: "newsletter", Leads: 1},
		{ClickFrom: "meta", Leads: 2, Emergencies: 1},
		{ReferrerHost: "www.yelp.com", Leads: 2},
		{Leads: 1},
	}
	want := []LeadSourceRow{
		{Source: "google / cpc", Campaign: "flood", Leads: 4, Emergencies: 2, Percentage: 40},
		{Source: "Meta ads (click id)", Leads: 2, Emergencies: 1, Percentage: 20},
		{Source: "yelp.com", Leads: 2, Percentage: 20},
		{Source: NotRecorded, Leads: 1, Percentage: 10},
		{Source: "newsletter", Leads: 1, Percentage: 10},
	}
	if diff := cmp.Diff(want, LeadSourceRows(cs)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if got := LeadSourceRows(nil); len(got) != 0 {
		t.Errorf("no leads: %v", got)
	}
}

// More than MaxLeadSources campaigns: the rest are one row, and the
// shares still add up to 100.
func TestLeadSourceRowsBounded(t *testing.T) {
	var cs []db.LeadSourceCount
	var total int64
	for i := 0; i < 70; i++ {
		cs = append(cs, db.LeadSourceCount{UTMSource: "x", UTMCampaign: fmt.Sprintf("c%02d", i), Leads: int64(1 + i%3)})
		total += int64(1 + i%3)
	}
	rows := LeadSourceRows(cs)
	if len(rows) != MaxLeadSources || rows[len(rows)-1].Source != OtherSources {
		t.Fatalf("%d rows, last %+v", len(rows), rows[len(rows)-1])
	}
	var leads int64
	var share float64
	for _, r := range rows {
		leads += r.Leads
		share += r.Percentage
	}
	if leads != total || share < 99.95 || share > 100.05 {
		t.Errorf("leads %d, shares %.2f", leads, share)
	}
}

func TestCallPages(t *testing.T) {
	cs := []db.Count{
		{Kind: db.EventTelClick, Dim: db.DimTotal, Events: 6},
		{Kind: db.EventTelClick, Dim: db.DimPath, Key: "/emergency", Events: 3},
		{Kind: db.EventTelClick, Dim: db.DimPath, Key: "/", Events: 2},
		{Kind: db.EventTelClick, Dim: db.DimPath, Key: "", Events: 1},
		{Kind: db.EventPageview, Dim: db.DimPath, Key: "/services", Events: 9, Visitors: 4},
	}
	want := []CallPageRow{{Path: "/emergency", Calls: 3}, {Path: "/", Calls: 2}}
	if diff := cmp.Diff(want, arrange(cs, NewPlaces()).CallPages); diff != "" {
		t.Errorf("calls by page (-want +got):\n%s", diff)
	}
	if got := arrange(nil, NewPlaces()).CallPages; got == nil || len(got) != 0 {
		t.Errorf("no calls: %#v", got)
	}
}
