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
		PhoneTyped   string `json:"phoneTyped"`
		PhoneDisplay string `json:"phoneDisplay"`
		PhoneHref    string `json:"phoneHref"`
		EmailHref    string `json:"emailHref"`
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
		for _, bad := range []string{"phoneDisplay", "phoneHref", "emailHref", "phoneTyped", `"phone"`, "tel:", "mailto:", "555-0199", "5550199", "dana@"} {
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

// leadSecrets are the values staff may never receive, in any form.
var leadSecrets = []string{"555-0134", "5550134", "maria.g@example.com", "aria.g@", "12 Secret Lane", "gate code", "Acme Mutual", "CLM-99812", "555-0100", "bulk@example.com"}

// Staff get masked rows from every leads endpoint, whatever they ask
// for: a search on a phone or an email finds nothing, full data, a
// lead's details and the export are refused with the spec's titles, and
// a status change answers the masked row. (That staff are refused the
// Users and Audit screens, and that every answer is no-store, is the
// every-route walk's: server/routes_test.go.)
func TestStaffNeverSeesUnmaskedData(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		lm := newRoom(t, store)
		seedLeads(t, store, 3)
		var raw []string
		check := func(method, path string, body any, want int) *response {
			r := lm.call(t, method, path, asStaff, body)
			if r.StatusCode != want {
				t.Errorf("staff %s %s: %d, want %d: %s", method, path, r.StatusCode, want, r.Body)
			}
			raw = append(raw, r.Body)
			return r
		}
		list := check("GET", "/api/admin/leads", nil, 200)
		if !strings.Contains(list.Body, `"phone_masked":"(770) ***-**34"`) || !strings.Contains(list.Body, `"email_masked":"m***@example.com"`) || !strings.Contains(list.Body, `"total":3`) {
			t.Errorf("masked list: %s", list.Body)
		}
		for _, k := range []string{`"phone":`, `"email":`, `"street_address"`, `"notes"`, `"insurance_carrier"`, `"claim_number"`} {
			if strings.Contains(list.Body, k) {
				t.Errorf("masked list carries %s", k)
			}
		}
		// A staff search on a phone number or an email finds nothing: those
		// columns are not searched for staff, so a search is no oracle.
		for _, q := range []string{"5550134", "maria.g@example.com", "555-0134"} {
			r := check("GET", "/api/admin/leads?q="+q, nil, 200)
			if !strings.Contains(r.Body, `"total":0`) {
				t.Errorf("staff search %q matched: %s", q, r.Body)
			}
		}
		if r := check("GET", "/api/admin/leads?q=marietta", nil, 200); !strings.Contains(r.Body, `"total":1`) {
			t.Errorf("city search: %s", r.Body)
		}
		full := check("GET", "/api/admin/leads?full=1", nil, 403)
		if full.Body != `{"error":"Only admins can view full lead details","title":"Access Restricted"}`+"\n" {
			t.Errorf("full=1: %s", full.Body)
		}
		check("GET", "/api/admin/leads/lead-002", nil, 403)
		exp := check("GET", "/api/admin/leads/export.csv", nil, 403)
		if !strings.Contains(exp.Body, `"title":"Export Restricted"`) || !strings.Contains(exp.Body, "Only admins can export lead data") {
			t.Errorf("export: %s", exp.Body)
		}
		upd := check("PATCH", "/api/admin/leads/lead-002", map[string]string{"status": "contacted"}, 200)
		if !strings.Contains(upd.Body, `"status":"contacted"`) || !strings.Contains(upd.Body, `"phone_masked"`) {
			t.Errorf("staff status change: %s", upd.Body)
		}
		check("PATCH", "/api/admin/leads/lead-002", map[string]string{"status": "lost"}, 400)
		check("PATCH", "/api/admin/leads/nope", map[string]string{"status": "new"}, 404)
		for _, body := range raw {
			for _, s := range leadSecrets {
				if strings.Contains(body, s) {
					t.Errorf("staff received %q in %s", s, body)
				}
			}
		}
		if l, _ := store.GetLead(context.Background(), "lead-002"); l.Status != "contacted" || !l.UpdatedAt.After(l.CreatedAt) {
			t.Errorf("status not stored: %+v", l)
		}
	})
}

