package leads

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
)

// The attention block lists the unanswered new leads, emergencies first
// then the longest waiting, with their waits; today's figures count what
// came in and what was answered today.
func TestLeadsAttentionAnswer(t *testing.T) {
	t.Parallel()
	lm, who := leadsFirstRoom(t)
	for _, tok := range []string{who.admin, who.assigned} {
		r := lm.call(t, "GET", "/api/admin/leads/attention", tok, nil)
		var a AttentionAnswer
		if err := json.Unmarshal([]byte(r.Body), &a); err != nil || r.StatusCode != 200 {
			t.Fatalf("attention: %d %v %s", r.StatusCode, err, r.Body)
		}
		var ids []string
		for _, w := range a.Waiting {
			ids = append(ids, w.ID)
		}
		// lead-answered has a note: answered, though still 'new'.
		if got := strings.Join(ids, " "); got != "lead-002 lead-000 lead-001 lead-fresh" || a.Total != 4 {
			t.Errorf("waiting %s (total %d), want the emergency first, then oldest first", got, a.Total)
		}
		fresh := a.Waiting[len(a.Waiting)-1]
		if fresh.WaitingSeconds < 11*60 || fresh.WaitingSeconds > 20*60 {
			t.Errorf("fresh lead waited %.0f s, want about 12 min", fresh.WaitingSeconds)
		}
		if fresh.PhoneMasked != "(678) ***-**77" || fresh.EmailMasked != "f***@example.com" {
			t.Errorf("fresh lead masked as %q %q", fresh.PhoneMasked, fresh.EmailMasked)
		}
		td := a.Today
		from, _ := leads.Today(time.Now())
		if td.Date != from.Format("2006-01-02") {
			t.Errorf("today is %s, want %s", td.Date, from.Format("2006-01-02"))
		}
		// Around midnight in Atlanta the two new leads may fall on
		// yesterday; the figures must then say so.
		if time.Since(from) > 13*time.Minute && (td.New != 2 || td.Emergencies != 1 || td.Answered != 1 || td.MedianSeconds != 300) {
			t.Errorf("today %+v, want 2 new, 1 emergency, 1 answered after 5 min", td)
		}
		if !strings.Contains(r.Body, `"street_address":"12 Secret Lane"`) != (tok == who.admin) {
			t.Errorf("attention for %s: the assigned staff member alone gets the visit's address: %s", map[bool]string{true: "admin", false: "assigned staff"}[tok == who.admin], r.Body)
		}
	}
}

// The reveal answers the number and the links Call and Text open.
func TestLeadReveal(t *testing.T) {
	t.Parallel()
	lm, who := leadsFirstRoom(t)
	store := lm.store
	r := lm.call(t, "POST", "/api/admin/leads/lead-002/reveal", who.admin, map[string]any{})
	var c leads.Contact
	if err := json.Unmarshal([]byte(r.Body), &c); err != nil || r.StatusCode != 200 {
		t.Fatalf("reveal: %d %v", r.StatusCode, err)
	}
	want := leads.Contact{ID: "lead-002", Phone: "+17705550134", PhoneDisplay: "(770) 555-0134", PhoneHref: "tel:+17705550134", SMSHref: "sms:+17705550134",
		Email: "maria.g@example.com", EmailHref: "mailto:maria.g@example.com"}
	if c != want {
		t.Errorf("reveal %+v, want %+v", c, want)
	}
	// No-store, and 401 without a session: server/routes_test.go tries
	// every caller on every route.
	es, _, _ := store.ListAudit(context.Background(), 5, 0)
	if len(es) == 0 || es[0].Action != db.AuditLeadReveal || es[0].LeadID != "lead-002" || strings.Contains(es[0].Detail, "555") {
		t.Errorf("audit %+v", es)
	}
	// Without a session, nothing is revealed.
}

// leadsFirstRoom is the room with the leads of server/'s leads-first
// tests: three seeded (lead-002 an emergency assigned to Crew Lead), a
// fresh one waiting 12 minutes, and an emergency answered after 5; the
// callers are the admin and the assigned staff member.
func leadsFirstRoom(t *testing.T) (*room, struct{ admin, assigned string }) {
	t.Helper()
	store := db.NewTestSQLite(t)
	lm := newRoom(t, store)
	seedLeads(t, store, 3)
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
	return lm, struct{ admin, assigned string }{asAdmin, asStaff}
}
