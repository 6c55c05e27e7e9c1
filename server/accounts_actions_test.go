package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
)

// Accounts: recovery codes can be counted and renewed, and a first
// authenticator needs the password again. (What the Users screen is
// offered, and two admins disabling each other, are tested in the room:
// web/leads/users_test.go.)

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
