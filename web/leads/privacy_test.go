package leads

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
)

// Privacy requests: an admin exports one person's data (every lead with
// their email or phone, with its timeline) and deletes a lead; each is
// audited with who and when and no contact data. Staff, the PIN and no
// session are refused; a search that names nobody is refused.
func TestPrivacyRequests(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		lm := newRoom(t, store)
		seedLeads(t, store, 3) // lead-002 is Maria Gonzalez, maria.g@example.com, (770) 555-0134
		ctx := context.Background()
		now := time.Now().UTC()
		store.CreateLead(ctx, db.Lead{ID: "maria-again", CreatedAt: now, UpdatedAt: now, FirstName: "Maria", Phone: "770.555.0134", Email: "other@example.com", Status: "new", Source: "website"})
		store.AddLeadNote(ctx, "lead-002", db.Actor{Name: "crew"}, "prefers texts", now)
		admin := asAdmin
		// Staff, the PIN and no session are refused by the route's guard
		// (leads.erase), and every answer is no-store: server/routes_test.go
		// tries every caller on every route.
		for _, q := range []string{"", "email=", "email=maria", "phone=12", "email=%25"} {
			if r := lm.call(t, "GET", "/api/admin/leads/person?"+q, admin, nil); r.StatusCode != 400 {
				t.Errorf("search %q: %d %s", q, r.StatusCode, r.Body)
			}
		}
		r := lm.call(t, "GET", "/api/admin/leads/person?email=MARIA.G@example.com&phone="+url.QueryEscape("(770) 555-0134"), admin, nil)
		if r.StatusCode != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export: %d %v %s", r.StatusCode, r.Header, r.Body)
		}
		var exp struct {
			Leads []struct {
				ID       string `json:"id"`
				Email    string `json:"email"`
				Timeline []struct{ Kind, Body string }
			}
		}
		json.Unmarshal([]byte(r.Body), &exp)
		if len(exp.Leads) != 2 || exp.Leads[0].ID != "lead-002" || exp.Leads[1].ID != "maria-again" {
			t.Fatalf("exported %+v", exp.Leads)
		}
		if !strings.Contains(r.Body, "prefers texts") || !strings.Contains(r.Body, "12 Secret Lane") {
			t.Errorf("the export lacks the timeline or the address: %.300s", r.Body)
		}

		// Delete: gone, and the audit keeps who and when, no contact data.
		if r := lm.call(t, "DELETE", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 200 || !strings.Contains(r.Body, `"deleted":true`) {
			t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
		}
		if r := lm.call(t, "GET", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 404 {
			t.Errorf("the deleted lead: %d", r.StatusCode)
		}
		if r := lm.call(t, "DELETE", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 404 {
			t.Errorf("delete again: %d", r.StatusCode)
		}
		entries, _, _ := store.ListAudit(ctx, 100, 0)
		var deleted, exported int
		for _, e := range entries {
			for _, s := range []string{"maria.g@", "555-0134", "5550134", "Gonzalez", "Secret Lane"} {
				if strings.Contains(e.Detail, s) || strings.Contains(e.Actor, s) {
					t.Errorf("audit entry holds contact data: %+v", e)
				}
			}
			switch e.Action {
			case db.AuditLeadDeleted:
				deleted++
				if e.LeadID != "lead-002" || e.Actor != adminEmail || e.At.IsZero() {
					t.Errorf("deletion entry %+v", e)
				}
			case db.AuditPrivacyExport:
				exported++
				if e.Detail != "2 leads: lead-002, maria-again" || e.Actor != adminEmail {
					t.Errorf("export entry %+v", e)
				}
			}
		}
		if deleted != 1 || exported != 1 {
			t.Errorf("audit: %d deletions, %d exports", deleted, exported)
		}
		if !slices.Contains(accounts.Capabilities(accounts.RoleAdmin), accounts.LeadsErase) || slices.Contains(accounts.Capabilities(accounts.RoleStaff), accounts.LeadsErase) ||
			slices.Contains(accounts.Capabilities(accounts.RolePIN), accounts.LeadsErase) {
			t.Error("leads.erase must be the admins' alone")
		}
	})
}
