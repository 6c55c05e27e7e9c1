package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
	leadsweb "github.com/atlanta-restoration/site/web/leads"
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

// The attention block lists the unanswered new leads, emergencies first
// then the longest waiting, with their waits; today's figures count what
// came in and what was answered today.
func TestLeadsAttentionAnswer(t *testing.T) {
	_, h, who := leadsFirstServer(t)
	for _, tok := range []string{who.admin, who.assigned} {
		r := jsonReq(t, h, "GET", "/api/admin/leads/attention", tok, nil)
		var a leadsweb.AttentionAnswer
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
	store, h, who := leadsFirstServer(t)
	r := jsonReq(t, h, "POST", "/api/admin/leads/lead-002/reveal", who.admin, map[string]any{})
	var c leads.Contact
	if err := json.Unmarshal([]byte(r.Body), &c); err != nil || r.StatusCode != 200 {
		t.Fatalf("reveal: %d %v", r.StatusCode, err)
	}
	want := leads.Contact{ID: "lead-002", Phone: "+17705550134", PhoneDisplay: "(770) 555-0134", PhoneHref: "tel:+17705550134", SMSHref: "sms:+17705550134",
		Email: "maria.g@example.com", EmailHref: "mailto:maria.g@example.com"}
	if c != want {
		t.Errorf("reveal %+v, want %+v", c, want)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("reveal Cache-Control %q", cc)
	}
	es, _, _ := store.ListAudit(context.Background(), 5, 0)
	if len(es) == 0 || es[0].Action != db.AuditLeadReveal || es[0].LeadID != "lead-002" || strings.Contains(es[0].Detail, "555") {
		t.Errorf("audit %+v", es)
	}
	// Without a session, nothing is revealed.
	if r := jsonReq(t, h, "POST", "/api/admin/leads/lead-002/reveal", "", map[string]any{}); r.StatusCode != 401 {
		t.Errorf("reveal without a session: %d", r.StatusCode)
	}
}
