package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/guard"
	analyticsweb "github.com/atlanta-restoration/site/web/analytics"
	"github.com/atlanta-restoration/site/web/auth"
)

// ipv6 is the RemoteAddr of the i-th address in a /64.
func ipv6(prefix string, i int) string { return fmt.Sprintf("[%s::%x:%x]:4000", prefix, i+1, i*7+3) }

// Every per-client limit counts an IPv6 client by its /64: one
// subscriber's line or one cloud instance holds a whole /64, so counting
// single addresses let one attacker rotate through 2^64 of them and get
// unlimited PIN guesses (the PIN's only limit is per client), sign-in
// attempts, estimate requests and analytics beacons. Another /64 is
// another client.
func TestAttackIPv6RotationSharesOneLimit(t *testing.T) {
	srv, store, h := accountServer(t)
	post := func(path, remote, body string) int {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = remote
		return do(t, h, req).StatusCode
	}
	max := srv.cfg.Admin.MaxAttempts
	// The PIN.
	codes := map[int]int{}
	for i := 0; i < 4*max; i++ {
		codes[post("/api/admin/unlock", ipv6("2001:db8:a:1", i), `{"pin":"000000"}`)]++
	}
	if codes[http.StatusUnauthorized] != max || codes[http.StatusTooManyRequests] != 3*max {
		t.Errorf("wrong PINs from %d addresses of one /64: %v, want %d checked, the rest 429", 4*max, codes, max)
	}
	if c := post("/api/admin/unlock", ipv6("2001:db8:a:2", 0), `{"pin":"000000"}`); c != http.StatusUnauthorized {
		t.Errorf("a wrong PIN from another /64: %d, want 401 (its own count)", c)
	}
	// The same client over IPv4-mapped IPv6 is the same IPv4 client.
	for i := 0; i < max; i++ {
		post("/api/admin/unlock", "198.51.100.40:4000", `{"pin":"000000"}`)
	}
	if c := post("/api/admin/unlock", "[::ffff:198.51.100.40]:4000", `{"pin":"000000"}`); c != http.StatusTooManyRequests {
		t.Errorf("IPv4-mapped address of a locked IPv4 client: %d, want 429", c)
	}
	// Account sign-in per client: unknown emails, so only the client's
	// count applies.
	codes = map[int]int{}
	for i := 0; i < 4*max; i++ {
		codes[post("/api/admin/login", ipv6("2001:db8:b:1", i), fmt.Sprintf(`{"email":"nobody%d@example.com","password":"guess"}`, i))]++
	}
	if codes[http.StatusUnauthorized] != max || codes[http.StatusTooManyRequests] != 3*max {
		t.Errorf("failed sign-ins from one /64: %v, want %d checked, the rest 429", codes, max)
	}
	// Estimate requests.
	stored := 0
	for i := 0; i < EstimatesPerWindow+5; i++ {
		f := validForm()
		f.Set("name", fmt.Sprintf("Rotating Visitor%d", i))
		if r := postForm(t, h, "/api/estimate", f, strings.TrimSuffix(ipv6("2001:db8:c:1", i), ":4000"), "application/json"); r.StatusCode == http.StatusCreated {
			stored++
		}
	}
	if n := len(storedLeads(t, store)); stored != EstimatesPerWindow || n != EstimatesPerWindow {
		t.Errorf("estimates from one /64: %d answered 201, %d stored; want %d", stored, n, EstimatesPerWindow)
	}
	// Analytics beacons.
	for i := 0; i < analyticsweb.CollectPerIP+50; i++ {
		beaconReq(t, h, strings.TrimSuffix(ipv6("2001:db8:d:1", i), ":4000"), map[string]any{"t": "pageview", "p": "/", "w": 390})
	}
	flushAnalytics(t, srv)
	// Each rotated address is a new visitor id, and one client (the /64)
	// counts at most MaxVisitorsPerNetwork visitors a day (ADR 029): the
	// page views of the rest are dropped.
	if n := countEvents(t, store, "kind = 'pageview'"); n != analytics.MaxVisitorsPerNetwork {
		t.Errorf("%d beacons stored from one /64, want %d (one client's visitors a day)", n, analytics.MaxVisitorsPerNetwork)
	}
}

