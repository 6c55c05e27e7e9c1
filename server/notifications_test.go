package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/app"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/notify/notifytest"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/spool"
	"github.com/atlanta-restoration/site/web/dashboard"
	"github.com/jmoiron/sqlx"
)

const (
	smtpUser     = "leads@example-restoration.test"
	smtpPassword = "smtp-pass-do-not-log-8812"
	hookSecret   = "hook-secret-do-not-log-3318"
)

// leadKit is a server wired as main.go wires it: a notifier from the
// configuration and an intake with a spool under DATA_DIR.
type leadKit struct {
	srv      *Server
	notifier *notify.Notifier
	intake   *spool.Intake
	spool    *spool.Spool
}

// leadServer builds a server on store, its notifier configured as main.go
// configures it (app.NotifyConfig: push with stored VAPID keys, the
// acknowledgement on). smtpTLS trusts the fake SMTP server's certificate.
func leadServer(t *testing.T, store *db.Store, env map[string]string, smtpTLS *tls.Config, log *slog.Logger) leadKit {
	t.Helper()
	newTestServer(t, nil) // the shared SSR engine and content
	if log == nil {
		log = quiet
	}
	cfg := testConfig(t, mapWith(env, "ADMIN_PIN", testPIN, "DATA_DIR", t.TempDir()))
	nc, err := app.NotifyConfig(context.Background(), cfg, store, app.NewSettings(cfg, store, log), log)
	if err != nil {
		t.Fatal(err)
	}
	if nc.SMTP != nil {
		nc.SMTP.TLS = smtpTLS
		nc.SMTP.Timeout = 5 * time.Second
	}
	n := notify.New(store, nc, log)
	sp, err := spool.Open(filepath.Join(cfg.DataDir, "spool"), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	in := spool.NewIntake(n, sp, store.Ping, log)
	srv, err := buildServer(t, testParts{Config: cfg, Log: log, Store: store, Leads: in, Notifier: n})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return leadKit{srv: srv, notifier: n, intake: in, spool: sp}
}

// hookReceiver is the owner's CRM: it checks each signature and counts
// deliveries per lead.
type hookReceiver struct {
	mu     sync.Mutex
	status int
	bodies [][]byte
	perID  map[string]int
	badSig int
}

func (h *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	defer h.mu.Unlock()
	if notify.VerifySignature([]byte(hookSecret), r.Header.Get(notify.SignatureHeader), body, time.Now(), notify.SignatureTolerance) != nil {
		h.badSig++
	}
	var ev notify.Event
	json.Unmarshal(body, &ev)
	if h.perID == nil {
		h.perID = map[string]int{}
	}
	h.perID[ev.ID]++
	h.bodies = append(h.bodies, body)
	if h.status != 0 {
		w.WriteHeader(h.status)
	}
}

func (h *hookReceiver) count() int { h.mu.Lock(); defer h.mu.Unlock(); return len(h.bodies) }

func notifyEnv(fake *notifytest.Server, hook string) map[string]string {
	env := map[string]string{"LEAD_WEBHOOK_URL": hook, "LEAD_WEBHOOK_SECRET": hookSecret}
	if fake != nil {
		env["SMTP_URL"] = "smtp://" + url.QueryEscape(smtpUser) + ":" + smtpPassword + "@" + fake.Addr
		env["LEAD_NOTIFY_TO"] = "owner@example-restoration.test, office@example-restoration.test"
	}
	return env
}

// A lead submitted through the form reaches the owner by email (through
// STARTTLS and AUTH) and the CRM by signed webhook, as soon as it is
// stored; the dashboard shows it delivered; no secret reaches the log.
func TestNotificationsEndToEnd(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: smtpUser, Password: smtpPassword})
	hook := &hookReceiver{}
	ts := httptest.NewServer(hook)
	defer ts.Close()
	hookURL := ts.URL + "/hooks/catch/TOKEN-do-not-log-7731"
	env := notifyEnv(fake, hookURL)
	var buf bytes.Buffer
	log := NewLogger(&buf, testConfig(t, env).Secrets())
	k := leadServer(t, db.NewTestSQLite(t), env, fake.ClientTLS(), log)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { k.notifier.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	f := validForm()
	f.Set("name", "Maria\r\nBcc: victim@evil.test Gonzalez")
	r := postForm(t, k.srv.Handler(), "/api/estimate", f, "10.6.0.1", "application/json")
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("submit: %d %s", r.StatusCode, r.Body)
	}
	// The owner's email and the homeowner's acknowledgement.
	msgs := fake.WaitMessages(2, 5*time.Second)
	if len(msgs) != 2 {
		t.Fatalf("%d emails within 5 s, want the owner's and the acknowledgement", len(msgs))
	}
	m, ack := msgs[0], msgs[1]
	if len(m.To) == 1 {
		m, ack = ack, m
	}
	if strings.Join(ack.To, ",") != "maria@example.com" || !bytes.Contains(ack.Data, []byte(notify.AckResponseClaim[:40])) {
		t.Errorf("acknowledgement to %v:\n%s", ack.To, ack.Data)
	}
	if !m.TLS || m.User != smtpUser || strings.Join(m.To, ",") != "owner@example-restoration.test,office@example-restoration.test" {
		t.Errorf("email: TLS %v user %q to %v", m.TLS, m.User, m.To)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if !strings.HasPrefix(subject, "EMERGENCY") || msg.Header.Get("Bcc") != "" {
		t.Errorf("subject %q, Bcc %q", subject, msg.Header.Get("Bcc"))
	}
	if !bytes.Contains(m.Data, []byte(testBase+"/admin/leads")) || !bytes.Contains(m.Data, []byte("(770) 555-0199")) {
		t.Errorf("email body lacks the link or the phone:\n%s", m.Data)
	}
	for end := time.Now().Add(5 * time.Second); hook.count() == 0 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	ls := storedLeads(t, k.srv.store)
	if hook.count() != 1 || hook.badSig != 0 || len(ls) != 1 || hook.perID[ls[0].ID] != 1 {
		t.Fatalf("webhook: %d calls, %d badly signed, per lead %v", hook.count(), hook.badSig, hook.perID)
	}

	// The dashboard's view.
	tok := unlock(t, k.srv.Handler())
	// An email arrives at the fake server before its sender records the
	// delivery: the view is read once nothing is pending (or after a
	// minute, when the assertions below say what still was).
	var res *response
	var st dashboard.NotificationsStatus
	for end := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		res = jsonReq(t, k.srv.Handler(), "GET", "/api/admin/notifications", tok, nil)
		st = dashboard.NotificationsStatus{}
		if err := json.Unmarshal([]byte(res.Body), &st); err != nil || res.StatusCode != 200 {
			t.Fatalf("notifications: %d %s", res.StatusCode, res.Body)
		}
		if st.Pending == 0 || time.Now().After(end) {
			break
		}
	}
	if !st.Configured.Email || !st.Configured.Webhook || st.Pending != 0 || st.Failed != 0 || st.LastDeliveredAt == nil ||
		len(st.Recent) != 3 || st.Recent[0].LeadID != ls[0].ID || st.Recent[0].DeliveredAt == nil {
		t.Errorf("status %s", res.Body)
	}
	for _, private := range []string{"555-0199", "maria@example.com", smtpPassword, hookSecret, "TOKEN-do-not-log", fake.Addr} {
		if strings.Contains(res.Body, private) {
			t.Errorf("the notifications view shows %q", private)
		}
	}
	if r := jsonReq(t, k.srv.Handler(), "GET", "/api/admin/notifications", "", nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("without a token: %d", r.StatusCode)
	}
	out := buf.String()
	if !strings.Contains(out, "lead notification delivered") {
		t.Errorf("deliveries not logged:\n%s", out)
	}
	for _, secret := range []string{smtpPassword, hookSecret, "TOKEN-do-not-log-7731"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q reached the log:\n%s", secret, out)
		}
	}
}

