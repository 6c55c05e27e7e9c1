package server

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
	srv, store, h := accountServer(t)
	seedLeads(t, store, 3) // lead-002 is Maria Gonzalez, maria.g@example.com, (770) 555-0134
	ctx := context.Background()
	now := time.Now().UTC()
	store.CreateLead(ctx, db.Lead{ID: "maria-again", CreatedAt: now, UpdatedAt: now, FirstName: "Maria", Phone: "770.555.0134", Email: "other@example.com", Status: "new", Source: "website"})
	store.AddLeadNote(ctx, "lead-002", db.Actor{Name: "crew"}, "prefers texts", now)
	admin := signIn(t, h, adminEmail, adminPass)
	staff := signIn(t, h, staffEmail, staffPass)
	pin := unlock(t, h)
	_ = srv

	for who, tok := range map[string]string{"no session": "", "staff": staff, "pin": pin} {
		r := jsonReq(t, h, "GET", "/api/admin/leads/person?email=maria.g@example.com", tok, nil)
		if r.StatusCode != 401 && r.StatusCode != 403 || strings.Contains(r.Body, "Gonzalez") {
			t.Errorf("export as %s: %d %.100s", who, r.StatusCode, r.Body)
		}
		if r := jsonReq(t, h, "DELETE", "/api/admin/leads/lead-002", tok, nil); r.StatusCode != 401 && r.StatusCode != 403 {
			t.Errorf("delete as %s: %d", who, r.StatusCode)
		}
	}
	for _, q := range []string{"", "email=", "email=maria", "phone=12", "email=%25"} {
		if r := jsonReq(t, h, "GET", "/api/admin/leads/person?"+q, admin, nil); r.StatusCode != 400 {
			t.Errorf("search %q: %d %s", q, r.StatusCode, r.Body)
		}
	}
	r := jsonReq(t, h, "GET", "/api/admin/leads/person?email=MARIA.G@example.com&phone="+url.QueryEscape("(770) 555-0134"), admin, nil)
	if r.StatusCode != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), "attachment") || r.Header.Get("Cache-Control") != "no-store" {
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
	if r := jsonReq(t, h, "DELETE", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 200 || !strings.Contains(r.Body, `"deleted":true`) {
		t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 404 {
		t.Errorf("the deleted lead: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 404 {
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
}

// The privacy page says what is kept and for how long from the
// configuration the retention job enforces.
func TestPrivacyPageStatesRetention(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir(), "RETAIN_AUDIT_DAYS": "365", "RETAIN_OUTBOX_DAYS": "14"})
	r := get(t, srv.Handler(), "/privacy")
	if r.StatusCode != 200 {
		t.Fatalf("/privacy: %d", r.StatusCode)
	}
	for _, want := range []string{"What this website keeps, and for how long", "Deleted after 1 year", "Deleted 14 days after they are sent", "Kept at most 28 days", "Detailed records deleted after 30 days"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("/privacy lacks %q", want)
		}
	}
	if r := get(t, srv.Handler(), "/terms"); strings.Contains(r.Body, "What this website keeps") {
		t.Error("/terms shows the retention block")
	}
}
