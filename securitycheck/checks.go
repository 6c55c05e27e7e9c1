package securitycheck

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
	"github.com/atlanta-restoration/site/words"
)

// ---------------------------------------------------------------- probes

// answer is what the server's handler answered for a request.
type answer struct {
	status int
	header http.Header
	body   string
}

// get runs a request through the server's own handler, in process: what a
// browser would get, without the network. It sends no credentials.
func get(ctx context.Context, e *Env, path string, header ...string) answer {
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, path, nil)
	req.RemoteAddr = "127.0.0.1:0"
	req.Header.Set("User-Agent", "site-security-scanner")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	e.Handler.ServeHTTP(w, req)
	body := w.Body.String()
	if len(body) > 1<<20 {
		body = body[:1<<20]
	}
	return answer{status: w.Code, header: w.Header(), body: body}
}

// cspDirective returns a directive's value from a CSP ("" and false when
// it is absent).
func cspDirective(csp, name string) (string, bool) {
	for _, d := range strings.Split(csp, ";") {
		f := strings.Fields(d)
		if len(f) > 0 && strings.EqualFold(f[0], name) {
			return strings.Join(f[1:], " "), true
		}
	}
	return "", false
}

// headerProblems lists what is missing from an answer's security headers.
func headerProblems(h http.Header) []string {
	var out []string
	csp := h.Get("Content-Security-Policy")
	if csp == "" {
		out = append(out, "no Content-Security-Policy")
	}
	fa, hasFA := cspDirective(csp, "frame-ancestors")
	xfo := strings.ToUpper(h.Get("X-Frame-Options"))
	if (!hasFA || strings.Contains(fa, "*")) && xfo != "DENY" && xfo != "SAMEORIGIN" {
		out = append(out, "framing by other sites is not forbidden (no frame-ancestors or X-Frame-Options)")
	}
	if !strings.EqualFold(h.Get("X-Content-Type-Options"), "nosniff") {
		out = append(out, "no X-Content-Type-Options: nosniff")
	}
	if rp := strings.ToLower(h.Get("Referrer-Policy")); rp == "" || rp == "unsafe-url" {
		out = append(out, "no Referrer-Policy limiting what other sites learn")
	}
	return out
}

func headersVerdict(what string, a answer, extra []string) verdict {
	problems := append(headerProblems(a.header), extra...)
	if len(problems) > 0 {
		return failed(fmt.Sprintf("%s (HTTP %d): %s.", what, a.status, orNone(problems)),
			"Send the security headers on every answer (server/middleware.go buildSecurityHeaders).")
	}
	return passed(fmt.Sprintf("%s (HTTP %d) carries a Content-Security-Policy with frame-ancestors, nosniff and a Referrer-Policy.", what, a.status))
}

// ---------------------------------------------------------------- headers

func checkHeadersPublic(ctx context.Context, e *Env) verdict {
	return headersVerdict("The home page /", get(ctx, e, "/"), nil)
}

func checkHeadersAdmin(ctx context.Context, e *Env) verdict {
	return headersVerdict("The admin page /admin", get(ctx, e, "/admin"), nil)
}

func checkHeadersAdminAPI(ctx context.Context, e *Env) verdict {
	a := get(ctx, e, "/api/admin/settings")
	var extra []string
	if !strings.Contains(strings.ToLower(a.header.Get("Cache-Control")), "no-store") {
		extra = append(extra, "no Cache-Control: no-store (admin answers could be cached)")
	}
	v := headersVerdict("The admin API answer to /api/admin/session without a session", a, extra)
	if v.status == Pass {
		v.description = strings.TrimSuffix(v.description, ".") + ", and Cache-Control: no-store."
	}
	return v
}

func checkHeadersMedia(ctx context.Context, e *Env) verdict {
	path := ""
	if e.MediaSample != nil {
		p, err := e.MediaSample(ctx)
		if err != nil {
			return notChecked("The media list could not be read: "+failure.Text(failure.At(failure.Database, err))+".", "Check the database, then run the scan again.")
		}
		path = p
	}
	if path == "" {
		// Nothing is created to have something to check: the 404 answer
		// of /media/ is what there is.
		a := get(ctx, e, "/media/security-scan-probe.jpg")
		v := headersVerdict("the 404 answer of /media/security-scan-probe.jpg", a, nil)
		v.description = "No media are stored yet, so the answer for a missing file was checked: " + v.description
		if v.status == Pass {
			v.description += " The sandbox policy of stored files is checked once a photo or video is uploaded."
		}
		return v
	}
	a := get(ctx, e, path, "Range", "bytes=0-0")
	var extra []string
	if a.status >= 400 {
		extra = append(extra, "the stored file did not answer")
	}
	if _, ok := cspDirective(a.header.Get("Content-Security-Policy"), "sandbox"); !ok {
		extra = append(extra, "no sandbox in its Content-Security-Policy (a file opened directly could run as a page)")
	}
	return headersVerdict("The stored file "+path, a, extra)
}

