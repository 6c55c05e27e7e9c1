package leads

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// The camelCase query parameters are read, the old snake_case names too
// until the first release after 2026-11-28 (ADR 059), and when a request
// gives both the new name wins: in the list, the export and the audit log.
func TestOldQueryNames(t *testing.T) {
	t.Parallel()
	store := db.NewTestSQLite(t)
	lm := newRoom(t, store)
	seedLeads(t, store, 5) // four "Mold Remediation", the last "Water Damage"
	for i := 0; i < 5; i++ {
		if err := store.AddAudit(context.Background(), db.AuditEntry{At: time.Now().UTC(), Actor: adminEmail, Action: db.AuditLogin, IP: "192.0.2.10"}); err != nil {
			t.Fatal(err)
		}
	}
	type page struct {
		PerPage int `json:"perPage"`
		Total   int `json:"total"`
		Leads   []struct {
			DamageType string `json:"damage_type"`
		} `json:"leads"`
		Entries []json.RawMessage `json:"entries"`
	}
	tests := []struct {
		name, path     string
		perPage, total int
		rows           int
		damage         string
	}{
		{name: "new names", path: "/api/admin/leads?perPage=2&damageType=Mold+Remediation", perPage: 2, total: 4, rows: 2, damage: "Mold Remediation"},
		{name: "old names", path: "/api/admin/leads?per_page=2&damage_type=Mold+Remediation", perPage: 2, total: 4, rows: 2, damage: "Mold Remediation"},
		{name: "both: the new wins", path: "/api/admin/leads?per_page=1&perPage=3&damage_type=Mold+Remediation&damageType=Water+Damage", perPage: 3, total: 1, rows: 1, damage: "Water Damage"},
		{name: "both, the new first", path: "/api/admin/leads?damageType=Water+Damage&damage_type=Mold+Remediation", perPage: 50, total: 1, rows: 1, damage: "Water Damage"},
		{name: "audit, new", path: "/api/admin/audit?perPage=2", perPage: 2, total: 5, rows: 2},
		{name: "audit, old", path: "/api/admin/audit?per_page=2", perPage: 2, total: 5, rows: 2},
		{name: "audit, both: the new wins", path: "/api/admin/audit?per_page=1&perPage=4", perPage: 4, total: 5, rows: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lm.call(t, "GET", tt.path, asAdmin, nil)
			var got page
			if err := json.Unmarshal([]byte(r.Body), &got); err != nil || r.StatusCode != 200 {
				t.Fatalf("%s: %d %s", tt.path, r.StatusCode, r.Body)
			}
			rows := len(got.Leads) + len(got.Entries)
			if got.PerPage != tt.perPage || got.Total != tt.total || rows != tt.rows {
				t.Errorf("%s: perPage %d, total %d, %d rows; want %d, %d, %d", tt.path, got.PerPage, got.Total, rows, tt.perPage, tt.total, tt.rows)
			}
			for _, l := range got.Leads {
				if l.DamageType != tt.damage {
					t.Errorf("%s: a %q lead", tt.path, l.DamageType)
				}
			}
		})
	}
	// The export reads the same filters.
	for path, want := range map[string]int{
		"/api/admin/leads/export.csv?damageType=Water+Damage":                                 1,
		"/api/admin/leads/export.csv?damage_type=Water+Damage":                                1,
		"/api/admin/leads/export.csv?damage_type=Water+Damage&damageType=Mold+Remediation":    4,
		"/api/admin/leads/export.csv?damageType=Mold+Remediation&damage_type=Water+Damage&x=": 4,
	} {
		r := lm.call(t, "GET", path, asAdmin, nil)
		rows, err := csv.NewReader(strings.NewReader(r.Body)).ReadAll()
		if err != nil || r.StatusCode != 200 || len(rows)-1 != want {
			t.Errorf("%s: %d, %d rows (want %d), %v", path, r.StatusCode, len(rows)-1, want, err)
		}
	}
	// An old name's bad value is refused as the new name's is.
	for _, path := range []string{"/api/admin/leads?per_page=-1", "/api/admin/leads?perPage=-1", "/api/admin/audit?per_page=x"} {
		if r := lm.call(t, "GET", path, asAdmin, nil); r.StatusCode != 400 {
			t.Errorf("%s: %d %s", path, r.StatusCode, r.Body)
		}
	}
}
