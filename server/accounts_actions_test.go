package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/web/auth"
)

// Accounts: the Users screen is offered only what the server
// allows, recovery codes can be counted and renewed, and a first
// authenticator needs the password again.

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

func listUsers(t *testing.T, h http.Handler, token string) map[string]userRow {
	t.Helper()
	r := jsonReq(t, h, "GET", "/api/admin/users", token, nil)
	var out struct{ Users []userRow }
	if err := json.Unmarshal([]byte(r.Body), &out); err != nil || r.StatusCode != 200 {
		t.Fatalf("users: %d %s", r.StatusCode, r.Body)
	}
	m := map[string]userRow{}
	for _, u := range out.Users {
		m[u.Email] = u
	}
	return m
}

func TestUsersScreenOffersOnlyWhatTheServerAllows(t *testing.T) {
	_, store, h := accountServer(t)
	p := allPrincipals(t, store, h)
	// Every caller of the list and of a change: only an admin.
	crew, _ := store.UserByEmail(context.Background(), staffEmail)
	for tok, want := range map[string]int{"": 401, p.pin: 403, p.staff: 403, p.editor: 403, p.totp: 401, p.enrol: 401} {
		if r := jsonReq(t, h, "GET", "/api/admin/users", tok, nil); r.StatusCode != want {
			t.Errorf("GET users: %d, want %d", r.StatusCode, want)
		}
		if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+crew.ID, tok, map[string]any{"role": "editor"}); r.StatusCode != want {
			t.Errorf("PATCH users: %d, want %d", r.StatusCode, want)
		}
	}

	// The only admin: its own row offers neither a disable nor a role
	// change, with the reason; another account's row offers both.
	rows := listUsers(t, h, p.admin)
	me := rows[adminEmail]
	if !me.Self || me.CanDisable || me.CanChangeRole || me.DisableReason != "This is your own account" || me.RoleReason != "This is your own account" {
		t.Errorf("own row: %+v", me)
	}
	if s := rows[staffEmail]; s.Self || !s.CanDisable || !s.CanChangeRole || s.DisableReason != "" || s.RoleReason != "" {
		t.Errorf("staff row: %+v", s)
	}
	// The server refuses what the screen does not offer, whatever is sent.
	for _, body := range []map[string]any{{"role": "staff"}, {"role": "admin"}, {"disabled": true}, {"disabled": true, "name": "Still Me"}, {"role": "editor", "resetTwoFactor": true}} {
		r := jsonReq(t, h, "PATCH", "/api/admin/users/"+me.ID, p.admin, body)
		if r.StatusCode != 403 || !strings.Contains(r.Body, "This is your own account") {
			t.Errorf("own account %v: %d %s", body, r.StatusCode, r.Body)
		}
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", p.admin, nil); r.StatusCode != 200 {
		t.Fatalf("a refused change of one's own account ended the session: %d", r.StatusCode)
	}
	if u, _ := store.UserByID(context.Background(), me.ID); u.DisabledAt != nil || accounts.RoleOf(u.Roles) != "admin" || u.TOTPSecret == "" || u.Name != "The Owner" {
		t.Errorf("own account changed by refused requests: %+v", u)
	}
	// What the server allows on one's own account still works.
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+me.ID, p.admin, map[string]any{"name": "Owner Renamed"}); r.StatusCode != 200 {
		t.Errorf("own name: %d %s", r.StatusCode, r.Body)
	}
	// Without the screen's confirmation, the API still does what the
	// server allows: another account's role and state.
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+crew.ID, p.admin, map[string]any{"role": "editor"}); r.StatusCode != 200 || !strings.Contains(r.Body, `"roles":["editor"]`) {
		t.Errorf("staff → editor: %d %s", r.StatusCode, r.Body)
	}
	// A second admin: each may disable or demote the other, never itself.
	addUser(t, store, "second@example.com", "second admin passphrase", "admin", "Sam Second")
	second := signIn(t, h, "second@example.com", "second admin passphrase")
	rows = listUsers(t, h, p.admin)
	if s := rows["second@example.com"]; !s.CanDisable || !s.CanChangeRole || s.Self {
		t.Errorf("another admin's row: %+v", s)
	}
	if s := listUsers(t, h, second)[adminEmail]; !s.CanDisable || !s.CanChangeRole || s.Self {
		t.Errorf("the owner's row seen by the second admin: %+v", s)
	}
	if s := listUsers(t, h, second)["second@example.com"]; s.CanDisable || !s.Self {
		t.Errorf("the second admin's own row: %+v", s)
	}
	// The second admin is disabled by the owner: its row now offers
	// Enable (always allowed), and the owner is the last active admin.
	sec, _ := store.UserByEmail(context.Background(), "second@example.com")
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+sec.ID, p.admin, map[string]any{"disabled": true}); r.StatusCode != 200 {
		t.Fatalf("disable the second admin: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/users", second, nil); r.StatusCode != 401 {
		t.Errorf("a disabled admin's session: %d", r.StatusCode)
	}
	if s := listUsers(t, h, p.admin)["second@example.com"]; s.DisabledAt == nil || !s.CanDisable {
		t.Errorf("a disabled admin's row: %+v", s)
	}
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+sec.ID, p.admin, map[string]any{"disabled": false}); r.StatusCode != 200 {
		t.Errorf("enable: %d %s", r.StatusCode, r.Body)
	}
}

