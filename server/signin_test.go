package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
)

// Every admin route, and what each kind of session gets from it: the
// capability table of docs/admin-auth-api.md, checked against the real
// routes. An account opens the tools its role allows and no more; a PIN
// session opens no account data.
func TestCapabilitiesPerRole(t *testing.T) {
	srv, store, h := accountServer(t)
	seedLeads(t, store, 1)
	pin := unlock(t, h)
	staff := signIn(t, h, staffEmail, staffPass)
	admin := signIn(t, h, adminEmail, adminPass)
	const (
		ok     = 0 // answered by the handler (any status but 401/403)
		denied = http.StatusForbidden
	)
	routes := []struct {
		method, path    string
		pin, staff, adm int
	}{
		{"GET", "/api/admin/overview", ok, denied, ok},
		{"GET", "/api/admin/settings", ok, denied, ok},
		{"GET", "/api/admin/seo-audit", ok, denied, ok},
		{"GET", "/api/admin/security", ok, denied, ok},
		{"GET", "/api/admin/schema", ok, denied, ok},
		{"GET", "/api/admin/analytics", ok, denied, ok},
		{"GET", "/api/admin/indexnow/key", ok, denied, ok},
		{"GET", "/api/admin/jobs", ok, denied, ok},
		{"GET", "/api/admin/notifications", ok, denied, ok},
		{"GET", "/api/admin/media", ok, ok, ok},
		{"GET", "/api/admin/sessions", ok, ok, ok},
		{"GET", "/api/admin/leads", denied, ok, ok},
		{"GET", "/api/admin/leads?full=1", denied, denied, ok},
		{"GET", "/api/admin/leads/lead-000", denied, denied, ok},
		{"GET", "/api/admin/leads/export.csv", denied, denied, ok},
		{"PATCH", "/api/admin/leads/lead-000", denied, ok, ok},
		{"GET", "/api/admin/users", denied, denied, ok},
		{"GET", "/api/admin/audit", denied, denied, ok},
	}
	for _, rt := range routes {
		for who, c := range map[string]struct {
			token string
			want  int
		}{"pin": {pin, rt.pin}, "staff": {staff, rt.staff}, "admin": {admin, rt.adm}} {
			var body any
			if rt.method == "PATCH" {
				body = map[string]string{"status": "contacted"}
			}
			r := jsonReq(t, h, rt.method, rt.path, c.token, body)
			switch {
			case c.want == denied && r.StatusCode != http.StatusForbidden:
				t.Errorf("%s %s as %s: %d, want 403", rt.method, rt.path, who, r.StatusCode)
			case c.want == ok && (r.StatusCode == http.StatusUnauthorized || r.StatusCode == http.StatusForbidden):
				t.Errorf("%s %s as %s: %d %.120s, want it answered", rt.method, rt.path, who, r.StatusCode, r.Body)
			}
			if r.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("%s %s as %s: Cache-Control %q", rt.method, rt.path, who, r.Header.Get("Cache-Control"))
			}
			if who == "pin" && c.want == denied && strings.Contains(rt.path, "/leads") && !strings.Contains(r.Body, `"title":"Authentication Required"`) {
				t.Errorf("%s %s as pin: %s, want spec 6's 'Authentication Required'", rt.method, rt.path, r.Body)
			}
		}
		if r := jsonReq(t, h, rt.method, rt.path, "", nil); r.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s %s without a session: %d, want 401", rt.method, rt.path, r.StatusCode)
		}
	}
	// The spec's titled answers for staff.
	if r := jsonReq(t, h, "GET", "/api/admin/leads/lead-000", staff, nil); !strings.Contains(r.Body, `"title":"Access Restricted"`) {
		t.Errorf("staff details: %s", r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads/export.csv", staff, nil); !strings.Contains(r.Body, `"title":"Export Restricted"`) {
		t.Errorf("staff export: %s", r.Body)
	}
	// An unknown admin path: 401 without a session, 404 with one.
	if r := jsonReq(t, h, "GET", "/api/admin/nope", "", nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("unknown path without a session: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/nope", staff, nil); r.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path with a session: %d", r.StatusCode)
	}
	_ = srv
}

