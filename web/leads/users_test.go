package leads

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
)

// userActions is what the Users screen offers per account; UpdateUser and
// the store refuse the same things.
func TestUserActions(t *testing.T) {
	off := time.Now()
	admin := db.User{ID: "a", Roles: []string{"admin"}}
	other := db.User{ID: "b", Roles: []string{"admin"}}
	staff := db.User{ID: "s", Roles: []string{"staff"}}
	disabledAdmin := db.User{ID: "d", Roles: []string{"admin"}, DisabledAt: &off}
	for _, c := range []struct {
		name          string
		caller        string
		target        db.User
		admins        int
		disable, role string
	}{
		{"own account, the only admin", "a", admin, 1, ReasonOwnAccount, ReasonOwnAccount},
		{"own account, two admins", "a", admin, 2, ReasonOwnAccount, ReasonOwnAccount},
		{"another admin, two admins", "a", other, 2, "", ""},
		{"the last active admin, seen by no account", "", admin, 1, ReasonLastAdmin, ReasonLastAdmin},
		{"staff", "a", staff, 1, "", ""},
		{"a disabled admin (enable it, or change its role)", "a", disabledAdmin, 1, "", ""},
	} {
		d, r := userActions(c.caller, c.target, c.admins)
		if d != c.disable || r != c.role {
			t.Errorf("%s: %q, %q; want %q, %q", c.name, d, r, c.disable, c.role)
		}
	}
}

// Creating an account: each rule's refusal with its message, then a new
// account (its email lower-cased); no answer carries a password hash.
// Changing one: nobody demotes or disables their own account; a password
// reset, a role change and a disable are saved; bad changes are refused;
// each is audited. (That the changes end the account's sessions, and
// that the new account signs in, is server/'s
// TestAccountChangesEndSessions.)
func TestUsersAPI(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		lm := newRoom(t, store)
		for _, c := range []struct {
			body map[string]string
			code int
			msg  string
		}{
			{map[string]string{"email": "new@example.com", "password": "short", "role": "staff"}, 400, "at least 12"},
			{map[string]string{"email": "new@example.com", "password": "password12345", "role": "staff"}, 400, "too common"},
			{map[string]string{"email": "not-an-email", "password": "a fine passphrase", "role": "staff"}, 400, "valid email"},
			{map[string]string{"email": "new@example.com", "password": "a fine passphrase", "role": "owner"}, 400, "admin, staff or editor"},
			{map[string]string{"email": "CREW@example.com", "password": "a fine passphrase", "role": "staff"}, 409, "already exists"},
			{map[string]string{"email": "New@Example.com", "name": "New Hire", "password": "a fine passphrase", "role": "staff"}, 201, `"email":"new@example.com"`},
		} {
			r := lm.call(t, "POST", "/api/admin/users", asAdmin, c.body)
			if r.StatusCode != c.code || !strings.Contains(r.Body, c.msg) {
				t.Errorf("create %v: %d %s", c.body, r.StatusCode, r.Body)
			}
			if strings.Contains(r.Body, "password_hash") || strings.Contains(r.Body, "argon2") {
				t.Errorf("a hash was sent: %s", r.Body)
			}
		}
		list := lm.call(t, "GET", "/api/admin/users", asAdmin, nil)
		if !strings.Contains(list.Body, `"email":"new@example.com"`) || strings.Contains(list.Body, "argon2") {
			t.Errorf("list: %s", list.Body)
		}
		// Nobody demotes or disables their own account (here also the last
		// admin); TestUsersScreenOffersOnlyWhatTheServerAllows has the rest.
		for _, body := range []map[string]any{{"role": "staff"}, {"disabled": true}} {
			if r := lm.call(t, "PATCH", "/api/admin/users/u-owner", asAdmin, body); r.StatusCode != 403 || !strings.Contains(r.Body, "This is your own account") {
				t.Errorf("own account %v: %d %s", body, r.StatusCode, r.Body)
			}
		}
		if r := lm.call(t, "PATCH", "/api/admin/users/u-crew", asAdmin, map[string]any{"password": "reset passphrase 1"}); r.StatusCode != 200 {
			t.Fatalf("reset: %d %s", r.StatusCode, r.Body)
		}
		if r := lm.call(t, "PATCH", "/api/admin/users/u-crew", asAdmin, map[string]any{"role": "admin"}); r.StatusCode != 200 {
			t.Fatal(r.Body)
		}
		if r := lm.call(t, "PATCH", "/api/admin/users/u-crew", asAdmin, map[string]any{"disabled": true}); r.StatusCode != 200 || !strings.Contains(r.Body, `"disabledAt":"`) {
			t.Fatalf("disable: %d %s", r.StatusCode, r.Body)
		}
		for _, c := range []struct {
			path string
			body map[string]any
			code int
		}{
			{"/api/admin/users/nope", map[string]any{"name": "x"}, 404},
			{"/api/admin/users/u-crew", map[string]any{}, 400},
			{"/api/admin/users/u-crew", map[string]any{"role": "boss"}, 400},
			{"/api/admin/users/u-crew", map[string]any{"password": "short"}, 400},
		} {
			if r := lm.call(t, "PATCH", c.path, asAdmin, c.body); r.StatusCode != c.code {
				t.Errorf("PATCH %s %v: %d, want %d", c.path, c.body, r.StatusCode, c.code)
			}
		}
		got := strings.Join(auditTrail(t, store), " ")
		if !strings.Contains(got, "user_created:"+adminEmail) || !strings.Contains(got, "user_updated:"+adminEmail) {
			t.Errorf("audit: %s", got)
		}
	})
}

