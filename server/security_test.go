package server

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
)

// A parallel burst of 100 wrong PINs from one IP, with the right PIN in
// the middle of it, gets at most ADMIN_MAX_ATTEMPTS wrong PINs checked;
// everything else is refused before bcrypt runs.
func TestPINBurstCannotRaceTheLockout(t *testing.T) {
	srv, _ := adminServer(t, map[string]string{"ADMIN_MAX_ATTEMPTS": "5", "ADMIN_LOCKOUT": "15m"})
	h := srv.Handler()
	var mu sync.Mutex
	codes := map[int]int{}
	rightPIN := 0
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 101; i++ {
		pin := "000000"
		if i == 50 {
			pin = testPIN
		}
		wg.Add(1)
		go func(pin string) {
			defer wg.Done()
			req := httptest.NewRequest("POST", "/api/admin/unlock", strings.NewReader(`{"pin":"`+pin+`"}`))
			req.Header.Set("Content-Type", "application/json")
			req.RemoteAddr = "198.51.100.7:1234"
			<-start
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			mu.Lock()
			codes[w.Code]++
			if pin == testPIN {
				rightPIN = w.Code
			}
			mu.Unlock()
		}(pin)
	}
	close(start)
	wg.Wait()
	// The right PIN, when it wins a slot, gives that slot back once it is
	// checked, so a sixth PIN may be checked after it; never a sixth wrong one.
	checked := codes[http.StatusUnauthorized] + codes[http.StatusOK]
	if codes[http.StatusUnauthorized] > 5 || checked > 5+codes[http.StatusOK] || codes[http.StatusOK] > 1 {
		t.Fatalf("%d wrong PINs checked (%v), at most 5 may be", codes[http.StatusUnauthorized], codes)
	}
	if codes[http.StatusTooManyRequests]+codes[http.StatusServiceUnavailable]+checked != 101 {
		t.Fatalf("unexpected statuses: %v", codes)
	}
	if rightPIN != http.StatusOK && rightPIN != http.StatusTooManyRequests {
		t.Errorf("right PIN in the burst: %d", rightPIN)
	}
	// After the burst, once 5 wrong PINs are counted, the IP is locked out
	// even for the right PIN. (When the right PIN won a slot in the burst,
	// only its own slot was given back, so fewer were counted.)
	if codes[http.StatusUnauthorized] < 5 {
		return
	}
	req := httptest.NewRequest("POST", "/api/admin/unlock", strings.NewReader(`{"pin":"`+testPIN+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "198.51.100.7:1234"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusTooManyRequests {
		t.Errorf("after the burst: %d, want 429", w.Code)
	}
}

// Lock revokes the token on the server: it stops working at once.
func TestLogoutRevokesToken(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	other := unlock(t, h)
	if r := jsonReq(t, h, "POST", "/api/admin/logout", tok, nil); r.StatusCode != http.StatusNoContent {
		t.Fatalf("logout: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", tok, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("revoked token still works: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", other, nil); r.StatusCode != 200 {
		t.Errorf("logout ended another session: %d", r.StatusCode)
	}
	// Unknown or missing tokens: same answer, nothing revealed.
	for _, tk := range []string{"", "forged", tok} {
		if r := jsonReq(t, h, "POST", "/api/admin/logout", tk, nil); r.StatusCode != http.StatusNoContent {
			t.Errorf("logout with %q: %d", tk, r.StatusCode)
		}
	}
}

// The Security screen lists the live sessions (since when, from which IP)
// and can end any of them.
func TestSessionsListAndRevoke(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	mine := unlock(t, h)
	victim := unlock(t, h)
	r := jsonReq(t, h, "GET", "/api/admin/sessions", mine, nil)
	var out struct {
		Sessions []struct {
			ID, IP, Kind, CreatedAt string
			Current                 bool
		}
	}
	if err := json.Unmarshal([]byte(r.Body), &out); err != nil || r.StatusCode != 200 {
		t.Fatalf("list: %d %s", r.StatusCode, r.Body)
	}
	if len(out.Sessions) != 2 {
		t.Fatalf("%d sessions, want 2", len(out.Sessions))
	}
	if strings.Contains(r.Body, mine) || strings.Contains(r.Body, victim) || strings.Contains(r.Body, sha256Hex(mine)) {
		t.Fatal("the session list leaks a token or its hash")
	}
	var victimID string
	currents := 0
	for _, se := range out.Sessions {
		if se.IP != "192.0.2.10" || se.Kind != "pin" || se.CreatedAt == "" {
			t.Errorf("session %+v", se)
		}
		if se.Current {
			currents++
		} else {
			victimID = se.ID
		}
	}
	if currents != 1 || victimID == "" {
		t.Fatalf("current marking wrong: %+v", out.Sessions)
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/sessions/"+victimID, mine, nil); r.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", victim, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("revoked session still works: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/sessions/"+victimID, mine, nil); r.StatusCode != http.StatusNotFound {
		t.Errorf("second revoke: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/sessions", "", nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("sessions without a token: %d", r.StatusCode)
	}
}

// A boot with a different PIN ends every session the old PIN opened; a
// boot with the same PIN keeps them.
func TestPINChangeRevokesSessions(t *testing.T) {
	srv, store := adminServer(t, nil)
	tok := unlock(t, srv.Handler())
	again, err := buildServer(t, testParts{Config: srv.cfg, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(again.Close)
	if r := jsonReq(t, again.Handler(), "GET", "/api/admin/session", tok, nil); r.StatusCode != 200 {
		t.Fatalf("same PIN, next boot: %d, want the session kept", r.StatusCode)
	}
	// An account session must survive a PIN change.
	ctx := context.Background()
	acct := db.Session{ID: "acct", TokenHash: sha256Hex("acct-token"), UserID: "u1"}
	acct.CreatedAt = mustNow()
	acct.ExpiresAt, acct.HardExpiresAt = acct.CreatedAt.Add(auth.HardMax), acct.CreatedAt.Add(auth.HardMax)
	if err := store.CreateSession(ctx, acct); err != nil {
		t.Fatal(err)
	}
	cfg := *srv.cfg
	cfg.Admin.PIN = "771133"
	changed, err := buildServer(t, testParts{Config: &cfg, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(changed.Close)
	if r := jsonReq(t, changed.Handler(), "GET", "/api/admin/session", tok, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("old PIN's session after a PIN change: %d, want 401", r.StatusCode)
	}
	if ok, _ := store.SessionValid(ctx, sha256Hex("acct-token"), mustNow()); !ok {
		t.Error("a PIN change ended an account session")
	}
	if r := jsonReq(t, changed.Handler(), "POST", "/api/admin/unlock", "", map[string]string{"pin": "771133"}); r.StatusCode != 200 {
		t.Errorf("new PIN: %d", r.StatusCode)
	}
}

func mustNow() time.Time { return time.Now().UTC() }

// No redirect leaves the site, whatever the path's encoding: every path
// that a browser would read as another host answers 404, and the redirects
// that remain point at a path on this site.
func TestNoOpenRedirect(t *testing.T) {
	srv, _ := newTestServer(t, nil)
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	raw := func(target string) (int, string) {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: www.example-restoration.test\r\nConnection: close\r\n\r\n", target)
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("Location")
	}
	for _, target := range []string{
		"//evil.example/", "//evil.example", "///evil.example/", "////evil.example//",
		"/%2fevil.example/", "/%2Fevil.example/", "/%2f%2fevil.example/", "/%2F/evil.example/",
		"/%5cevil.example/", "/%5Cevil.example/", `/\evil.example/`, `/%5c%5cevil.example/`,
		"/%09/evil.example/", "/%0a/evil.example/", "/%0d/evil.example/", "/%09%2fevil.example/",
		"/.//evil.example/", "/services//evil.example/", "//evil.example/services/",
	} {
		code, loc := raw(target)
		if code != http.StatusNotFound {
			t.Errorf("GET %s: %d Location %q, want 404", target, code, loc)
		}
	}
	// The trailing-slash policy still works, and stays on the site.
	for target, want := range map[string]string{
		"/services/":              "/services",
		"/services/?a=1&b=%2F%2F": "/services?a=1&b=%2F%2F",
		"/blog/":                  "/blog",
	} {
		code, loc := raw(target)
		if code != http.StatusMovedPermanently || loc != want {
			t.Errorf("GET %s: %d %q, want 301 %q", target, code, loc, want)
		}
		u, err := url.Parse(strings.NewReplacer("\\", "/", "\t", "", "\n", "", "\r", "").Replace(loc))
		if err != nil || u.Host != "" || u.Scheme != "" {
			t.Errorf("GET %s: Location %q leaves the site", target, loc)
		}
	}
}

// sha256Hex is how session tokens are stored (web/auth).
func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