// ---------------------------------------------------------------- transport

// HSTSMinAge is the shortest HSTS max-age that passes (180 days).
const HSTSMinAge = 180 * 24 * 60 * 60

func isLocal(host string) bool {
	return host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasPrefix(host, "127.") || host == "::1"
}

func checkHSTS(ctx context.Context, e *Env) verdict {
	u, err := url.Parse(e.BaseURL)
	if err != nil || u.Host == "" {
		return failed(fmt.Sprintf("The site's address %q is not a full address.", e.BaseURL), "Ask your web host to set the site's address to its https address (see the deployment guide).")
	}
	if u.Scheme != "https" {
		if isLocal(u.Hostname()) {
			return warned(fmt.Sprintf("The site's address is %s, a local address over plain HTTP: this is a local or test copy. HSTS applies only over HTTPS, so it is checked once the address is https.", e.BaseURL),
				"On the live site, the site's address is its https address; HSTS is then sent and checked.")
		}
		return failed(fmt.Sprintf("The site's address is %s: the site is published over plain HTTP, so traffic can be read and changed on the way, and browsers cannot be told to insist on HTTPS.", e.BaseURL),
			"Ask your web host to serve the site over HTTPS and set the site's address to the https one (see the deployment guide).")
	}
	a := get(ctx, e, "/")
	h := a.header.Get("Strict-Transport-Security")
	if h == "" {
		return failed("The site's address is https but the home page sends no Strict-Transport-Security header.", "Send Strict-Transport-Security: max-age=31536000; includeSubDomains.")
	}
	age := -1
	for _, part := range strings.Split(h, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		if strings.EqualFold(k, "max-age") {
			age, _ = strconv.Atoi(strings.Trim(v, `"`))
		}
	}
	if age < HSTSMinAge {
		return warned(fmt.Sprintf("Strict-Transport-Security is sent (%s) but its max-age is under 180 days.", h), "Use max-age=31536000 (a year).")
	}
	return passed(fmt.Sprintf("The site's address is https and every answer sends Strict-Transport-Security: %s.", h))
}

// ---------------------------------------------------------------- access

// commonPINs are the PINs people pick most (lists of leaked PINs agree on
// them); a guesser tries them first.
var commonPINs = map[string]bool{
	"0000": true, "1234": true, "1111": true, "1212": true, "7777": true, "2580": true, "5555": true, "6969": true, "4321": true, "2000": true,
	"1004": true, "2222": true, "9999": true, "3333": true, "1122": true, "1313": true, "8888": true, "4444": true, "6666": true, "1010": true,
	"123456": true, "111111": true, "000000": true, "121212": true, "112233": true, "159753": true, "123123": true, "654321": true,
	"696969": true, "666666": true, "888888": true, "987654": true, "123321": true, "777777": true, "555555": true, "999999": true,
	"147258": true, "258369": true, "131313": true, "101010": true, "12345678": true, "11111111": true, "00000000": true, "87654321": true,
	"12341234": true, "11223344": true, "password": true, "admin": true, "letmein": true,
}

// PublishedTestPIN is the PIN this project's tests and scripts publish
// (scripts/serve-test.sh, tests/e2e/lib.mjs).
const PublishedTestPIN = "482915"

// PINWeakness says why a PIN is weak, "" when it is not. The PIN itself
// never leaves this function.
func PINWeakness(pin string) string {
	switch {
	case len([]rune(pin)) < 6:
		return "shorter than 6 characters"
	case pin == PublishedTestPIN:
		return "a PIN published in this project's tests"
	case strings.Count(pin, pin[:1]) == len(pin):
		return "one character repeated"
	case isSequence(pin):
		return "a run of consecutive digits"
	case commonPINs[strings.ToLower(pin)]:
		return "one of the most common PINs"
	}
	return ""
}

