package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/paging/pagingtest"
)

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

// The sessions list pages and searches on the server, and a search never
// widens what a caller may see: staff searching for the admin find
// nothing, the PIN sees its own session only.
func TestSessionsPageAndSearch(t *testing.T) {
	_, _, h := accountServer(t)
	admin := signIn(t, h, adminEmail, adminPass)
	pin := unlock(t, h)
	staff := signIn(t, h, staffEmail, staffPass)
	list := func(tok, query string) (auth.SessionList, *response) {
		t.Helper()
		r := jsonReq(t, h, "GET", "/api/admin/sessions?"+query, tok, nil)
		var l auth.SessionList
		if r.StatusCode == http.StatusOK {
			if err := json.Unmarshal([]byte(r.Body), &l); err != nil {
				t.Fatal(err)
			}
		}
		return l, r
	}
	all, r := list(admin, "")
	if r.StatusCode != http.StatusOK || !all.All || all.Total != 3 || len(all.Sessions) != 3 || all.PerPage != 50 {
		t.Fatalf("admin's list: %d %s", r.StatusCode, r.Body)
	}
	if l, _ := list(admin, "perPage=1&page=2"); l.Total != 3 || len(l.Sessions) != 1 || l.Sessions[0].ID != all.Sessions[1].ID {
		t.Errorf("page 2 of 1 is not the second session: %+v", l)
	}
	if l, _ := list(admin, "q="+url.QueryEscape(strings.ToUpper(staffEmail))); l.Total != 1 || l.Sessions[0].Email != staffEmail {
		t.Errorf("admin searches staff's email: %+v", l)
	}
	if l, _ := list(staff, "q="+url.QueryEscape(adminEmail)); l.Total != 0 || len(l.Sessions) != 0 || l.All {
		t.Errorf("staff's search found the admin's sessions: %+v", l)
	}
	if l, _ := list(staff, ""); l.Total != 1 || l.Sessions[0].Email != staffEmail || !l.Sessions[0].Current {
		t.Errorf("staff's own: %+v", l)
	}
	if l, _ := list(pin, ""); !l.All || l.Total != 3 {
		t.Errorf("the PIN (sessions.all): %+v", l)
	}
	pagingtest.RefusedBehindEdge(t, "/api/admin/sessions", func(q string) (int, string) {
		_, r := list(admin, q)
		return r.StatusCode, r.Body
	})
}
