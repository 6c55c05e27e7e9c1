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
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
)

const (
	adminEmail  = "owner@example.com"
	adminPass   = "correct horse battery"
	staffEmail  = "crew@example.com"
	staffPass   = "another good phrase"
	editorEmail = "words@example.com"
	editorPass  = "a writer's passphrase"
)

// accountServer is an admin server with one admin and one staff account.
func accountServer(t *testing.T) (*Server, *db.Store, http.Handler) {
	t.Helper()
	srv, store := adminServer(t, nil)
	sc := &stepClock{t: time.Now()}
	srv.auth.SetClock(sc.Now)
	clocks.Store(srv, sc)
	addUser(t, store, adminEmail, adminPass, "admin", "The Owner")
	addUser(t, store, staffEmail, staffPass, "staff", "Crew Lead")
	return srv, store, srv.Handler()
}

func addUser(t *testing.T, store *db.Store, email, pw, role, name string) db.User {
	t.Helper()
	h, err := accounts.HashPassword(pw)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	u := db.User{ID: "u-" + strings.Split(email, "@")[0], Email: email, Name: name, PasswordHash: h, CreatedAt: now, UpdatedAt: now}
	if role != "" {
		u.Roles = []string{role}
	}
	if err := store.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func loginFrom(t *testing.T, h http.Handler, ip, email, pw string) *response {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"email": email, "password": pw})
	req := httptest.NewRequest("POST", "/api/admin/login", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = ip + ":4000"
	r := do(t, h, req)
	if r.StatusCode == 200 {
		for _, c := range r.Cookies() {
			if c.Name == "admin_session" || c.Name == "__Host-admin_session" {
				passwords.Store(c.Value, pw)
			}
		}
	}
	return r
}

// passwords keeps the password each test sign-in's session was opened
// with: a first authenticator asks for it again (enrol sends it).
var passwords sync.Map

func signIn(t *testing.T, h http.Handler, email, pw string) string {
	t.Helper()
	tok, _ := signInFull(t, h, "192.0.2.50", email, pw)
	return tok
}

// signInFull signs an account in as the admin app does: the password,
// then, for an admin without an authenticator, the enrolment the server
// requires (its secret is returned for later codes). The session token
// comes in the cookie; tests send it back as a bearer token, which the
// server also accepts (and which needs no CSRF header).
func signInFull(t *testing.T, h http.Handler, ip, email, pw string) (token, secret string) {
	t.Helper()
	r := loginFrom(t, h, ip, email, pw)
	var out struct{ Stage string }
	json.Unmarshal([]byte(r.Body), &out)
	if r.StatusCode != 200 {
		t.Fatalf("sign in %s: %d %s", email, r.StatusCode, r.Body)
	}
	token = sessionCookie(t, r)
	switch out.Stage {
	case "full":
	case "enrol":
		secret = enrol(t, h, token)
	default:
		t.Fatalf("sign in %s: stage %q", email, out.Stage)
	}
	return token, secret
}

// sessionCookie is the account session token a sign-in set.
func sessionCookie(t *testing.T, r *response) string {
	t.Helper()
	for _, c := range r.Cookies() {
		if c.Name == "admin_session" || c.Name == "__Host-admin_session" {
			return c.Value
		}
	}
	t.Fatalf("no session cookie: %d %s", r.StatusCode, r.Body)
	return ""
}

// enrol adds an authenticator to the signed-in account and returns its
// secret.
func enrol(t *testing.T, h http.Handler, token string) string {
	t.Helper()
	pw, _ := passwords.Load(token)
	r := jsonReq(t, h, "POST", "/api/admin/2fa/start", token, map[string]any{"password": pw})
	var en struct{ Secret string }
	if json.Unmarshal([]byte(r.Body), &en); r.StatusCode != 200 || en.Secret == "" {
		t.Fatalf("2fa start: %d %s", r.StatusCode, r.Body)
	}
	// The code of the server's clock (a test's step clock, else now).
	now := time.Now()
	if srv, ok := h.(*Server); ok {
		if c, ok := clocks.Load(srv); ok {
			now = c.(*stepClock).Now()
		}
	}
	code, _ := accounts.TOTPCode(en.Secret, now)
	r = jsonReq(t, h, "POST", "/api/admin/2fa/confirm", token, map[string]string{"code": code})
	if r.StatusCode != 200 {
		t.Fatalf("2fa confirm: %d %s", r.StatusCode, r.Body)
	}
	lastConfirm.Store(token, r)
	return en.Secret
}

