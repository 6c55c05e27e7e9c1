package server

// Issue 20, second round: every endpoint attacked again. Each test names
// a class of attack; the first ones failed on the code before this round
// (their fixes are in server/intake.go, server/listen.go, guard/ and
// web/auth), the others hold and guard the class from now on.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/leads"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	analyticsweb "github.com/atlanta-restoration/site/web/analytics"
	"github.com/atlanta-restoration/site/web/auth"
)

// endlessBody is a request body of max bytes that counts what the server
// read of it.
type endlessBody struct{ read, max int64 }

func (b *endlessBody) Read(p []byte) (int, error) {
	left := b.max - atomic.LoadInt64(&b.read)
	if left <= 0 {
		return 0, io.EOF
	}
	n := int64(len(p))
	if n > left {
		n = left
	}
	for i := range p[:n] {
		p[i] = 'a'
	}
	atomic.AddInt64(&b.read, n)
	return int(n), nil
}

// A stranger's body to an upload path is not read before the session is
// checked: the body limit does not apply to uploads (they stream), so a
// middleware that read such a body whole would hold gigabytes in memory
// for anyone who asked. Every content type, both upload routes; and a
// session's non-multipart body is refused without being read either.
func TestAttackUploadPathBodyIsNotReadBeforeTheSession(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	const size = 64 << 20
	pin := unlock(t, h)
	for _, who := range []string{"", pin} {
		for _, c := range []struct{ method, path, ct string }{
			{"PUT", "/api/admin/media/x/poster", "application/json"},
			{"PUT", "/api/admin/media/anything/poster", "application/x-www-form-urlencoded"},
			{"PUT", "/api/admin/media/x/poster", "text/plain"},
			{"POST", "/api/admin/media", "application/json"},
			{"POST", "/api/admin/media", "application/octet-stream"},
			{"POST", "/api/admin/media", ""},
			{"POST", "/api/admin/media?project=x", "application/xml"},
		} {
			body := &endlessBody{max: size}
			req := httptest.NewRequest(c.method, c.path, body)
			if c.ct != "" {
				req.Header.Set("Content-Type", c.ct)
			}
			if who != "" {
				req.Header.Set("Authorization", "Bearer "+who)
			}
			r := do(t, h, req)
			if r.StatusCode < 400 {
				t.Errorf("%s %s (%s, session %v): %d", c.method, c.path, c.ct, who != "", r.StatusCode)
			}
			if who == "" && r.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s (%s) without a session: %d, want 401", c.method, c.path, c.ct, r.StatusCode)
			}
			if n := atomic.LoadInt64(&body.read); n > srv.bodyLimit+64<<10 {
				t.Errorf("%s %s (%s, session %v): the server read %d MB of the body before answering %d", c.method, c.path, c.ct, who != "", n>>20, r.StatusCode)
			}
		}
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

// Logout CSRF: a page on another site that posts a form to
// /api/admin/logout sends no cookie (SameSite=Strict), but a response to
// that top-level navigation may still set one: the answer must not clear
// the session cookie. Only the admin app (its header, same origin) or a
// bearer token may log out. Without a credential the status stays the
// same as ever (nothing to end, nothing revealed).
func TestAttackLogoutCSRFCannotClearTheCookie(t *testing.T) {
	_, _, h := accountServer(t)
	staff := signIn(t, h, staffEmail, staffPass)
	for name, site := range map[string]string{"cross-site form": "cross-site", "sibling subdomain": "same-site", "no Sec-Fetch-Site, no header": ""} {
		req := httptest.NewRequest("POST", "/api/admin/logout", strings.NewReader("x=1"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if site != "" {
			req.Header.Set("Sec-Fetch-Site", site)
		}
		r := do(t, h, req)
		for _, c := range r.Cookies() {
			if strings.HasSuffix(c.Name, "admin_session") {
				t.Errorf("%s: %d and the answer clears the session cookie (%s)", name, r.StatusCode, c.String())
			}
		}
		if r.StatusCode != http.StatusNoContent {
			t.Errorf("%s: %d, want 204", name, r.StatusCode)
		}
	}
	// The cookie with a cross-site form: refused, the session lives.
	if r := cookieReq(t, h, "POST", "/api/admin/logout", staff, false, "cross-site", nil); r.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site logout with the cookie: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", staff, nil); r.StatusCode != 200 {
		t.Fatalf("the session after the cross-site attempts: %d", r.StatusCode)
	}
	// The admin app's own logout works, on the cookie and with a bearer.
	r := cookieReq(t, h, "POST", "/api/admin/logout", staff, true, "same-origin", nil)
	if r.StatusCode != http.StatusNoContent {
		t.Fatalf("the admin app's logout: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/session", staff, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("the session after logout: %d", r.StatusCode)
	}
	pin := unlock(t, h)
	if r := jsonReq(t, h, "POST", "/api/admin/logout", pin, nil); r.StatusCode != http.StatusNoContent {
		t.Errorf("bearer logout: %d", r.StatusCode)
	}
}

// principals are the kinds of caller a route is tried with.
type principals struct {
	pin, staff, editor, admin, roleless, totp, enrol, expired, revoked, forged string
}

// attackSession stores a session for userID ("" the PIN) at stage,
// expiring at exp, and returns its token.
func attackSession(t *testing.T, store *db.Store, userID, stage string, exp time.Time) string {
	t.Helper()
	tok := fmt.Sprintf("attack-%s-%s-%d", userID, stage, time.Now().UnixNano())
	now := time.Now().UTC()
	created := now.Add(-time.Minute)
	if exp.Before(now) {
		created = exp.Add(-time.Hour)
	}
	if err := store.CreateSession(t.Context(), db.Session{ID: newID(), TokenHash: sha256Hex(tok), UserID: userID, IP: "192.0.2.99",
		CreatedAt: created, ExpiresAt: exp, HardExpiresAt: exp.Add(time.Hour), Stage: stage}); err != nil {
		t.Fatal(err)
	}
	return tok
}

var idSeq atomic.Int64

func newID() string { return fmt.Sprintf("attack%020d", idSeq.Add(1)) }

func allPrincipals(t *testing.T, store *db.Store, h http.Handler) principals {
	t.Helper()
	addUser(t, store, "norole@example.com", "a role-less passphrase", "", "No Role")
	addUser(t, store, editorEmail, editorPass, "editor", "Eddie Editor")
	soon := time.Now().UTC().Add(time.Hour)
	p := principals{
		pin:      unlock(t, h),
		staff:    signIn(t, h, staffEmail, staffPass),
		editor:   signIn(t, h, editorEmail, editorPass),
		admin:    signIn(t, h, adminEmail, adminPass),
		roleless: attackSession(t, store, "u-norole", db.StageFull, soon),
		totp:     attackSession(t, store, "u-owner", db.StageTOTP, soon),
		enrol:    attackSession(t, store, "u-owner", db.StageEnrol, soon),
		expired:  attackSession(t, store, "u-owner", db.StageFull, time.Now().UTC().Add(-time.Minute)),
		forged:   "forged-" + strings.Repeat("A", 43),
	}
	p.revoked = unlock(t, h)
	if r := jsonReq(t, h, "POST", "/api/admin/logout", p.revoked, nil); r.StatusCode != http.StatusNoContent {
		t.Fatal("logout")
	}
	return p
}

// routeCaps is what each admin route requires, as docs/admin-auth-api.md
// says. A route missing here fails the test: every new route has to say
// who may call it.
var routeCaps = map[string][]accounts.Capability{
	"GET /api/admin/sessions":                            nil,
	"DELETE /api/admin/sessions/:id":                     nil,
	"GET /api/admin/media":                               {accounts.MediaWrite},
	"POST /api/admin/media":                              {accounts.MediaWrite},
	"DELETE /api/admin/media/:id":                        {accounts.MediaWrite},
	"PATCH /api/admin/media/:id":                         {accounts.MediaWrite},
	"PUT /api/admin/media/:id/poster":                    {accounts.MediaWrite},
	"PUT /api/admin/media/:id/portfolio":                 {accounts.MediaWrite}, // issue 30: project work or library only
	"GET /api/admin/settings":                            {accounts.Tools},
	"GET /api/admin/settings/phone-uses":                 {accounts.Tools},
	"PUT /api/admin/settings":                            {accounts.SettingsWrite},
	"GET /api/admin/overview":                            {accounts.Tools},
	"GET /api/admin/routes":                              {accounts.Tools},
	"GET /api/admin/locations":                           {accounts.Tools, accounts.ContentEdit}, // either (anyOf)
	"GET /api/admin/notifications":                       {accounts.Tools},
	"GET /api/admin/jobs":                                {accounts.Tools},
	"GET /api/admin/health":                              {accounts.Tools},
	"POST /api/admin/health/run":                         {accounts.Tools},
	"GET /api/admin/seo-audit":                           {accounts.Tools},
	"GET /api/admin/seo-audit/page":                      {accounts.Tools},
	"POST /api/admin/seo-audit/run":                      {accounts.Tools},
	"GET /api/admin/security":                            {accounts.Tools},
	"POST /api/admin/security/scan":                      {accounts.Tools},
	"PUT /api/admin/security/vulnerabilities/:id":        {accounts.Tools},
	"GET /api/admin/schema":                              {accounts.Tools},
	"POST /api/admin/schema/validate":                    {accounts.Tools},
	"GET /api/admin/tools":                               {accounts.Tools}, // issue 29: the tool cards' statuses
	"GET /api/admin/schema/generator":                    {accounts.Tools},
	"GET /api/admin/schema/generate":                     {accounts.Tools},
	"GET /api/admin/schema/generate?type=Article&path=/": {accounts.Tools},
	"GET /api/admin/analytics":                           {accounts.Tools},
	"PUT /api/admin/analytics/goals":                     {accounts.Tools},
	"GET /api/admin/vitals":                              {accounts.Tools},
	"GET /api/admin/indexnow/key":                        {accounts.Tools},
	"PUT /api/admin/indexnow/key":                        {accounts.Tools},
	"POST /api/admin/indexnow/submit":                    {accounts.Tools},
	"GET /api/admin/indexnow/submissions":                {accounts.Tools},
	"GET /api/admin/leads":                               {accounts.LeadsRead},
	"GET /api/admin/leads/export.csv":                    {accounts.LeadsRead, accounts.LeadsFull},
	"GET /api/admin/leads/:id":                           {accounts.LeadsRead, accounts.LeadsFull},
	"PATCH /api/admin/leads/:id":                         {accounts.LeadsStatus},
	"GET /api/admin/leads/response-times":                {accounts.LeadsRead},
	"GET /api/admin/leads/events":                        {accounts.LeadsRead},
	"GET /api/admin/leads/:id/work":                      {accounts.LeadsRead},
	"GET /api/admin/leads/attention":                     {accounts.LeadsRead},
	"POST /api/admin/leads/:id/reveal":                   {accounts.LeadsRead, accounts.LeadsFull},
	"POST /api/admin/leads/:id/notes":                    {accounts.LeadsNote},
	"PUT /api/admin/leads/:id/assignee":                  {accounts.LeadsAssign},
	"GET /api/admin/push/key":                            {accounts.PushSubscribe},
	"POST /api/admin/push/subscriptions":                 {accounts.PushSubscribe},
	"GET /api/admin/push/devices":                        {accounts.PushSubscribe},
	"DELETE /api/admin/push/devices/:id":                 {accounts.PushSubscribe},
	"GET /api/admin/push/devices/all":                    {accounts.PushAll},
	"GET /api/admin/leads/export.csv?with=source":        {accounts.LeadsFull},
	"GET /api/admin/users":                               {accounts.UsersManage},
	"POST /api/admin/users":                              {accounts.UsersManage},
	"PATCH /api/admin/users/:id":                         {accounts.UsersManage},
	"GET /api/admin/audit":                               {accounts.UsersManage},
	"GET /api/admin/leads?full=1":                        {accounts.LeadsFull},
	"GET /api/admin/leads/export.csv?status=new":         {accounts.LeadsFull},
	"GET /api/admin/leads?full=true&q=%25":               {accounts.LeadsFull},
	"DELETE /api/admin/sessions/no-such-session-x":       nil,
	"GET /api/admin/2fa/recovery-codes":                  nil, // any account (the PIN: 409)
	"POST /api/admin/2fa/recovery-codes":                 nil,
	"GET /api/admin/content":                             {accounts.ContentEdit},
	"POST /api/admin/content":                            {accounts.ContentEdit},
	"GET /api/admin/content/:id":                         {accounts.ContentEdit},
	"PUT /api/admin/content/:id":                         {accounts.ContentEdit},
	"DELETE /api/admin/content/:id":                      {accounts.ContentEdit},
	"POST /api/admin/content/:id/publish":                {accounts.ContentEdit},
	"POST /api/admin/content/:id/schedule":               {accounts.ContentEdit},
	"POST /api/admin/content/:id/unschedule":             {accounts.ContentEdit},
	"POST /api/admin/content/:id/unpublish":              {accounts.ContentEdit},
	"POST /api/admin/content/:id/restore":                {accounts.ContentEdit},
	"GET /api/admin/content/:id/revisions":               {accounts.ContentEdit},
	"GET /api/admin/content/:id/guidance":                {accounts.ContentEdit},
	"GET /api/admin/content/:id/referrers":               {accounts.ContentEdit},
	"GET /api/admin/redirects":                           {accounts.ContentEdit},
	"POST /api/admin/redirects":                          {accounts.ContentEdit},
	"DELETE /api/admin/redirects":                        {accounts.ContentEdit},
	"GET /api/admin/not-found":                           {accounts.ContentEdit},
	"GET /api/admin/leads/person":                        {accounts.LeadsErase},
	"DELETE /api/admin/leads/:id":                        {accounts.LeadsErase},
	"GET /api/admin/leads/person?email=bulk@example.com": {accounts.LeadsErase},
	"GET /api/admin/backups":                             {accounts.BackupsManage},
	"POST /api/admin/backups/run":                        {accounts.BackupsManage},
	"GET /api/admin/backups/:id/download":                {accounts.BackupsManage},
}

// anyOf are the routes whose capabilities are alternatives: either one
// opens them (a.RequireAny).
var anyOf = map[string]bool{"GET /api/admin/locations": true}

// signInRoutes open without a finished session and are attacked by the
// tests of their own.
var signInRoutes = map[string]bool{
	"POST /api/admin/unlock": true, "POST /api/admin/login": true, "POST /api/admin/login/totp": true,
	"POST /api/admin/2fa/start": true, "POST /api/admin/2fa/confirm": true, "GET /api/admin/session": true, "POST /api/admin/logout": true,
}

// Every admin route the server registers × every kind of caller: no
// session, a forged, an expired and a revoked token, a session still at
// its second factor (totp, enrol), the PIN, staff, admin, and an account
// whose role was taken away. 401 without a live, finished session; 403
// for a role without the capability; answered otherwise. Every answer,
// errors included, is no-store with the hardening headers.
func TestAttackEveryAdminRouteForEveryPrincipal(t *testing.T) {
	srv, store, h := accountServer(t)
	seedLeads(t, store, 1)
	p := allPrincipals(t, store, h)
	// A live stream never ends by itself: with the hub closed, the events
	// route answers 503 past its guard (leadstream_test.go opens it).
	srv.EndStreams()
	type call struct{ method, path, key string }
	var calls []call
	seen := map[string]bool{}
	for _, rt := range srv.echo.Routes() {
		if !strings.HasPrefix(rt.Path, "/api/admin") {
			continue
		}
		key := rt.Method + " " + rt.Path
		if rt.Path == "/api/admin/*" || signInRoutes[key] || seen[key] {
			continue
		}
		seen[key] = true
		if _, ok := routeCaps[key]; !ok {
			t.Errorf("%s is not in the attack table: say which capability it needs", key)
			continue
		}
		path := strings.NewReplacer(":id", "lead-000").Replace(rt.Path)
		calls = append(calls, call{rt.Method, path, key})
	}
	for key := range routeCaps {
		if strings.Contains(key, "?") || strings.HasSuffix(key, "no-such-session-x") {
			m, path, _ := strings.Cut(key, " ")
			calls = append(calls, call{m, path, key})
		}
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i].key < calls[j].key })
	if len(calls) < 40 {
		t.Fatalf("only %d admin routes found", len(calls))
	}
	roles := map[string]string{p.pin: accounts.RolePIN, p.staff: accounts.RoleStaff, p.editor: accounts.RoleEditor, p.admin: accounts.RoleAdmin, p.roleless: ""}
	names := map[string]string{"": "no session", p.forged: "forged", p.expired: "expired", p.revoked: "revoked", p.totp: "totp stage",
		p.enrol: "enrol stage", p.pin: "pin", p.staff: "staff", p.editor: "editor", p.admin: "admin", p.roleless: "role-less account"}
	for _, c := range calls {
		for _, tok := range []string{"", p.forged, p.expired, p.revoked, p.totp, p.enrol, p.pin, p.staff, p.editor, p.roleless, p.admin} {
			var body any
			switch c.method {
			case "POST", "PUT", "PATCH":
				body = map[string]any{}
			}
			// Read-only calls for the callers that pass: a mutation would
			// change what the next caller sees.
			r := jsonReq(t, h, c.method, c.path, tok, body)
			who := names[tok]
			checkHardening(t, c.method+" "+c.path+" as "+who, r, true)
			role, live := roles[tok]
			want := "answered"
			switch {
			case !live:
				want = "401"
			case anyOf[c.key]:
				want = "403"
				for _, cp := range routeCaps[c.key] {
					if hasCap(role, cp) {
						want = "answered"
					}
				}
			default:
				for _, cp := range routeCaps[c.key] {
					if !hasCap(role, cp) {
						want = "403"
					}
				}
			}
			got := "answered"
			switch r.StatusCode {
			case http.StatusUnauthorized:
				got = "401"
			case http.StatusForbidden:
				got = "403"
			}
			if got != want {
				t.Errorf("%s %s as %s: %d %.120s, want %s", c.method, c.path, who, r.StatusCode, r.Body, want)
			}
		}
	}
	// The catch-all: 401 without a live session for every method, 404
	// with one; nothing about what exists leaks.
	for _, m := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"} {
		for _, tok := range []string{"", p.forged, p.totp} {
			if r := jsonReq(t, h, m, "/api/admin/no-such-thing", tok, nil); r.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s unknown admin path as %s: %d", m, names[tok], r.StatusCode)
			}
		}
		r := jsonReq(t, h, m, "/api/admin/no-such-thing", p.staff, nil)
		if r.StatusCode != http.StatusNotFound {
			t.Errorf("%s unknown admin path as staff: %d", m, r.StatusCode)
		}
		checkHardening(t, m+" unknown admin path", r, true)
	}
	// No lead data reached a caller without leads.full.
	for _, tok := range []string{p.pin, p.staff, p.editor, p.roleless} {
		for _, path := range []string{"/api/admin/leads?full=1", "/api/admin/leads/lead-000", "/api/admin/leads/export.csv", "/api/admin/leads"} {
			if r := jsonReq(t, h, "GET", path, tok, nil); strings.Contains(r.Body, "bulk@example.com") || strings.Contains(r.Body, "555-0100") {
				t.Errorf("%s as %s: full contact data in %.200s", path, names[tok], r.Body)
			}
		}
	}
}