// cookieReq sends a request the way the browser does with the account
// cookie: no bearer token; xrw adds the admin app's CSRF header and site
// the browser's Sec-Fetch-Site.
func cookieReq(t *testing.T, h http.Handler, method, path, token string, xrw bool, site string, body any) *response {
	t.Helper()
	b, _ := json.Marshal(body)
	req := httptest.NewRequest(method, path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "192.0.2.10:4000"
	req.AddCookie(&http.Cookie{Name: "__Host-admin_session", Value: token})
	if xrw {
		req.Header.Set("X-Requested-With", "fetch")
	}
	if site != "" {
		req.Header.Set("Sec-Fetch-Site", site)
	}
	return do(t, h, req)
}

// A state-changing request on the cookie needs the admin app's header
// and a same-origin Sec-Fetch-Site: a cross-site form or fetch cannot
// change a lead's status, add a user, or end a session.
func TestCookieSessionRefusesCrossSiteRequests(t *testing.T) {
	_, store, h := accountServer(t)
	seedLeads(t, store, 1)
	admin := signIn(t, h, adminEmail, adminPass)
	patch := map[string]string{"status": "contacted"}
	for name, c := range map[string]struct {
		xrw  bool
		site string
	}{
		"a form from another site (no header)": {false, "cross-site"},
		"no header, same site":                 {false, "same-origin"},
		"the header from another site":         {true, "cross-site"},
		"the header from a sibling subdomain":  {true, "same-site"},
	} {
		if r := cookieReq(t, h, "PATCH", "/api/admin/leads/lead-000", admin, c.xrw, c.site, patch); r.StatusCode != http.StatusForbidden || !strings.Contains(r.Body, "Cross-site request refused.") {
			t.Errorf("%s: %d %s", name, r.StatusCode, r.Body)
		}
	}
	if r := cookieReq(t, h, "POST", "/api/admin/logout", admin, false, "cross-site", nil); r.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site logout: %d", r.StatusCode)
	}
	if l, _ := store.GetLead(t.Context(), "lead-000"); l.Status != "new" {
		t.Errorf("a cross-site request changed the lead to %q", l.Status)
	}
	// The admin app's own requests pass, with or without Sec-Fetch-Site
	// (older browsers do not send it); reads need no header.
	if r := cookieReq(t, h, "PATCH", "/api/admin/leads/lead-000", admin, true, "same-origin", patch); r.StatusCode != 200 {
		t.Errorf("the admin app's request: %d %s", r.StatusCode, r.Body)
	}
	if r := cookieReq(t, h, "PATCH", "/api/admin/leads/lead-000", admin, true, "", patch); r.StatusCode != 200 {
		t.Errorf("without Sec-Fetch-Site: %d %s", r.StatusCode, r.Body)
	}
	if r := cookieReq(t, h, "GET", "/api/admin/leads", admin, false, "", nil); r.StatusCode != 200 {
		t.Errorf("a read on the cookie: %d", r.StatusCode)
	}
}

