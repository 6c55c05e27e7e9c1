package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/settings"
	settingsweb "github.com/atlanta-restoration/site/web/settings"
)

// System Settings' guard and the phone model (ADR 039): the PIN reads the
// settings; only an admin account with its second factor changes them;
// a save changes the number in every place the site shows it.

const settingsAdminEmail = "settings-owner@example.com"

// settingsAdmin signs in an admin account with its second factor: the
// session that may change System Settings.
func settingsAdmin(t *testing.T, srv *Server, store *db.Store) string {
	t.Helper()
	addUser(t, store, settingsAdminEmail, adminPass, "admin", "Settings Owner")
	return signIn(t, srv, settingsAdminEmail, adminPass)
}

// settingsBody is a full, valid save with the given 24/7 and office
// numbers.
func settingsBody(line, office string) map[string]any {
	return map[string]any{"businessName": "Peach State Restoration", "phone": line, "officePhone": office,
		"address": "100 Main St, Marietta, GA 30060", "website": "https://www.peachstate.example", "autoIndexNow": true,
		"seoMonitoring": true, "autoSchema": true, "emergencyMode": true}
}

func readAnswer(t *testing.T, r *response) settingsweb.Answer {
	t.Helper()
	var a settingsweb.Answer
	if err := json.Unmarshal([]byte(r.Body), &a); err != nil {
		t.Fatalf("settings answer: %v: %s", err, r.Body)
	}
	return a
}

func savedPhone(t *testing.T, store *db.Store) string {
	t.Helper()
	m, err := store.Settings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return m["phone"]
}

// Every caller: none, the PIN, staff, an editor, an admin account whose
// session never gave a second factor, and an admin with it.
func TestSettingsCallers(t *testing.T) {
	srv, store, h := accountServer(t)
	pin := unlock(t, h)
	staff := signIn(t, h, staffEmail, staffPass)
	editor := editorToken(t, srv, store)
	admin := settingsAdmin(t, srv, store)
	// An admin account whose session gave no second factor: sign-in never
	// finishes one (an admin must enrol, and a role change ends the
	// account's sessions), so the session is written as such a bug would.
	bare := addUser(t, store, "bare-admin@example.com", "bare admin passphrase", "admin", "Bare")
	promotedTok := "bare-admin-session-token"
	sum := sha256.Sum256([]byte(promotedTok))
	now := time.Now().UTC()
	if err := store.CreateSession(context.Background(), db.Session{ID: "bare-admin", TokenHash: hex.EncodeToString(sum[:]), UserID: bare.ID,
		IP: "192.0.2.10", CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour), HardExpiresAt: now.Add(time.Hour), Stage: db.StageFull}); err != nil {
		t.Fatal(err)
	}
	newPhone := "(404) 555-0123"
	cases := []struct {
		name, tok        string
		get, put, uses   int
		canChange        bool
		putMsg, readOnly string
	}{
		{"no session", "", 401, 401, 401, false, "Admin session required", ""},
		{"PIN", pin, 200, 403, 200, false, settingsweb.MsgAdminAccount, settingsweb.MsgAdminAccount},
		{"staff", staff, 403, 403, 403, false, "", ""},
		{"editor", editor, 403, 403, 403, false, "", ""},
		{"admin without a second factor", promotedTok, 200, 403, 200, false, settingsweb.MsgSecondFactor, settingsweb.MsgSecondFactor},
		{"admin with a second factor", admin, 200, 200, 200, true, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := savedPhone(t, store)
			g := jsonReq(t, h, "GET", "/api/admin/settings", c.tok, nil)
			if g.StatusCode != c.get {
				t.Fatalf("GET: %d %s, want %d", g.StatusCode, g.Body, c.get)
			}
			if g.StatusCode == 200 {
				a := readAnswer(t, g)
				if a.CanChange != c.canChange || a.ReadOnly != c.readOnly {
					t.Errorf("GET: canChange %v readOnly %q, want %v %q", a.CanChange, a.ReadOnly, c.canChange, c.readOnly)
				}
			}
			if u := jsonReq(t, h, "GET", "/api/admin/settings/phone-uses", c.tok, nil); u.StatusCode != c.uses {
				t.Errorf("phone uses: %d, want %d", u.StatusCode, c.uses)
			}
			p := jsonReq(t, h, "PUT", "/api/admin/settings", c.tok, settingsBody(newPhone, ""))
			if p.StatusCode != c.put || !strings.Contains(p.Body, c.putMsg) {
				t.Fatalf("PUT: %d %s, want %d with %q", p.StatusCode, p.Body, c.put, c.putMsg)
			}
			if c.put != 200 {
				if after := savedPhone(t, store); after != before {
					t.Errorf("a refused save changed the phone: %q -> %q", before, after)
				}
			} else if got := savedPhone(t, store); got != newPhone {
				t.Errorf("saved phone %q, want %q", got, newPhone)
			}
		})
	}
	// The PIN's refusal is the plain sentence, and the public pages kept
	// the configured number until the admin saved.
	es, _, err := store.ListAudit(context.Background(), 50, 0)
	if err != nil {
		t.Fatal(err)
	}
	saves := 0
	for _, e := range es {
		if e.Action == db.AuditSettingsSaved {
			saves++
			if e.Actor != settingsAdminEmail || e.IP == "" || !strings.Contains(e.Detail, "24/7 phone number") || strings.Contains(e.Detail, "555-0123") {
				t.Errorf("settings audit entry %+v: want the admin's email, an IP and the names of what changed, no values", e)
			}
		}
	}
	if saves != 1 {
		t.Errorf("%d settings_saved entries, want 1 (only the admin's save)", saves)
	}
}