func hasCap(role string, c accounts.Capability) bool {
	for _, x := range accounts.Capabilities(role) {
		if x == c {
			return true
		}
	}
	return false
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

// Cookies: a sign-in never adopts a cookie the browser already had
// (session fixation); behind https only the __Host- cookie counts (one
// set over http or by a sibling subdomain is ignored); the cookies carry
// HttpOnly, SameSite=Strict, Secure and no Domain; a PIN token carried in
// the cookie gets the cookie's CSRF rule; an ended session's cookie is
// cleared.
func TestAttackSessionFixationAndCookies(t *testing.T) {
	_, store, h := accountServer(t)
	const planted = "planted-by-the-attacker-0123456789abcdefghijkl"
	if err := store.CreateSession(t.Context(), db.Session{ID: newID(), TokenHash: sha256Hex(planted), UserID: "", IP: "198.51.100.1",
		CreatedAt: time.Now().UTC(), ExpiresAt: time.Now().UTC().Add(time.Hour), HardExpiresAt: time.Now().UTC().Add(2 * time.Hour), Stage: db.StageFull}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"__Host-admin_session", "admin_session"} {
		req := httptest.NewRequest("POST", "/api/admin/login", strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q}`, staffEmail, staffPass)))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = "192.0.2.30:4000"
		req.AddCookie(&http.Cookie{Name: name, Value: planted})
		r := do(t, h, req)
		tok := sessionCookie(t, r)
		if tok == planted {
			t.Fatalf("the sign-in adopted the planted %s cookie", name)
		}
		for _, c := range r.Cookies() {
			if c.Domain != "" || !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteStrictMode {
				t.Errorf("cookie %s: %s", c.Name, c.String())
			}
			if c.Name == "admin_session" {
				t.Errorf("behind https the session cookie must be __Host-: %s", c.String())
			}
		}
		// The planted token still belongs to its own (PIN) session; it did
		// not become the staff account's.
		if r := jsonReq(t, h, "GET", "/api/admin/session", planted, nil); !strings.Contains(r.Body, `"kind":"pin"`) {
			t.Errorf("the planted token after the sign-in: %s", r.Body)
		}
	}
	staff := signIn(t, h, staffEmail, staffPass)
	// The plain name is ignored behind https: no session is presented
	// (204), and the staff session is not opened.
	req := httptest.NewRequest("GET", "/api/admin/session", nil)
	req.AddCookie(&http.Cookie{Name: "admin_session", Value: staff})
	if r := do(t, h, req); r.StatusCode != http.StatusNoContent || strings.Contains(r.Body, staffEmail) {
		t.Errorf("a non-__Host- cookie behind https: %d %s", r.StatusCode, r.Body)
	}
	req = httptest.NewRequest("GET", "/api/admin/leads", nil)
	req.AddCookie(&http.Cookie{Name: "admin_session", Value: staff})
	if r := do(t, h, req); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a non-__Host- cookie behind https on the leads: %d", r.StatusCode)
	}
	// A PIN token in the cookie: the CSRF rule applies to it.
	pin := unlock(t, h)
	if r := cookieReq(t, h, "PUT", "/api/admin/settings", pin, false, "cross-site", map[string]string{}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a PIN token in the cookie, cross-site: %d", r.StatusCode)
	}
	if r := cookieReq(t, h, "GET", "/api/admin/overview", pin, false, "", nil); r.StatusCode != 200 {
		t.Errorf("a PIN token in the cookie, a read: %d", r.StatusCode)
	}
	// An ended session's cookie is cleared.
	jsonReq(t, h, "POST", "/api/admin/logout", staff, nil)
	r := cookieReq(t, h, "GET", "/api/admin/session", staff, false, "", nil)
	cleared := false
	for _, c := range r.Cookies() {
		cleared = cleared || (c.Name == "__Host-admin_session" && c.MaxAge < 0)
	}
	if r.StatusCode != http.StatusUnauthorized || !cleared {
		t.Errorf("an ended session's cookie: %d, cleared %v", r.StatusCode, cleared)
	}
	// Over http (development) the cookie is not Secure and has no prefix.
	srv2, _ := adminServer(t, map[string]string{"BASE_URL": "http://127.0.0.1:8080"})
	addUser(t, srv2.store, staffEmail, staffPass, "staff", "Crew")
	r = loginFrom(t, srv2.Handler(), "192.0.2.31", staffEmail, staffPass)
	for _, c := range r.Cookies() {
		if c.Name == "admin_session" && (c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode) {
			t.Errorf("http cookie: %s", c.String())
		}
	}
}

// Staff against other people's sessions: the list holds only their own,
// and ending the admin's or the PIN's session by its id answers 404 and
// ends nothing. The PIN and admins (sessions.all) may.
func TestAttackStaffAgainstOthersSessions(t *testing.T) {
	_, store, h := accountServer(t)
	admin := signIn(t, h, adminEmail, adminPass)
	pin := unlock(t, h)
	staff := signIn(t, h, staffEmail, staffPass)
	list, err := store.ListSessions(t.Context(), time.Now().UTC())
	if err != nil {
		t.Fatal(err)
	}
	var adminID, pinID string
	for _, se := range list {
		switch {
		case se.TokenHash == sha256Hex(admin):
			adminID = se.ID
		case se.TokenHash == sha256Hex(pin):
			pinID = se.ID
		}
	}
	r := jsonReq(t, h, "GET", "/api/admin/sessions", staff, nil)
	if strings.Contains(r.Body, adminID) || strings.Contains(r.Body, pinID) || strings.Contains(r.Body, adminEmail) || !strings.Contains(r.Body, `"all":false`) {
		t.Errorf("staff's session list shows others: %s", r.Body)
	}
	for _, id := range []string{adminID, pinID, adminID + "%00", url.PathEscape(adminID + "/../" + adminID), strings.ToUpper(adminID), "%25"} {
		if r := jsonReq(t, h, "DELETE", "/api/admin/sessions/"+id, staff, nil); r.StatusCode != http.StatusNotFound && r.StatusCode != http.StatusBadRequest {
			t.Errorf("staff ends session %q: %d %s", id, r.StatusCode, r.Body)
		}
	}
	for _, tok := range []string{admin, pin} {
		if r := jsonReq(t, h, "GET", "/api/admin/session", tok, nil); r.StatusCode != 200 {
			t.Errorf("a session staff tried to end: %d", r.StatusCode)
		}
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/sessions/"+pinID, admin, nil); r.StatusCode != http.StatusNoContent {
		t.Errorf("an admin ends the PIN's session: %d", r.StatusCode)
	}
}

// /media/* with every path trick: dot segments, encoded dots and
// slashes, double encoding, backslashes, NUL, overlong names; none
// reaches a file outside the media store or one without a media row.
// Range abuse on a video (hundreds of ranges, overlapping, inverted,
// beyond the end) never answers more than the file.
func TestAttackMediaPathsAndRanges(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	pin := unlock(t, h)
	video := append(append([]byte{}, mp4Head...), make([]byte, 200_000)...)
	r := upload(t, h, pin, "Range Test", "v.mp4", video)
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	var vid media.GalleryItem
	json.Unmarshal([]byte(r.Body), &vid)
	dir := strings.TrimPrefix(vid.URL, "/media/")
	dir = dir[:strings.LastIndex(dir, "/")]
	for _, p := range []string{
		"/media/../go.mod", "/media/%2e%2e/go.mod", "/media/%2E%2E%2Fgo.mod", "/media/..%2fgo.mod", "/media/%252e%252e/go.mod",
		"/media/" + dir + "/../../../go.mod", "/media/" + dir + "/%2e%2e/%2e%2e/%2e%2e/go.mod", "/media/..\\go.mod", "/media/%5c..%5cgo.mod",
		"/media/" + dir + "/x%00.mp4", "/media//etc/passwd", "/media/%2fetc%2fpasswd", "/media/" + strings.Repeat("a/", 300) + "x.jpg",
		"/media/.hidden", "/media/" + dir + "/.", "/media/", "/media", "/media/projects/range-test/",
	} {
		r := get(t, h, p)
		if r.StatusCode == 200 || r.StatusCode == 206 || strings.Contains(r.Body, "module github.com") || strings.Contains(r.Body, "root:") {
			t.Errorf("GET %s: %d", p, r.StatusCode)
		}
	}
	for _, rg := range []string{
		"bytes=" + strings.TrimSuffix(strings.Repeat("0-199999,", 400), ","),
		"bytes=" + strings.TrimSuffix(strings.Repeat("0-0,", 2000), ","),
		"bytes=" + strings.TrimSuffix(strings.Repeat("-1,", 1000), ","),
		"bytes=100-50", "bytes=999999999-", "bytes=0-99999999999999999999", "bytes=-0", "bytes=a-b", "items=0-10",
	} {
		req := httptest.NewRequest("GET", vid.URL, nil)
		req.Header.Set("Range", rg)
		r := do(t, h, req)
		// At most the file once, plus a multipart part header per range.
		if n := strings.Count(rg, ",") + 1; len(r.Body) > len(video)+200*n {
			t.Errorf("Range %.40s…: %d, %d bytes for a %d-byte file", rg, r.StatusCode, len(r.Body), len(video))
		}
		if r.StatusCode >= 500 {
			t.Errorf("Range %.40s…: %d", rg, r.StatusCode)
		}
	}
	// HEAD answers as GET, without the body.
	req := httptest.NewRequest("HEAD", vid.URL, nil)
	if r := do(t, h, req); r.StatusCode != 200 || r.Body != "" || r.Header.Get("Content-Security-Policy") == "" || r.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("HEAD video: %d %d bytes", r.StatusCode, len(r.Body))
	}
}

// The estimate endpoints with bodies no form sends: JSON instead of a
// form, repeated keys, hundreds of extra fields, every field oversized,
// odd content types, the honeypot filled in each encoding. Nothing is
// stored that was not validated, one value per field is taken, and the
// honeypot is answered as success with nothing stored.
func TestAttackEstimateOddBodies(t *testing.T) {
	srv, store := newTestServer(t, nil)
	h := srv.Handler()
	send := func(ct, body, ip string) *response {
		req := httptest.NewRequest("POST", "/api/estimate", strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		req.RemoteAddr = ip + ":5000"
		return do(t, h, req)
	}
	js, _ := json.Marshal(map[string]string{"name": "Json Body", "phone": "7705550199", "city": "Marietta", "damageType": "Water Damage", "emergency": "yes"})
	for name, c := range map[string]struct{ ct, body string }{
		"JSON instead of a form": {"application/json", string(js)},
		"text/plain form":        {"text/plain", validForm().Encode()},
		"no content type":        {"", validForm().Encode()},
		"XML":                    {"application/xml", "<x><name>Xml</name></x>"},
	} {
		r := send(c.ct, c.body, "10.9.0.1")
		if r.StatusCode != http.StatusUnprocessableEntity && r.StatusCode != http.StatusBadRequest && r.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("%s: %d %.200s", name, r.StatusCode, r.Body)
		}
	}
	// Repeated keys: the first value is the one validated and stored.
	f := validForm()
	f.Set("name", "First Value")
	f.Add("name", strings.Repeat("x", 10_000))
	f.Add("phone", "not a phone")
	f.Set("email", "first@example.com")
	f.Add("email", "second@evil.example")
	if r := postForm(t, h, "/api/estimate", f, "10.9.0.2", "application/json"); r.StatusCode != http.StatusCreated {
		t.Fatalf("repeated keys: %d %s", r.StatusCode, r.Body)
	}
	// Hundreds of extra fields are ignored; every field oversized is
	// refused per field with the text kept.
	f = validForm()
	for i := 0; i < 500; i++ {
		f.Set(fmt.Sprintf("extra%d", i), "x")
	}
	f.Set("notes", "Extra fields")
	if r := postForm(t, h, "/api/estimate", f, "10.9.0.3", "application/json"); r.StatusCode != http.StatusCreated {
		t.Errorf("500 extra fields: %d %.200s", r.StatusCode, r.Body)
	}
	f = validForm()
	for _, k := range []string{"name", "city", "street", "email", "insuranceCarrier", "notes"} {
		f.Set(k, strings.Repeat("é", 2500))
	}
	r := postForm(t, h, "/api/estimate", f, "10.9.0.4", "application/json")
	var st leads.EstimateState
	json.Unmarshal([]byte(r.Body), &st)
	if r.StatusCode != http.StatusUnprocessableEntity || len(st.Errors) < 6 {
		t.Errorf("oversized fields: %d %v", r.StatusCode, st.Errors)
	}
	// The honeypot, in the form and in a multipart body.
	f = validForm()
	f.Set("website", "http://spam.example")
	if r := postForm(t, h, "/api/estimate", f, "10.9.0.5", "application/json"); r.StatusCode != http.StatusCreated {
		t.Errorf("honeypot: %d", r.StatusCode)
	}
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	for k, v := range validForm() {
		if k == "website" {
			v = []string{"spam"}
		}
		mw.WriteField(k, v[0])
	}
	mw.Close()
	if r := send(mw.FormDataContentType(), mp.String(), "10.9.0.6"); r.StatusCode != http.StatusCreated {
		t.Errorf("multipart honeypot: %d %.200s", r.StatusCode, r.Body)
	}
	leads := storedLeads(t, store)
	if len(leads) != 2 {
		for _, l := range leads {
			t.Logf("%+v", l)
		}
		t.Fatalf("%d leads stored, want 2 (repeated keys, extra fields)", len(leads))
	}
	for _, l := range leads {
		if l.Email == "second@evil.example" || len(l.FirstName+l.LastName) > 40 || l.Phone == "not a phone" {
			t.Errorf("stored %+v", l)
		}
	}
}

// /healthz's details with forged forwarding, TRUST_PROXY on and off: a
// visitor who claims to be loopback in X-Forwarded-For, or reaches a
// trusting server from loopback through a proxy, gets up/down only.
func TestAttackHealthzForgedForwarding(t *testing.T) {
	for _, trust := range []string{"false", "true"} {
		srv, _ := newTestServer(t, map[string]string{"TRUST_PROXY": trust})
		h := srv.Handler()
		for name, c := range map[string]struct{ remote, xff, xri string }{
			"visitor claims loopback":          {"203.0.113.5:5000", "127.0.0.1", ""},
			"visitor claims loopback (X-Real)": {"203.0.113.5:5000", "", "127.0.0.1"},
			"proxy on loopback":                {"127.0.0.1:5000", "203.0.113.5", ""},
			"proxy forwards a forged loopback": {"127.0.0.1:5000", "127.0.0.1, 203.0.113.5", ""},
			"IPv6 visitor claims ::1":          {"[2001:db8::5]:5000", "::1", ""},
		} {
			req := httptest.NewRequest("GET", "/healthz", nil)
			req.RemoteAddr = c.remote
			if c.xff != "" {
				req.Header.Set("X-Forwarded-For", c.xff)
			}
			if c.xri != "" {
				req.Header.Set("X-Real-Ip", c.xri)
			}
			for _, m := range []string{"GET", "HEAD"} {
				req.Method = m
				r := do(t, h, req)
				if (m == "GET" && r.Body != `{"status":"up"}`+"\n") || r.Header.Get("Cache-Control") != "no-store" {
					t.Errorf("TRUST_PROXY=%s, %s, %s: %d %q", trust, name, m, r.StatusCode, r.Body)
				}
			}
		}
	}
}

// Secrets never reach the log, whatever the attack: wrong and right PINs
// in every encoding, passwords, the authenticator's secret, codes,
// recovery codes, session and device tokens (in headers, cookies and
// query strings), and a lead's contact details.
func TestAttackSecretsStayOutOfTheLog(t *testing.T) {
	srv, _, _ := accountServer(t)
	var buf bytes.Buffer
	var mu sync.Mutex
	log := NewLogger(lockedWriter{&buf, &mu}, srv.cfg.Secrets())
	srv.log = log
	srv.auth.SetLogger(log)
	srv.estimate.Log, srv.leadsRoom.Log = log, log
	srv.leadsRoom.Log = log
	h := srv.Handler()
	secrets := []string{testPIN, adminPass, staffPass, "wrong-password-guess-1", "7777-wrong-pin"}
	// PINs in JSON, XML, a form, a query string and a path.
	jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": "7777-wrong-pin"})
	for ct, body := range map[string]string{"application/xml": "<x><PIN>7777-wrong-pin</PIN></x>", "application/x-www-form-urlencoded": "pin=7777-wrong-pin", "text/plain": "7777-wrong-pin"} {
		req := httptest.NewRequest("POST", "/api/admin/unlock?pin=7777-wrong-pin", strings.NewReader(body))
		req.Header.Set("Content-Type", ct)
		do(t, h, req)
	}
	pin := unlock(t, h)
	secrets = append(secrets, pin)
	// Passwords, codes, recovery codes, the enrolment.
	loginFrom(t, h, "192.0.2.77", adminEmail, "wrong-password-guess-1")
	tok, secret := signInFull(t, h, "192.0.2.78", adminEmail, adminPass)
	v, _ := lastConfirm.Load(tok)
	var done auth.LoginResult
	json.Unmarshal([]byte(v.(*response).Body), &done)
	secrets = append(secrets, tok, secret)
	for _, c := range v.(*response).Cookies() {
		secrets = append(secrets, c.Value) // the device token
	}
	secrets = append(secrets, done.RecoveryCodes...)
	login := loginFrom(t, h, "192.0.2.79", adminEmail, adminPass)
	pending := sessionCookie(t, login)
	secrets = append(secrets, pending)
	for _, c := range login.Cookies() {
		if c.Name == auth.DeviceCookie {
			secrets = append(secrets, c.Value)
		}
	}
	jsonReq(t, h, "POST", "/api/admin/login/totp", pending, map[string]string{"code": "000000"})
	jsonReq(t, h, "POST", "/api/admin/login/totp", pending, map[string]string{"recoveryCode": done.RecoveryCodes[1]})
	staff := signIn(t, h, staffEmail, staffPass)
	secrets = append(secrets, staff)
	st := jsonReq(t, h, "POST", "/api/admin/2fa/start", staff, map[string]string{"password": staffPass})
	var en auth.Enrolment
	json.Unmarshal([]byte(st.Body), &en)
	secrets = append(secrets, en.Secret)
	jsonReq(t, h, "POST", "/api/admin/2fa/confirm", staff, map[string]string{"code": "999999"})
	// Tokens where they do not belong: a query string, a bad header, an
	// expired cookie.
	jsonReq(t, h, "GET", "/api/admin/leads?token="+tok+"&pin="+testPIN, staff, nil)
	req := httptest.NewRequest("GET", "/api/admin/leads", nil)
	req.Header.Set("Authorization", "Basic "+tok)
	req.AddCookie(&http.Cookie{Name: "__Host-admin_session", Value: "expired-" + tok})
	do(t, h, req)
	// A user created with a password; a password reset.
	jsonReq(t, h, "POST", "/api/admin/users", tok, map[string]string{"email": "new@example.com", "name": "New", "password": "brand new secret phrase", "role": "staff"})
	jsonReq(t, h, "PATCH", "/api/admin/users/u-crew", tok, map[string]string{"password": "reset secret phrase 2"})
	secrets = append(secrets, "brand new secret phrase", "reset secret phrase 2")
	// A lead, valid and invalid.
	f := validForm()
	f.Set("phone", "(678) 555-0143")
	f.Set("email", "private.person@example.net")
	f.Set("street", "77 Hidden Hollow Rd")
	postForm(t, h, "/api/estimate", f, "10.8.0.1", "application/json")
	f.Set("email", "private.person@example.net\x00")
	postForm(t, h, "/estimate", f, "10.8.0.1", "")
	secrets = append(secrets, "555-0143", "private.person@example.net", "Hidden Hollow")

	mu.Lock()
	out := buf.String()
	mu.Unlock()
	if !strings.Contains(out, "failed sign-in") || !strings.Contains(out, "estimate saved") {
		t.Fatalf("the log did not capture the attacks:\n%s", out)
	}
	for _, s := range secrets {
		if s != "" && strings.Contains(out, s) {
			t.Errorf("the log holds %q", s)
		}
	}
	// No six-digit code as a logged value.
	if m := regexp.MustCompile(`(=|")(000000|999999)\b`).FindString(out); m != "" {
		t.Errorf("the log holds a code: %s", m)
	}
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// The IndexNow key file answers only the key in force, only to GET and
// HEAD; a wrong guess gets exactly what any unknown page gets.
func TestAttackIndexNowKeyFileGuesses(t *testing.T) {
	const key = "a1b2c3d4e5f6a7b8"
	srv, _ := newTestServer(t, map[string]string{"INDEXNOW_KEY": key})
	h := srv.Handler()
	if r := get(t, h, "/"+key+".txt"); r.StatusCode != 200 || r.Body != key {
		t.Fatalf("the key file: %d %q", r.StatusCode, r.Body)
	}
	unknown := get(t, h, "/zzzzzzzzzzzzzzzz.txt")
	for _, p := range []string{"/a1b2c3d4e5f6a7b9.txt", "/A1B2C3D4E5F6A7B8.txt", "/a1b2c3d4e5f6a7b.txt", "/a1b2c3d4e5f6a7b8.txt/", "/a1b2c3d4e5f6a7b8.TXT",
		"/a1b2c3d4e5f6a7b8.txt%00", "/x/a1b2c3d4e5f6a7b8.txt", "/a1b2c3d4e5f6a7b8"} {
		r := get(t, h, p)
		if r.StatusCode == 200 && strings.Contains(r.Body, key) && !strings.Contains(r.Body, "<html") {
			t.Errorf("%s: served the key", p)
		}
		if r.StatusCode != unknown.StatusCode && r.StatusCode != http.StatusMovedPermanently && r.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d, an unknown page gets %d", p, r.StatusCode, unknown.StatusCode)
		}
	}
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		req := httptest.NewRequest(m, "/"+key+".txt", nil)
		if r := do(t, h, req); r.Body == key {
			t.Errorf("%s served the key", m)
		}
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

// CSV injection through the separator: a visitor's name or city such as
// "Bob;=cmd|' /C calc'!A0" starts with a letter, so the leading-character
// check let it through unquoted; a spreadsheet that splits on semicolons
// (Excel in much of Europe) or tabs (text import) then reads a cell that
// begins with "=". However a spreadsheet splits the export, no cell
// begins with a formula character.
func TestAttackCSVInjectionThroughSeparators(t *testing.T) {
	srv, store, h := accountServer(t)
	admin := signIn(t, h, adminEmail, adminPass)
	_ = srv
	for i, c := range []struct{ name, city string }{
		{"Bob;=cmd|' /C calc'!A0", "Marietta"},
		{"Ann Tab", "Marietta\t=1+2"},
		{"Eve Semi", "Roswell;+SUM(A1:A9)"},
		{"Max;@SUM(1)", "Smyrna;-2+3"},
	} {
		f := validForm()
		f.Set("name", c.name)
		f.Set("city", c.city)
		if r := postForm(t, h, "/api/estimate", f, fmt.Sprintf("10.7.0.%d", i+1), "application/json"); r.StatusCode != http.StatusCreated {
			t.Fatalf("lead %q: %d %s", c.name, r.StatusCode, r.Body)
		}
	}
	if n := len(storedLeads(t, store)); n != 4 {
		t.Fatalf("%d leads", n)
	}
	exp := jsonReq(t, h, "GET", "/api/admin/leads/export.csv", admin, nil)
	if exp.StatusCode != 200 {
		t.Fatalf("export: %d", exp.StatusCode)
	}
	for _, sep := range []rune{',', ';', '\t'} {
		for _, rec := range spreadsheetSplit(exp.Body, sep) {
			for _, cell := range rec {
				if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
					t.Errorf("split on %q, a cell begins a formula: %q", sep, cell)
				}
			}
		}
	}
	// The standard reader still reads the names as typed.
	if !strings.Contains(exp.Body, `Bob;=cmd|' /C calc'!A0`) {
		t.Errorf("the name is not exported as typed:\n%s", exp.Body)
	}
}

// spreadsheetSplit reads CSV text as a spreadsheet splitting on sep
// does: double quotes group, "" is a quote, newlines end a record.
func spreadsheetSplit(text string, sep rune) [][]string {
	var out [][]string
	var rec []string
	var cell strings.Builder
	quoted := false
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quoted && r == '"' && i+1 < len(rs) && rs[i+1] == '"':
			cell.WriteRune('"')
			i++
		case r == '"':
			quoted = !quoted
		case !quoted && r == sep:
			rec = append(rec, cell.String())
			cell.Reset()
		case !quoted && (r == '\n' || r == '\r'):
			if cell.Len() > 0 || len(rec) > 0 {
				out = append(out, append(rec, cell.String()))
			}
			rec, cell = nil, strings.Builder{}
		default:
			cell.WriteRune(r)
		}
	}
	if cell.Len() > 0 || len(rec) > 0 {
		out = append(out, append(rec, cell.String()))
	}
	return out
}

