package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/atlanta-restoration/site/web/auth"
)

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

// Every configured secret stays out of the log, even when a Go error
// quotes a URL that carries one.
func TestSecretsNeverReachTheLog(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	endpoint := closed.URL
	closed.Close() // connection refused: the error names the whole URL
	secrets := map[string]string{
		"GOOGLE_PLACES_API_KEY":  "AIzaSyTESTKEY-do-not-log-0123456789",
		"GOOGLE_PLACE_ID":        "ChIJplace",
		"GOOGLE_PLACES_ENDPOINT": endpoint,
		"ADMIN_PIN":              "9071355",
		"S3_ACCESS_KEY":          "AKIATESTACCESSKEY",
		"S3_SECRET_KEY":          "s3-secret-do-not-log",
		"DATABASE_URL":           "",
	}
	var buf bytes.Buffer
	cfg := testConfig(t, mapWith(secrets, "DATA_DIR", t.TempDir()))
	srv, _ := newTestServer(t, mapWith(secrets, "DATA_DIR", t.TempDir()))
	srv.log = NewLogger(&buf, cfg.Secrets())
	h := srv.Handler()
	// A failing review fetch (its URL carries the key), a wrong PIN, a
	// right PIN, a 404 and an admin call.
	post := httptest.NewRequest("POST", "/api/reviews/refresh", nil)
	if r := do(t, h, post); r.StatusCode != http.StatusBadGateway {
		t.Fatalf("refresh against a closed port: %d %s", r.StatusCode, r.Body)
	}
	jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": "000000"})
	tok := jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": secrets["ADMIN_PIN"]})
	get(t, h, "/no-such-page-"+secrets["ADMIN_PIN"])
	jsonReq(t, h, "GET", "/api/admin/settings", "Bearer-"+secrets["S3_SECRET_KEY"], nil)
	_ = tok
	out := buf.String()
	if !strings.Contains(out, "reviews") {
		t.Fatalf("the review failure was not logged:\n%s", out)
	}
	for name, v := range secrets {
		if name == "GOOGLE_PLACE_ID" || name == "GOOGLE_PLACES_ENDPOINT" || v == "" {
			continue
		}
		if strings.Contains(out, v) {
			t.Errorf("%s appears in the log:\n%s", name, out)
		}
	}
}