// serverOn is an account server on store (accountServer's, on SQLite or
// PostgreSQL).
func serverOn(t *testing.T, store *db.Store) http.Handler {
	t.Helper()
	cfg := testConfig(t, map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir()})
	siteOnce.Do(func() {
		var err error
		if testContent, err = content.Load(); err != nil {
			panic(err)
		}
	})
	engineOnce.Do(func() {
		engine, engineErr = ssr.NewEngine(ssr.EngineOptions{Root: cfg.SourceDir, Kinds: site.PageKinds(), FullKinds: site.FullHydrationKinds, PoolSize: 2, Timeout: 20 * time.Second, Log: quiet})
	})
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	srv, err := buildServer(t, testParts{Config: cfg, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv.Handler()
}

// Two admins disabling (or demoting) each other at the same moment, over
// HTTP, on both databases: one change is refused (the last-admin rule, or
// the session already ended) and an active admin always remains.
func TestMutualDisableLeavesAnAdmin(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		h := serverOn(t, store)
		ctx := context.Background()
		soon := time.Now().UTC().Add(time.Hour)
		for round := 0; round < 8; round++ {
			a := addUser(t, store, fmt.Sprintf("a%d@example.com", round), "first admin passphrase", "admin", "A")
			b := addUser(t, store, fmt.Sprintf("b%d@example.com", round), "second admin passphrase", "admin", "B")
			yes := true
			us, _ := store.ListUsers(ctx)
			for _, u := range us {
				if u.ID != a.ID && u.ID != b.ID && u.DisabledAt == nil {
					if _, err := store.ChangeUser(ctx, u.ID, db.UserChange{Disabled: &yes}, time.Now().UTC()); err != nil {
						t.Fatal(err)
					}
				}
			}
			ta := attackSession(t, store, a.ID, db.StageFull, soon)
			tb := attackSession(t, store, b.ID, db.StageFull, soon)
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
					codes[i] = jsonReq(t, h, "PATCH", "/api/admin/users/"+c.target, c.tok, body).StatusCode
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

// Recovery codes: every caller; the count; a renewal needs a current code
// of the authenticator; the old set is dead at once, the new codes work
// once each; the renewal is audited.
func TestRecoveryCodesRenewal(t *testing.T) {
	srv, store, h := accountServer(t)
	p := allPrincipals(t, store, h)
	path := "/api/admin/2fa/recovery-codes"
	for _, c := range []struct {
		name, tok string
		want      int
	}{
		{"no session", "", 401}, {"totp stage", p.totp, 401}, {"enrol stage", p.enrol, 401}, {"forged", p.forged, 401},
		{"pin", p.pin, 409}, {"staff without an authenticator", p.staff, 409}, {"editor without an authenticator", p.editor, 409},
	} {
		if r := jsonReq(t, h, "GET", path, c.tok, nil); r.StatusCode != c.want {
			t.Errorf("GET as %s: %d %s, want %d", c.name, r.StatusCode, r.Body, c.want)
		}
		if r := jsonReq(t, h, "POST", path, c.tok, map[string]string{"code": "123456"}); r.StatusCode != c.want || strings.Contains(r.Body, "recoveryCodes") {
			t.Errorf("POST as %s: %d %s, want %d", c.name, r.StatusCode, r.Body, c.want)
		}
	}
	// An admin who enrolled at sign-in: ten codes.
	const email, pw = "renew@example.com", "renewing admin passphrase"
	addUser(t, store, email, pw, "admin", "Renée")
	admin, secret := signInFull(t, h, "192.0.2.59", email, pw)
	p.admin = admin
	owner, _ := store.UserByEmail(context.Background(), email)
	var first struct{ RecoveryCodes []string }
	if v, ok := lastConfirm.Load(p.admin); ok {
		json.Unmarshal([]byte(v.(*response).Body), &first)
	}
	if len(first.RecoveryCodes) != 10 {
		t.Fatalf("enrolment codes: %v", first.RecoveryCodes)
	}
	left := func(tok string) int {
		t.Helper()
		r := jsonReq(t, h, "GET", path, tok, nil)
		var out struct{ Left *int }
		if json.Unmarshal([]byte(r.Body), &out); r.StatusCode != 200 || out.Left == nil {
			t.Fatalf("left: %d %s", r.StatusCode, r.Body)
		}
		return *out.Left
	}
	if n := left(p.admin); n != 10 {
		t.Errorf("left after enrolment: %d", n)
	}
	// A sign-in with a recovery code spends one.
	pending := sessionCookie(t, loginFrom(t, h, "192.0.2.60", email, pw))
	if r := jsonReq(t, h, "POST", "/api/admin/login/totp", pending, map[string]string{"recoveryCode": first.RecoveryCodes[0]}); r.StatusCode != 200 {
		t.Fatalf("recovery sign-in: %d %s", r.StatusCode, r.Body)
	}
	if n := left(p.admin); n != 9 {
		t.Errorf("left after one used: %d", n)
	}
	// No code, a wrong code, a recovery code in place of the app's code:
	// refused, nothing renewed.
	for _, c := range []struct {
		body map[string]string
		want int
	}{{map[string]string{}, 400}, {map[string]string{"recoveryCode": first.RecoveryCodes[1]}, 400}, {map[string]string{"code": "000000"}, 401}, {map[string]string{"code": first.RecoveryCodes[1]}, 401}} {
		if r := jsonReq(t, h, "POST", path, p.admin, c.body); r.StatusCode != c.want || strings.Contains(r.Body, "recoveryCodes") {
			t.Errorf("renew with %v: %d %s, want %d", c.body, r.StatusCode, r.Body, c.want)
		}
	}
	if n := left(p.admin); n != 9 {
		t.Errorf("left after refused renewals: %d", n)
	}
	// A current code: ten new codes, shown once; the old ones are dead.
	code := nextCode(t, srv, secret)
	r := jsonReq(t, h, "POST", path, p.admin, map[string]string{"code": code[:3] + " " + code[3:]})
	var renewed struct{ RecoveryCodes []string }
	if json.Unmarshal([]byte(r.Body), &renewed); r.StatusCode != 200 || len(renewed.RecoveryCodes) != 10 {
		t.Fatalf("renew: %d %s", r.StatusCode, r.Body)
	}
	for _, c := range renewed.RecoveryCodes {
		for _, o := range first.RecoveryCodes {
			if c == o {
				t.Errorf("a renewed code repeats an old one: %s", c)
			}
		}
	}
	if n := left(p.admin); n != 10 {
		t.Errorf("left after renewal: %d", n)
	}
	// The same current code again: refused (each code works once).
	if r := jsonReq(t, h, "POST", path, p.admin, map[string]string{"code": code}); r.StatusCode != 401 {
		t.Errorf("a code used twice: %d", r.StatusCode)
	}
	pending = sessionCookie(t, loginFrom(t, h, "192.0.2.61", email, pw))
	if r := jsonReq(t, h, "POST", "/api/admin/login/totp", pending, map[string]string{"recoveryCode": first.RecoveryCodes[2]}); r.StatusCode != 401 {
		t.Errorf("an old code after the renewal: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "POST", "/api/admin/login/totp", pending, map[string]string{"recoveryCode": renewed.RecoveryCodes[0]}); r.StatusCode != 200 {
		t.Errorf("a new code: %d %s", r.StatusCode, r.Body)
	}
	pending = sessionCookie(t, loginFrom(t, h, "192.0.2.62", email, pw))
	if r := jsonReq(t, h, "POST", "/api/admin/login/totp", pending, map[string]string{"recoveryCode": renewed.RecoveryCodes[0]}); r.StatusCode != 401 {
		t.Errorf("a new code used twice: %d %s", r.StatusCode, r.Body)
	}
	if n := left(p.admin); n != 9 {
		t.Errorf("left after a new code was used: %d", n)
	}
	got := strings.Join(auditActions(t, store), " ")
	if strings.Count(got, db.AuditRecoveryCodesRenewed+":"+email) != 1 || !strings.Contains(got, "2fa_failed:"+email) {
		t.Errorf("audit: %s", got)
	}
	if u, _ := store.UserByID(context.Background(), owner.ID); u.TOTPSecret != owner.TOTPSecret {
		t.Error("renewing the codes changed the authenticator")
	}
}

// A first authenticator needs the password again: without it, or with a
// wrong one, no secret is given; wrong ones count against the sign-in
// limits; the right one works.
func TestFirstAuthenticatorNeedsThePassword(t *testing.T) {
	_, store, h := accountServer(t)
	addUser(t, store, editorEmail, editorPass, "editor", "Eddie Editor")
	editor := signIn(t, h, editorEmail, editorPass)
	staff := signIn(t, h, staffEmail, staffPass)
	start := func(tok string, body any) *response {
		return jsonReq(t, h, "POST", "/api/admin/2fa/start", tok, body)
	}
	for _, c := range []struct {
		name string
		body any
		msg  string
	}{
		{"no body", nil, "Enter your password"},
		{"no password", map[string]string{}, "Enter your password"},
		{"a code instead", map[string]string{"code": "123456"}, "Enter your password"},
		{"another account's password", map[string]string{"password": adminPass}, "That password is not right"},
	} {
		if r := start(editor, c.body); r.StatusCode != 401 || !strings.Contains(r.Body, c.msg) || strings.Contains(r.Body, "secret") {
			t.Errorf("%s: %d %s", c.name, r.StatusCode, r.Body)
		}
	}
	if r := jsonReq(t, h, "POST", "/api/admin/2fa/confirm", editor, map[string]string{"code": "123456"}); r.StatusCode != 409 {
		t.Errorf("confirm with nothing started: %d %s", r.StatusCode, r.Body)
	}
	if u, _ := store.UserByEmail(context.Background(), editorEmail); u.TOTPPending != "" {
		t.Error("a refused start left a pending secret")
	}
	if r := start(editor, map[string]string{"password": editorPass}); r.StatusCode != 200 || !strings.Contains(r.Body, `"secret"`) {
		t.Errorf("the right password: %d %s", r.StatusCode, r.Body)
	}
	if !strings.Contains(strings.Join(auditActions(t, store), " "), "2fa_failed:"+editorEmail) {
		t.Error("a wrong password at enrolment was not audited")
	}
	// Wrong passwords count against the sign-in limits: the client IP's
	// (here a few guesses from one address use it up) and the account's
	// (guesses from many addresses): past either, even the right password
	// is refused, here and at sign-in from a browser that never signed
	// in to the account.
	from := func(ip string, body any) *response {
		b, _ := json.Marshal(body)
		req := httptest.NewRequest("POST", "/api/admin/2fa/start", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+staff)
		req.RemoteAddr = ip + ":4000"
		return do(t, h, req)
	}
	ipWrong := 0
	for i := 0; i < 30; i++ {
		r := from("198.51.100.1", map[string]string{"password": "wrong from one address"})
		if r.StatusCode == http.StatusTooManyRequests {
			break
		}
		ipWrong++
	}
	if ipWrong >= auth.LoginAttemptsPerAccount {
		t.Fatalf("%d wrong passwords from one address before a 429", ipWrong)
	}
	if r := loginFrom(t, h, "198.51.100.1", editorEmail, editorPass); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("sign-in from the guessing address: %d %s", r.StatusCode, r.Body)
	}
	wrong := ipWrong
	for i := 0; i < auth.LoginAttemptsPerAccount+2; i++ {
		r := from(fmt.Sprintf("198.51.100.%d", 10+i), map[string]string{"password": fmt.Sprintf("wrong guess %d", i)})
		if r.StatusCode == 401 {
			wrong++
		} else if r.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("guess %d: %d %s", i, r.StatusCode, r.Body)
		}
	}
	if wrong > auth.LoginAttemptsPerAccount {
		t.Errorf("%d wrong passwords checked, at most %d may be", wrong, auth.LoginAttemptsPerAccount)
	}
	if r := from("198.51.100.99", map[string]string{"password": staffPass}); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the right password past the limit: %d %s", r.StatusCode, r.Body)
	}
	if r := loginFrom(t, h, "203.0.113.9", staffEmail, staffPass); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("sign-in from a new browser after the enrolment guesses: %d %s", r.StatusCode, r.Body)
	}
}
