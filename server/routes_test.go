package server

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
	"github.com/atlanta-restoration/site/web/push"
)

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
	"PUT /api/admin/media/:id/portfolio":                 {accounts.MediaWrite}, // project work or library only
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
	"GET /api/admin/seo-audit/thin-pages":                {accounts.Tools},
	"GET /api/admin/security":                            {accounts.Tools},
	"POST /api/admin/security/scan":                      {accounts.Tools},
	"PUT /api/admin/security/vulnerabilities/:id":        {accounts.Tools},
	"GET /api/admin/schema":                              {accounts.Tools},
	"POST /api/admin/schema/validate":                    {accounts.Tools},
	"GET /api/admin/tools":                               {accounts.Tools}, // the tool cards' statuses
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
	"GET /api/admin/leads/:id/links":                     {accounts.LeadsShare},
	"POST /api/admin/leads/:id/links":                    {accounts.LeadsShare},
	"DELETE /api/admin/leads/:id/links/:link":            {accounts.LeadsShare},
	"DELETE /api/admin/leads/:id/home-links":             {accounts.LeadsShare},
	"POST /api/admin/leads/:id/progress":                 {accounts.LeadsStatus},
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
	"GET /api/admin/testimonials":                        {accounts.ContentEdit},
	"PATCH /api/admin/testimonials/:id":                  {accounts.ContentEdit},
	"GET /api/admin/review-requests":                     {accounts.ContentEdit},
	"PUT /api/admin/review-requests":                     {accounts.SettingsWrite},
	"GET /api/admin/booking":                             {accounts.Tools},
	"PUT /api/admin/booking":                             {accounts.SettingsWrite},
	"GET /api/admin/visits":                              {accounts.LeadsRead},
	"PATCH /api/admin/visits/:id":                        {accounts.LeadsStatus},
	"GET /api/admin/leads/person":                        {accounts.LeadsErase},
	"DELETE /api/admin/leads/:id":                        {accounts.LeadsErase},
	"GET /api/admin/leads/person?email=bulk@example.com": {accounts.LeadsErase},
	"GET /api/admin/leads/:id/files":                     {accounts.LeadsFiles},
	"POST /api/admin/leads/:id/files":                    {accounts.LeadsFiles},
	"GET /api/admin/leads/:id/files/:file":               {accounts.LeadsFiles},
	"PUT /api/admin/leads/:id/files/shared/:media":       {accounts.LeadsFiles},
	"DELETE /api/admin/leads/:id/files/:file":            {accounts.LeadsFiles},
	"GET /api/admin/backups":                             {accounts.BackupsManage},
	"POST /api/admin/backups/run":                        {accounts.BackupsManage},
	"GET /api/admin/backups/:id/download":                {accounts.BackupsManage},
	"GET /api/admin/work":                                {accounts.JobsWrite},
	"POST /api/admin/work":                               {accounts.JobsWrite},
	"GET /api/admin/work/choices":                        {accounts.JobsWrite},
	"GET /api/admin/work/:id":                            {accounts.JobsWrite},
	"PUT /api/admin/work/:id":                            {accounts.JobsWrite},
	"DELETE /api/admin/work/:id":                         {accounts.JobsWrite},
	"POST /api/admin/work/:id/photos":                    {accounts.JobsWrite},
	"PUT /api/admin/work/:id/photos/:media":              {accounts.JobsWrite},
	"DELETE /api/admin/work/:id/photos/:media":           {accounts.JobsWrite},
	"POST /api/admin/work/:id/publish":                   {accounts.ContentEdit},
	"POST /api/admin/work/:id/unpublish":                 {accounts.ContentEdit},
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

// fakeSub is a subscription at Chrome's push service (nothing is sent
// to it: subscribing only checks and stores).
func fakeSub(t *testing.T) map[string]any { return notifytest.Subscription(t) }

// who are the callers of the role tests.
type callers struct{ none, pin, staff, admin string }

func speedServer(t *testing.T) (*Server, *db.Store, http.Handler, callers) {
	t.Helper()
	srv, store, h := accountServer(t)
	seedLeads(t, store, 3)
	return srv, store, h, callers{pin: unlock(t, h), staff: signIn(t, h, staffEmail, staffPass), admin: signIn(t, h, adminEmail, adminPass)}
}

