package leads

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/google/go-cmp/cmp"
)

// Admins with full data get the formatted phone and tel:/mailto: links
// from the server; staff get none of them, only the masks; the CSV's
// Phone is the formatted number, or the phone as typed.
func TestLeadsAPIPhoneLinks(t *testing.T) {
	t.Parallel()
	store := db.NewTestSQLite(t)
	lm := newRoom(t, store)
	ctx := context.Background()
	now := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	for _, l := range []db.Lead{
		{ID: "p1", CreatedAt: now, FirstName: "Dana", Phone: "678.555.0199", Email: "dana@example.com", Status: "new", Source: "website", IsEmergency: true},
		{ID: "p2", CreatedAt: now.Add(time.Minute), FirstName: "Eli", Phone: "678-555-0199 x12", Email: "", Status: "new", Source: "website"},
	} {
		l.UpdatedAt = l.CreatedAt
		if err := store.CreateLead(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	admin, staff := asAdmin, asStaff

	type row struct {
		ID           string `json:"id"`
		Phone        string `json:"phone"`
		PhoneTyped   string `json:"phone_typed"`
		PhoneDisplay string `json:"phone_display"`
		PhoneHref    string `json:"phone_href"`
		EmailHref    string `json:"email_href"`
	}
	want := []row{
		{"p2", "678-555-0199 x12", "678-555-0199 x12", "678-555-0199 x12", "", ""},
		{"p1", "+16785550199", "678.555.0199", "(678) 555-0199", "tel:+16785550199", "mailto:dana@example.com"},
	}
	r := lm.call(t, "GET", "/api/admin/leads?full=1", admin, nil)
	var list struct{ Leads []row }
	if err := json.Unmarshal([]byte(r.Body), &list); err != nil || r.StatusCode != 200 {
		t.Fatalf("full list: %d %s", r.StatusCode, r.Body)
	}
	if diff := cmp.Diff(want, list.Leads); diff != "" {
		t.Errorf("full list (-want, +got):\n%s", diff)
	}
	var detail row
	r = lm.call(t, "GET", "/api/admin/leads/p1", admin, nil)
	if json.Unmarshal([]byte(r.Body), &detail); detail != want[1] {
		t.Errorf("detail: %s", r.Body)
	}
	var patched struct{ Lead row }
	r = lm.call(t, "PATCH", "/api/admin/leads/p1", admin, map[string]string{"status": "contacted"})
	if json.Unmarshal([]byte(r.Body), &patched); patched.Lead != want[1] {
		t.Errorf("admin status change: %s", r.Body)
	}

	// Staff: masks only, no links, whatever they ask for.
	for _, req := range []struct{ method, path string }{{"GET", "/api/admin/leads"}, {"GET", "/api/admin/leads?full=1"}, {"GET", "/api/admin/leads/p1"}, {"PATCH", "/api/admin/leads/p1"}} {
		var body any
		if req.method == "PATCH" {
			body = map[string]string{"status": "scheduled"}
		}
		r := lm.call(t, req.method, req.path, staff, body)
		for _, bad := range []string{"phone_display", "phone_href", "email_href", "phone_typed", `"phone"`, "tel:", "mailto:", "555-0199", "5550199", "dana@"} {
			if strings.Contains(r.Body, bad) {
				t.Errorf("staff %s %s holds %q: %s", req.method, req.path, bad, r.Body)
			}
		}
	}
	if r := lm.call(t, "GET", "/api/admin/leads", staff, nil); !strings.Contains(r.Body, `"phone_masked":"(678) ***-**99"`) {
		t.Errorf("staff mask: %s", r.Body)
	}

	exp := lm.call(t, "GET", "/api/admin/leads/export.csv", admin, nil)
	rows, err := csv.NewReader(strings.NewReader(exp.Body)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("export: %v %q", err, exp.Body)
	}
	if got := []string{rows[1][3], rows[2][3]}; !cmp.Equal(got, []string{"678-555-0199 x12", "(678) 555-0199"}) {
		t.Errorf("CSV phones %q", got)
	}
}