// The honeypot answers exactly as a saved request (status, headers that
// matter, body), on both endpoints; it stores nothing and notifies no one.
func TestEstimateHoneypotLooksReal(t *testing.T) {
	hook := &hookReceiver{}
	ts := httptest.NewServer(hook)
	defer ts.Close()
	k := leadServer(t, db.NewTestSQLite(t), notifyEnv(nil, ts.URL), nil, nil)
	h := k.srv.Handler()
	bot := validForm()
	bot.Set("website", "http://spam.example")
	for _, path := range []string{"/api/estimate", "/estimate"} {
		accept := ""
		if path == "/api/estimate" {
			accept = "application/json"
		}
		real := postForm(t, h, path, validForm(), "10.7.0.1", accept)
		fake := postForm(t, h, path, bot, "10.7.0.2", accept)
		if real.StatusCode != fake.StatusCode || real.Body != fake.Body || real.Header.Get("Location") != fake.Header.Get("Location") ||
			real.Header.Get("Content-Type") != fake.Header.Get("Content-Type") {
			t.Errorf("%s: real %d %q %q, honeypot %d %q %q", path, real.StatusCode, real.Header.Get("Location"), real.Body,
				fake.StatusCode, fake.Header.Get("Location"), fake.Body)
		}
	}
	// An invalid bot submission gets the same messages a person would.
	bad := postForm(t, h, "/api/estimate", mapForm(bot, "phone", "12"), "10.7.0.3", "application/json")
	if bad.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("invalid honeypot submission: %d", bad.StatusCode)
	}
	k.notifier.DeliverDue(context.Background())
	if n := len(storedLeads(t, k.srv.store)); n != 2 {
		t.Errorf("%d leads stored, want the 2 real ones", n)
	}
	if hook.count() != 2 {
		t.Errorf("%d webhook calls, want 2 (the real ones)", hook.count())
	}
}

