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

		// Delete: gone, and the audit keeps who and when, no contact data;
		// the public pages are re-rendered (a job may have named them).
		var rerendered []string
		lm.h.Changed = func(reason string) { rerendered = append(rerendered, reason) }
		if r := lm.call(t, "DELETE", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 200 || !strings.Contains(r.Body, `"deleted":true`) {
			t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
		}
		if r := lm.call(t, "GET", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 404 {
			t.Errorf("the deleted lead: %d", r.StatusCode)
		}
		if r := lm.call(t, "DELETE", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 404 {
			t.Errorf("delete again: %d", r.StatusCode)
		}
		if len(rerendered) != 1 {
			t.Errorf("pages re-rendered %d times for one erasure", len(rerendered))
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

// A privacy export carries what the person wrote on a feedback page,
// whether they opted out of review requests (ADR 063), and the jobs that
// came from their lead with the name recorded for them (ADR 061).
func TestPrivacyExportHasTestimonialAndOptOut(t *testing.T) {
	t.Parallel()
	store := db.NewTestSQLite(t)
	lm := newRoom(t, store)
	ctx := context.Background()
	now := time.Now().UTC()
	if err := store.CreateLead(ctx, db.Lead{ID: "ann", CreatedAt: now, UpdatedAt: now, FirstName: "Ann", Email: "ann@example.com", City: "Smyrna", Status: "new", Source: "website"}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.ChangeLeadStatus(ctx, "ann", "completed", db.SystemActor, now); err != nil {
		t.Fatal(err)
	}
	rq, _ := store.ReviewRequestOf(ctx, "ann")
	if _, err := store.SaveTestimonial(ctx, db.Testimonial{RequestID: rq.ID, LeadID: "ann", FirstName: "Ann", City: "Smyrna", Body: "Kind crew.", Consent: true}, now); err != nil {
		t.Fatal(err)
	}
	if err := store.OptOut(ctx, []string{"ann@example.com"}, now); err != nil {
		t.Fatal(err)
	}
	job, err := store.CreateJob(ctx, db.JobFields{Title: "Kitchen ceiling", Month: "2026-10", LeadID: "ann", CustomerName: "Ann Smith", NameConsent: true})
	if err != nil {
		t.Fatal(err)
	}
	r := lm.call(t, "GET", "/api/admin/leads/person?email=ann@example.com", asAdmin, nil)
	var exp struct {
		ReviewOptOut bool `json:"reviewOptOut"`
		Leads        []struct {
			Jobs []struct {
				Title        string `json:"title"`
				CustomerName string `json:"customerName"`
				NameConsent  bool   `json:"nameConsent"`
			} `json:"jobs"`
			Testimonial *struct {
				Text    string `json:"text"`
				Consent bool   `json:"consent"`
			} `json:"testimonial"`
		} `json:"leads"`
	}
	if err := json.Unmarshal([]byte(r.Body), &exp); err != nil || !exp.ReviewOptOut || len(exp.Leads) != 1 || exp.Leads[0].Testimonial == nil ||
		exp.Leads[0].Testimonial.Text != "Kind crew." || !exp.Leads[0].Testimonial.Consent {
		t.Fatalf("export %d %s", r.StatusCode, r.Body)
	}
	if j := exp.Leads[0].Jobs; len(j) != 1 || j[0].Title != "Kitchen ceiling" || j[0].CustomerName != "Ann Smith" || !j[0].NameConsent {
		t.Errorf("the export's jobs: %+v", j)
	}
	// Deleting the lead of a shown testimonial renders the pages again.
	changed := 0
	lm.h.Changed = func(string) { changed++ }
	tm, _ := store.Testimonials(ctx, "")
	if _, err := store.ModerateTestimonial(ctx, tm[0].ID, db.TestimonialApproved, nil, now); err != nil {
		t.Fatal(err)
	}
	if r := lm.call(t, "DELETE", "/api/admin/leads/ann", asAdmin, nil); r.StatusCode != 200 || changed != 1 {
		t.Fatalf("delete: %d, pages re-rendered %d times", r.StatusCode, changed)
	}
	if pub, _ := store.PublicTestimonials(ctx); len(pub) != 0 {
		t.Errorf("the testimonial outlived its lead: %+v", pub)
	}
	if j, _ := store.GetJob(ctx, job.ID); j.CustomerName != "" || j.NameConsent || j.LeadID != "" {
		t.Errorf("the job kept the erased homeowner: %+v", j)
	}
}
