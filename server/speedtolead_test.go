package server

import (
	"bytes"
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/app"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/notify/notifytest"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/spool"
	leadsweb "github.com/atlanta-restoration/site/web/leads"
	"github.com/atlanta-restoration/site/web/push"
)

// Speed to lead (issue 23) through the assembled application: every new
// endpoint for every kind of caller, hostile input to each, the estimate
// form's attribution, a lead pushed to the fake push service from the
// estimate POST, and the escalation job.

// fakeSub is a subscription as a browser's PushSubscription.toJSON()
// gives it, at Chrome's push service (nothing is sent to it: subscribing
// only checks and stores).
func fakeSub(t *testing.T) map[string]any {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	id := make([]byte, 12)
	rand.Read(id)
	enc := base64.RawURLEncoding
	return map[string]any{"endpoint": "https://fcm.googleapis.com/fcm/send/" + enc.EncodeToString(id), "expirationTime": nil,
		"keys": map[string]string{"p256dh": enc.EncodeToString(k.PublicKey().Bytes()), "auth": enc.EncodeToString(auth)}}
}

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

// Subscribing: only a browser's push service, whole keys, at most 10
// devices per account however many requests race, a device removed only by
// its own account, the label from the request's User-Agent, never the
// page's words; a cookie session needs the CSRF header.
func TestPushSubscriptionHostile(t *testing.T) {
	_, store, h, who := speedServer(t)
	sub := fakeSub(t)
	keys := sub["keys"].(map[string]string)
	with := func(endpoint, p256dh, auth string) map[string]any {
		return map[string]any{"endpoint": endpoint, "keys": map[string]string{"p256dh": p256dh, "auth": auth}}
	}
	for _, c := range []struct {
		name string
		body any
	}{
		{"loopback", with("https://127.0.0.1:8443/push/x", keys["p256dh"], keys["auth"])},
		{"metadata address", with("http://169.254.169.254/latest/meta-data", keys["p256dh"], keys["auth"])},
		{"plain http push service", with("http://fcm.googleapis.com/fcm/send/x", keys["p256dh"], keys["auth"])},
		{"look-alike host", with("https://fcm.googleapis.com.evil.test/fcm/send/x", keys["p256dh"], keys["auth"])},
		{"user info", with("https://attacker@fcm.googleapis.com/fcm/send/x", keys["p256dh"], keys["auth"])},
		{"oversized endpoint", with("https://fcm.googleapis.com/fcm/send/"+strings.Repeat("a", 3000), keys["p256dh"], keys["auth"])},
		{"javascript", with("javascript:alert(1)", keys["p256dh"], keys["auth"])},
		{"short key", with(sub["endpoint"].(string), keys["p256dh"][:40], keys["auth"])},
		{"key off the curve", with(sub["endpoint"].(string), base64.RawURLEncoding.EncodeToString(append([]byte{4}, bytes.Repeat([]byte{1}, 64)...)), keys["auth"])},
		{"long auth", with(sub["endpoint"].(string), keys["p256dh"], base64.RawURLEncoding.EncodeToString(make([]byte, 32)))},
		{"not base64", with(sub["endpoint"].(string), "<script>", keys["auth"])},
		{"no keys", map[string]any{"endpoint": sub["endpoint"]}},
		{"not JSON", "just text"},
		{"array", []any{1, 2}},
	} {
		if r := jsonReq(t, h, "POST", "/api/admin/push/subscriptions", who.staff, c.body); r.StatusCode != 400 {
			t.Errorf("%s: %d %s", c.name, r.StatusCode, r.Body)
		}
	}
	if ps, _ := store.ListPushSubscriptions(context.Background()); len(ps) != 0 {
		t.Fatalf("refused subscriptions stored: %d", len(ps))
	}
	// A body over BODY_LIMIT is refused before it is read.
	big := map[string]any{"endpoint": sub["endpoint"], "keys": keys, "pad": strings.Repeat("x", 2<<20)}
	if r := jsonReq(t, h, "POST", "/api/admin/push/subscriptions", who.staff, big); r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("2 MB body: %d", r.StatusCode)
	}

	// The label is the User-Agent's, whatever the body says.
	b, _ := json.Marshal(map[string]any{"endpoint": sub["endpoint"], "keys": keys, "label": "<img src=x onerror=alert(1)>"})
	req := httptest.NewRequest("POST", "/api/admin/push/subscriptions", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+who.staff)
	req.Header.Set("User-Agent", "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36")
	r := do(t, h, req)
	var added push.DeviceAnswer
	if json.Unmarshal([]byte(r.Body), &added); r.StatusCode != 201 || added.Device.Label != "Chrome on Android" || added.Device.EndpointHash != push.EndpointHash(sub["endpoint"].(string)) {
		t.Fatalf("subscribe: %d %s", r.StatusCode, r.Body)
	}

	// 25 subscriptions of one account at once: exactly 10 stored (one
	// was there already), the rest 409.
	var wg sync.WaitGroup
	codes := make(chan int, 25)
	for i := 0; i < 25; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- jsonReq(t, h, "POST", "/api/admin/push/subscriptions", who.staff, fakeSub(t)).StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	mine, _ := store.PushSubscriptionsFor(context.Background(), "u-crew")
	if len(mine) != db.MaxPushDevices || count[201] != db.MaxPushDevices-1 || count[409] != 25-(db.MaxPushDevices-1) {
		t.Errorf("25 parallel subscriptions: stored %d, answers %v", len(mine), count)
	}

	// Nobody removes another account's device, admins included; the owner
	// can, once.
	adminDev := jsonReq(t, h, "POST", "/api/admin/push/subscriptions", who.admin, fakeSub(t))
	var ad push.DeviceAnswer
	json.Unmarshal([]byte(adminDev.Body), &ad)
	if r := jsonReq(t, h, "DELETE", "/api/admin/push/devices/"+ad.Device.ID, who.staff, nil); r.StatusCode != 404 {
		t.Errorf("staff removing the admin's device: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/push/devices/"+added.Device.ID, who.admin, nil); r.StatusCode != 404 {
		t.Errorf("admin removing staff's device: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/push/devices/"+strings.Repeat("x", 5000), who.staff, nil); r.StatusCode != 404 {
		t.Errorf("a 5000-character id: %d", r.StatusCode)
	}
	var list push.DeviceList
	if r := jsonReq(t, h, "GET", "/api/admin/push/devices", who.staff, nil); json.Unmarshal([]byte(r.Body), &list) != nil || len(list.Devices) != db.MaxPushDevices {
		t.Errorf("staff's devices: %s", r.Body)
	}
	for _, d := range list.Devices {
		if d.ID == ad.Device.ID {
			t.Error("staff's list holds the admin's device")
		}
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/push/devices/"+added.Device.ID, who.staff, nil); r.StatusCode != 204 {
		t.Errorf("removing one's own device: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/push/devices/"+added.Device.ID, who.staff, nil); r.StatusCode != 404 {
		t.Errorf("removing it again: %d", r.StatusCode)
	}
	var all push.AllDevices
	if r := jsonReq(t, h, "GET", "/api/admin/push/devices/all", who.admin, nil); json.Unmarshal([]byte(r.Body), &all) != nil || len(all.Devices) != db.MaxPushDevices {
		t.Errorf("every device: %s", r.Body)
	} else if all.Devices[0].Email == "" {
		t.Errorf("every device without its account: %+v", all.Devices[0])
	}

	// A cookie session must send the CSRF header.
	login := loginFrom(t, h, "192.0.2.77", staffEmail, staffPass)
	var cookie *http.Cookie
	for _, c := range login.Cookies() {
		if strings.HasSuffix(c.Name, "admin_session") {
			cookie = c
		}
	}
	if cookie == nil {
		t.Fatal("no session cookie")
	}
	for _, c := range []struct {
		name  string
		setup func(*http.Request)
	}{
		{"cross-site", func(r *http.Request) {
			r.Header.Set("X-Requested-With", "fetch")
			r.Header.Set("Sec-Fetch-Site", "cross-site")
		}},
		{"without X-Requested-With", func(r *http.Request) {}},
	} {
		b, _ = json.Marshal(fakeSub(t))
		req = httptest.NewRequest("POST", "/api/admin/push/subscriptions", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(&http.Cookie{Name: cookie.Name, Value: cookie.Value})
		c.setup(req)
		if r := do(t, h, req); r.StatusCode != http.StatusForbidden {
			t.Errorf("%s subscribe with the cookie: %d %s", c.name, r.StatusCode, r.Body)
		}
	}
	actions := strings.Join(auditActions(t, store), " ")
	if !strings.Contains(actions, "push_device_removed:"+staffEmail) {
		t.Errorf("removal not audited: %s", actions)
	}
}

// Notes and assignment, hostile: empty, too long, NUL, unknown lead,
// bad JSON; 20 notes at once all land and end the first response time
// once; an account that cannot take leads is refused.
func TestLeadWorkHostile(t *testing.T) {
	_, store, h, who := speedServer(t)
	ctx := context.Background()
	note := func(tok, lead string, body any) *response {
		return jsonReq(t, h, "POST", "/api/admin/leads/"+lead+"/notes", tok, body)
	}
	for _, c := range []struct {
		name string
		body any
		want int
	}{
		{"empty", map[string]string{"body": "   \n "}, 400},
		{"too long", map[string]string{"body": strings.Repeat("é", leads.MaxNoteLen+1)}, 400},
		{"NUL", map[string]string{"body": "call\x00back"}, 400},
		{"no body field", map[string]int{"x": 1}, 400},
		{"number", map[string]int{"body": 5}, 400},
		{"not JSON", "text", 400},
	} {
		if r := note(who.staff, "lead-002", c.body); r.StatusCode != c.want {
			t.Errorf("note %s: %d %s", c.name, r.StatusCode, r.Body)
		}
	}
	if r := note(who.staff, "no-such-lead", map[string]string{"body": "hello"}); r.StatusCode != 404 {
		t.Errorf("note on an unknown lead: %d", r.StatusCode)
	}
	if r := note(who.staff, strings.Repeat("a", 3000), map[string]string{"body": "hello"}); r.StatusCode != 404 {
		t.Errorf("note on a 3000-character id: %d", r.StatusCode)
	}
	// Markup is stored as text, exactly.
	if r := note(who.staff, "lead-002", map[string]string{"body": "<script>alert(1)</script>\r\nline two"}); r.StatusCode != 201 {
		t.Fatalf("note with markup: %d %s", r.StatusCode, r.Body)
	}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			tok := who.staff
			if i%2 == 1 {
				tok = who.admin
			}
			if r := note(tok, "lead-001", map[string]string{"body": fmt.Sprintf("note %d", i)}); r.StatusCode != 201 {
				t.Errorf("parallel note %d: %d %s", i, r.StatusCode, r.Body)
			}
		}(i)
	}
	wg.Wait()
	tl, err := store.LeadTimeline(ctx, "lead-001")
	if err != nil {
		t.Fatal(err)
	}
	notes := 0
	for _, e := range tl {
		if e.Kind == db.EventNote {
			notes++
			if e.UserID == "" || (e.Actor != "Crew Lead" && e.Actor != "The Owner") {
				t.Errorf("note without its author: %+v", e)
			}
		}
	}
	l, _ := store.GetLead(ctx, "lead-001")
	if notes != 20 || l.FirstResponseAt == nil {
		t.Errorf("20 parallel notes: %d on the timeline, first response %v", notes, l.FirstResponseAt)
	}
	var work leadsweb.LeadWork
	r := jsonReq(t, h, "GET", "/api/admin/leads/lead-002/work", who.staff, nil)
	if json.Unmarshal([]byte(r.Body), &work) != nil || len(work.Timeline) < 2 || work.Timeline[0].Kind != db.EventCreated || work.Assignees != nil {
		t.Fatalf("staff's work view: %s", r.Body)
	}
	if last := work.Timeline[len(work.Timeline)-1]; last.Body != "<script>alert(1)</script>\nline two" {
		t.Errorf("note stored as %q", last.Body)
	}

	// Assignment.
	addUser(t, store, "gone@example.com", "a disabled passphrase", "staff", "Gone Person")
	off := true
	if _, err := store.ChangeUser(ctx, "u-gone", db.UserChange{Disabled: &off}, time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
	addUser(t, store, "nobody@example.com", "a role-less passphrase", "", "No Role")
	for _, c := range []struct {
		name string
		body any
		want int
	}{
		{"disabled account", map[string]string{"userId": "u-gone"}, 400},
		{"role-less account", map[string]string{"userId": "u-nobody"}, 400},
		{"unknown account", map[string]string{"userId": "u-nope"}, 400},
		{"oversized id", map[string]string{"userId": strings.Repeat("u", 500)}, 400},
		{"SQL", map[string]string{"userId": "' OR 1=1 --"}, 400},
		{"missing", map[string]string{}, 400},
		{"not JSON", "u-crew", 400},
	} {
		if r := jsonReq(t, h, "PUT", "/api/admin/leads/lead-002/assignee", who.admin, c.body); r.StatusCode != c.want {
			t.Errorf("assign %s: %d %s", c.name, r.StatusCode, r.Body)
		}
	}
	if r := jsonReq(t, h, "PUT", "/api/admin/leads/lead-002/assignee", who.admin, map[string]string{"userId": "u-crew"}); r.StatusCode != 200 {
		t.Fatalf("assign to staff: %d %s", r.StatusCode, r.Body)
	}
	r = jsonReq(t, h, "GET", "/api/admin/leads/lead-002/work", who.admin, nil)
	if json.Unmarshal([]byte(r.Body), &work) != nil || work.AssignedTo == nil || *work.AssignedTo != "u-crew" || work.AssignedName != "Crew Lead" || len(work.Assignees) != 2 {
		t.Errorf("admin's work view after assigning: %s", r.Body)
	}
	// Unassigning, then nothing to change.
	if r := jsonReq(t, h, "PUT", "/api/admin/leads/lead-002/assignee", who.admin, map[string]string{"userId": ""}); r.StatusCode != 200 || strings.Contains(r.Body, "assignedTo") {
		t.Errorf("unassign: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "PUT", "/api/admin/leads/lead-002/assignee", who.admin, map[string]string{"userId": ""}); r.StatusCode != 200 || strings.Contains(r.Body, "event") {
		t.Errorf("unassign again: %d %s", r.StatusCode, r.Body)
	}
	// A status change by a person is on the timeline with who.
	r = jsonReq(t, h, "PATCH", "/api/admin/leads/lead-000", who.staff, map[string]string{"status": "scheduled"})
	var st leadsweb.LeadAnswer
	if json.Unmarshal([]byte(r.Body), &st); r.StatusCode != 200 || st.Event == nil || st.Event.Actor != "Crew Lead" || st.Event.From != "new" || st.Event.To != "scheduled" {
		t.Errorf("status change: %d %s", r.StatusCode, r.Body)
	}
	if l, _ := store.GetLead(ctx, "lead-000"); l.FirstResponseAt == nil {
		t.Error("a person's status change did not end the first response time")
	}
	// The dashboard's figures count them.
	var figures leadsweb.ResponseFigures
	r = jsonReq(t, h, "GET", "/api/admin/leads/response-times", who.staff, nil)
	if json.Unmarshal([]byte(r.Body), &figures) != nil || len(figures.Windows) != 2 || figures.Windows[0].Days != 7 || figures.Windows[1].Days != 30 {
		t.Errorf("response times: %s", r.Body)
	}
}

// 'Export with source': the spec's nine columns, then the attribution's,
// formula injection neutralised in them too.
func TestExportWithSource(t *testing.T) {
	_, store, h, who := speedServer(t)
	ctx := context.Background()
	l := db.Lead{ID: "lead-src", CreatedAt: time.Now().UTC(), UpdatedAt: time.Now().UTC(), FirstName: "Ana", LastName: "Ruiz", Phone: "(678) 555-0199",
		City: "Smyrna", DamageType: "Mold", Status: "new", Source: "website",
		Attribution: db.Attribution{LandingPage: "/water-damage", UTMSource: "google", UTMMedium: "cpc", UTMCampaign: "=HYPERLINK(\"x\")", GCLID: "abc-123"}}
	if err := store.CreateLead(ctx, l); err != nil {
		t.Fatal(err)
	}
	r := jsonReq(t, h, "GET", "/api/admin/leads/export.csv?with=source", who.admin, nil)
	rows, err := csv.NewReader(strings.NewReader(r.Body)).ReadAll()
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("export: %d %v", r.StatusCode, err)
	}
	want := slices.Concat(leads.CSVHeader, leads.VisitCSVHeader, leads.SourceCSVHeader)
	if strings.Join(rows[0], ",") != strings.Join(want, ",") || !strings.Contains(r.Header.Get("Content-Disposition"), "with-source") {
		t.Fatalf("header %v, disposition %s", rows[0], r.Header.Get("Content-Disposition"))
	}
	found := false
	for _, row := range rows[1:] {
		if row[0] == "lead-src" {
			found = true
			if row[13] != "/water-damage" || row[15] != "google" || row[17] != "'=HYPERLINK(\"x\")" || row[20] != "abc-123" {
				t.Errorf("row %v", row)
			}
		}
	}
	if !found {
		t.Error("the lead is not exported")
	}
	plain := jsonReq(t, h, "GET", "/api/admin/leads/export.csv", who.admin, nil)
	if first, _, _ := strings.Cut(plain.Body, "\n"); first != strings.Join(slices.Concat(leads.CSVHeader, leads.VisitCSVHeader), ",") {
		t.Errorf("plain export header %q", first)
	}
}

// attributionForm is the estimate form with its hidden fields.
func attributionForm(kv ...string) url.Values {
	f := validForm()
	for i := 0; i+1 < len(kv); i += 2 {
		f.Set(kv[i], kv[i+1])
	}
	return f
}

func postWithReferer(t *testing.T, h http.Handler, path string, form url.Values, ip, accept, referer string) *response {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = ip + ":5000"
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if referer != "" {
		req.Header.Set("Referer", referer)
	}
	return do(t, h, req)
}

// The estimate form's attribution is stored: from the hidden fields (the
// JavaScript form), from the Referer of the form's page (without), and
// never as sent when hostile or oversized.
func TestEstimateAttributionStored(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	byName := func(last string) db.Lead {
		t.Helper()
		for _, l := range storedLeads(t, store) {
			if l.LastName == last {
				return l
			}
		}
		t.Fatalf("lead %s not stored", last)
		return db.Lead{}
	}
	// The JavaScript form: hidden fields from the visit's record.
	f := attributionForm("name", "Ann Hidden", "landing", "/services/water-damage-restoration?utm_source=ignored", "referrer", "www.google.com",
		"utm_source", "google", "utm_medium", "cpc", "utm_campaign", "Spring Flood", "utm_term", "burst pipe", "utm_content", "ad-2",
		"gclid", "Cj0KCQiA-abc_123", "gbraid", "0AAAAA", "wbraid", "CkAB", "fbclid", "IwAR1", "msclkid", "f1e2d3", "device", "mobile", "visit", "V1sitId_0123456789abcd")
	if r := postWithReferer(t, h, "/api/estimate", f, "10.9.0.1", "application/json", testBase+"/estimate"); r.StatusCode != 201 {
		t.Fatalf("post: %d %s", r.StatusCode, r.Body)
	}
	want := db.Attribution{LandingPage: "/services/water-damage-restoration", ReferrerHost: "www.google.com", UTMSource: "google", UTMMedium: "cpc",
		UTMCampaign: "Spring Flood", UTMTerm: "burst pipe", UTMContent: "ad-2", GCLID: "Cj0KCQiA-abc_123", GBRAID: "0AAAAA", WBRAID: "CkAB",
		FBCLID: "IwAR1", MSCLKID: "f1e2d3", DeviceClass: "mobile", VisitID: "V1sitId_0123456789abcd"}
	if got := byName("Hidden").Attribution; got != want {
		t.Errorf("hidden fields stored as\n%+v\nwant\n%+v", got, want)
	}

	// Without JavaScript: empty hidden fields; the Referer is the form's
	// page, landed on from an ad.
	f = attributionForm("name", "Ben Referer", "landing", "", "utm_source", "")
	if r := postWithReferer(t, h, "/estimate", f, "10.9.0.2", "", testBase+"/emergency?utm_source=bing&utm_medium=cpc&msclkid=m-42"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("no-JS post: %d %s", r.StatusCode, r.Body)
	}
	if got := byName("Referer").Attribution; got.LandingPage != "/emergency" || got.UTMSource != "bing" || got.UTMMedium != "cpc" || got.MSCLKID != "m-42" {
		t.Errorf("from the Referer: %+v", got)
	}

	// Hostile and oversized values.
	f = attributionForm("name", "Cid Hostile",
		"landing", "https://evil.test/phish?utm_source=evil", "referrer", "127.0.0.1",
		"utm_source", "goo\u202egle\x00"+strings.Repeat("x", 500), "utm_medium", "\x1b[31mred", "utm_campaign", strings.Repeat("é", 5000),
		"gclid", strings.Repeat("a", leads.MaxClickIDLen+1), "fbclid", "has space", "msclkid", "<script>", "device", "phone", "visit", "<script>alert(1)</script>")
	if r := postWithReferer(t, h, "/api/estimate", f, "10.9.0.3", "application/json", "https://evil.test/?utm_source=referer"); r.StatusCode != 201 {
		t.Fatalf("hostile post: %d %s", r.StatusCode, r.Body)
	}
	got := byName("Hostile").Attribution
	if got.LandingPage != "" || got.ReferrerHost != "" || got.GCLID != "" || got.FBCLID != "" || got.MSCLKID != "" || got.DeviceClass != "" || got.VisitID != "" {
		t.Errorf("hostile values kept: %+v", got)
	}
	if strings.ContainsAny(got.UTMSource, "\u202e\x00") || len([]rune(got.UTMSource)) > leads.MaxUTMLen || strings.Contains(got.UTMMedium, "\x1b") ||
		len([]rune(got.UTMCampaign)) != leads.MaxUTMLen || !strings.HasPrefix(got.UTMSource, "google") {
		t.Errorf("UTM text not cleaned and cut: %q %q (%d runes)", got.UTMSource, got.UTMMedium, len([]rune(got.UTMCampaign)))
	}

	// A form shown again without JavaScript carries what was admitted.
	f = attributionForm("name", "", "utm_source", "newsletter", "landing", "/blog", "gclid", "<bad>")
	r := postWithReferer(t, h, "/estimate", f, "10.9.0.4", "", testBase+"/estimate")
	if r.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("invalid no-JS post: %d", r.StatusCode)
	}
	hidden := map[string]string{}
	for _, in := range find(r.Doc, func(n *html.Node) bool { return n.Data == "input" && attr(n, "type") == "hidden" }) {
		hidden[attr(in, "name")] = attr(in, "value")
	}
	if hidden["utm_source"] != "newsletter" || hidden["landing"] != "/blog" || hidden["gclid"] != "" {
		t.Errorf("hidden fields of the form shown again: %v", hidden)
	}
	for _, name := range []string{"landing", "referrer", "device", "visit", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "gclid", "gbraid", "wbraid", "fbclid", "msclkid"} {
		if _, ok := hidden[name]; !ok {
			t.Errorf("the form lacks the hidden field %s", name)
		}
	}

	// The Analytics screen's 'Leads by source / campaign' counts them.
	tok := unlock(t, h)
	var a struct {
		LeadSources []struct {
			Source, Campaign string
			Leads            int64
		} `json:"leadSources"`
		CallPages []any `json:"callPages"`
	}
	res := jsonReq(t, h, "GET", "/api/admin/analytics", tok, nil)
	if json.Unmarshal([]byte(res.Body), &a) != nil || a.CallPages == nil {
		t.Fatalf("analytics: %d %s", res.StatusCode, res.Body)
	}
	rows := map[string]int64{}
	for _, r := range a.LeadSources {
		rows[r.Source+"|"+r.Campaign] = r.Leads
	}
	if rows["google / cpc|Spring Flood"] != 1 || rows["bing / cpc|"] != 1 {
		t.Errorf("leads by source: %v", rows)
	}
}

// speedKit is a server wired as main.go wires it, its push sender
// pointed at the fake push service (an https service on 127.0.0.1).
type speedKit struct {
	srv      *Server
	h        http.Handler
	store    *db.Store
	notifier *notify.Notifier
	fake     *notifytest.PushService
}

func newSpeedKit(t *testing.T, store *db.Store, env map[string]string) speedKit {
	t.Helper()
	newTestServer(t, nil) // the shared engine and content
	cfg := testConfig(t, mapWith(env, "ADMIN_PIN", testPIN, "DATA_DIR", t.TempDir()))
	nc, err := app.NotifyConfig(context.Background(), cfg, store, app.NewSettings(cfg, store, quiet), quiet)
	if err != nil {
		t.Fatal(err)
	}
	if nc.Push == nil {
		t.Fatal("push is off")
	}
	fake := notifytest.NewPushService(t, notifytest.PushOptions{VAPIDPublicKey: nc.Push.PublicKey(), Subject: cfg.Notify.VAPIDSubject})
	nc.Push.Client = fake.Client()
	nc.Push.AllowHost = func(h string) bool { return h == "127.0.0.1" }
	n := notify.New(store, nc, quiet)
	in := spool.NewIntake(n, nil, store.Ping, quiet)
	srv, err := buildServer(t, testParts{Config: cfg, Store: store, Leads: in, Notifier: n})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	sc := &stepClock{t: time.Now()}
	srv.auth.SetClock(sc.Now)
	clocks.Store(srv, sc)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { n.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return speedKit{srv: srv, h: srv.Handler(), store: store, notifier: n, fake: fake}
}

// subscribeDevice subscribes a fake browser for the signed-in account
// through the API, as the admin app does.
func (k speedKit) subscribeDevice(t *testing.T, tok string) notifytest.PushDevice {
	t.Helper()
	d := k.fake.NewDevice(t)
	r := jsonReq(t, k.h, "POST", "/api/admin/push/subscriptions", tok, map[string]any{"endpoint": d.Endpoint, "keys": map[string]string{"p256dh": d.P256dh, "auth": d.Auth}})
	if r.StatusCode != 201 {
		t.Fatalf("subscribe: %d %s", r.StatusCode, r.Body)
	}
	return d
}

// An estimate POST reaches every subscribed device through the real push
// client: the admin's with the name and phone, staff's masked, an
// emergency with Urgency: high and a title starting EMERGENCY, each
// opening the lead; the timeline says push was delivered.
func TestEstimatePushedToDevices(t *testing.T) {
	k := newSpeedKit(t, db.NewTestSQLite(t), nil)
	addUser(t, k.store, adminEmail, adminPass, "admin", "The Owner")
	addUser(t, k.store, staffEmail, staffPass, "staff", "Crew Lead")
	adminDev := k.subscribeDevice(t, signIn(t, k.h, adminEmail, adminPass))
	staffDev := k.subscribeDevice(t, signIn(t, k.h, staffEmail, staffPass))
	start := time.Now()
	if r := postForm(t, k.h, "/api/estimate", validForm(), "10.7.0.1", "application/json"); r.StatusCode != 201 {
		t.Fatalf("estimate: %d %s", r.StatusCode, r.Body)
	}
	ds := k.fake.WaitDeliveries(2, 5*time.Second)
	if len(ds) != 2 {
		t.Fatalf("%d pushes within 5 s; rejections %v", len(ds), k.fake.Rejections())
	}
	if rej := k.fake.Rejections(); len(rej) > 0 {
		t.Errorf("the push service refused: %v", rej)
	}
	ls := storedLeads(t, k.store)
	for _, d := range ds {
		var m notify.PushMessage
		if err := json.Unmarshal(d.Payload, &m); err != nil {
			t.Fatal(err)
		}
		if d.Urgency != "high" || !strings.HasPrefix(m.Title, "EMERGENCY") || m.URL != "/admin/leads?lead="+ls[0].ID || !m.Emergency {
			t.Errorf("push %+v %+v", d, m)
		}
		switch d.Device {
		case adminDev.ID:
			if !strings.Contains(m.Body, "Maria Gonzalez") || !strings.Contains(m.Body, "(770) 555-0199") {
				t.Errorf("admin's push body %q", m.Body)
			}
		case staffDev.ID:
			// Staff read what their list shows: the name, the phone masked.
			if strings.Contains(m.Body, "555-0199") || !strings.Contains(m.Body, "(770) ***-**99") {
				t.Errorf("staff's push body %q", m.Body)
			}
		}
		for _, private := range []string{"maria@example.com", "12 Roswell", "State Farm", "Water heater"} {
			if bytes.Contains(d.Payload, []byte(private)) {
				t.Errorf("push payload holds %q", private)
			}
		}
	}
	t.Logf("estimate POST to both pushes at the push service: %s", ds[len(ds)-1].At.Sub(start).Round(time.Millisecond))
	// Each delivery is recorded just after the service accepted it.
	var tl []db.LeadEvent
	pushed := 0
	for end := time.Now().Add(5 * time.Second); pushed < 2 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		tl, _ = k.store.LeadTimeline(context.Background(), ls[0].ID)
		pushed = 0
		for _, e := range tl {
			if e.Kind == db.EventNotified && e.Channel == db.OutboxPush {
				pushed++
			}
		}
	}
	if pushed != 2 {
		t.Errorf("timeline has %d push deliveries: %+v", pushed, tl)
	}
	// A device the push service says is gone is removed, and its row
	// gives up.
	k.fake.Expire(staffDev.ID)
	if r := postForm(t, k.h, "/api/estimate", mapForm(validForm(), "name", "Second Lead"), "10.7.0.2", "application/json"); r.StatusCode != 201 {
		t.Fatal(r.Body)
	}
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if ps, _ := k.store.PushSubscriptionsFor(context.Background(), "u-crew"); len(ps) == 0 {
			return
		}
	}
	t.Error("the expired device was not removed")
}