// Stored markup through System Settings (the PIN may save them): the
// business name, phone, address and website go into every public page,
// its JSON-LD, tel: links and meta tags. Whatever is saved, no page
// carries it as markup, no script element is closed early, and no link
// gets a scheme other than http(s) and tel.
func TestAttackSettingsMarkupReachesNoPage(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	pin := settingsAdmin(t, srv, store) // the only session that may save
	const mark = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
	st := map[string]any{
		"businessName":  "Acme </script><img src=x onerror=alert(2)>\u2028",
		"phone":         "<b>770</b>5550134",
		"officePhone":   "javascript:770555013 4",
		"address":       `1 Main St "><svg onload=alert(3)>, Atlanta, GA 30303`,
		"website":       "https://example.com/" + mark,
		"businessHours": "Mo-Su 00:00-23:59",
		"reviewRating":  "4.9", "reviewCount": "79",
	}
	r := jsonReq(t, h, "PUT", "/api/admin/settings", pin, st)
	if r.StatusCode != 200 {
		// Refused is fine; the attack is over. Try the fields one by one.
		for k, v := range st {
			one := map[string]any{"businessName": "Acme Restoration", "phone": "(770) 555-0134", "officePhone": "(770) 555-0134",
				"address": "6595 Church Street, Douglasville, GA 30134", "website": "https://www.example.com", "businessHours": "Mo-Su 00:00-23:59",
				"reviewRating": "4.9", "reviewCount": "79"}
			one[k] = v
			r := jsonReq(t, h, "PUT", "/api/admin/settings", pin, one)
			if r.StatusCode == 200 {
				checkPagesClean(t, h, k)
			}
		}
		return
	}
	checkPagesClean(t, h, "all")
	// The name is there, as text.
	if r := get(t, h, "/"); !strings.Contains(r.Body, "Acme &lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;") {
		t.Error("the saved business name is not on the home page as text: the test proves nothing")
	}
}

