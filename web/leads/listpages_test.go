package leads

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/paging/pagingtest"
)

// The Users screen's list pages and searches on the server; whether an
// account may be disabled is judged against every active admin, not only
// the page's.
func TestUsersPages(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		lm := newRoom(t, store)
		base := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
		for i := range 60 {
			u := db.User{ID: fmt.Sprintf("u-%02d", i), Email: fmt.Sprintf("tech%02d@example.com", i), Name: fmt.Sprintf("Tech %02d", i), Roles: []string{accounts.RoleStaff}}
			if i == 59 {
				u.Name, u.Roles = "Second Admin", []string{accounts.RoleAdmin}
			}
			addUser(t, store, u)
			if _, err := store.DB().Exec(store.DB().Rebind(`UPDATE users SET created_at = ? WHERE id = ?`), base.Add(time.Duration(i)*time.Hour), u.ID); err != nil {
				t.Fatal(err)
			}
		}
		list := func(query string) (UserList, *response) {
			t.Helper()
			r := lm.call(t, "GET", "/api/admin/users?"+query, asAdmin, nil)
			var l UserList
			if r.StatusCode == http.StatusOK {
				if err := json.Unmarshal([]byte(r.Body), &l); err != nil {
					t.Fatal(err)
				}
			}
			return l, r
		}
		l, r := list("")
		if r.StatusCode != http.StatusOK || l.Total != 62 || len(l.Users) != 50 || l.Users[0].Email != "tech00@example.com" || l.Page != 1 || l.PerPage != 50 {
			t.Fatalf("first page: %d %+v", r.StatusCode, l.Info)
		}
		if l, _ = list("page=2"); len(l.Users) != 12 || l.Users[0].Email != "tech50@example.com" {
			t.Errorf("second page: %d users, first %s", len(l.Users), l.Users[0].Email)
		}
		// Alone on its page, the second admin may still be disabled: the
		// owner is another active admin.
		l, _ = list("q=second+ADMIN")
		if l.Total != 1 || len(l.Users) != 1 || !l.Users[0].CanDisable || !l.Users[0].CanChangeRole {
			t.Errorf("the second admin, searched: %+v", l)
		}
		if l, _ = list("q=tech1&perPage=3"); l.Total != 10 || len(l.Users) != 3 || l.PerPage != 3 {
			t.Errorf("by name, 3 a page: %+v", l.Info)
		}
		if l, _ = list("q=nobody-at-all"); l.Total != 0 || l.Users == nil {
			t.Errorf("no match: %+v %v", l.Info, l.Users)
		}
		pagingtest.Refused(t, "/api/admin/users", func(q string) (int, string) {
			_, r := list(q)
			return r.StatusCode, r.Body
		})
	})
}

// The audit log is searched on the server: who acted, the lead, the
// details, the address.
func TestAuditSearch(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		lm := newRoom(t, store)
		seedLeads(t, store, 3) // the last is Maria Gonzalez of Marietta
		ctx := t.Context()
		now := time.Now().UTC()
		for i := range 12 {
			e := db.AuditEntry{At: now.Add(time.Duration(i) * time.Second), UserID: "u-crew", Actor: staffEmail, Action: db.AuditExport, Detail: "status=new", IP: "198.51.100.7"}
			if i%4 == 0 {
				e.UserID, e.Actor, e.Action, e.LeadID, e.IP = "u-owner", adminEmail, db.AuditLeadDetail, "lead-002", "203.0.113.50"
			}
			if err := store.AddAudit(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		page := func(query string) AuditPage {
			t.Helper()
			r := lm.call(t, "GET", "/api/admin/audit?"+query, asAdmin, nil)
			var p AuditPage
			if r.StatusCode != http.StatusOK || json.Unmarshal([]byte(r.Body), &p) != nil {
				t.Fatalf("%s: %d %s", query, r.StatusCode, r.Body)
			}
			return p
		}
		all := page("perPage=200")
		for _, q := range []string{"maria+gonzalez", "MARIETTA", "the+owner", "203.0.113"} {
			p := page("perPage=2&q=" + q)
			if p.Total != 3 || len(p.Entries) != 2 || !strings.Contains(p.Entries[0].Sentence, "M. G., Marietta") {
				t.Errorf("%s: %d of %d: %+v", q, len(p.Entries), p.Total, p.Entries)
			}
		}
		if p := page("q=crew+lead"); p.Total != 9 {
			t.Errorf("by the staff member's name: %d, want 9", p.Total)
		}
		if p := page("q=zzz"); p.Total != 0 || p.Entries == nil {
			t.Errorf("no match: %+v", p)
		}
		if p := page("page=2&perPage=5"); p.Page != 2 || len(p.Entries) != 5 || p.Entries[0].ID != all.Entries[5].ID {
			t.Errorf("page 2 is not entries 6-10: %+v", p.Info)
		}
		pagingtest.Refused(t, "/api/admin/audit", func(q string) (int, string) {
			r := lm.call(t, "GET", "/api/admin/audit?"+q, asAdmin, nil)
			return r.StatusCode, r.Body
		})
	})
}