// userRow is a row of GET /api/admin/users as these tests read it.
type userRow struct {
	ID            string
	Email         string
	Self          bool
	CanDisable    bool
	DisableReason string
	CanChangeRole bool
	RoleReason    string
	DisabledAt    *time.Time
}

func (r *room) listUsers(t *testing.T, tok string) map[string]userRow {
	t.Helper()
	res := r.call(t, "GET", "/api/admin/users", tok, nil)
	var out struct{ Users []userRow }
	if err := json.Unmarshal([]byte(res.Body), &out); err != nil || res.StatusCode != 200 {
		t.Fatalf("users: %d %s", res.StatusCode, res.Body)
	}
	m := map[string]userRow{}
	for _, u := range out.Users {
		m[u.Email] = u
	}
	return m
}

// The Users screen is offered only what the server allows: the only
// admin's own row offers neither a disable nor a role change, with the
// reason, and the server refuses them whatever is sent, changing
// nothing; another account's role and state change; two admins may each
// disable or demote the other, never themselves; a disabled admin may be
// enabled again. (Who may call the Users routes is the every-route walk's,
// server/routes_test.go; that a refused change keeps the caller's session
// and a disable ends the disabled admin's, server/'s
// TestAccountChangesEndSessions.)
func TestUsersScreenOffersOnlyWhatTheServerAllows(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		lm := newRoom(t, store)
		ctx := context.Background()
		// The owner enrolled its authenticator at its first sign-in.
		if err := store.StartTOTP(ctx, "u-owner", "JBSWY3DPEHPK3PXP"); err != nil {
			t.Fatal(err)
		}
		if err := store.ConfirmTOTP(ctx, "u-owner", "JBSWY3DPEHPK3PXP", 1, nil, time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		rows := lm.listUsers(t, asAdmin)
		me := rows[adminEmail]
		if !me.Self || me.CanDisable || me.CanChangeRole || me.DisableReason != "This is your own account" || me.RoleReason != "This is your own account" {
			t.Errorf("own row: %+v", me)
		}
		if s := rows[staffEmail]; s.Self || !s.CanDisable || !s.CanChangeRole || s.DisableReason != "" || s.RoleReason != "" {
			t.Errorf("staff row: %+v", s)
		}
		// The server refuses what the screen does not offer, whatever is sent.
		for _, body := range []map[string]any{{"role": "staff"}, {"role": "admin"}, {"disabled": true}, {"disabled": true, "name": "Still Me"}, {"role": "editor", "resetTwoFactor": true}} {
			r := lm.call(t, "PATCH", "/api/admin/users/"+me.ID, asAdmin, body)
			if r.StatusCode != 403 || !strings.Contains(r.Body, "This is your own account") {
				t.Errorf("own account %v: %d %s", body, r.StatusCode, r.Body)
			}
		}
		if u, _ := store.UserByID(ctx, me.ID); u.DisabledAt != nil || accounts.RoleOf(u.Roles) != "admin" || u.TOTPSecret == "" || u.Name != "The Owner" {
			t.Errorf("own account changed by refused requests: %+v", u)
		}
		// What the server allows on one's own account still works.
		if r := lm.call(t, "PATCH", "/api/admin/users/"+me.ID, asAdmin, map[string]any{"name": "Owner Renamed"}); r.StatusCode != 200 {
			t.Errorf("own name: %d %s", r.StatusCode, r.Body)
		}
		// Without the screen's confirmation, the API still does what the
		// server allows: another account's role and state.
		if r := lm.call(t, "PATCH", "/api/admin/users/u-crew", asAdmin, map[string]any{"role": "editor"}); r.StatusCode != 200 || !strings.Contains(r.Body, `"roles":["editor"]`) {
			t.Errorf("staff → editor: %d %s", r.StatusCode, r.Body)
		}
		// A second admin: each may disable or demote the other, never itself.
		sec := lm.Account(t, store, "second", db.User{ID: "u-second", Email: "second@example.com", Name: "Sam Second", Roles: []string{accounts.RoleAdmin}})
		rows = lm.listUsers(t, asAdmin)
		if s := rows["second@example.com"]; !s.CanDisable || !s.CanChangeRole || s.Self {
			t.Errorf("another admin's row: %+v", s)
		}
		if s := lm.listUsers(t, "second")[adminEmail]; !s.CanDisable || !s.CanChangeRole || s.Self {
			t.Errorf("the owner's row seen by the second admin: %+v", s)
		}
		if s := lm.listUsers(t, "second")["second@example.com"]; s.CanDisable || !s.Self {
			t.Errorf("the second admin's own row: %+v", s)
		}
		// The second admin is disabled by the owner: its row now offers
		// Enable (always allowed), and the owner is the last active admin.
		if r := lm.call(t, "PATCH", "/api/admin/users/"+sec.ID, asAdmin, map[string]any{"disabled": true}); r.StatusCode != 200 {
			t.Fatalf("disable the second admin: %d %s", r.StatusCode, r.Body)
		}
		if s := lm.listUsers(t, asAdmin)["second@example.com"]; s.DisabledAt == nil || !s.CanDisable {
			t.Errorf("a disabled admin's row: %+v", s)
		}
		if r := lm.call(t, "PATCH", "/api/admin/users/"+sec.ID, asAdmin, map[string]any{"disabled": false}); r.StatusCode != 200 {
			t.Errorf("enable: %d %s", r.StatusCode, r.Body)
		}
	})
}

