package server

import (
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
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
)

// loginWith signs in from ip, presenting cookie (a device token) when set.
func loginWith(t *testing.T, h http.Handler, ip, email, pw, cookie string) *response {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"email": email, "password": pw})
	req := httptest.NewRequest("POST", "/api/admin/login", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = ip + ":4000"
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: auth.DeviceCookie, Value: cookie})
	}
	return do(t, h, req)
}

// deviceToken is the device cookie a successful sign-in set.
func deviceToken(t *testing.T, r *response) string {
	t.Helper()
	for _, c := range r.Cookies() {
		if c.Name == auth.DeviceCookie {
			if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/api/admin/login" || c.MaxAge < 30*24*3600 {
				t.Errorf("device cookie %+v: want HttpOnly, SameSite=Strict, Path=/api/admin/login, long-lived", c)
			}
			return c.Value
		}
	}
	t.Fatalf("no device cookie after a sign-in: %d %s", r.StatusCode, r.Body)
	return ""
}

// lockOut sends wrong passwords for email from two addresses until the
// account's shared limit is used up (ADR 026: the attack).
func lockOut(t *testing.T, h http.Handler, email string, round int) {
	t.Helper()
	for i := 0; i < auth.LoginAttemptsPerAccount; i++ {
		ip := fmt.Sprintf("198.51.%d.%d", round, i%2+1)
		if r := loginWith(t, h, ip, email, fmt.Sprintf("guess %d", i), ""); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d %s", i, r.StatusCode, r.Body)
		}
	}
	if r := loginWith(t, h, fmt.Sprintf("198.51.%d.3", round), email, "one more guess", ""); r.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the account is not locked for unknown browsers: %d", r.StatusCode)
	}
}

// Ten wrong passwords for the owner's email, from two addresses, no
// longer lock the owner out: a browser that signed in before signs in
// from any third address. An unknown browser waits (that bound is what
// keeps a distributed guess small) until an admin unlocks the account or
// the password is reset.
func TestStrangersCannotLockTheOwnerOut(t *testing.T) {
	srv, store, h := accountServer(t)
	device, secret := ownerFirstSignIn(t, h)
	lockOut(t, h, adminEmail, 1)

	if r := loginWith(t, h, "203.0.113.77", adminEmail, adminPass, device); r.StatusCode != 200 || !strings.Contains(r.Body, `"stage":"totp"`) {
		t.Fatalf("the owner's browser from a third address: %d %s", r.StatusCode, r.Body)
	}
	if r := loginWith(t, h, "203.0.113.78", adminEmail, adminPass, ""); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("an unknown browser during the attack: %d, want 429", r.StatusCode)
	}
	// Forged or borrowed tokens count as an unknown browser.
	staff := deviceToken(t, loginWith(t, h, "192.0.2.60", staffEmail, staffPass, ""))
	key := []byte(strings.Repeat("k", 32))
	for name, tok := range map[string]string{
		"the staff account's token": staff,
		"signed with another key":   accounts.NewDeviceToken(key, "u-owner"),
		"garbage":                   "d1.AAAAAAAAAAAAAAAAAAAAAA.AAAA",
	} {
		if r := loginWith(t, h, "203.0.113.79", adminEmail, adminPass, tok); r.StatusCode != http.StatusTooManyRequests {
			t.Errorf("%s: %d, want 429", name, r.StatusCode)
		}
	}

	// The Users screen shows the lock; an admin's unlock lifts it.
	token := signIn(t, h, staffEmail, staffPass) // staff cannot unlock
	admin := mustAdminToken(t, srv, h, device, secret)
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/u-owner", token, map[string]any{"unlock": true}); r.StatusCode != http.StatusForbidden {
		t.Errorf("staff unlock: %d", r.StatusCode)
	}
	var list struct {
		Users []struct {
			Email        string
			SignInLocked bool
			LockedUntil  *time.Time
		}
	}
	json.Unmarshal([]byte(jsonReq(t, h, "GET", "/api/admin/users", admin, nil).Body), &list)
	locked := map[string]bool{}
	for _, u := range list.Users {
		locked[u.Email] = u.SignInLocked && u.LockedUntil != nil && u.LockedUntil.After(time.Now())
	}
	if !locked[adminEmail] || locked[staffEmail] {
		t.Errorf("locked accounts on the Users screen: %v", locked)
	}
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/u-owner", admin, map[string]any{"unlock": true}); r.StatusCode != 200 {
		t.Fatalf("unlock: %d %s", r.StatusCode, r.Body)
	}
	if r := loginWith(t, h, "203.0.113.80", adminEmail, adminPass, ""); r.StatusCode != 200 || !strings.Contains(r.Body, `"stage":"totp"`) {
		t.Errorf("an unknown browser after the unlock: %d %s", r.StatusCode, r.Body)
	}
	if a := auditActions(t, store); !strings.Contains(strings.Join(a, " "), "user_updated") {
		t.Errorf("the unlock was not audited: %v", a)
	}

	// A password reset (the Users screen, or `site user passwd`, which
	// goes through the same store change) clears the failures too.
	lockOut(t, h, adminEmail, 2)
	hash, _ := accounts.HashPassword("a brand new passphrase")
	if _, err := store.ChangeUser(context.Background(), "u-owner", db.UserChange{PasswordHash: &hash}, time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
	if r := loginWith(t, h, "203.0.113.81", adminEmail, "a brand new passphrase", ""); r.StatusCode != 200 {
		t.Errorf("an unknown browser after a password reset: %d", r.StatusCode)
	}
}