// The second factor end to end: an admin must enrol; then a sign-in
// needs a code, each code works once, a recovery code works once, and a
// burst of code guesses is cut off at the limit, however parallel.
func TestSecondFactor(t *testing.T) {
	srv, store, h := accountServer(t)
	r := loginFrom(t, h, "192.0.2.1", adminEmail, adminPass)
	token := sessionCookie(t, r)
	if !strings.Contains(r.Body, `"stage":"enrol"`) {
		t.Fatalf("first sign-in of an admin: %s", r.Body)
	}
	// Enrolment: a QR code drawn by the server and the secret as text.
	st := jsonReq(t, h, "POST", "/api/admin/2fa/start", token, map[string]string{"password": adminPass})
	var en auth.Enrolment
	json.Unmarshal([]byte(st.Body), &en)
	if st.StatusCode != 200 || !strings.HasPrefix(en.QRSVG, "<svg") || en.Secret == "" || !strings.Contains(en.URI, "secret="+en.Secret) {
		t.Fatalf("start: %d %.200s", st.StatusCode, st.Body)
	}
	if r := jsonReq(t, h, "POST", "/api/admin/2fa/confirm", token, map[string]string{"code": "000000"}); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong first code: %d", r.StatusCode)
	}
	code := nextCode(t, srv, en.Secret)
	conf := jsonReq(t, h, "POST", "/api/admin/2fa/confirm", token, map[string]string{"code": code})
	var done auth.LoginResult
	json.Unmarshal([]byte(conf.Body), &done)
	if conf.StatusCode != 200 || done.Stage != "full" || len(done.RecoveryCodes) != 10 {
		t.Fatalf("confirm: %d %s", conf.StatusCode, conf.Body)
	}
	u, _ := store.UserByEmail(t.Context(), adminEmail)
	for _, rc := range done.RecoveryCodes {
		if strings.Contains(u.TOTPSecret, rc) {
			t.Error("a recovery code stored in clear")
		}
	}

	// The next sign-in needs a code.
	signInAt := func(ip string) string {
		r := loginFrom(t, h, ip, adminEmail, adminPass)
		if !strings.Contains(r.Body, `"stage":"totp"`) {
			t.Fatalf("sign-in after enrolment: %d %s", r.StatusCode, r.Body)
		}
		return sessionCookie(t, r)
	}
	s1 := signInAt("192.0.2.2")
	if r := jsonReq(t, h, "GET", "/api/admin/leads", s1, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("leads before the code: %d", r.StatusCode)
	}
	code = nextCode(t, srv, en.Secret)
	if r := jsonReq(t, h, "POST", "/api/admin/login/totp", s1, map[string]string{"code": code}); r.StatusCode != 200 {
		t.Fatalf("code: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads", s1, nil); r.StatusCode != 200 {
		t.Errorf("leads after the code: %d", r.StatusCode)
	}
	// The same code again, in another sign-in within its step: refused.
	s2 := signInAt("192.0.2.3")
	if r := jsonReq(t, h, "POST", "/api/admin/login/totp", s2, map[string]string{"code": code}); r.StatusCode != http.StatusUnauthorized ||
		!strings.Contains(r.Body, "That code is not valid.") {
		t.Errorf("a reused code: %d %s", r.StatusCode, r.Body)
	}
	// A recovery code, once.
	if r := jsonReq(t, h, "POST", "/api/admin/login/totp", s2, map[string]string{"recoveryCode": strings.ToUpper(done.RecoveryCodes[3])}); r.StatusCode != 200 ||
		!strings.Contains(r.Body, `"recoveryCodesLeft":9`) {
		t.Errorf("a recovery code: %d %s", r.StatusCode, r.Body)
	}
	s3 := signInAt("192.0.2.4")
	if r := jsonReq(t, h, "POST", "/api/admin/login/totp", s3, map[string]string{"recoveryCode": done.RecoveryCodes[3]}); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a used recovery code: %d", r.StatusCode)
	}
	// A burst of guesses on one session: at most the session's limit are
	// checked, then 429, even for the right code.
	s4 := signInAt("192.0.2.5")
	var wg sync.WaitGroup
	codes := make(chan int, 40)
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			codes <- jsonReq(t, h, "POST", "/api/admin/login/totp", s4, map[string]string{"code": fmt.Sprintf("%06d", i)}).StatusCode
		}(i)
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	// s3's refused recovery code counted toward the account's limit too.
	if count[http.StatusUnauthorized] > auth.CodeAttemptsPerSession || count[http.StatusTooManyRequests] < 40-auth.CodeAttemptsPerSession {
		t.Errorf("a burst of 40 codes on one session: %v; at most %d may be checked", count, auth.CodeAttemptsPerSession)
	}
	if r := finishWithCode(t, srv, h, s4, en.Secret); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the right code after the burst: %d, want 429", r.StatusCode)
	}
	got := strings.Join(auditActions(t, store), " ")
	for _, want := range []string{"2fa_enrolled:" + adminEmail, "recovery_code_used:" + adminEmail, "2fa_failed:" + adminEmail} {
		if !strings.Contains(got, want) {
			t.Errorf("audit lacks %s", want)
		}
	}

	// An admin resets another's second factor (a lost phone): its
	// sessions end and it enrols again at the next sign-in.
	staffTok := signIn(t, h, staffEmail, staffPass)
	enrol(t, h, staffTok)
	if r := jsonReq(t, h, "PATCH", "/api/admin/users/u-crew", s1, map[string]any{"resetTwoFactor": true}); r.StatusCode != 200 {
		t.Fatalf("reset: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads", staffTok, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("the reset account's session lives on: %d", r.StatusCode)
	}
	if r := loginFrom(t, h, "192.0.2.9", staffEmail, staffPass); !strings.Contains(r.Body, `"stage":"full"`) {
		t.Errorf("staff after the reset (staff may go without): %s", r.Body)
	}
	if !strings.Contains(strings.Join(auditActions(t, store), " "), "2fa_reset:"+adminEmail) {
		t.Error("the reset was not audited")
	}
}