// isSequence: every digit one more (or one less) than the one before.
func isSequence(s string) bool {
	if len(s) < 3 {
		return false
	}
	up, down := true, true
	for i := 1; i < len(s); i++ {
		a, b := s[i-1], s[i]
		if a < '0' || a > '9' || b < '0' || b > '9' {
			return false
		}
		up = up && (b == a+1 || a == '9' && b == '0')
		down = down && (b+1 == a || a == '0' && b == '9')
	}
	return up || down
}

func checkPIN(_ context.Context, e *Env) verdict {
	if e.PINGenerated || e.PIN == "" {
		return passed("The server made up a random 8-digit PIN at its first start, written once to its log. Wrong PINs are limited per client IP.")
	}
	if why := PINWeakness(e.PIN); why != "" {
		return failed("The admin PIN chosen for the server is weak: "+why+". Rate limiting slows guessing, but a weak PIN is among the first guesses.",
			"Ask your web host to set a PIN of at least 8 random digits (or none, to have one made up) and restart the site; every session of the old PIN ends (see the deployment guide).")
	}
	return passed("The admin PIN chosen for the server is not short, repeated, sequential, common or published. Wrong PINs are limited per client IP.")
}

func checkAdminGate(ctx context.Context, e *Env) verdict {
	var open []string
	for _, probe := range []struct{ path, auth string }{
		{"/api/admin/sessions", ""},
		{"/api/admin/settings", ""},
		{"/api/admin/leads", ""},
		{"/api/admin/session", "Bearer not-a-real-token"},
		{"/api/admin/sessions", "Bearer not-a-real-token"},
		{"/api/admin/no-such-endpoint", ""},
	} {
		var a answer
		if probe.auth != "" {
			a = get(ctx, e, probe.path, "Authorization", probe.auth)
		} else {
			a = get(ctx, e, probe.path)
		}
		if a.status != http.StatusUnauthorized {
			open = append(open, fmt.Sprintf("%s answered %d", probe.path, a.status))
		}
	}
	if len(open) > 0 {
		return failed("Admin API answers without a session: "+orNone(open)+".", "Register every /api/admin/* route on the PIN-gated group.")
	}
	return passed("Every admin API path tried (with no token, and with a made-up token) answered 401.")
}

func checkAccounts(ctx context.Context, e *Env) verdict {
	if e.Accounts == nil {
		return notChecked("Not checked: accounts are not set up.", "")
	}
	st, err := e.Accounts.AccountStats(ctx, e.Now().Add(-InactiveAfter))
	if errors.Is(err, db.ErrAccountsNotSetUp) {
		return notChecked("Not checked: accounts are not set up in this database yet (no users or user_roles table).", "Checked on the next scan once accounts exist.")
	}
	if err != nil {
		return notChecked("Not checked: the accounts could not be read ("+failure.Text(failure.At(failure.Database, err))+").", "Check the database, then run the scan again.")
	}
	desc := fmt.Sprintf("%s, %s.", words.Count(st.Accounts, "enabled account", "enabled accounts"), words.Count(st.Admins, "admin", "admins"))
	if st.Inactive > 0 {
		return warned(desc+fmt.Sprintf(" %s without a sign-in in 90 days.", words.Count(st.Inactive, "account", "accounts")),
			"Disable accounts nobody uses (Users screen); an unused account's password is a door nobody watches.")
	}
	if st.Accounts > 0 && st.Admins == 0 {
		return warned(desc+" No enabled account is an admin, so nobody can manage accounts or export leads.", "Give one trusted person the admin role.")
	}
	return passed(desc + " Every account signed in within the last 90 days.")
}

func checkTokenLifetime(_ context.Context, e *Env) verdict {
	desc := fmt.Sprintf("An unlocked admin session ends after %s without use and at most %s after it began.", human(e.TokenTTL), human(e.SessionMax))
	if e.TokenTTL <= 0 {
		return failed("No session timeout is set: sessions would not expire.", "Ask your web host to set the admin session timeout to 30 minutes (see the deployment guide).")
	}
	if e.TokenTTL > time.Hour {
		return warned(desc+" Over an hour leaves an unattended screen unlocked for long.", "Ask your web host to set the admin session timeout to 30 minutes or 1 hour (see the deployment guide).")
	}
	return passed(desc)
}