// The limits hold on PostgreSQL across two instances sharing it: 100
// parallel wrong PINs from one client, 100 failed sign-ins on one
// account, 100 wrong codes over many sessions: each limit is checked at
// most its size in total, not per instance.
func TestAttackLimitsAcrossInstancesOnPostgres(t *testing.T) {
	store, _ := postgresBehindProxyConnecting(t, 60)
	newTestServer(t, nil) // the shared engine and content
	var hs []http.Handler
	var servers []*Server
	for i := 0; i < 2; i++ {
		cfg := testConfig(t, map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir()})
		srv, err := buildServer(t, testParts{Config: cfg, Store: store})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Close)
		servers = append(servers, srv)
		hs = append(hs, srv.Handler())
	}
	max := servers[0].cfg.Admin.MaxAttempts
	parallel := func(n int, fn func(i int) int) map[int]int {
		var mu sync.Mutex
		out := map[int]int{}
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				c := fn(i)
				mu.Lock()
				out[c]++
				mu.Unlock()
			}(i)
		}
		wg.Wait()
		return out
	}
	post := func(h http.Handler, path, remote, tok string, body any) *response {
		b, _ := json.Marshal(body)
		req := httptest.NewRequest("POST", path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = remote
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		return do(t, h, req)
	}
	codes := parallel(100, func(i int) int {
		return post(hs[i%2], "/api/admin/unlock", "198.51.100.9:4000", "", map[string]string{"pin": fmt.Sprintf("%06d", i)}).StatusCode
	})
	if codes[http.StatusUnauthorized] > max || codes[http.StatusOK] != 0 {
		t.Errorf("100 parallel wrong PINs over two instances: %v, at most %d checked", codes, max)
	}
	addUser(t, store, adminEmail, adminPass, "admin", "The Owner")
	codes = parallel(100, func(i int) int {
		return post(hs[i%2], "/api/admin/login", fmt.Sprintf("198.51.%d.%d:4000", i/200, i%200+1), "", map[string]string{"email": adminEmail, "password": fmt.Sprintf("guess %d", i)}).StatusCode
	})
	if codes[http.StatusUnauthorized] > auth.LoginAttemptsPerAccount {
		t.Errorf("100 parallel failed sign-ins on one account over two instances: %v, at most %d checked", codes, auth.LoginAttemptsPerAccount)
	}
	// Codes: an account with an authenticator, twenty sign-ins at stage
	// totp (its own browser, past the strangers' limit).
	secret, _, err := accounts.NewTOTP("Test", "x@example.com")
	if err != nil {
		t.Fatal(err)
	}
	addUser(t, store, "coded@example.com", "coded account passphrase", "staff", "Coded")
	if err := store.StartTOTP(t.Context(), "u-coded", secret); err != nil {
		t.Fatal(err)
	}
	if err := store.ConfirmTOTP(t.Context(), "u-coded", secret, 1, nil, time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
	var sessions []string
	for i := 0; i < 20; i++ {
		r := post(hs[i%2], "/api/admin/login", fmt.Sprintf("203.0.113.%d:4000", i+1), "", map[string]string{"email": "coded@example.com", "password": "coded account passphrase"})
		if !strings.Contains(r.Body, `"stage":"totp"`) {
			t.Fatalf("sign-in %d: %d %s", i, r.StatusCode, r.Body)
		}
		sessions = append(sessions, sessionCookie(t, r))
	}
	codes = parallel(100, func(i int) int {
		return post(hs[i%2], "/api/admin/login/totp", "203.0.113.99:4000", sessions[i%20], map[string]string{"code": fmt.Sprintf("%06d", 200000+i)}).StatusCode
	})
	if codes[http.StatusUnauthorized] > auth.CodeAttemptsPerAccount {
		t.Errorf("100 parallel wrong codes over 20 sessions and two instances: %v, at most %d checked", codes, auth.CodeAttemptsPerAccount)
	}
	// Estimates: 100 parallel valid requests from one client over both
	// instances store at most the limit.
	codes = parallel(100, func(i int) int {
		f := validForm()
		f.Set("name", fmt.Sprintf("Parallel Visitor%d", i))
		return postForm(t, hs[i%2], "/api/estimate", f, "198.51.100.60", "application/json").StatusCode
	})
	leads, err := store.ListLeads(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// Every 201 is a stored lead and never more than the limit. A save
	// slower than the intake's timeout on a loaded machine answers 503
	// (these servers have no spool) and gives its slot back, so fewer may
	// be stored then, never more.
	created := codes[http.StatusCreated]
	if created != len(leads) || created > EstimatesPerWindow || created == 0 {
		t.Errorf("100 parallel estimates over two instances: %v, %d stored; want %d", codes, len(leads), EstimatesPerWindow)
	}
	if created < EstimatesPerWindow && codes[http.StatusServiceUnavailable] == 0 {
		t.Errorf("100 parallel estimates over two instances: %v, %d stored with no failed save; want %d", codes, len(leads), EstimatesPerWindow)
	}
	for i, srv := range servers {
		if f, ok := srv.estimate.Limit.(*guard.Fallback); !ok || f.Degraded() {
			t.Errorf("instance %d: the estimate limit was counted in the process (the database read as down)", i)
		}
	}
}
