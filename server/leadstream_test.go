package server

import (
	"context"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/leadstream/streamtest"
)

// The live stream across rooms: its guard, what the other rooms' changes
// put on it, its end with its session and with the server, and NOTIFY
// between instances. The per-session bound and the heartbeat are the
// room's own tests (web/leadstream/stream_test.go).

// Every kind of caller: no session 401, the PIN, an editor and a
// role-less account 403 (as every lead route answers them); staff and
// admin get a stream that starts with "resync", uncompressed and
// uncached.
func TestLeadStreamCallers(t *testing.T) {
	srv, store, h := accountServer(t)
	p := allPrincipals(t, store, h)
	ts := streamtest.Serve(t, h)
	for _, c := range []struct {
		who, token string
		status     int
	}{
		{"no session", "", 401}, {"forged", p.forged, 401}, {"revoked", p.revoked, 401}, {"expired", p.expired, 401}, {"totp stage", p.totp, 401},
		{"pin", p.pin, 403}, {"editor", p.editor, 403}, {"role-less", p.roleless, 403},
	} {
		s := streamtest.Open(t, ts.URL, c.token)
		if s.Resp.StatusCode != c.status {
			t.Errorf("%s: %d, want %d", c.who, s.Resp.StatusCode, c.status)
		}
		if ct := s.Resp.Header.Get("Content-Type"); strings.HasPrefix(ct, "text/event-stream") {
			t.Errorf("%s: a stream was opened (%s)", c.who, ct)
		}
	}
	for _, who := range []struct{ name, token string }{{"staff", p.staff}, {"admin", p.admin}} {
		s := streamtest.Open(t, ts.URL, who.token)
		if s.Resp.StatusCode != 200 || !strings.HasPrefix(s.Resp.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("%s: %d %s", who.name, s.Resp.StatusCode, s.Resp.Header.Get("Content-Type"))
		}
		if ce := s.Resp.Header.Get("Content-Encoding"); ce != "" {
			t.Errorf("%s: the stream is compressed (%s): events would wait in the compressor", who.name, ce)
		}
		if cc := s.Resp.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s: Cache-Control %q", who.name, cc)
		}
		if ev := s.Next(t, 10*time.Second, "resync", "change", "ping", "end"); ev.Name != "resync" {
			t.Errorf("%s: first event %q, want resync", who.name, ev.Name)
		}
	}
	if n, _ := srv.liveHub.Count(); n != 2 {
		t.Errorf("%d streams open, want 2", n)
	}
}

