package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// The leads-first admin through the assembled application: the
// dashboard's unanswered leads and today's figures, an admin's one-tap
// reveal of a lead's number (audited), and what a staff member assigned
// to a lead sees of it, for every kind of caller.

const crew2Email, crew2Pass = "crew2@example.com", "a second crew passphrase"

type leadsFirstCallers struct{ none, pin, editor, staff, assigned, admin string }

// leadsFirstServer has the seeded leads (lead-002, Maria, an emergency
// with every secret, assigned to crew@), one more lead that came in 12
// minutes ago, an emergency answered 5 minutes ago, and two staff
// accounts: crew@ has lead-002, crew2@ has nothing.
func leadsFirstServer(t *testing.T) (*db.Store, http.Handler, leadsFirstCallers) {
	t.Helper()
	_, store, h := accountServer(t)
	seedLeads(t, store, 3)
	addUser(t, store, editorEmail, editorPass, "editor", "Eddie Editor")
	addUser(t, store, crew2Email, crew2Pass, "staff", "Second Crew")
	ctx := context.Background()
	now := time.Now().UTC()
	for _, l := range []db.Lead{
		{ID: "lead-fresh", CreatedAt: now.Add(-12 * time.Minute), UpdatedAt: now, FirstName: "Fresh", LastName: "Caller", Phone: "(678) 555-0177",
			Email: "fresh@example.com", City: "Smyrna", DamageType: "Fire Damage", Status: "new", Source: "website"},
		{ID: "lead-answered", CreatedAt: now.Add(-10 * time.Minute), UpdatedAt: now, FirstName: "Done", LastName: "Already", Phone: "(678) 555-0166",
			Email: "done@example.com", City: "Smyrna", DamageType: "Fire Damage", Status: "new", Source: "website", IsEmergency: true},
	} {
		if err := store.CreateLead(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	owner := db.Actor{UserID: "u-owner", Name: "The Owner"}
	if _, err := store.AddLeadNote(ctx, "lead-answered", owner, "Called back.", now.Add(-5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := store.AssignLead(ctx, "lead-002", "u-crew", owner, now); err != nil {
		t.Fatal(err)
	}
	return store, h, leadsFirstCallers{pin: unlock(t, h), editor: signIn(t, h, editorEmail, editorPass),
		staff: signIn(t, h, crew2Email, crew2Pass), assigned: signIn(t, h, staffEmail, staffPass), admin: signIn(t, h, adminEmail, adminPass)}
}

// contactSecrets are the leads' phones and emails (and lead-002's
// insurance), which no staff member may receive in any form.
var contactSecrets = []string{"555-0134", "5550134", "maria.g@example.com", "aria.g@", "Acme Mutual", "CLM-99812", "555-0100", "bulk@example.com",
	"555-0177", "fresh@example.com"}

// visitFacts are what the staff member assigned to lead-002 needs.
var visitFacts = []string{"12 Secret Lane", "gate code 4471"}

func TestLeadsFirstEveryCaller(t *testing.T) {
	store, h, who := leadsFirstServer(t)
	type want struct{ none, pin, editor, staff, assigned, admin int }
	for _, c := range []struct {
		name, method, path string
		body               any
		want               want
	}{
		{"attention", "GET", "/api/admin/leads/attention", nil, want{401, 403, 403, 200, 200, 200}},
		{"reveal", "POST", "/api/admin/leads/lead-002/reveal", map[string]any{}, want{401, 403, 403, 403, 403, 200}},
		{"reveal of no lead", "POST", "/api/admin/leads/no-such-lead/reveal", map[string]any{}, want{401, 403, 403, 403, 403, 404}},
		{"list", "GET", "/api/admin/leads", nil, want{401, 403, 403, 200, 200, 200}},
		{"status", "PATCH", "/api/admin/leads/lead-002", map[string]string{"status": "new"}, want{401, 403, 403, 200, 200, 200}},
		{"detail", "GET", "/api/admin/leads/lead-002", nil, want{401, 403, 403, 403, 403, 200}},
	} {
		for _, k := range []struct {
			role, tok string
			want      int
		}{{"none", who.none, c.want.none}, {"pin", who.pin, c.want.pin}, {"editor", who.editor, c.want.editor},
			{"staff", who.staff, c.want.staff}, {"assigned staff", who.assigned, c.want.assigned}, {"admin", who.admin, c.want.admin}} {
			r := jsonReq(t, h, c.method, c.path, k.tok, c.body)
			if r.StatusCode != k.want {
				t.Errorf("%s as %s: %d %.200s, want %d", c.name, k.role, r.StatusCode, r.Body, k.want)
			}
			if r.StatusCode == 403 && strings.HasPrefix(c.name, "reveal") && k.role != "pin" && k.role != "editor" &&
				(!strings.Contains(r.Body, "Access Restricted") || !strings.Contains(r.Body, "Only admins can view full lead details")) {
				t.Errorf("%s as %s: %s, want spec's 'Access Restricted'", c.name, k.role, r.Body)
			}
			if strings.HasSuffix(k.role, "staff") {
				for _, s := range contactSecrets {
					if strings.Contains(r.Body, s) {
						t.Errorf("%s as %s: %q in %.300s", c.name, k.role, s, r.Body)
					}
				}
				for _, s := range visitFacts {
					if got := strings.Contains(r.Body, s); r.StatusCode == 200 && c.name != "attention" && got != (k.role == "assigned staff") {
						t.Errorf("%s as %s: %q shown %v", c.name, k.role, s, got)
					}
				}
			}
		}
	}
	// Only the admin's reveals are audited, one row each.
	n := 0
	for _, a := range auditActions(t, store) {
		if strings.HasPrefix(a, db.AuditLeadReveal+":") {
			n++
			if a != db.AuditLeadReveal+":"+adminEmail {
				t.Errorf("reveal audited as %s", a)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d reveals audited, want 1 (the refused and the missing one are not)", n)
	}
}