var telHref = regexp.MustCompile(`href="tel:([^"]*)"`)

// After an admin saves a new 24/7 number, every page dials it and shows
// it, in the links, the text and the structured data; the old number is
// nowhere. An office number shows on the contact page only.
func TestSettingsPhoneChangesEveryPlace(t *testing.T) {
	srv, store, h := accountServer(t)
	admin := settingsAdmin(t, srv, store)
	oldDigits := config.PhoneDigits("(770) 555-0134") // the configured number
	// The pages as served before the save, so the cache must re-render.
	for _, p := range []string{"/", "/areas/cobb/marietta", "/contact"} {
		if r := get(t, h, p); !strings.Contains(r.Body, "tel:+1"+oldDigits) {
			t.Fatalf("%s before the save does not dial the configured number", p)
		}
	}
	line, office := "(404) 555-0123", "(678) 555-0142"
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", admin, settingsBody(line, office)); r.StatusCode != 200 {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	pages := []string{"/", "/areas/cobb/marietta", "/contact", "/services/water-damage-restoration", "/emergency"}
	for _, p := range pages {
		r := get(t, h, p)
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d", p, r.StatusCode)
		}
		links := telHref.FindAllStringSubmatch(r.Body, -1)
		if len(links) == 0 {
			t.Errorf("%s: no tel: link", p)
		}
		for _, l := range links {
			d := config.PhoneDigits(l[1])
			if d != config.PhoneDigits(line) && !(p == "/contact" && d == config.PhoneDigits(office)) {
				t.Errorf("%s: a tel: link dials %s", p, l[1])
			}
		}
		if strings.Contains(r.Body, "555-0134") || strings.Contains(r.Body, oldDigits) {
			t.Errorf("%s still shows the old number", p)
		}
		if !strings.Contains(r.Body, line) || !strings.Contains(r.Body, `"telephone":"+1-404-555-0123"`) {
			t.Errorf("%s does not show the new number in its text and structured data", p)
		}
		if hasOffice := strings.Contains(r.Body, office); hasOffice != (p == "/contact") {
			t.Errorf("%s shows the office number: %v", p, hasOffice)
		}
	}
	// Where the numbers appear, counted in the served pages.
	var uses settings.PhoneUses
	r := jsonReq(t, h, "GET", "/api/admin/settings/phone-uses", admin, nil)
	if err := json.Unmarshal([]byte(r.Body), &uses); err != nil || r.StatusCode != 200 {
		t.Fatalf("phone uses: %d %s", r.StatusCode, r.Body)
	}
	if len(uses.Numbers) != 2 || uses.Numbers[0].Number != line || uses.Numbers[1].Number != office {
		t.Fatalf("numbers %+v", uses.Numbers)
	}
	ln, of := uses.Numbers[0], uses.Numbers[1]
	if ln.Pages != uses.Scanned || ln.Links < uses.Scanned || ln.StructuredData < uses.Scanned || len(ln.Elsewhere) == 0 {
		t.Errorf("the 24/7 line: %d pages of %d scanned, %d links, %d in structured data", ln.Pages, uses.Scanned, ln.Links, ln.StructuredData)
	}
	home := false
	for _, k := range ln.Kinds {
		if k.Kind == "Home page" && k.Links > 3 && k.Texts > 0 {
			home = true
		}
	}
	if !home {
		t.Errorf("the 24/7 line's kinds %+v: want the home page with its call links", ln.Kinds)
	}
	if of.Pages != 1 || len(of.Kinds) != 1 || of.Kinds[0].Kind != "Contact page" || of.Links != 1 {
		t.Errorf("the office number: %+v, want the contact page's one link", of)
	}
	if len(uses.Others) != 0 {
		t.Errorf("other numbers on the pages: %+v", uses.Others)
	}
	// The office number the same as the 24/7 line is no second number.
	a := readAnswer(t, jsonReq(t, h, "PUT", "/api/admin/settings", admin, settingsBody(line, "404.555.0123")))
	if a.OfficePhone != "" {
		t.Errorf("office %q, want none", a.OfficePhone)
	}
	if r := get(t, h, "/contact"); strings.Contains(r.Body, "Office line") {
		t.Error("the contact page still shows an office line")
	}
}