// The admin app asks for its session on every load: with none presented
// the answer is 204 (no error in the browser's console), with one that
// ended 401 (back to the gate), with a live one the session.
func TestCurrentSessionAnswers(t *testing.T) {
	_, _, h := accountServer(t)
	if r := jsonReq(t, h, "GET", "/api/admin/session", "", nil); r.StatusCode != http.StatusNoContent || r.Body != "" {
		t.Errorf("no session: %d %q", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", "ended-or-forged", nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("an ended session: %d", r.StatusCode)
	}
	pin := unlock(t, h)
	if r := jsonReq(t, h, "GET", "/api/admin/session", pin, nil); r.StatusCode != 200 || !strings.Contains(r.Body, `"kind":"pin"`) {
		t.Errorf("a PIN session: %d %s", r.StatusCode, r.Body)
	}
}

// Replacing an enrolled authenticator needs a code from it: a stolen
// session alone cannot swap in another phone and new recovery codes.
func TestReplacingTheAuthenticatorNeedsACurrentCode(t *testing.T) {
	srv, _, h := accountServer(t)
	token, secret := signInFull(t, h, "192.0.2.1", adminEmail, adminPass)
	if r := jsonReq(t, h, "POST", "/api/admin/2fa/start", token, nil); r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.Body, "Enter a current code") {
		t.Errorf("start without a code: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "POST", "/api/admin/2fa/start", token, map[string]string{"code": "000000"}); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("start with a wrong code: %d", r.StatusCode)
	}
	r := jsonReq(t, h, "POST", "/api/admin/2fa/start", token, map[string]string{"code": nextCode(t, srv, secret)})
	var en auth.Enrolment
	if json.Unmarshal([]byte(r.Body), &en); r.StatusCode != 200 || en.Secret == "" || en.Secret == secret {
		t.Fatalf("start with the current code: %d %.200s", r.StatusCode, r.Body)
	}
	// A staff account without an authenticator may add one with its
	// password (TestFirstAuthenticatorNeedsThePassword has the rest).
	staff := signIn(t, h, staffEmail, staffPass)
	if r := jsonReq(t, h, "POST", "/api/admin/2fa/start", staff, map[string]string{"password": staffPass}); r.StatusCode != 200 {
		t.Errorf("staff's first authenticator: %d %s", r.StatusCode, r.Body)
	}
}

// A stolen or stale session at stage "enrol" (a password sign-in of an
// admin who had no authenticator yet) cannot add its own authenticator
// once the account has one: it would replace the owner's and take the
// account's second factor. Neither by starting an enrolment, nor by
// confirming one it started in a race.
func TestAttackStaleEnrolSessionCannotReplaceTheAuthenticator(t *testing.T) {
	srv, store, h := accountServer(t)
	var stale []string
	for i := 0; i < 2; i++ {
		r := loginFrom(t, h, "198.51.100.7", adminEmail, adminPass)
		if !strings.Contains(r.Body, `"stage":"enrol"`) {
			t.Fatalf("the attacker's sign-in: %s", r.Body)
		}
		stale = append(stale, sessionCookie(t, r))
	}
	// The attacker starts an enrolment first (its secret pending).
	st := jsonReq(t, h, "POST", "/api/admin/2fa/start", stale[1], map[string]string{"password": adminPass})
	var early auth.Enrolment
	json.Unmarshal([]byte(st.Body), &early)
	if st.StatusCode != 200 {
		t.Fatalf("start: %d %s", st.StatusCode, st.Body)
	}
	// The owner signs in and enrols (this replaces the pending secret).
	_, secret := signInFull(t, h, "192.0.2.1", adminEmail, adminPass)

	// 1. A stale session starts a new enrolment, then confirms it.
	st = jsonReq(t, h, "POST", "/api/admin/2fa/start", stale[0], map[string]string{"password": adminPass})
	var late auth.Enrolment
	json.Unmarshal([]byte(st.Body), &late)
	if st.StatusCode == 200 {
		t.Errorf("a stale enrol session started an enrolment on an enrolled account")
		if late.Secret != "" {
			jsonReq(t, h, "POST", "/api/admin/2fa/confirm", stale[0], map[string]string{"code": nextCode(t, srv, late.Secret)})
		}
	}
	// 2. The other confirms its own secret, pending again through a race
	// with the owner's confirmation.
	if u, _ := store.UserByEmail(t.Context(), adminEmail); u.TOTPSecret == secret {
		if err := store.StartTOTP(t.Context(), "u-owner", early.Secret); err != nil {
			t.Fatal(err)
		}
	}
	if r := jsonReq(t, h, "POST", "/api/admin/2fa/confirm", stale[1], map[string]string{"code": nextCode(t, srv, early.Secret)}); r.StatusCode == 200 {
		t.Errorf("a stale enrol session confirmed its own authenticator: %.200s", r.Body)
	}
	u, _ := store.UserByEmail(t.Context(), adminEmail)
	if u.TOTPSecret != secret {
		t.Fatal("the owner's authenticator was replaced by the attacker's")
	}
	// The stale sessions open nothing any more, and the owner's codes
	// still work.
	for i, s := range stale {
		if r := jsonReq(t, h, "GET", "/api/admin/session", s, nil); r.StatusCode != http.StatusUnauthorized {
			t.Errorf("stale enrol session %d after the refusal: %d %s", i, r.StatusCode, r.Body)
		}
	}
	s := sessionCookie(t, loginFrom(t, h, "192.0.2.1", adminEmail, adminPass))
	if r := finishWithCode(t, srv, h, s, secret); r.StatusCode != 200 {
		t.Errorf("the owner's code after the attack: %d %s", r.StatusCode, r.Body)
	}
}

// Stage confusion: a session between password and second factor opens
// only its own step, a PIN session none of an account's steps, and a
// finished session cannot take a second-factor step again.
func TestAttackStageConfusion(t *testing.T) {
	srv, store, h := accountServer(t)
	_, secret := signInFull(t, h, "192.0.2.1", adminEmail, adminPass)
	totp := sessionCookie(t, loginFrom(t, h, "192.0.2.2", adminEmail, adminPass))
	pin := unlock(t, h)
	staff := signIn(t, h, staffEmail, staffPass)
	enrolStaff := attackSession(t, store, "u-crew", db.StageEnrol, time.Now().UTC().Add(time.Hour))
	code := func() map[string]string { return map[string]string{"code": nextCode(t, srv, secret)} }
	for _, c := range []struct {
		name, tok, method, path string
		body                    any
		want                    int
	}{
		{"totp stage → tools", totp, "GET", "/api/admin/overview", nil, 401},
		{"totp stage → leads", totp, "GET", "/api/admin/leads", nil, 401},
		{"totp stage → sessions", totp, "GET", "/api/admin/sessions", nil, 401},
		{"totp stage → users", totp, "POST", "/api/admin/users", map[string]string{"email": "x@example.com"}, 401},
		{"totp stage → 2fa/start", totp, "POST", "/api/admin/2fa/start", nil, 409},
		{"totp stage → 2fa/confirm", totp, "POST", "/api/admin/2fa/confirm", map[string]string{"code": "123456"}, 409},
		{"enrol stage → login/totp", enrolStaff, "POST", "/api/admin/login/totp", map[string]string{"code": "123456"}, 409},
		{"enrol stage → tools", enrolStaff, "GET", "/api/admin/media", nil, 401},
		{"pin → login/totp", pin, "POST", "/api/admin/login/totp", map[string]string{"code": "123456"}, 409},
		{"pin → 2fa/start", pin, "POST", "/api/admin/2fa/start", nil, 409},
		{"pin → 2fa/confirm", pin, "POST", "/api/admin/2fa/confirm", map[string]string{"code": "123456"}, 409},
		{"full staff → login/totp", staff, "POST", "/api/admin/login/totp", map[string]string{"code": "123456"}, 409},
		{"no session → login/totp", "", "POST", "/api/admin/login/totp", map[string]string{"code": "123456"}, 401},
		{"no session → 2fa/start", "", "POST", "/api/admin/2fa/start", nil, 401},
	} {
		if r := jsonReq(t, h, c.method, c.path, c.tok, c.body); r.StatusCode != c.want {
			t.Errorf("%s: %d %.120s, want %d", c.name, r.StatusCode, r.Body, c.want)
		}
	}
	// GET /session says the stage and no capabilities.
	r := jsonReq(t, h, "GET", "/api/admin/session", totp, nil)
	if !strings.Contains(r.Body, `"stage":"totp"`) || !strings.Contains(r.Body, `"capabilities":[]`) {
		t.Errorf("session at stage totp: %s", r.Body)
	}
	// The step taken once: finished, the same session cannot take it again.
	if r := jsonReq(t, h, "POST", "/api/admin/login/totp", totp, code()); r.StatusCode != 200 {
		t.Fatalf("code: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "POST", "/api/admin/login/totp", totp, code()); r.StatusCode != http.StatusConflict {
		t.Errorf("a second code on a finished session: %d", r.StatusCode)
	}
}

// Second-factor races and the per-account code limit: one code raced by
// twenty sign-ins works once; one recovery code raced works once; wrong
// codes spread over thirty sessions of one account are checked at most
// the account's limit, then even the right code waits.
func TestAttackSecondFactorRaces(t *testing.T) {
	t.Run("one code, twenty sign-ins", func(t *testing.T) {
		srv, _, h := accountServer(t)
		_, secret := signInFull(t, h, "192.0.2.1", adminEmail, adminPass)
		var sessions []string
		for i := 0; i < 20; i++ {
			sessions = append(sessions, sessionCookie(t, loginFrom(t, h, fmt.Sprintf("192.0.2.%d", 10+i), adminEmail, adminPass)))
		}
		code := nextCode(t, srv, secret)
		oks := raceCodes(t, h, sessions, func(int) map[string]string { return map[string]string{"code": code} })
		if oks != 1 {
			t.Errorf("one code raced by 20 sign-ins opened %d sessions, want 1", oks)
		}
	})
	t.Run("one recovery code, twenty sign-ins", func(t *testing.T) {
		_, _, h := accountServer(t)
		tok, _ := signInFull(t, h, "192.0.2.1", adminEmail, adminPass)
		v, _ := lastConfirm.Load(tok)
		var done auth.LoginResult
		json.Unmarshal([]byte(v.(*response).Body), &done)
		var sessions []string
		for i := 0; i < 20; i++ {
			sessions = append(sessions, sessionCookie(t, loginFrom(t, h, fmt.Sprintf("192.0.2.%d", 10+i), adminEmail, adminPass)))
		}
		oks := raceCodes(t, h, sessions, func(i int) map[string]string {
			rc := done.RecoveryCodes[0]
			if i%2 == 1 { // the same code, written differently
				rc = strings.ToUpper(strings.ReplaceAll(rc, "-", " "))
			}
			return map[string]string{"recoveryCode": rc}
		})
		if oks != 1 {
			t.Errorf("one recovery code raced by 20 sign-ins opened %d sessions, want 1", oks)
		}
	})
	t.Run("thirty sessions share the account's limit", func(t *testing.T) {
		srv, _, h := accountServer(t)
		_, secret := signInFull(t, h, "192.0.2.1", adminEmail, adminPass)
		var sessions []string
		for i := 0; i < 30; i++ {
			sessions = append(sessions, sessionCookie(t, loginFrom(t, h, fmt.Sprintf("192.0.2.%d", 10+i), adminEmail, adminPass)))
		}
		var checked atomic.Int32
		var wg sync.WaitGroup
		for i := 0; i < 100; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				body := map[string]string{"code": fmt.Sprintf("%06d", 100000+i)}
				if i%3 == 0 {
					body = map[string]string{"recoveryCode": fmt.Sprintf("abcde-%05d", i)}
				}
				r := jsonReq(t, h, "POST", "/api/admin/login/totp", sessions[i%30], body)
				switch r.StatusCode {
				case http.StatusUnauthorized:
					checked.Add(1)
				case http.StatusTooManyRequests:
				default:
					t.Errorf("guess %d: %d %s", i, r.StatusCode, r.Body)
				}
			}(i)
		}
		wg.Wait()
		if n := checked.Load(); n > auth.CodeAttemptsPerAccount {
			t.Errorf("%d wrong codes checked across 30 sessions of one account, at most %d may be", n, auth.CodeAttemptsPerAccount)
		}
		fresh := sessionCookie(t, loginFrom(t, h, "192.0.2.200", adminEmail, adminPass))
		if r := finishWithCode(t, srv, h, fresh, secret); r.StatusCode != http.StatusTooManyRequests {
			t.Errorf("the right code in a new session after the burst: %d, want 429", r.StatusCode)
		}
		// Enrolment codes are counted too (per session and per account).
		full := signIn(t, h, staffEmail, staffPass)
		jsonReq(t, h, "POST", "/api/admin/2fa/start", full, map[string]string{"password": staffPass})
		codes := map[int]int{}
		for i := 0; i < 20; i++ {
			codes[jsonReq(t, h, "POST", "/api/admin/2fa/confirm", full, map[string]string{"code": fmt.Sprintf("%06d", i)}).StatusCode]++
		}
		if codes[http.StatusUnauthorized] > auth.CodeAttemptsPerSession {
			t.Errorf("enrolment codes: %v, at most %d checked", codes, auth.CodeAttemptsPerSession)
		}
	})
}