func mapForm(f url.Values, k, v string) url.Values {
	out := url.Values{}
	for key, vs := range f {
		out[key] = append([]string(nil), vs...)
	}
	out.Set(k, v)
	return out
}

// /healthz reports the outbox (pending, failed) and the spool's backlog;
// a backlog alone does not fail it.
func TestHealthzReportsSpoolAndOutbox(t *testing.T) {
	hook := &hookReceiver{status: http.StatusInternalServerError}
	ts := httptest.NewServer(hook)
	defer ts.Close()
	store := db.NewTestSQLite(t)
	k := leadServer(t, store, notifyEnv(nil, ts.URL), nil, nil)
	h := k.srv.Handler()
	postForm(t, h, "/api/estimate", validForm(), "10.8.0.1", "application/json")
	k.notifier.DeliverDue(context.Background())
	var out struct {
		Status string
		Spool  struct{ Backlog int }
		Outbox *struct{ Pending, Failed int }
	}
	r := healthDetails(t, h)
	json.Unmarshal([]byte(r.Body), &out)
	if r.StatusCode != 200 || out.Status != "ok" || out.Outbox == nil || out.Outbox.Pending != 1 || out.Outbox.Failed != 0 || out.Spool.Backlog != 0 {
		t.Fatalf("healthz %d %s", r.StatusCode, r.Body)
	}
	// A spooled lead with the database back up: reported, status ok.
	k.spool.Append(spool.Record{Key: "spooled-1", At: time.Now().UTC(), Lead: db.Lead{ID: "spooled-1", FirstName: "A", Phone: "7705550100"}})
	r = healthDetails(t, h)
	json.Unmarshal([]byte(r.Body), &out)
	if r.StatusCode != 200 || out.Status != "ok" || out.Spool.Backlog != 1 {
		t.Fatalf("healthz with a backlog: %d %s", r.StatusCode, r.Body)
	}
}