// stepClock is a test server's clock for second-factor codes: each code
// sign-in steps it 30 seconds on, as a person's next sign-in would be,
// since a code works once per step.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *stepClock) step() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(accounts.TOTPPeriod)
	return c.t
}

var clocks sync.Map // *Server → *stepClock

// lastConfirm keeps each session's enrolment answer (its cookies carry
// the device token).
var lastConfirm sync.Map

// nextCode steps srv's clock and returns secret's code for that moment.
func nextCode(t *testing.T, srv *Server, secret string) string {
	t.Helper()
	c, ok := clocks.Load(srv)
	if !ok {
		t.Fatal("the server has no step clock (accountServer sets one)")
	}
	code, err := accounts.TOTPCode(secret, c.(*stepClock).step())
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// finishWithCode completes a sign-in at stage totp.
func finishWithCode(t *testing.T, srv *Server, h http.Handler, token, secret string) *response {
	t.Helper()
	return jsonReq(t, h, "POST", "/api/admin/login/totp", token, map[string]string{"code": nextCode(t, srv, secret)})
}

func auditActions(t *testing.T, store *db.Store) []string {
	t.Helper()
	es, _, err := store.ListAudit(context.Background(), 200, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := len(es) - 1; i >= 0; i-- {
		out = append(out, es[i].Action+":"+es[i].Actor)
	}
	return out
}

func TestAccountSignIn(t *testing.T) {
	_, store, h := accountServer(t)
	r := loginFrom(t, h, "192.0.2.1", " Owner@Example.com ", adminPass)
	var ok struct {
		Stage   string
		Token   string
		Session struct{ Kind, Role, Stage, Name, Email, ExpiresAt string }
	}
	json.Unmarshal([]byte(r.Body), &ok)
	// An admin without an authenticator must enrol one (a password alone
	// never opens the admin): the session exists but opens nothing else yet.
	if r.StatusCode != 200 || ok.Stage != "enrol" || ok.Token != "" || ok.Session.Role != "admin" || ok.Session.Name != "The Owner" ||
		ok.Session.Email != adminEmail || ok.Session.Kind != "account" || ok.Session.ExpiresAt == "" {
		t.Fatalf("sign in: %d %s", r.StatusCode, r.Body)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
	var ck *http.Cookie
	for _, c := range r.Cookies() {
		if c.Name == "__Host-admin_session" { // the test site is https
			ck = c
		}
	}
	if ck == nil || !ck.HttpOnly || !ck.Secure || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" || ck.Domain != "" {
		t.Fatalf("session cookie %+v: want __Host-, HttpOnly, Secure, SameSite=Strict, Path=/, host-only", ck)
	}
	token := ck.Value
	if strings.Contains(r.Body, token) {
		t.Error("the session token is in the JSON, where a script could read it")
	}
	if r := jsonReq(t, h, "GET", "/api/admin/overview", token, nil); r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.Body, "Finish signing in first.") {
		t.Errorf("a tool before the second factor: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", token, nil); r.StatusCode != 200 || !strings.Contains(r.Body, `"stage":"enrol"`) {
		t.Errorf("session before enrolment: %d %s", r.StatusCode, r.Body)
	}
	if u, _ := store.UserByEmail(context.Background(), adminEmail); u.LastLoginAt != nil {
		t.Error("a sign-in without its second factor was recorded as a sign-in")
	}
	enrol(t, h, token)
	me := jsonReq(t, h, "GET", "/api/admin/session", token, nil)
	if me.StatusCode != 200 || !strings.Contains(me.Body, `"stage":"full"`) || !strings.Contains(me.Body, `"role":"admin"`) ||
		!strings.Contains(me.Body, `"leads.full"`) || !strings.Contains(me.Body, `"twoFactor":true`) {
		t.Errorf("session: %d %s", me.StatusCode, me.Body)
	}
	if u, _ := store.UserByEmail(context.Background(), adminEmail); u.LastLoginAt == nil {
		t.Error("last sign-in not recorded")
	}

	// Unknown email, wrong password, disabled account and an account
	// without a role get one and the same answer.
	addUser(t, store, "norole@example.com", "no role passphrase", "", "")
	gone := addUser(t, store, "gone@example.com", "a disabled passphrase", "staff", "")
	yes := true
	if _, err := store.ChangeUser(context.Background(), gone.ID, db.UserChange{Disabled: &yes}, time.Now()); err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for i, c := range [][2]string{{"nobody@example.com", adminPass}, {adminEmail, "wrong password here"}, {"gone@example.com", "a disabled passphrase"}, {"norole@example.com", "no role passphrase"}} {
		r := loginFrom(t, h, fmt.Sprintf("192.0.2.%d", 10+i), c[0], c[1])
		if r.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: %d", c[0], r.StatusCode)
		}
		bodies = append(bodies, r.Body)
	}
	for _, b := range bodies {
		if b != `{"error":"Invalid email or password"}`+"\n" {
			t.Errorf("failure body %q", b)
		}
	}
	if r := loginFrom(t, h, "192.0.2.20", "", ""); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("empty: %d", r.StatusCode)
	}
	req := httptest.NewRequest("POST", "/api/admin/login", strings.NewReader("{not json"))
	req.Header.Set("Content-Type", "application/json")
	if r := do(t, h, req); r.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed: %d", r.StatusCode)
	}

	// One session model: a PIN session opens the tools and no lead data;
	// an admin account opens both; staff open the leads and not the tools.
	pin := unlock(t, h)
	if r := jsonReq(t, h, "GET", "/api/admin/leads", pin, nil); r.StatusCode != http.StatusForbidden || !strings.Contains(r.Body, `"title":"Authentication Required"`) ||
		!strings.Contains(r.Body, "Please log in to access lead data") {
		t.Errorf("PIN token on /leads: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/settings", pin, nil); r.StatusCode != 200 {
		t.Errorf("PIN token on /settings: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/settings", token, nil); r.StatusCode != 200 {
		t.Errorf("admin account on /settings: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads", token, nil); r.StatusCode != 200 {
		t.Errorf("admin account on /leads: %d", r.StatusCode)
	}
	staff := signIn(t, h, staffEmail, staffPass)
	if r := jsonReq(t, h, "GET", "/api/admin/settings", staff, nil); r.StatusCode != http.StatusForbidden {
		t.Errorf("staff on /settings: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads", staff, nil); r.StatusCode != 200 {
		t.Errorf("staff on /leads: %d", r.StatusCode)
	}

	// Sign-out revokes the session on the server and clears the cookie.
	out := jsonReq(t, h, "POST", "/api/admin/logout", token, nil)
	if out.StatusCode != http.StatusNoContent || !strings.Contains(out.Header.Get("Set-Cookie"), "Max-Age=0") {
		t.Fatalf("logout: %d %q", out.StatusCode, out.Header.Get("Set-Cookie"))
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", token, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("after logout: %d", r.StatusCode)
	}
	got := strings.Join(auditActions(t, store), " ")
	for _, want := range []string{"login:owner@example.com", "login_failed:nobody@example.com", "login_failed:owner@example.com", "login_failed:gone@example.com", "2fa_enrolled:owner@example.com"} {
		if !strings.Contains(got, want) {
			t.Errorf("audit lacks %s: %s", want, got)
		}
	}
}

// A parallel burst of wrong passwords from one IP, with the right one
// inside it, gets at most ADMIN_MAX_ATTEMPTS passwords checked; the rest
// are refused with 429 before any hashing. Then many IPs against one
// account are bounded by the per-account limit.
func TestSignInBurstIsBounded(t *testing.T) {
	srv, _, h := accountServer(t)
	max := srv.cfg.Admin.MaxAttempts
	const n = 40
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pw := fmt.Sprintf("wrong password %d", i)
			if i == n/2 {
				pw = adminPass
			}
			codes[i] = loginFrom(t, h, "198.51.100.7", adminEmail, pw).StatusCode
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, c := range codes {
		count[c]++
	}
	// The right password, when it wins a slot, gives that slot back once
	// it is checked: never more than max wrong ones are.
	if count[401] > max || count[200] > 1 || count[429] == 0 {
		t.Fatalf("one IP: %v; at most %d may be checked", count, max)
	}
	if r := loginFrom(t, h, "198.51.100.7", adminEmail, adminPass); count[401] >= max && r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("after the burst: %d", r.StatusCode)
	}
	// Per account: wrong passwords for the staff account from many IPs.
	checked := 0
	for i := 0; i < auth.LoginAttemptsPerAccount+5; i++ {
		r := loginFrom(t, h, fmt.Sprintf("203.0.113.%d", i+1), staffEmail, "not the password")
		switch r.StatusCode {
		case http.StatusUnauthorized:
			checked++
		case http.StatusTooManyRequests:
			if r.Header.Get("Retry-After") == "" || !strings.Contains(r.Body, "Too many incorrect sign-ins") {
				t.Errorf("429 without Retry-After or message: %q", r.Body)
			}
		default:
			t.Errorf("attempt %d: %d", i, r.StatusCode)
		}
	}
	if checked != auth.LoginAttemptsPerAccount {
		t.Errorf("%d wrong passwords checked for one account, want %d", checked, auth.LoginAttemptsPerAccount)
	}
}

func seedLeads(t *testing.T, store *db.Store, n int) {
	t.Helper()
	base := time.Date(2026, 11, 1, 14, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		l := db.Lead{ID: fmt.Sprintf("lead-%03d", i), CreatedAt: base.Add(time.Duration(i) * time.Minute), UpdatedAt: base,
			FirstName: "Bulk", LastName: fmt.Sprintf("Person%d", i), Phone: "(404) 555-0100", Email: "bulk@example.com",
			City: "Roswell", DamageType: "Mold Remediation", Status: "new", Source: "website"}
		if i == n-1 {
			l.FirstName, l.LastName, l.Phone, l.Email, l.City = "Maria", "Gonzalez", "(770) 555-0134", "maria.g@example.com", "Marietta"
			l.StreetAddress, l.Notes, l.InsuranceCarrier, l.ClaimNumber = "12 Secret Lane", "gate code 4471", "Acme Mutual", "CLM-99812"
			l.DamageType, l.IsEmergency = "Water Damage", true
		}
		if i == n-2 {
			l.FirstName = "=HYPERLINK(\"http://evil.example\")"
		}
		if err := store.CreateLead(context.Background(), l); err != nil {
			t.Fatal(err)
		}
	}
}

// What the leads room does for each caller is tested in the room
// (web/leads: TestStaffNeverSeesUnmaskedData,
// TestAdminLeadsFullDataExportAndAudit, TestUsersAPI); here, what an
// account change does to the account's sessions and sign-ins.

// A new account signs in; a password reset, a role change and a disable
// end the account's sessions (a session keeps no role it was not signed
// in with), and the new password works; signed in again, the promoted
// account is an admin; a disabled account cannot sign in. A refused
// change of one's own account keeps the caller's session, and a second
// admin's session ends when the owner disables it.
func TestAccountChangesEndSessions(t *testing.T) {
	_, store, h := accountServer(t)
	admin := signIn(t, h, adminEmail, adminPass)
	staff := signIn(t, h, staffEmail, staffPass)
	if r := jsonReq(t, h, "POST", "/api/admin/users", admin, map[string]string{"email": "New@Example.com", "name": "New Hire", "password": "a fine passphrase", "role": "staff"}); r.StatusCode != 201 {
		t.Fatalf("create: %d %s", r.StatusCode, r.Body)
	}
	signIn(t, h, "new@example.com", "a fine passphrase")
	owner, _ := store.UserByEmail(context.Background(), adminEmail)
	crew, _ := store.UserByEmail(context.Background(), staffEmail)
	for _, body := range []map[string]any{{"role": "staff"}, {"disabled": true}} {
		if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+owner.ID, admin, body); r.StatusCode != 403 {
			t.Errorf("own account %v: %d %s", body, r.StatusCode, r.Body)
		}
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", admin, nil); r.StatusCode != 200 {
		t.Fatalf("a refused change of one's own account ended the session: %d", r.StatusCode)
	}
	// A password reset ends the account's sessions; the new one works.
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+crew.ID, admin, map[string]any{"password": "reset passphrase 1"}); r.StatusCode != 200 {
		t.Fatalf("reset: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads", staff, nil); r.StatusCode != 401 {
		t.Errorf("old session after a reset: %d", r.StatusCode)
	}
	staff = signIn(t, h, staffEmail, "reset passphrase 1")
	// A role change ends the account's sessions (a session keeps
	// no role it was not signed in with); signed in
	// again, the promoted account enrols its second factor and is an
	// admin. Disabling ends sessions too.
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+crew.ID, admin, map[string]any{"role": "admin"}); r.StatusCode != 200 {
		t.Fatal(r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads", staff, nil); r.StatusCode != 401 {
		t.Errorf("old session after a role change: %d", r.StatusCode)
	}
	staff = signIn(t, h, staffEmail, "reset passphrase 1")
	if r := jsonReq(t, h, "GET", "/api/admin/users", staff, nil); r.StatusCode != 200 {
		t.Errorf("promoted account: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+crew.ID, admin, map[string]any{"disabled": true}); r.StatusCode != 200 {
		t.Fatalf("disable: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", staff, nil); r.StatusCode != 401 {
		t.Errorf("disabled account's session: %d", r.StatusCode)
	}
	if r := loginFrom(t, h, "192.0.2.77", staffEmail, "reset passphrase 1"); r.StatusCode != 401 {
		t.Errorf("disabled sign-in: %d", r.StatusCode)
	}
	// A second admin disabled by the owner: its session ends.
	addUser(t, store, "second@example.com", "second admin passphrase", "admin", "Sam Second")
	second := signIn(t, h, "second@example.com", "second admin passphrase")
	sec, _ := store.UserByEmail(context.Background(), "second@example.com")
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+sec.ID, admin, map[string]any{"disabled": true}); r.StatusCode != 200 {
		t.Fatalf("disable the second admin: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/users", second, nil); r.StatusCode != 401 {
		t.Errorf("a disabled admin's session: %d", r.StatusCode)
	}
}

// Sign-ins (wrong and right), account tokens and lead data never reach
// the log.
func TestAccountSecretsNeverReachTheLog(t *testing.T) {
	srv, store, _ := accountServer(t)
	var buf bytes.Buffer
	srv.log = NewLogger(&buf, srv.cfg.Secrets())
	srv.auth.SetLogger(srv.log)
	srv.leadsRoom.Log = srv.log
	h := srv.Handler()
	seedLeads(t, store, 2)
	loginFrom(t, h, "192.0.2.90", adminEmail, "a wrong password guess")
	tok := signIn(t, h, adminEmail, adminPass)
	jsonReq(t, h, "GET", "/api/admin/leads?full=1&q=555-0134", tok, nil)
	jsonReq(t, h, "GET", "/api/admin/leads/export.csv", tok, nil)
	jsonReq(t, h, "POST", "/api/admin/users", tok, map[string]string{"email": "new@example.com", "password": "a secret new passphrase", "role": "staff"})
	log := buf.String()
	if !strings.Contains(log, "failed sign-in") {
		t.Fatalf("the log did not capture the requests:\n%s", log)
	}
	for _, secret := range []string{adminPass, "a wrong password guess", "a secret new passphrase", tok, "555-0134", "maria.g@example.com", "12 Secret Lane"} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds %q", secret)
		}
	}
}