// raceCodes sends each session's body at once and counts the 200s.
func raceCodes(t *testing.T, h http.Handler, sessions []string, body func(i int) map[string]string) int {
	t.Helper()
	var oks atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, s := range sessions {
		wg.Add(1)
		go func(i int, s string) {
			defer wg.Done()
			<-start
			r := jsonReq(t, h, "POST", "/api/admin/login/totp", s, body(i))
			switch r.StatusCode {
			case http.StatusOK:
				oks.Add(1)
			case http.StatusUnauthorized, http.StatusTooManyRequests:
			default:
				t.Errorf("session %d: %d %s", i, r.StatusCode, r.Body)
			}
		}(i, s)
	}
	close(start)
	wg.Wait()
	return int(oks.Load())
}

// A sign-in in progress dies with its account: disabled, deleted, or
// stripped of its role between the password and the code, the session
// cannot finish (or opens nothing), and a full session of a deleted
// account is gone.
func TestAttackPendingSessionOfAChangedAccount(t *testing.T) {
	srv, store, h := accountServer(t)
	owner, secret := signInFull(t, h, "192.0.2.1", adminEmail, adminPass)
	// Disabled between password and code.
	pending := sessionCookie(t, loginFrom(t, h, "192.0.2.2", adminEmail, adminPass))
	addUser(t, store, "second@example.com", "second admin passphrase", "admin", "Second Admin")
	if _, err := store.ChangeUser(t.Context(), "u-owner", db.UserChange{Disabled: ptr(true)}, time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
	if r := finishWithCode(t, srv, h, pending, secret); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a disabled account's pending session finished its code: %d %s", r.StatusCode, r.Body)
	}
	for _, tok := range []string{pending, owner} {
		if r := jsonReq(t, h, "GET", "/api/admin/session", tok, nil); r.StatusCode != http.StatusUnauthorized {
			t.Errorf("a disabled account's session: %d", r.StatusCode)
		}
	}
	// Deleted (straight from the database).
	staff := signIn(t, h, staffEmail, staffPass)
	if _, err := store.SQL().Exec(`DELETE FROM users WHERE id = 'u-crew'`); err != nil {
		t.Fatal(err)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads", staff, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a deleted account's session: %d %s", r.StatusCode, r.Body)
	}
	// Role taken away while at the code: it may finish, and opens nothing.
	addUser(t, store, "third@example.com", "third admin passphrase", "admin", "Third")
	_, s3 := signInFull(t, h, "192.0.2.5", "third@example.com", "third admin passphrase")
	p3 := sessionCookie(t, loginFrom(t, h, "192.0.2.6", "third@example.com", "third admin passphrase"))
	if _, err := store.SQL().Exec(`DELETE FROM user_roles WHERE user_id = 'u-third'`); err != nil {
		t.Fatal(err)
	}
	finishWithCode(t, srv, h, p3, s3)
	for _, path := range []string{"/api/admin/leads", "/api/admin/overview", "/api/admin/users", "/api/admin/media"} {
		if r := jsonReq(t, h, "GET", path, p3, nil); r.StatusCode == 200 {
			t.Errorf("%s for an account without a role: 200", path)
		}
	}
}

func ptr[T any](v T) *T { return &v }