func mapWith(m map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// Cached and uncached requests log the same keys, one line each; a 404
// gets no second line; an unconfigured review refresh is an answer, not
// a failure (the page says reviews are not shown; ADR 021): no warning,
// no error.
func TestOneLogLinePerRequest(t *testing.T) {
	var buf bytes.Buffer
	srv, _ := newTestServer(t, nil)
	srv.log = NewLogger(&buf, nil)
	h := srv.Handler()
	get(t, h, "/services")     // rendered (miss)
	get(t, h, "/services")     // cached
	get(t, h, "/no-such-page") // 404
	for i := 0; i < 3; i++ {
		do(t, h, httptest.NewRequest("POST", "/api/reviews/refresh", nil))
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var httpLines []string
	warns := 0
	for _, l := range lines {
		if strings.Contains(l, "level=ERROR") {
			t.Errorf("error line: %s", l)
		}
		if strings.Contains(l, "level=WARN") {
			warns++
		}
		if strings.Contains(l, "msg=http") {
			httpLines = append(httpLines, l)
		}
	}
	if len(httpLines) != 6 {
		t.Fatalf("%d request lines for 6 requests:\n%s", len(httpLines), buf.String())
	}
	if warns != 0 {
		t.Errorf("%d warnings for an unconfigured review refresh, want none", warns)
	}
	for _, l := range httpLines {
		for _, key := range []string{"method=", "path=", "status=", "bytes=", "dur_ms="} {
			if !strings.Contains(l, " "+key) {
				t.Errorf("line lacks %s: %s", key, l)
			}
		}
		if strings.Contains(l, "req.") {
			t.Errorf("old key set: %s", l)
		}
	}
	if !strings.Contains(httpLines[1], "cached=true") || strings.Contains(httpLines[0], "cached=true") {
		t.Errorf("cached marking:\n%s\n%s", httpLines[0], httpLines[1])
	}
	if strings.Contains(buf.String(), "request rejected") || strings.Contains(httpLines[2], "err=") {
		t.Errorf("a 404 logged an empty error:\n%s", buf.String())
	}
}

// LOG_FORMAT=json writes the same keys as the text format, one object per
// line; LOG_LEVEL drops what is below it; secrets are redacted in both
// formats, in messages, attributes and errors.
func TestLogFormatsAndRedaction(t *testing.T) {
	secrets := []string{"s3-secret-do-not-log", "9071355"}
	for _, format := range []string{"text", "json"} {
		var buf bytes.Buffer
		log := NewFormatLogger(&buf, secrets, format, -4)
		log.Info("fetch failed for key s3-secret-do-not-log", "err", fmt.Errorf("GET https://x.example/?key=%s: refused", secrets[0]), "pin", secrets[1], "n", 3)
		log.Debug("debug line")
		out := buf.String()
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s: %q reached the log:\n%s", format, s, out)
			}
		}
		if !strings.Contains(out, "[REDACTED]") || !strings.Contains(out, "debug line") {
			t.Errorf("%s: %s", format, out)
		}
		if format == "json" {
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var m map[string]any
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Errorf("not one JSON object per line: %q", line)
				}
				for _, k := range []string{"time", "level", "msg"} {
					if _, ok := m[k]; !ok {
						t.Errorf("json line lacks %s: %q", k, line)
					}
				}
			}
		}
	}
	var buf bytes.Buffer
	warn := NewFormatLogger(&buf, nil, "text", 4)
	warn.Info("hidden")
	warn.Warn("shown")
	if strings.Contains(buf.String(), "hidden") || !strings.Contains(buf.String(), "shown") {
		t.Errorf("LOG_LEVEL=warn: %q", buf.String())
	}
	// A request line in each format carries the same keys.
	keys := func(format string) []string {
		srv, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir()})
		var b bytes.Buffer
		srv.log = NewFormatLogger(&b, nil, format, 0)
		get(t, srv.Handler(), "/robots.txt")
		line := strings.TrimSpace(b.String())
		var out []string
		if format == "json" {
			var m map[string]any
			json.Unmarshal([]byte(line), &m)
			for k := range m {
				out = append(out, k)
			}
		} else {
			for _, m := range regexp.MustCompile(`(?:^| )([a-z_]+)=`).FindAllStringSubmatch(line, -1) {
				out = append(out, m[1])
			}
		}
		return sortedStrings(out)
	}
	text, js := keys("text"), keys("json")
	if strings.Join(text, ",") != strings.Join(js, ",") || !strings.Contains(strings.Join(js, ","), "req_id") {
		t.Errorf("keys differ: text %v, json %v", text, js)
	}
}

func sortedStrings(xs []string) []string {
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			if xs[j] < xs[i] {
				xs[i], xs[j] = xs[j], xs[i]
			}
		}
	}
	return xs
}

// A feedback link's token opens a homeowner's page: the request line
// keeps what was asked, never the token, for the page and its opt-out,
// whether the token is known or not.
func TestFeedbackTokensStayOutOfTheLog(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir()})
	var b bytes.Buffer
	srv.log = NewFormatLogger(&b, nil, "text", 0)
	srv.accessLog = true
	const token = "Zq8v3TtokenNeverLogged"
	get(t, srv.Handler(), "/feedback/"+token)
	get(t, srv.Handler(), "/feedback/"+token+"/stop")
	out := b.String()
	if strings.Contains(out, token) {
		t.Fatalf("the token reached the log:\n%s", out)
	}
	if !strings.Contains(out, "path=/feedback/[REDACTED] ") || !strings.Contains(out, "path=/feedback/[REDACTED]/stop ") {
		t.Errorf("the lines no longer say what was asked:\n%s", out)
	}
	for in, want := range map[string]string{"/feedback/": "/feedback/", "/feedback": "/feedback", "/feedback/a/b/c": "/feedback/[REDACTED]/b/c", "/contact": "/contact"} {
		if got := logPath(in); got != want {
			t.Errorf("logPath(%q) = %q, want %q", in, got, want)
		}
	}
}