// ownerFirstSignIn signs the owner in for the first time (password, then
// the authenticator every admin enrols) and returns the device token the
// finished sign-in set and the authenticator's secret.
func ownerFirstSignIn(t *testing.T, h http.Handler) (device, secret string) {
	t.Helper()
	r := loginWith(t, h, "192.0.2.50", adminEmail, adminPass, "")
	for _, c := range r.Cookies() {
		if c.Name == auth.DeviceCookie {
			t.Fatal("a device token before the second factor")
		}
	}
	token := sessionCookie(t, r)
	passwords.Store(token, adminPass) // a first authenticator asks for it again
	secret = enrol(t, h, token)
	confirm, _ := lastConfirm.Load(token)
	return deviceToken(t, confirm.(*response)), secret
}

// mustAdminToken signs the owner in with their device token and a code.
func mustAdminToken(t *testing.T, srv *Server, h http.Handler, device, secret string) string {
	t.Helper()
	r := loginWith(t, h, "192.0.2.50", adminEmail, adminPass, device)
	if r.StatusCode != 200 {
		t.Fatalf("owner sign-in: %d %s", r.StatusCode, r.Body)
	}
	token := sessionCookie(t, r)
	if r := finishWithCode(t, srv, h, token, secret); r.StatusCode != 200 {
		t.Fatalf("owner's code: %d %s", r.StatusCode, r.Body)
	}
	return token
}

// A stolen device token is no way around the bound: the device has its
// own, and a parallel burst with it from many addresses gets at most
// auth.LoginAttemptsPerDevice passwords checked.
func TestDeviceTokenHasItsOwnBound(t *testing.T) {
	_, _, h := accountServer(t)
	device, _ := ownerFirstSignIn(t, h)
	const n = 60
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = loginWith(t, h, fmt.Sprintf("203.0.%d.%d", i/200, i%200+1), adminEmail, fmt.Sprintf("wrong %d", i), device).StatusCode
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, c := range codes {
		count[c]++
	}
	if count[http.StatusUnauthorized] != auth.LoginAttemptsPerDevice || count[http.StatusTooManyRequests] != n-auth.LoginAttemptsPerDevice {
		t.Errorf("with one device token: %v, want %d checked and the rest 429", count, auth.LoginAttemptsPerDevice)
	}
	// The account's shared counter was not touched: an unknown browser
	// with the right password still signs in.
	if r := loginWith(t, h, "192.0.2.90", adminEmail, adminPass, ""); r.StatusCode != 200 || !strings.Contains(r.Body, `"stage":"totp"`) {
		t.Errorf("an unknown browser after a device was locked: %d %s", r.StatusCode, r.Body)
	}
}