// The audit log reads as sentences: each entry names its actor by
// account (email, with the display name), the address, and a lead by
// initials and city ("a deleted lead" once it is erased); no code shows.
func TestAuditLogSentences(t *testing.T) {
	srv, store, h := accountServer(t)
	seedLeads(t, store, 3) // lead-002 is Maria Gonzalez, Marietta
	admin := signIn(t, h, adminEmail, adminPass)
	editor := editorToken(t, srv, store)
	if r := jsonReq(t, h, "PATCH", "/api/admin/leads/lead-002", admin, map[string]string{"status": "contacted"}); r.StatusCode != 200 {
		t.Fatalf("status: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "PATCH", "/api/admin/leads/lead-001", admin, map[string]string{"status": "contacted"}); r.StatusCode != 200 {
		t.Fatalf("status: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/leads/lead-001", admin, nil); r.StatusCode >= 300 {
		t.Fatalf("erase: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "POST", "/api/admin/redirects", editor, map[string]string{"from": "/old-water-page", "to": "/services/water-damage-restoration"}); r.StatusCode >= 300 {
		t.Fatalf("redirect: %d %s", r.StatusCode, r.Body)
	}
	sa := settingsAdmin(t, srv, store)
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", sa, settingsBody("(404) 555-0123", "")); r.StatusCode != 200 {
		t.Fatalf("settings: %d %s", r.StatusCode, r.Body)
	}
	r := jsonReq(t, h, "GET", "/api/admin/audit?perPage=100", admin, nil)
	if r.StatusCode != 200 {
		t.Fatalf("audit: %d %s", r.StatusCode, r.Body)
	}
	var page struct {
		Entries []struct{ Who, IP, Sentence string }
	}
	if err := json.Unmarshal([]byte(r.Body), &page); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range page.Entries {
		got = append(got, e.Sentence)
		if e.IP != "192.0.2.10" && e.IP != "192.0.2.50" {
			t.Errorf("%q: IP %q", e.Sentence, e.IP)
		}
		if regexp.MustCompile(`\b[a-z0-9]+_[a-z_]+\b`).MatchString(e.Sentence) {
			t.Errorf("a code shows: %q", e.Sentence)
		}
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"The Owner (owner@example.com) signed in from 192.0.2.10",
		"The Owner (owner@example.com) changed the status of M. G., Marietta from new to contacted",
		"The Owner (owner@example.com) changed the status of a deleted lead from new to contacted",
		"The Owner (owner@example.com) erased a lead at the homeowner's request",
		"Eddie Editor (words@example.com) sent visitors of /old-water-page on to /services/water-damage-restoration",
		"Settings Owner (settings-owner@example.com) changed the settings: business name, 24/7 phone number",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("audit log lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "lead-00") || strings.Contains(all, "Gonzalez") {
		t.Errorf("a lead is named by its id or full name:\n%s", all)
	}
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
