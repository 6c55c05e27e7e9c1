package leads

import (
	"context"
	"encoding/csv"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
)

// 'Export with source': the spec's nine columns, then the attribution's,
// formula injection neutralised in them too.
func TestExportWithSource(t *testing.T) {
	t.Parallel()
	store := db.NewTestSQLite(t)
	lm := newRoom(t, store)
	seedLeads(t, store, 3)
	ctx := context.Background()
	l := db.Lead{ID: "lead-src", CreatedAt: time.Now().UTC(), UpdatedAt: time.Now().UTC(), FirstName: "Ana", LastName: "Ruiz", Phone: "(678) 555-0199",
		City: "Smyrna", DamageType: "Mold", Status: "new", Source: "website",
		Attribution: db.Attribution{LandingPage: "/water-damage", UTMSource: "google", UTMMedium: "cpc", UTMCampaign: "=HYPERLINK(\"x\")", GCLID: "abc-123"}}
	if err := store.CreateLead(ctx, l); err != nil {
		t.Fatal(err)
	}
	r := lm.call(t, "GET", "/api/admin/leads/export.csv?with=source", asAdmin, nil)
	rows, err := csv.NewReader(strings.NewReader(r.Body)).ReadAll()
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("export: %d %v", r.StatusCode, err)
	}
	want := slices.Concat(leads.CSVHeader, leads.VisitCSVHeader, leads.SourceCSVHeader)
	if strings.Join(rows[0], ",") != strings.Join(want, ",") || !strings.Contains(r.Header.Get("Content-Disposition"), "with-source") {
		t.Fatalf("header %v, disposition %s", rows[0], r.Header.Get("Content-Disposition"))
	}
	found := false
	for _, row := range rows[1:] {
		if row[0] == "lead-src" {
			found = true
			if row[13] != "/water-damage" || row[15] != "google" || row[17] != "'=HYPERLINK(\"x\")" || row[20] != "abc-123" {
				t.Errorf("row %v", row)
			}
		}
	}
	if !found {
		t.Error("the lead is not exported")
	}
	plain := lm.call(t, "GET", "/api/admin/leads/export.csv", asAdmin, nil)
	if first, _, _ := strings.Cut(plain.Body, "\n"); first != strings.Join(slices.Concat(leads.CSVHeader, leads.VisitCSVHeader), ",") {
		t.Errorf("plain export header %q", first)
	}
}