// An admin pages through 120 leads, searches phones and emails, reads
// full data and a lead's details, changes a status and exports a CSV
// (the filters apply, formulas are neutralised); each is audited, and
// the Audit Log says it in a sentence. (The sign-in's own audit entry is
// server/'s TestAccountSignIn; that the export is no-store, the
// every-route walk's.)
func TestAdminLeadsFullDataExportAndAudit(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		lm := newRoom(t, store)
		seedLeads(t, store, 120)
		admin := asAdmin

		// Pages: 120 leads, 50 per page, newest first.
		r := lm.call(t, "GET", "/api/admin/leads?page=3&perPage=50", admin, nil)
		var page struct {
			Leads   []map[string]any
			Total   int
			Page    int
			PerPage int
		}
		json.Unmarshal([]byte(r.Body), &page)
		if r.StatusCode != 200 || page.Total != 120 || page.Page != 3 || page.PerPage != 50 || len(page.Leads) != 20 || page.Leads[0]["id"] != "lead-019" {
			t.Fatalf("page 3: %d total %d len %d first %v", r.StatusCode, page.Total, len(page.Leads), page.Leads[0]["id"])
		}
		if _, ok := page.Leads[0]["phone"]; ok {
			t.Error("the default list is masked for admins too")
		}
		// Admins search phone numbers and emails.
		if r := lm.call(t, "GET", "/api/admin/leads?q=770-555-0134", admin, nil); !strings.Contains(r.Body, `"total":1`) {
			t.Errorf("admin phone search: %s", r.Body)
		}
		full := lm.call(t, "GET", "/api/admin/leads?full=1&emergency=true", admin, nil)
		if full.StatusCode != 200 || !strings.Contains(full.Body, `"phone":"+17705550134","phoneTyped":"(770) 555-0134"`) || !strings.Contains(full.Body, `"phoneDisplay":"(770) 555-0134"`) || !strings.Contains(full.Body, `"notes":"gate code 4471"`) || !strings.Contains(full.Body, `"total":1`) {
			t.Errorf("full: %s", full.Body)
		}
		det := lm.call(t, "GET", "/api/admin/leads/lead-119", admin, nil)
		if det.StatusCode != 200 || !strings.Contains(det.Body, `"claim_number":"CLM-99812"`) || !strings.Contains(det.Body, `"street_address":"12 Secret Lane"`) {
			t.Errorf("detail: %s", det.Body)
		}
		if r := lm.call(t, "GET", "/api/admin/leads/none", admin, nil); r.StatusCode != 404 {
			t.Errorf("unknown lead: %d", r.StatusCode)
		}
		if r := lm.call(t, "GET", "/api/admin/leads?status=lost", admin, nil); r.StatusCode != 400 {
			t.Errorf("bad filter: %d", r.StatusCode)
		}
		if r := lm.call(t, "PATCH", "/api/admin/leads/lead-000", admin, map[string]string{"status": "scheduled"}); r.StatusCode != 200 || !strings.Contains(r.Body, `"phoneDisplay":"(404) 555-0100"`) {
			t.Errorf("admin status change: %s", r.Body)
		}

		// Export: the filters apply, formulas are neutralised, it downloads.
		exp := lm.call(t, "GET", "/api/admin/leads/export.csv?status=new", admin, nil)
		if exp.StatusCode != 200 || exp.Header.Get("Content-Type") != "text/csv; charset=utf-8" || exp.Header.Get("Content-Disposition") != `attachment; filename="leads-export.csv"` {
			t.Fatalf("export: %d %v", exp.StatusCode, exp.Header)
		}
		rows, err := csv.NewReader(strings.NewReader(exp.Body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(rows[0], ",") != "ID,Date,Name,Phone,Email,City,Damage Type,Status,Emergency,Street Address,ZIP,Insurance Carrier,Message" || len(rows) != 1+119 {
			t.Fatalf("export: header %v, %d rows", rows[0], len(rows)-1)
		}
		if rows[1][0] != "lead-119" || rows[1][3] != "(770) 555-0134" || rows[1][8] != "Yes" || rows[2][2] != `'=HYPERLINK("http://evil.example") Person118` {
			t.Errorf("rows: %v / %v", rows[1], rows[2])
		}
		got := strings.Join(auditTrail(t, store), " ")
		for _, want := range []string{"list_full:" + adminEmail, "lead_detail:" + adminEmail, "status_change:" + adminEmail, "export:" + adminEmail} {
			if !strings.Contains(got, want) {
				t.Errorf("audit lacks %s: %s", want, got)
			}
		}
		au := lm.call(t, "GET", "/api/admin/audit?perPage=2", admin, nil)
		if au.StatusCode != 200 || !strings.Contains(au.Body, `"sentence":"The Owner (owner@example.com) exported 119 leads to a spreadsheet (leads with status new)"`) {
			t.Errorf("audit API: %s", au.Body)
		}
	})
}
