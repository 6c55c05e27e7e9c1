package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Requests refused before routing (a form body over BODY_LIMIT, one that
// cannot be read) still carry the site's security headers, and under
// /api/admin Cache-Control: no-store, like every other answer.
func TestAttackEarlyRefusalsKeepTheHeaders(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	big := strings.Repeat("pin=123456&", int(srv.bodyLimit/10))
	for _, path := range []string{"/api/admin/unlock", "/api/admin/login", "/api/admin/leads/x", "/estimate", "/api/collect"} {
		req := httptest.NewRequest("POST", path, strings.NewReader(big))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r := do(t, h, req)
		if r.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%s with an oversized form: %d, want 413", path, r.StatusCode)
		}
		checkHardening(t, "oversized form to "+path, r, strings.HasPrefix(path, "/api/admin"))
	}
	req := httptest.NewRequest("POST", "/api/admin/login", io.MultiReader(strings.NewReader("email=a"), iotestErrReader{}))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r := do(t, h, req)
	if r.StatusCode != http.StatusBadRequest {
		t.Errorf("an unreadable form: %d", r.StatusCode)
	}
	checkHardening(t, "unreadable form", r, true)
}

type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, fmt.Errorf("connection reset") }

// checkHardening checks the headers every answer carries, and no-store
// on the admin API's.
func checkHardening(t *testing.T, what string, r *response, admin bool) {
	t.Helper()
	csp := r.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors 'none'") && !strings.Contains(csp, "sandbox") {
		t.Errorf("%s: CSP %q", what, csp)
	}
	if r.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s: no nosniff", what)
	}
	if admin && r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("%s: Cache-Control %q, want no-store", what, r.Header.Get("Cache-Control"))
	}
}

// No answer lets another origin read it: no CORS header is ever sent,
// to a preflight or to a request with a foreign Origin, on the admin API
// or the public JSON.
func TestAttackNoCrossOriginReads(t *testing.T) {
	_, _, h := accountServer(t)
	staff := signIn(t, h, staffEmail, staffPass)
	for _, c := range []struct{ method, path string }{
		{"OPTIONS", "/api/admin/login"}, {"OPTIONS", "/api/admin/leads"}, {"OPTIONS", "/api/admin/session"},
		{"GET", "/api/admin/session"}, {"GET", "/api/admin/leads"}, {"GET", "/api/reviews"}, {"POST", "/api/estimate"}, {"OPTIONS", "/api/estimate"},
	} {
		for _, origin := range []string{"https://evil.example", "null", testBase} {
			req := httptest.NewRequest(c.method, c.path, nil)
			req.Header.Set("Origin", origin)
			req.Header.Set("Access-Control-Request-Method", "POST")
			req.Header.Set("Access-Control-Request-Headers", "content-type, x-requested-with, authorization")
			req.AddCookie(&http.Cookie{Name: "__Host-admin_session", Value: staff})
			r := do(t, h, req)
			for k := range r.Header {
				if strings.HasPrefix(k, "Access-Control-") {
					t.Errorf("%s %s from %s: %s: %s", c.method, c.path, origin, k, r.Header.Get(k))
				}
			}
		}
	}
}

// The admin API's error answers are no-store with the hardening headers
// like its successes: 400 (a malformed body), 429 (a locked PIN, with
// Retry-After), 503 (the database gone: the session cannot be checked,
// the sign-in cannot run).
func TestAttackAdminErrorsAreNoStore(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	pin := unlock(t, h)
	req := httptest.NewRequest("POST", "/api/admin/unlock", strings.NewReader(`{"pin":`))
	req.Header.Set("Content-Type", "application/json")
	r := do(t, h, req)
	if r.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed JSON: %d", r.StatusCode)
	}
	checkHardening(t, "400", r, true)
	for i := 0; i <= srv.cfg.Admin.MaxAttempts; i++ {
		r = jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": "000000"})
	}
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Errorf("locked PIN: %d Retry-After %q", r.StatusCode, r.Header.Get("Retry-After"))
	}
	checkHardening(t, "429", r, true)
	store.Close()
	for _, c := range []struct{ method, path, tok string }{
		{"GET", "/api/admin/overview", pin}, {"POST", "/api/admin/login", ""}, {"GET", "/api/admin/session", pin},
	} {
		body := map[string]string{"email": "owner@example.com", "password": "x"}
		r := jsonReq(t, h, c.method, c.path, c.tok, body)
		if r.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("%s %s with the database gone: %d %s", c.method, c.path, r.StatusCode, r.Body)
		}
		checkHardening(t, "503 "+c.path, r, true)
		if strings.Contains(r.Body, "sql") || strings.Contains(r.Body, "database is closed") {
			t.Errorf("%s: the error shows the cause: %s", c.path, r.Body)
		}
	}
}

// Every admin API answer, errors included, carries no-store.
func TestAdminAPIIsNoStore(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	for _, c := range []struct{ method, path, token string }{
		{"GET", "/api/admin/settings", tok}, {"GET", "/api/admin/settings", ""}, {"GET", "/api/admin/nope", tok},
		{"POST", "/api/admin/unlock", ""}, {"GET", "/api/admin/media", tok}, {"GET", "/api/admin/sessions", tok},
		{"POST", "/api/admin/logout", tok},
	} {
		r := jsonReq(t, h, c.method, c.path, c.token, map[string]string{"pin": "1"})
		if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s %s (%d): Cache-Control %q", c.method, c.path, r.StatusCode, cc)
		}
	}
}