// The measured figure (README "Speed to lead"): the time from the estimate
// POST to the push request arriving at the fake push service, over 20
// leads on this machine. It is printed, not asserted:
//
//	go test -run TestPushLatency -v ./server/
func TestPushLatency(t *testing.T) {
	// Over a real connection, as a browser posts; each lead from its own
	// client address (X-Forwarded-For behind TRUST_PROXY), since the
	// per-address limit is 5 leads.
	k := newSpeedKit(t, db.NewTestSQLite(t), map[string]string{"TRUST_PROXY": "true"})
	addUser(t, k.store, adminEmail, adminPass, "admin", "The Owner")
	k.subscribeDevice(t, signIn(t, k.h, adminEmail, adminPass))
	ts := httptest.NewServer(k.h)
	defer ts.Close()
	const n = 20
	var took []time.Duration
	for i := 0; i < n; i++ {
		f := mapForm(validForm(), "name", fmt.Sprintf("Lead Number%d", i))
		req, _ := http.NewRequest("POST", ts.URL+"/api/estimate", strings.NewReader(f.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.8.%d.1", i))
		start := time.Now()
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 201 {
			t.Fatalf("estimate %d: %d", i, res.StatusCode)
		}
		ds := k.fake.WaitDeliveries(i+1, 10*time.Second)
		if len(ds) != i+1 {
			t.Fatalf("push %d did not arrive", i)
		}
		took = append(took, ds[i].At.Sub(start))
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	// The median of an even count: the lower middle (nearest rank).
	t.Logf("estimate POST → push request at the push service, %d leads: median %s (min %s, max %s)", n,
		took[n/2-1].Round(100*time.Microsecond), took[0].Round(100*time.Microsecond), took[n-1].Round(100*time.Microsecond))
}

// The escalation job as the server runs it: an emergency lead still new
// after LEAD_ESCALATE_AFTER is escalated once, to every admin's device,
// with two servers running the job at the same moment; a quiet minute is
// a skipped run.
func TestEscalationJobOnceAcrossInstances(t *testing.T) {
	store := db.NewTestSQLite(t)
	k1 := newSpeedKit(t, store, nil)
	k2 := newSpeedKit(t, store, nil)
	addUser(t, store, adminEmail, adminPass, "admin", "The Owner")
	adminDev := k1.subscribeDevice(t, signIn(t, k1.h, adminEmail, adminPass))
	old := time.Now().UTC().Add(-20 * time.Minute)
	if err := store.CreateLead(context.Background(), db.Lead{ID: "old-emergency", CreatedAt: old, UpdatedAt: old, FirstName: "Old", LastName: "Flood",
		Phone: "+17705550111", City: "Marietta", DamageType: "Water Damage", Status: "new", IsEmergency: true, Source: "website"}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	results := make([]string, 2)
	errs := make([]error, 2)
	for i, k := range []speedKit{k1, k2} {
		wg.Add(1)
		go func(i int, k speedKit) {
			defer wg.Done()
			results[i], errs[i] = k.srv.escalate(context.Background())
		}(i, k)
	}
	wg.Wait()
	escalated := 0
	for i := range results {
		if errs[i] == nil && strings.HasPrefix(results[i], "escalated 1 emergency lead") {
			escalated++
		}
	}
	if escalated != 1 {
		t.Fatalf("escalations %q %v", results, errs)
	}
	ds := k1.fake.WaitDeliveries(1, 5*time.Second)
	if len(ds) != 1 || ds[0].Device != adminDev.ID {
		t.Fatalf("escalation pushes: %+v", ds)
	}
	var m notify.PushMessage
	json.Unmarshal(ds[0].Payload, &m)
	if !strings.HasPrefix(m.Title, "EMERGENCY still new") || !m.Escalated {
		t.Errorf("escalation push %+v", m)
	}
	if _, err := k1.srv.escalate(context.Background()); err == nil || !strings.Contains(err.Error(), "no emergency lead waiting") {
		t.Errorf("a second run: %v", err)
	}
	time.Sleep(200 * time.Millisecond)
	if got := len(k1.fake.Deliveries()); got != 1 {
		t.Errorf("%d pushes after two runs, want 1", got)
	}
}

// System Settings' switch turns the homeowner's acknowledgement off and
// on again, for leads saved after the change.
func TestAckSwitch(t *testing.T) {
	if settings.KeyLeadAck != notify.AckSetting {
		t.Fatalf("System Settings saves %q, the notifier reads %q", settings.KeyLeadAck, notify.AckSetting)
	}
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: smtpUser, Password: smtpPassword})
	env := notifyEnv(fake, "")
	delete(env, "LEAD_WEBHOOK_URL")
	delete(env, "LEAD_WEBHOOK_SECRET")
	store := db.NewTestSQLite(t)
	k := leadServer(t, store, env, fake.ClientTLS(), nil)
	h := k.srv.Handler()
	tok := settingsAdmin(t, k.srv, store)
	acks := func() int {
		rows, err := store.RecentOutbox(context.Background(), 100)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range rows {
			if r.Kind == db.OutboxAck {
				n++
			}
		}
		return n
	}
	var st struct {
		LeadAck *bool `json:"leadAck"`
	}
	r := jsonReq(t, h, "GET", "/api/admin/settings", tok, nil)
	if json.Unmarshal([]byte(r.Body), &st); st.LeadAck == nil || !*st.LeadAck {
		t.Fatalf("leadAck by default: %s", r.Body)
	}
	var full map[string]any
	json.Unmarshal([]byte(r.Body), &full)
	full["leadAck"] = false
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, full); r.StatusCode != 200 || !strings.Contains(r.Body, `"leadAck":false`) {
		t.Fatalf("switch off: %d %s", r.StatusCode, r.Body)
	}
	postForm(t, h, "/api/estimate", validForm(), "10.5.0.1", "application/json")
	if n := acks(); n != 0 {
		t.Errorf("%d acknowledgements with the switch off", n)
	}
	// A save without the field keeps it off.
	delete(full, "leadAck")
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, full); !strings.Contains(r.Body, `"leadAck":false`) {
		t.Errorf("a save without leadAck: %s", r.Body)
	}
	full["leadAck"] = true
	jsonReq(t, h, "PUT", "/api/admin/settings", tok, full)
	postForm(t, h, "/api/estimate", mapForm(validForm(), "name", "Second Person"), "10.5.0.2", "application/json")
	// An address that fails validation never gets one.
	postForm(t, h, "/api/estimate", mapForm(validForm(), "email", ""), "10.5.0.3", "application/json")
	if n := acks(); n != 1 {
		t.Errorf("%d acknowledgements with the switch on, want 1", n)
	}
}