func checkPagesClean(t *testing.T, h http.Handler, what string) {
	t.Helper()
	for _, p := range []string{"/", "/contact", "/services", "/estimate", "/about"} {
		r := get(t, h, p)
		if r.StatusCode != 200 {
			continue
		}
		for _, bad := range []string{"<img src=x", "<svg onload", "<script>alert", "<b>770</b>", `href="javascript:`, "onerror=alert(2)>"} {
			if strings.Contains(r.Body, bad) {
				i := strings.Index(r.Body, bad)
				t.Errorf("%s saved, %s holds %q: …%s…", what, p, bad, r.Body[max(0, i-80):min(len(r.Body), i+80)])
			}
		}
		for _, s := range find(r.Doc, tag("script")) {
			if strings.Contains(attr(s, "type"), "ld+json") {
				var v any
				if s.FirstChild == nil || json.Unmarshal([]byte(s.FirstChild.Data), &v) != nil {
					t.Errorf("%s saved, %s: a JSON-LD block no longer parses", what, p)
				}
			}
		}
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

// A hundred uploads at once from one session: each is stored once with
// its row, or refused cleanly; none is lost half-written, none answers
// 500, and the store and the list agree.
func TestAttackParallelUploads(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	pin := unlock(t, h)
	img := testJPEG(t, 64, 48)
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := upload(t, h, pin, fmt.Sprintf("Parallel %d", i%5), fmt.Sprintf("p%d.jpg", i), img)
			mu.Lock()
			codes[r.StatusCode]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	rows, err := store.ListMedia(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if codes[http.StatusCreated] != len(rows) || codes[http.StatusInternalServerError] > 0 || codes[http.StatusCreated] == 0 {
		t.Errorf("100 parallel uploads: %v, %d rows", codes, len(rows))
	}
	for _, m := range rows {
		if r := get(t, h, "/media/"+m.Path); r.StatusCode != 200 {
			t.Errorf("%s: %d", m.Path, r.StatusCode)
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
