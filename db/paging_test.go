package db

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestContains(t *testing.T) {
	if cond, args := Contains("  ", "a"); cond != "" || args != nil {
		t.Errorf("blank search: %q %v", cond, args)
	}
	cond, args := Contains(" 50%_Off\\ ", "a", "b")
	if cond != `(LOWER(a) LIKE ? ESCAPE '\' OR LOWER(b) LIKE ? ESCAPE '\')` || len(args) != 2 || args[0] != `%50\%\_off\\%` {
		t.Errorf("%q %v", cond, args)
	}
}

// Users, the audit log, sessions and the photo library page and search on
// the server: pages laid end to end hold every row once, in order; totals
// count every match; the search ignores case.
func TestListPages(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
		for i := range 7 {
			role := "staff"
			if i < 3 {
				role = "admin"
			}
			u := User{ID: fmt.Sprintf("u%d", i), Email: fmt.Sprintf("person%d@example.com", i), Name: fmt.Sprintf("Person %d", i), PasswordHash: "x",
				CreatedAt: now.Add(time.Duration(i%3) * time.Minute), UpdatedAt: now, Roles: []string{role}} // created_at ties: by email
			if i == 4 {
				u.Name = "Dana O'Neil"
			}
			if err := s.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		yes := true
		if _, err := s.ChangeUser(ctx, "u2", UserChange{Disabled: &yes}, now); err != nil {
			t.Fatal(err)
		}
		if n, err := s.ActiveUsersWithRole(ctx, "admin"); err != nil || n != 2 {
			t.Errorf("active admins: %d %v, want 2 (one disabled)", n, err)
		}
		var emails []string
		for off := 0; off < 9; off += 3 {
			us, total, err := s.UsersPage(ctx, Page{Limit: 3, Offset: off})
			if err != nil || total != 7 {
				t.Fatalf("users from %d: total %d, %v", off, total, err)
			}
			for _, u := range us {
				if len(u.Roles) != 1 {
					t.Errorf("%s: roles %v", u.Email, u.Roles)
				}
				emails = append(emails, u.Email)
			}
		}
		want := "person0@example.com person3@example.com person6@example.com person1@example.com person4@example.com person2@example.com person5@example.com"
		if got := strings.Join(emails, " "); got != want {
			t.Errorf("users in pages:\n got %s\nwant %s", got, want)
		}
		if us, total, err := s.UsersPage(ctx, Page{Q: "o'neil", Limit: 3}); err != nil || total != 1 || len(us) != 1 || us[0].ID != "u4" {
			t.Errorf("users by name: %+v of %d, %v", us, total, err)
		}
		if us, total, _ := s.UsersPage(ctx, Page{Q: "PERSON5@", Limit: 3}); total != 1 || len(us) != 1 || us[0].ID != "u5" {
			t.Errorf("users by email: %+v of %d", us, total)
		}
		if us, total, _ := s.UsersPage(ctx, Page{Q: "nobody", Limit: 3}); total != 0 || len(us) != 0 || us == nil {
			t.Errorf("no match: %#v of %d (want an empty list, not nil)", us, total)
		}

		// The audit log, searched on what names its entries.
		if err := s.CreateLead(ctx, Lead{ID: "lead-1", CreatedAt: now, UpdatedAt: now, FirstName: "Jane", LastName: "Doe", Phone: "(404) 555-0100",
			City: "Marietta", DamageType: "Water Damage", Status: "new", Source: "website"}); err != nil {
			t.Fatal(err)
		}
		for i := range 30 {
			e := AuditEntry{At: now.Add(time.Duration(i/2) * time.Second), Actor: "command line", Action: AuditExport, Detail: fmt.Sprint("run ", i), IP: "10.0.0.1"}
			if i%10 == 3 {
				e.UserID, e.Actor, e.LeadID, e.Action, e.IP = "u4", "person4@example.com", "lead-1", AuditLeadDetail, "203.0.113.9"
			}
			if err := s.AddAudit(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		seen := map[string]bool{}
		var last AuditRow
		for off := 0; off < 30; off += 7 {
			rows, total, err := s.AuditPage(ctx, Page{Limit: 7, Offset: off})
			if err != nil || total != 30 {
				t.Fatalf("audit from %d: total %d, %v", off, total, err)
			}
			for _, r := range rows {
				if seen[r.ID] {
					t.Errorf("entry %s on two pages", r.ID)
				}
				seen[r.ID] = true
				if last.ID != "" && (r.At.After(last.At) || r.At.Equal(last.At) && r.ID > last.ID) {
					t.Errorf("%s (%s) after %s (%s): not newest first", r.ID, r.At, last.ID, last.At)
				}
				last = r
			}
		}
		if len(seen) != 30 {
			t.Errorf("%d entries in the pages, want 30", len(seen))
		}
		for _, q := range []string{"jane doe", "MARIETTA", "dana", "person4@", "203.0.113"} {
			rows, total, err := s.AuditPage(ctx, Page{Q: q, Limit: 2})
			if err != nil || total != 3 || len(rows) != 2 || rows[0].LeadFirst != "Jane" {
				t.Errorf("audit %q: %d rows of %d, %v", q, len(rows), total, err)
			}
		}
		if rows, total, _ := s.AuditPage(ctx, Page{Q: "run 2", Limit: 50}); total != 11 || len(rows) != 11 {
			t.Errorf("audit by detail: %d of %d, want 11 (run 2, run 20..29)", len(rows), total)
		}

		// Live sessions: an account's, or one; expired ones never.
		for i := range 5 {
			se := Session{ID: fmt.Sprintf("s%d", i), TokenHash: fmt.Sprintf("h%d", i), IP: fmt.Sprintf("192.0.2.%d", i), CreatedAt: now.Add(time.Duration(i) * time.Minute),
				ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(time.Hour)}
			if i%2 == 1 {
				se.UserID = "u4"
			}
			if i == 4 {
				se.ExpiresAt = now // ended
			}
			if err := s.CreateSession(ctx, se); err != nil {
				t.Fatal(err)
			}
		}
		at := now.Add(time.Minute * 10)
		ss, total, err := s.SessionsPage(ctx, at, SessionQuery{Page: Page{Limit: 2}})
		if err != nil || total != 4 || len(ss) != 2 || ss[0].ID != "s3" || ss[1].ID != "s2" || ss[0].Name != "Dana O'Neil" || ss[0].Email != "person4@example.com" {
			t.Errorf("sessions, first page: %+v of %d, %v", ss, total, err)
		}
		if ss, total, _ := s.SessionsPage(ctx, at, SessionQuery{UserID: "u4", Page: Page{Limit: 9}}); total != 2 || len(ss) != 2 {
			t.Errorf("one account's: %+v of %d", ss, total)
		}
		if ss, total, _ := s.SessionsPage(ctx, at, SessionQuery{ID: "s0", Page: Page{Limit: 9}}); total != 1 || ss[0].Name != "" {
			t.Errorf("the PIN's own: %+v of %d", ss, total)
		}
		if ss, total, _ := s.SessionsPage(ctx, at, SessionQuery{Page: Page{Q: "DANA", Limit: 9}}); total != 2 || len(ss) != 2 {
			t.Errorf("by name: %+v of %d", ss, total)
		}
		if ss, total, _ := s.SessionsPage(ctx, at, SessionQuery{Page: Page{Q: "192.0.2.2", Limit: 9}}); total != 1 || ss[0].ID != "s2" {
			t.Errorf("by address: %+v of %d", ss, total)
		}

		// The photo library: no placeholders, one kind, a search.
		for i := range 6 {
			m := Media{ID: fmt.Sprintf("m%d", i), Project: "kitchen", Path: fmt.Sprintf("kitchen/p%d.jpg", i), Name: fmt.Sprintf("p%d.jpg", i), Kind: "image",
				MIME: "image/jpeg", CreatedAt: now.Add(time.Duration(i/2) * time.Minute)}
			switch i {
			case 1:
				m.Kind, m.Name, m.MIME = "video", "walkthrough.mp4", "video/mp4"
			case 2:
				m.Name, m.Path = PlaceholderName, "kitchen/"+PlaceholderName
			case 5:
				m.Caption, m.Project = "Basement after drying", "basement"
			}
			if err := s.CreateMedia(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		ms, total, err := s.MediaPage(ctx, MediaQuery{Page: Page{Limit: 3}})
		if err != nil || total != 5 || len(ms) != 3 || ms[0].ID != "m5" || ms[1].ID != "m4" || ms[2].ID != "m3" {
			t.Errorf("library, first page: %+v of %d, %v", ms, total, err)
		}
		if ms, total, _ := s.MediaPage(ctx, MediaQuery{Kind: "video", Page: Page{Limit: 3}}); total != 1 || ms[0].ID != "m1" {
			t.Errorf("videos: %+v of %d", ms, total)
		}
		if ms, total, _ := s.MediaPage(ctx, MediaQuery{Kind: "image", Page: Page{Q: "basement", Limit: 3}}); total != 1 || ms[0].ID != "m5" {
			t.Errorf("images by caption and project: %+v of %d", ms, total)
		}
		if _, total, _ := s.MediaPage(ctx, MediaQuery{Page: Page{Q: "placeholder", Limit: 3}}); total != 0 {
			t.Errorf("a placeholder was listed: %d", total)
		}
	})
}

// On SQLite each list is read in order off its index (migration 112): no
// temporary B-tree sorts the table for a page.
func TestListPagePlans(t *testing.T) {
	s := NewTestSQLite(t)
	ctx := context.Background()
	for name, c := range map[string]struct{ query, index string }{
		"audit":    {`SELECT a.id FROM audit_log a LEFT JOIN users u ON u.id = a.user_id LEFT JOIN avatar_leads l ON a.lead_id <> '' AND l.id = a.lead_id ORDER BY a.at DESC, a.id DESC LIMIT 50 OFFSET 0`, "audit_log_at_id"},
		"media":    {`SELECT id FROM media WHERE name <> 'x' ORDER BY created_at DESC, id DESC LIMIT 50 OFFSET 0`, "media_created_id"},
		"users":    {`SELECT id FROM users ORDER BY created_at, email LIMIT 50 OFFSET 0`, "users_created"},
		"sessions": {`SELECT s.id FROM admin_sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.expires_at > 0 ORDER BY s.created_at DESC, s.id DESC LIMIT 50 OFFSET 0`, "admin_sessions_created"},
	} {
		plan, err := s.QueryPlan(ctx, c.query)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(plan, c.index) || strings.Contains(plan, "TEMP B-TREE") {
			t.Errorf("%s: plan %s", name, plan)
		}
	}
}