// Staff's stream never carries a byte of the lead's phone or email,
// whatever happens to the lead: a new lead from the estimate form, a
// note quoting the number, a status change, an assignment, an erasure.
// The admin's stream says the same, the lead's id and what changed.
func TestLeadStreamCarriesNoContactData(t *testing.T) {
	srv, store, h := accountServer(t)
	ts := streamtest.Serve(t, h)
	staff := signIn(t, h, staffEmail, staffPass)
	admin := signIn(t, h, adminEmail, adminPass)
	st, ad := streamtest.Open(t, ts.URL, staff), streamtest.Open(t, ts.URL, admin)
	st.Next(t, 10*time.Second, "resync")
	ad.Next(t, 10*time.Second, "resync")

	if r := postForm(t, h, "/api/estimate", validForm(), "10.8.2.1", "application/json"); r.StatusCode != http.StatusCreated {
		t.Fatalf("estimate: %d %s", r.StatusCode, r.Body)
	}
	ls := storedLeads(t, store)
	if len(ls) != 1 {
		t.Fatalf("%d leads", len(ls))
	}
	id := ls[0].ID
	for _, s := range []*streamtest.Stream{st, ad} {
		ev := s.Next(t, 10*time.Second, "change")
		if ev.Data["kind"] != "created" || ev.Data["leadId"] != id || ev.Data["at"] == nil {
			t.Errorf("change %v, want created %s", ev.Data, id)
		}
	}
	users, _ := store.ListUsers(context.Background())
	var crew string
	for _, u := range users {
		if u.Email == staffEmail {
			crew = u.ID
		}
	}
	steps := []struct {
		kind string
		do   func() *response
	}{
		{"note", func() *response {
			return jsonReq(t, h, "POST", "/api/admin/leads/"+id+"/notes", staff, map[string]string{"body": "Called (770) 555-0199 and maria@example.com"})
		}},
		{"status", func() *response {
			return jsonReq(t, h, "PATCH", "/api/admin/leads/"+id, staff, map[string]string{"status": "contacted"})
		}},
		{"assigned", func() *response {
			return jsonReq(t, h, "PUT", "/api/admin/leads/"+id+"/assignee", admin, map[string]string{"userId": crew})
		}},
		{"deleted", func() *response { return jsonReq(t, h, "DELETE", "/api/admin/leads/"+id, admin, nil) }},
	}
	for _, step := range steps {
		if r := step.do(); r.StatusCode >= 300 {
			t.Fatalf("%s: %d %s", step.kind, r.StatusCode, r.Body)
		}
		for _, s := range []*streamtest.Stream{st, ad} {
			if ev := s.Next(t, 10*time.Second, "change"); ev.Data["kind"] != step.kind || ev.Data["leadId"] != id {
				t.Errorf("change %v, want %s %s", ev.Data, step.kind, id)
			}
		}
	}
	digits := regexp.MustCompile(`\D`)
	for name, s := range map[string]*streamtest.Stream{"staff": st, "admin": ad} {
		raw := s.Raw()
		for _, secret := range []string{"maria@example.com", "maria", "555-0199", "5550199", "7705550199", "Gonzalez", "Roswell St"} {
			if strings.Contains(strings.ToLower(raw), strings.ToLower(secret)) {
				t.Errorf("%s's stream carries %q:\n%s", name, secret, raw)
			}
		}
		if strings.Contains(digits.ReplaceAllString(raw, ""), "5550199") {
			t.Errorf("%s's stream carries the phone's digits:\n%s", name, raw)
		}
	}
	_ = srv
}

// A stream ends when its session is revoked (signed out elsewhere, or by
// an admin), and when its account is disabled.
func TestLeadStreamEndsWithItsSession(t *testing.T) {
	srv, store, h := accountServer(t)
	srv.leadStream.Recheck = 50 * time.Millisecond
	srv.leadStream.Heartbeat = 60 * time.Millisecond
	ts := streamtest.Serve(t, h)
	admin := signIn(t, h, adminEmail, adminPass)
	staff := signIn(t, h, staffEmail, staffPass)
	sa, ss := streamtest.Open(t, ts.URL, admin), streamtest.Open(t, ts.URL, staff)
	sa.Next(t, 10*time.Second, "resync")
	ss.Next(t, 10*time.Second, "resync")
	// A live session's streams outlast several checks.
	for i := 0; i < 4; i++ {
		sa.Next(t, 10*time.Second, "ping")
		ss.Next(t, 10*time.Second, "ping")
	}
	// The staff account is disabled by an admin.
	users, _ := store.ListUsers(context.Background())
	for _, u := range users {
		if u.Email == staffEmail {
			if r := jsonReq(t, h, "PATCH", "/api/admin/users/"+u.ID, admin, map[string]any{"disabled": true}); r.StatusCode != 200 {
				t.Fatalf("disable: %d %s", r.StatusCode, r.Body)
			}
		}
	}
	if ev := ss.Next(t, 10*time.Second, "end"); ev.Data["reason"] != "signed-out" {
		t.Errorf("end %v", ev.Data)
	}
	ss.Ended(t, 10*time.Second)
	// The admin signs out (on another device: the stream's session ends).
	if r := jsonReq(t, h, "POST", "/api/admin/logout", admin, nil); r.StatusCode != http.StatusNoContent {
		t.Fatalf("logout: %d", r.StatusCode)
	}
	if ev := sa.Next(t, 10*time.Second, "end"); ev.Data["reason"] != "signed-out" {
		t.Errorf("end %v", ev.Data)
	}
	sa.Ended(t, 10*time.Second)
}