// estimateLimitText says the estimate form's two limits (ADR 025).
func estimateLimitText(l Limits) string {
	s := fmt.Sprintf("%d estimate requests stored per client IP per %s", l.EstimateAttempts, human(l.EstimateWindow))
	if l.EstimatePosts > 0 {
		s += fmt.Sprintf(" (%d form posts, valid or not)", l.EstimatePosts)
	}
	return s
}

func checkRateLimits(_ context.Context, e *Env) verdict {
	l := e.Limits
	var bad, weak, ok []string
	if l.PINAttempts > 0 && l.PINWindow > 0 {
		ok = append(ok, fmt.Sprintf("%d wrong PINs per client IP per %s", l.PINAttempts, human(l.PINWindow)))
	} else {
		bad = append(bad, "wrong PINs are not limited")
	}
	if l.EstimateAttempts > 0 && l.EstimateWindow > 0 {
		ok = append(ok, estimateLimitText(l))
	} else {
		bad = append(bad, "estimate requests are not limited")
	}
	if l.MaxConns > 0 {
		ok = append(ok, fmt.Sprintf("%d open connections in all", l.MaxConns))
	} else {
		weak = append(weak, "open connections are not capped")
	}
	switch {
	case l.TrustProxy:
		weak = append(weak, "the per-client connection cap is off behind the proxy the site trusts: the proxy must limit clients")
	case l.MaxConnsPerIP > 0:
		ok = append(ok, fmt.Sprintf("%d per client IP", l.MaxConnsPerIP))
	default:
		weak = append(weak, "connections per client IP are not capped")
	}
	desc := "Active: " + orNone(ok) + "."
	if len(ok) == 0 {
		desc = ""
	}
	if len(bad) > 0 {
		return failed(strings.TrimSpace(desc+" Missing: "+orNone(bad)+"."), "Ask your web host to turn the limit on wrong PINs back on (see the deployment guide).")
	}
	if len(weak) > 0 {
		return warned(desc+" Not active: "+orNone(weak)+".", "Ask your web host to cap connections, in the site's settings or at the proxy (see the deployment guide).")
	}
	return passed(desc)
}

func checkAdminNoindex(ctx context.Context, e *Env) verdict {
	var problems []string
	robots := get(ctx, e, "/robots.txt")
	disallowed := false
	for _, line := range strings.Split(robots.body, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
		if strings.EqualFold(strings.TrimSpace(k), "disallow") && strings.HasPrefix(strings.TrimSpace(v), "/admin") {
			disallowed = true
		}
	}
	if robots.status != http.StatusOK || !disallowed {
		problems = append(problems, "robots.txt does not disallow /admin")
	}
	admin := get(ctx, e, "/admin")
	if !strings.Contains(strings.ToLower(admin.body), "noindex") && !strings.Contains(strings.ToLower(admin.header.Get("X-Robots-Tag")), "noindex") {
		problems = append(problems, "/admin is not marked noindex")
	}
	if len(problems) > 0 {
		return failed("The admin area may be indexed: "+orNone(problems)+".", "Keep /admin disallowed in robots.txt and noindex on every admin page.")
	}
	return passed("robots.txt disallows /admin and the admin pages are marked noindex.")
}

// ---------------------------------------------------------------- uploads

// sniffProbes are what an attacker would upload as a "photo", and one
// real JPEG header that must still be accepted.
var sniffProbes = []struct {
	what   string
	head   []byte
	accept string // expected MIME type; "" means it must be refused
}{
	{"a JPEG photo", append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0x00}, make([]byte, 64)...), "image/jpeg"},
	{"an HTML page named photo.jpg", []byte("<!doctype html><html><script>alert(document.domain)</script></html>"), ""},
	{"an SVG image with a script", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), ""},
	{"a PHP script named photo.png", []byte("<?php system($_GET['c']); ?>"), ""},
}