// Two admins disabling (or demoting) each other at the same moment, on
// both databases: one change is refused (the last-admin rule, checked in
// the store's serialised write) and an active admin always remains.
func TestMutualDisableLeavesAnAdmin(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		lm := newRoom(t, store)
		ctx := context.Background()
		for round := 0; round < 8; round++ {
			ta, tb := fmt.Sprintf("a%d", round), fmt.Sprintf("b%d", round)
			a := lm.Account(t, store, ta, db.User{ID: "u-" + ta, Email: ta + "@example.com", Name: "A", Roles: []string{accounts.RoleAdmin}})
			b := lm.Account(t, store, tb, db.User{ID: "u-" + tb, Email: tb + "@example.com", Name: "B", Roles: []string{accounts.RoleAdmin}})
			yes := true
			us, _ := store.ListUsers(ctx)
			for _, u := range us {
				if u.ID != a.ID && u.ID != b.ID && u.DisabledAt == nil {
					if _, err := store.ChangeUser(ctx, u.ID, db.UserChange{Disabled: &yes}, time.Now().UTC()); err != nil {
						t.Fatal(err)
					}
				}
			}
			body := map[string]any{"disabled": true}
			if round%2 == 1 {
				body = map[string]any{"role": "staff"}
			}
			var wg sync.WaitGroup
			codes := make([]int, 2)
			for i, c := range []struct{ tok, target string }{{ta, b.ID}, {tb, a.ID}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					codes[i] = lm.call(t, "PATCH", "/api/admin/users/"+c.target, c.tok, body).StatusCode
				}()
			}
			wg.Wait()
			ok := 0
			for _, c := range codes {
				switch c {
				case 200:
					ok++
				case 409, 401, 403: // refused by the last-admin rule, or the caller was disabled or demoted first
				default:
					t.Errorf("round %d %v: status %d", round, body, c)
				}
			}
			if n, _ := store.CountAdmins(ctx); n != 1 || ok != 1 {
				t.Fatalf("round %d %v: %d active admins, %d changes applied (%v); want 1 and 1", round, body, n, ok, codes)
			}
		}
	})
}