// With the database down a visitor's request is spooled and answered as
// received, with the phone number on the page; the replay stores every
// lead once (SQLite: the store is closed, then a new one opened on the
// same file).
func TestSpoolEndToEndSQLite(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "site.db")
	open := func() *db.Store {
		x, err := db.OpenSQLite(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := db.FromDB(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	store := open()
	k := leadServer(t, store, nil, nil, nil)
	store.Close() // the database is gone
	submitWhileDown(t, k, 20)
	thanks := get(t, k.srv.Handler(), "/estimate/thanks")
	if body := text(bodyOf(thanks.Doc)); !strings.Contains(body, "Your estimate request was received") || !strings.Contains(body, "(770) 555-0134") {
		t.Errorf("the thank-you page does not confirm or lacks the phone: %.300s", body)
	}
	// The database is back: a new handle on the same file.
	store2 := open()
	in := spool.NewIntake(notify.New(store2, notify.Config{}, quiet), k.spool, store2.Ping, quiet)
	replayTwice(t, in, k.spool, store2, 20)
}

// postgresBehindProxy opens a store on a fresh schema of the test
// PostgreSQL, reached through a TCP proxy the test can stop (the database
// "goes down") and start again. It skips when PostgreSQL is unreachable,
// and fails in CI.
func postgresBehindProxy(t *testing.T) (*db.Store, *tcpProxy) {
	t.Helper()
	return postgresBehindProxyConnecting(t, 2)
}

// postgresBehindProxyConnecting is postgresBehindProxy with the given
// connect timeout in seconds: 2 tells an outage quickly; a test of
// limits under load, not of outages, gives a loaded machine's new
// connections longer, or a slow connect reads as the database down.
func postgresBehindProxyConnecting(t *testing.T, connectTimeout int) (*db.Store, *tcpProxy) {
	t.Helper()
	dsn, err := db.NewTestPostgresURL(t)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is required in CI: %v", err)
		}
		t.Skipf("PostgreSQL not reachable: %v", err)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	proxy := newTCPProxy(t, u.Host)
	pu := *u
	pu.Host = proxy.addr
	q := pu.Query()
	q.Set("connect_timeout", strconv.Itoa(connectTimeout))
	pu.RawQuery = q.Encode()
	x, err := sqlx.ConnectContext(ctx, "postgres", pu.String())
	if err != nil {
		t.Fatal(err)
	}
	x.SetMaxOpenConns(db.PostgresPool)
	store, err := db.FromDB(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store, proxy
}

// The test on PostgreSQL: a proxy between the store and the
// server is stopped, 20 leads are submitted, it is started, and all 20
// arrive exactly once, with exactly one notification each.
func TestSpoolEndToEndPostgres(t *testing.T) {
	store, proxy := postgresBehindProxy(t)
	ctx := context.Background()
	hook := &hookReceiver{}
	ts := httptest.NewServer(hook)
	defer ts.Close()
	k := leadServer(t, store, notifyEnv(nil, ts.URL), nil, nil)

	proxy.setUp(false) // the database is unreachable
	submitWhileDown(t, k, 20)
	r := healthDetails(t, k.srv.Handler())
	if !strings.Contains(r.Body, `"spool":{"backlog":20,"refused":0}`) {
		t.Errorf("healthz while down: %d %s", r.StatusCode, r.Body)
	}
	proxy.setUp(true)
	replayTwice(t, k.intake, k.spool, store, 20)
	if _, err := k.notifier.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	if hook.count() != 20 || len(hook.perID) != 20 || hook.badSig != 0 {
		t.Errorf("webhook: %d calls for %d leads (%d badly signed), want 20 for 20", hook.count(), len(hook.perID), hook.badSig)
	}
}

// submitWhileDown posts n leads (half without JavaScript) and checks each
// is answered as received.
func submitWhileDown(t *testing.T, k leadKit, n int) {
	t.Helper()
	h := k.srv.Handler()
	for i := 0; i < n; i++ {
		f := validForm()
		f.Set("name", fmt.Sprintf("Visitor %02d", i))
		ip := fmt.Sprintf("10.20.%d.%d", i/200, i%200+1)
		if i%2 == 0 {
			r := postForm(t, h, "/api/estimate", f, ip, "application/json")
			var st leads.EstimateState
			json.Unmarshal([]byte(r.Body), &st)
			if r.StatusCode != http.StatusCreated || !st.Success {
				t.Fatalf("lead %d: %d %s", i, r.StatusCode, r.Body)
			}
		} else if r := postForm(t, h, "/estimate", f, ip, ""); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/estimate/thanks" {
			t.Fatalf("lead %d (no JS): %d %q", i, r.StatusCode, r.Header.Get("Location"))
		}
	}
	if got := k.intake.Backlog(); got != n {
		t.Fatalf("spool backlog %d, want %d", got, n)
	}
}

// replayTwice replays the spool, then replays a copy of it taken before
// (as if the process had died before removing the file): the database
// holds every lead exactly once.
func replayTwice(t *testing.T, in *spool.Intake, sp *spool.Spool, store *db.Store, n int) {
	t.Helper()
	ctx := context.Background()
	saved := map[string][]byte{}
	entries, _ := os.ReadDir(sp.Dir())
	for _, e := range entries {
		saved[e.Name()], _ = os.ReadFile(filepath.Join(sp.Dir(), e.Name()))
	}
	if got, err := in.Replay(ctx); got != n || err != nil || in.Backlog() != 0 {
		t.Fatalf("replay: %d, %v, backlog %d", got, err, in.Backlog())
	}
	i := 0
	for _, b := range saved {
		if len(b) > 0 {
			i++
			os.WriteFile(filepath.Join(sp.Dir(), fmt.Sprintf("leads-%020d-%d.replay", 1, i)), b, 0o600)
		}
	}
	again, err := spool.Open(sp.Dir(), quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	in2 := spool.NewIntake(notify.New(store, notify.Config{}, quiet), again, store.Ping, quiet)
	if got, err := in2.Replay(ctx); got != n || err != nil {
		t.Fatalf("second replay: %d, %v", got, err)
	}
	ls := storedLeads(t, store)
	names := map[string]int{}
	for _, l := range ls {
		names[l.FirstName+" "+l.LastName]++
	}
	if len(ls) != n || len(names) != n {
		t.Fatalf("%d leads (%d names) after two replays, want %d exactly once", len(ls), len(names), n)
	}
	for i := 0; i < n; i++ {
		if c := names[fmt.Sprintf("Visitor %02d", i)]; c != 1 {
			t.Errorf("Visitor %02d stored %d times", i, c)
		}
	}
}

// tcpProxy stands between the store and PostgreSQL; setUp(false) cuts
// every connection and refuses new ones, as a database outage would.
type tcpProxy struct {
	addr, target string
	ln           net.Listener
	mu           sync.Mutex
	up           bool
	conns        map[net.Conn]bool
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{addr: ln.Addr().String(), target: target, ln: ln, up: true, conns: map[net.Conn]bool{}}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.setUp(false) })
	return p
}

