package analytics

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Leads by source / campaign. Unlike the Sources table, which
// credits a visit's first page view, these are the lead records' own
// attribution (leads.ParseAttribution): every estimate request stored,
// whether its visit was counted or not (JavaScript off, Do Not Track),
// by the UTM source and medium, else the ad platform whose click id it
// carried, else the referring site, and by campaign.

// LeadSourceRow is one line of 'Leads by source / campaign'.
type LeadSourceRow struct {
	// Source is "utm_source / utm_medium", an ad platform's click
	// ("Google Ads (click id)"), the referring host, or NotRecorded.
	Source string `json:"source"`
	// Campaign is utm_campaign ("" when none).
	Campaign    string `json:"campaign"`
	Leads       int64  `json:"leads"`
	Emergencies int64  `json:"emergencies"`
	// Percentage is the share of the period's leads; the rows add up to
	// 100.0.
	Percentage float64 `json:"percentage"`
}

// LeadSourceStore reads the lead records' attribution (db.Store).
type LeadSourceStore interface {
	LeadSources(ctx context.Context, from, to time.Time) ([]db.LeadSourceCount, error)
}

// Labels of 'Leads by source / campaign'.
const (
	NotRecorded  = "Direct or not recorded"
	OtherSources = "Other sources"
	// MaxLeadSources bounds the rows; the rest are one OtherSources row.
	MaxLeadSources = 50
)

// clickPlatforms name the ad platform of a click id.
var clickPlatforms = map[string]string{"google": "Google Ads (click id)", "meta": "Meta ads (click id)", "microsoft": "Microsoft Ads (click id)"}

// LeadSourceLabel is the source a lead's attribution is listed under.
func LeadSourceLabel(c db.LeadSourceCount) string {
	switch {
	case c.UTMSource != "" && c.UTMMedium != "":
		return c.UTMSource + " / " + c.UTMMedium
	case c.UTMSource != "":
		return c.UTMSource
	case clickPlatforms[c.ClickFrom] != "":
		return clickPlatforms[c.ClickFrom]
	case c.ReferrerHost != "":
		return strings.TrimPrefix(c.ReferrerHost, "www.")
	}
	return NotRecorded
}

// LeadSources are the leads created on the days from to to (YYYY-MM-DD in
// Zone, both included) by source and campaign, most leads first.
func LeadSources(ctx context.Context, store LeadSourceStore, from, to string) ([]LeadSourceRow, error) {
	start, err := time.ParseInLocation("2006-01-02", from, Zone)
	if err != nil {
		return nil, err
	}
	last, err := time.ParseInLocation("2006-01-02", to, Zone)
	if err != nil {
		return nil, err
	}
	cs, err := store.LeadSources(ctx, start, last.AddDate(0, 0, 1))
	if err != nil {
		return nil, err
	}
	return LeadSourceRows(cs), nil
}

// LeadSourceRows folds counts into rows by (source, campaign) label,
// sorted by leads (then source and campaign), at most MaxLeadSources of
// them with the rest as one OtherSources row, and shares them out.
func LeadSourceRows(cs []db.LeadSourceCount) []LeadSourceRow {
	type key struct{ source, campaign string }
	byKey := map[key]*LeadSourceRow{}
	for _, c := range cs {
		k := key{LeadSourceLabel(c), c.UTMCampaign}
		r := byKey[k]
		if r == nil {
			r = &LeadSourceRow{Source: k.source, Campaign: k.campaign}
			byKey[k] = r
		}
		r.Leads += c.Leads
		r.Emergencies += c.Emergencies
	}
	rows := make([]LeadSourceRow, 0, len(byKey))
	for _, r := range byKey {
		rows = append(rows, *r)
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Leads != b.Leads {
			return a.Leads > b.Leads
		}
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		return a.Campaign < b.Campaign
	})
	if len(rows) > MaxLeadSources {
		other := LeadSourceRow{Source: OtherSources}
		for _, r := range rows[MaxLeadSources-1:] {
			other.Leads += r.Leads
			other.Emergencies += r.Emergencies
		}
		rows = append(rows[:MaxLeadSources-1], other)
	}
	leads := make([]int64, len(rows))
	for i, r := range rows {
		leads[i] = r.Leads
	}
	for i, p := range Shares(leads) {
		rows[i].Percentage = p
	}
	return rows
}