// Every new endpoint × none, the PIN, staff and admin: 401 without a
// session; the PIN (no account, no leads) and staff where admins alone may
// are refused; the rest answer. The answers never carry a subscription's
// endpoint or keys, nor a lead's contact details to staff.
func TestSpeedToLeadEndpointsEveryRole(t *testing.T) {
	_, store, h, who := speedServer(t)
	staffSub, adminSub := fakeSub(t), fakeSub(t)
	for _, c := range []struct {
		name, method, path string
		body               func(role string) any
		want               [4]int // none, pin, staff, admin
	}{
		{"push key", "GET", "/api/admin/push/key", nil, [4]int{401, 403, 200, 200}},
		{"subscribe", "POST", "/api/admin/push/subscriptions", func(role string) any {
			if role == "staff" {
				return staffSub
			}
			return adminSub
		}, [4]int{401, 403, 201, 201}},
		{"own devices", "GET", "/api/admin/push/devices", nil, [4]int{401, 403, 200, 200}},
		{"every device", "GET", "/api/admin/push/devices/all", nil, [4]int{401, 403, 403, 200}},
		{"remove a device not one's own", "DELETE", "/api/admin/push/devices/no-such-device", nil, [4]int{401, 403, 404, 404}},
		{"response times", "GET", "/api/admin/leads/response-times", nil, [4]int{401, 403, 200, 200}},
		{"work", "GET", "/api/admin/leads/lead-002/work", nil, [4]int{401, 403, 200, 200}},
		{"note", "POST", "/api/admin/leads/lead-002/notes", func(string) any { return map[string]string{"body": "Called, left a voicemail."} }, [4]int{401, 403, 201, 201}},
		{"assign", "PUT", "/api/admin/leads/lead-002/assignee", func(string) any { return map[string]string{"userId": "u-crew"} }, [4]int{401, 403, 403, 200}},
		{"status", "PATCH", "/api/admin/leads/lead-001", func(string) any { return map[string]string{"status": "contacted"} }, [4]int{401, 403, 200, 200}},
		{"export with source", "GET", "/api/admin/leads/export.csv?with=source", nil, [4]int{401, 403, 403, 200}},
	} {
		for i, role := range []string{"none", "pin", "staff", "admin"} {
			tok := [4]string{who.none, who.pin, who.staff, who.admin}[i]
			var body any
			if c.body != nil {
				body = c.body(role)
			}
			r := jsonReq(t, h, c.method, c.path, tok, body)
			if r.StatusCode != c.want[i] {
				t.Errorf("%s as %s: %d %.200s, want %d", c.name, role, r.StatusCode, r.Body, c.want[i])
			}
			for _, secret := range []string{staffSub["endpoint"].(string), adminSub["endpoint"].(string), staffSub["keys"].(map[string]string)["p256dh"]} {
				if strings.Contains(r.Body, secret) {
					t.Errorf("%s as %s: the answer holds a subscription's endpoint or key", c.name, role)
				}
			}
			if role == "staff" {
				for _, private := range []string{"555-0134", "maria.g@example.com", "12 Secret Lane", "gate code", "CLM-99812"} {
					if strings.Contains(r.Body, private) {
						t.Errorf("%s as staff: %q in %.300s", c.name, private, r.Body)
					}
				}
			}
		}
	}
	// The public files of the installable admin.
	if r := get(t, h, push.ManifestPath); r.StatusCode != 200 || r.Header.Get("Content-Type") != "application/manifest+json" ||
		!strings.Contains(r.Body, `"scope":"/admin/"`) || !strings.Contains(r.Body, `"start_url":"/admin/leads"`) || !strings.Contains(r.Body, `"display":"standalone"`) {
		t.Errorf("manifest: %d %s %s", r.StatusCode, r.Header.Get("Content-Type"), r.Body)
	}
	if r := get(t, h, push.WorkerPath); r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") ||
		!strings.Contains(r.Body, `addEventListener("push"`) || !strings.Contains(r.Body, `addEventListener("notificationclick"`) {
		t.Errorf("admin service worker: %d %s", r.StatusCode, r.Header.Get("Content-Type"))
	}
	// Admin pages link the admin's manifest, public pages the site's.
	if r := get(t, h, "/admin/leads"); !strings.Contains(r.Body, `<link rel="manifest" href="/admin/manifest.webmanifest">`) || strings.Contains(r.Body, "/site.webmanifest") {
		t.Errorf("admin page's manifest link: %.200s", r.Body[strings.Index(r.Body, "manifest")-40:])
	}
	if r := get(t, h, "/"); !strings.Contains(r.Body, `href="/site.webmanifest"`) || strings.Contains(r.Body, "/admin/manifest") {
		t.Error("the home page links the admin's manifest")
	}
	// The audit log has each kind of action.
	got := strings.Join(auditActions(t, store), " ")
	for _, want := range []string{"push_device_added:" + staffEmail, "push_device_added:" + adminEmail, "lead_note:" + staffEmail, "lead_assign:" + adminEmail, "status_change:" + staffEmail} {
		if !strings.Contains(got, want) {
			t.Errorf("audit log lacks %s: %s", want, got)
		}
	}
}