func checkSniffing(_ context.Context, e *Env) verdict {
	if e.Sniff == nil {
		return notChecked("Not checked: the upload type check was not available to the scanner.", "")
	}
	var wrong []string
	for _, p := range sniffProbes {
		got, err := e.Sniff(p.head)
		switch {
		case p.accept == "" && err == nil:
			wrong = append(wrong, fmt.Sprintf("%s was accepted as %s", p.what, got))
		case p.accept != "" && (err != nil || got != p.accept):
			wrong = append(wrong, fmt.Sprintf("%s was not recognised (%v)", p.what, err))
		}
	}
	if len(wrong) > 0 {
		return failed("The upload type check is not working: "+orNone(wrong)+".", "Type uploads from their first bytes (media.Sniff) and refuse anything but photos and videos.")
	}
	return passed("Uploads are typed from their content, not their name: a JPEG header was accepted as image/jpeg; HTML, SVG with a script and a PHP script disguised as photos were refused.")
}

// ---------------------------------------------------------------- data

func checkDatabase(ctx context.Context, e *Env) verdict {
	if e.DB == nil {
		return notChecked("Not checked: the server runs without a database.", "")
	}
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := e.DB.Ping(pctx); err != nil {
		return failed(fmt.Sprintf("The %s database does not answer: %s.", e.DBKind, failure.Text(err)), "Ask your web host to check that the database server is running and the site can reach it.")
	}
	known, pending, unknown, err := e.DB.MigrationStatus(pctx)
	if err != nil {
		return failed(fmt.Sprintf("The %s database answers, but its migrations could not be read: %s.", e.DBKind, failure.Text(err)), "Check the schema_migrations table.")
	}
	if len(pending) > 0 {
		return failed(fmt.Sprintf("The %s database is reachable but migrations %v of this build are not applied.", e.DBKind, pending), "Restart the server: migrations are applied at boot.")
	}
	if len(unknown) > 0 {
		return warned(fmt.Sprintf("The %s database is reachable and this build's %d migrations are applied, but it also has migrations %v that this build does not know: a newer version shares the database.", e.DBKind, known, unknown),
			"Finish the rolling update so every instance runs the same version.")
	}
	return passed(fmt.Sprintf("The %s database answers and all %d migrations of this build are applied.", e.DBKind, known))
}

// mediaWalkLimit bounds how many entries the permissions check looks at.
const mediaWalkLimit = 20000

func checkMediaDir(_ context.Context, e *Env) verdict {
	if e.MediaDir == "" {
		where := e.MediaStore
		if where == "" {
			where = "a bucket"
		}
		return notChecked("Not checked: media are stored in "+where+", whose access is set at the storage provider, not in a folder here.", "Keep the bucket private to the site's key; public reads go through /media/.")
	}
	root, err := os.Stat(e.MediaDir)
	if err != nil {
		return notChecked("Not checked: the media folder could not be read ("+err.Error()+").", "Ask your web host to check the site's data folder.")
	}
	var writable []string
	n := 0
	if root.Mode().Perm()&0o002 != 0 {
		writable = append(writable, fmt.Sprintf("%s (%v)", e.MediaDir, root.Mode().Perm()))
	}
	filepath.WalkDir(e.MediaDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == e.MediaDir {
			return nil
		}
		if n++; n > mediaWalkLimit {
			return filepath.SkipAll
		}
		if info, err := d.Info(); err == nil && info.Mode().Perm()&0o002 != 0 {
			rel, _ := filepath.Rel(e.MediaDir, p)
			writable = append(writable, fmt.Sprintf("%s (%v)", rel, info.Mode().Perm()))
		}
		return nil
	})
	if len(writable) > 0 {
		more := ""
		if len(writable) > 5 {
			more = fmt.Sprintf(" and %d more", len(writable)-5)
			writable = writable[:5]
		}
		return failed("Any user of this machine can write to the media folder: "+strings.Join(writable, ", ")+more+". A file put there is served to visitors.",
			"chmod o-w the folder and its contents (e.g. chmod -R o-w "+e.MediaDir+").")
	}
	return passed(fmt.Sprintf("The media folder %s and the %s in it are not world-writable.", e.MediaDir, words.Count(min(n, mediaWalkLimit), "file or folder", "files and folders")))
}

// human writes a duration the way the screen says it.
func human(d time.Duration) string {
	switch {
	case d <= 0:
		return "never"
	case d%(time.Hour) == 0:
		h := int(d / time.Hour)
		if h == 1 {
			return "1 hour"
		}
		return fmt.Sprintf("%d hours", h)
	case d%time.Minute == 0:
		m := int(d / time.Minute)
		if m == 1 {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", m)
	}
	return d.String()
}

// Human writes a duration the way the Security screen says it.
func Human(d time.Duration) string { return human(d) }