// Shutdown ends the streams at once (they never end by themselves) and
// returns well before SHUTDOWN_TIMEOUT; a stream opened after is refused.
func TestLeadStreamShutdownIsPrompt(t *testing.T) {
	srv, _, h := accountServer(t)
	admin := signIn(t, h, adminEmail, adminPass)
	hs := srv.HTTPServer("127.0.0.1:0")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	base := "http://" + ln.Addr().String()
	streams := []*streamtest.Stream{streamtest.Open(t, base, admin), streamtest.Open(t, base, admin)}
	for _, s := range streams {
		s.Next(t, 10*time.Second, "resync")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	if err := hs.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v after %s (waited for the streams?)", err, time.Since(start))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Shutdown took %s", d)
	}
	for _, s := range streams {
		if ev := s.Next(t, 5*time.Second, "end"); ev.Data["reason"] != "shutdown" {
			t.Errorf("end %v", ev.Data)
		}
		s.Ended(t, 5*time.Second)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads/events", admin, nil); r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" {
		t.Errorf("a stream opened while stopping: %d %s", r.StatusCode, r.Body)
	}
}

// Two instances on one PostgreSQL: a lead stored by the other instance
// (its store: what its estimate handler, spool and CLI call) reaches a
// staff stream on this one, through NOTIFY, masked as ever.
func TestLeadStreamAcrossInstancesOnPostgres(t *testing.T) {
	dsn := db.NewTestPostgresDatabase(t, "leadstream_srv")
	ctx := context.Background()
	openStore := func() *db.Store {
		s, err := db.Open(ctx, dsn, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := openStore(), openStore()
	newTestServer(t, nil) // builds the shared engine and content
	cfg := testConfig(t, map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir(), "DATABASE_URL": dsn})
	srv, err := buildServer(t, testParts{Config: cfg, Store: a})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	run, stop := context.WithCancel(ctx)
	t.Cleanup(stop)
	go srv.RunLive(run)
	deadline := time.Now().Add(10 * time.Second)
	for !srv.liveHub.Listening() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !srv.liveHub.Listening() {
		t.Fatal("not listening on PostgreSQL after 10 s")
	}
	h := srv.Handler()
	addUser(t, a, staffEmail, staffPass, "staff", "Crew Lead")
	ts := streamtest.Serve(t, h)
	s := streamtest.Open(t, ts.URL, signIn(t, h, staffEmail, staffPass))
	s.Next(t, 10*time.Second, "resync")
	now := time.Now().UTC()
	l := db.Lead{ID: "from-the-other-instance", CreatedAt: now, UpdatedAt: now, FirstName: "Maria", LastName: "Gonzalez",
		Phone: "(770) 555-0199", Email: "maria@example.com", City: "Marietta", Status: "new", Source: "website"}
	if _, err := b.CreateLeadWithOutbox(ctx, l, nil); err != nil {
		t.Fatal(err)
	}
	if ev := s.Next(t, 10*time.Second, "change"); ev.Data["kind"] != "created" || ev.Data["leadId"] != l.ID {
		t.Errorf("change %v", ev.Data)
	}
	if err := b.SetLeadStatus(ctx, l.ID, "contacted", now); err != nil {
		t.Fatal(err)
	}
	if ev := s.Next(t, 10*time.Second, "change"); ev.Data["kind"] != "status" {
		t.Errorf("change %v", ev.Data)
	}
	for _, secret := range []string{"maria", "555-0199", "5550199"} {
		if strings.Contains(strings.ToLower(s.Raw()), secret) {
			t.Errorf("the stream carries %q:\n%s", secret, s.Raw())
		}
	}
}