func (p *tcpProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		up := p.up
		p.mu.Unlock()
		if !up {
			c.Close()
			continue
		}
		// A generous ceiling: "down" is p.up, never a slow accept.
		d, err := net.DialTimeout("tcp", p.target, 30*time.Second)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[d] = true, true
		p.mu.Unlock()
		pipe := func(a, b net.Conn) {
			io.Copy(a, b)
			a.Close()
			b.Close()
		}
		go pipe(c, d)
		go pipe(d, c)
	}
}

func (p *tcpProxy) setUp(up bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up = up
	if !up {
		for c := range p.conns {
			c.Close()
		}
		p.conns = map[net.Conn]bool{}
	}
}

// The estimate limit never fails open: two leads are stored, PostgreSQL
// goes away, and a burst of 25 parallel posts from the same address gets
// 3 more received (spooled) and 22 refused, as the in-process count that
// mirrored the shared one decides. Back up, the replay stores 5 in all
// and notifies 5. Before the fallback, all 25 were received.
func TestEstimateLimitHoldsWhilePostgresIsDown(t *testing.T) {
	store, proxy := postgresBehindProxy(t)
	hook := &hookReceiver{}
	ts := httptest.NewServer(hook)
	defer ts.Close()
	k := leadServer(t, store, notifyEnv(nil, ts.URL), nil, nil)
	h := k.srv.Handler()
	const ip = "10.21.0.1"
	for i := 0; i < 2; i++ {
		if r := postForm(t, h, "/api/estimate", validForm(), ip, "application/json"); r.StatusCode != http.StatusCreated {
			t.Fatalf("lead %d before the outage: %d %s", i, r.StatusCode, r.Body)
		}
	}
	proxy.setUp(false)
	var wg sync.WaitGroup
	codes := make(chan int, 25)
	for i := 0; i < 25; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			f := validForm()
			f.Set("name", fmt.Sprintf("Burst %02d", i))
			codes <- postForm(t, h, "/api/estimate", f, ip, "application/json").StatusCode
		}(i)
	}
	wg.Wait()
	close(codes)
	got := map[int]int{}
	for c := range codes {
		got[c]++
	}
	if got[http.StatusCreated] != EstimatesPerWindow-2 || got[http.StatusTooManyRequests] != 25-(EstimatesPerWindow-2) {
		t.Errorf("during the outage: %v, want %d received and the rest 429", got, EstimatesPerWindow-2)
	}
	// Another address is not affected by this one's count.
	if r := postForm(t, h, "/api/estimate", validForm(), "10.21.0.2", "application/json"); r.StatusCode != http.StatusCreated {
		t.Errorf("another address during the outage: %d", r.StatusCode)
	}
	proxy.setUp(true)
	ctx := context.Background()
	if _, err := k.intake.Replay(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(storedLeads(t, store)); n != EstimatesPerWindow+1 {
		t.Errorf("%d leads stored, want %d (5 from the address, 1 from another)", n, EstimatesPerWindow+1)
	}
	if _, err := k.notifier.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	if hook.count() != EstimatesPerWindow+1 {
		t.Errorf("%d notifications, want %d", hook.count(), EstimatesPerWindow+1)
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
