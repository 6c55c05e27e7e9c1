package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
)

const (
	testUser     = "leads@example-restoration.test"
	testPassword = "smtp-pass-do-not-log-4471"
	testSecret   = "webhook-secret-do-not-log-9917"
	testBase     = "https://www.example-restoration.test"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func testLead(id string) db.Lead {
	now := time.Date(2026, 11, 20, 15, 4, 0, 0, time.UTC)
	return db.Lead{ID: id, CreatedAt: now, UpdatedAt: now, FirstName: "Maria", LastName: "Gonzalez", Phone: "(770) 555-0199",
		Email: "maria@example.com", City: "Marietta", StreetAddress: "12 Roswell St", ZipCode: "30060", DamageType: "Water Damage",
		Status: "new", IsEmergency: true, Source: "website", InsuranceCarrier: "State Farm", Notes: "Water heater burst.\n.\nGarage floor is wet."}
}

// smtpTo is an SMTP client for a fake server.
func smtpTo(fake *notifytest.Server) *SMTP {
	host, port, _ := net.SplitHostPort(fake.Addr)
	return &SMTP{Host: host, Port: port, User: testUser, Password: testPassword, TLS: fake.ClientTLS(), HelloName: "www.example-restoration.test", Timeout: 5 * time.Second}
}

// clock is a settable time for the sender.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newNotifier(t *testing.T, store *db.Store, cfg Config, log *slog.Logger) (*Notifier, *clock) {
	t.Helper()
	if log == nil {
		log = quiet
	}
	cfg.BaseURL = testBase
	n := New(store, cfg, log)
	c := &clock{t: time.Date(2026, 11, 20, 15, 5, 0, 0, time.UTC)}
	n.now = c.now
	return n, c
}

func outbox(t *testing.T, s *db.Store) []db.OutboxRow {
	t.Helper()
	rows, err := s.RecentOutbox(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestEmailOverSTARTTLS(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	store := db.NewTestSQLite(t)
	to := []string{"owner@example-restoration.test", "office@example-restoration.test"}
	n, _ := newNotifier(t, store, Config{SMTP: smtpTo(fake), From: &mail.Address{Name: "Avatar website", Address: testUser}, To: to}, nil)
	l := testLead("lead-1")
	// A name that tries to add a header of its own.
	l.FirstName = "Maria\r\nBcc: victim@evil.test\r\n"
	if err := n.SaveLead(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	if got, err := n.DeliverDue(context.Background()); err != nil || got != 1 {
		t.Fatalf("delivered %d, %v", got, err)
	}
	msgs := fake.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if !m.TLS || m.User != testUser || m.From != testUser {
		t.Errorf("TLS %v user %q from %q", m.TLS, m.User, m.From)
	}
	if diff := cmp.Diff(to, m.To); diff != "" {
		t.Errorf("recipients (-want, +got):\n%s", diff)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range msg.Header {
		keys = append(keys, k)
	}
	for _, k := range keys {
		if k == "Bcc" || strings.Contains(strings.Join(msg.Header[k], " "), "\n") {
			t.Errorf("header injection: %s: %q", k, msg.Header[k])
		}
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil || !strings.HasPrefix(subject, "EMERGENCY") {
		t.Errorf("subject %q (%v)", subject, err)
	}
	if _, err := msg.Header.Date(); err != nil {
		t.Errorf("Date: %v", err)
	}
	if id := msg.Header.Get("Message-Id"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@example-restoration.test>") {
		t.Errorf("Message-ID %q", id)
	}
	if rt := msg.Header.Get("Reply-To"); !strings.Contains(rt, "<maria@example.com>") {
		t.Errorf("Reply-To %q", rt)
	}
	body, _ := emailParts(t, msg)
	for _, want := range []string{"(770) 555-0199 <tel:+17705550199>", "maria@example.com", "12 Roswell St, Marietta 30060", "Water Damage", "State Farm",
		"Water heater burst.\r\n.\r\nGarage floor is wet.", testBase + "/admin/leads?lead=lead-1", "lead-1", "EMERGENCY"} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	rows := outbox(t, store)
	if len(rows) != 1 || rows[0].DeliveredAt == nil || rows[0].Attempts != 1 {
		t.Errorf("outbox %+v", rows)
	}
}

// net/smtp sends no password over an unencrypted connection to another
// machine: without STARTTLS the send fails before AUTH.
func TestNoPasswordWithoutTLS(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{User: testUser, Password: testPassword})
	c := smtpTo(fake)
	c.Host = "mail.example.test" // not localhost
	c.Dial = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, fake.Addr)
	}
	err := c.Send(context.Background(), testUser, []string{"owner@example.test"}, []byte("Subject: x\r\n\r\nx\r\n"))
	if err == nil || !strings.Contains(err.Error(), "unencrypted") {
		t.Fatalf("err %v, want an unencrypted-connection refusal", err)
	}
	for _, cmd := range fake.Commands() {
		if strings.HasPrefix(cmd, "AUTH") {
			t.Errorf("AUTH sent in clear: %q", cmd)
		}
	}
	if len(fake.Messages()) != 0 {
		t.Error("a message was sent")
	}
}

func TestComposeEmailHeaders(t *testing.T) {
	l := testLead("lead-2")
	l.IsEmergency = false
	l.FirstName, l.City, l.DamageType = "Zoë\nX-Evil: 1", "Marietta\r\nCc: a@evil.test", "Mold"
	l.Email = "maria@example.com\r\nBcc: b@evil.test"
	e := ComposeEmail(NewEvent(l, testBase), &mail.Address{Name: "Site\r\nX-Evil: 2", Address: "noreply@example.test"}, []string{"owner@example.test"},
		"row1", time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC), time.UTC)
	msg, err := mail.ReadMessage(bytes.NewReader(e.Body))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range msg.Header {
		keys = append(keys, k)
	}
	want := []string{"Content-Type", "Date", "From", "Message-Id", "Mime-Version", "Subject", "To"}
	if diff := cmp.Diff(want, sortStrings(keys)); diff != "" {
		t.Errorf("headers (-want, +got):\n%s", diff)
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if subject != "New lead from Zoë X-Evil: 1 Gonzalez (Mold, Marietta Cc: a@evil.test)" {
		t.Errorf("subject %q", subject)
	}
	if strings.HasPrefix(subject, "EMERGENCY") {
		t.Error("a non-emergency is marked EMERGENCY")
	}
}

func sortStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// receiver is an httptest webhook endpoint that checks signatures.
type receiver struct {
	mu      sync.Mutex
	bodies  [][]byte
	ids     []string
	badSig  int
	answers []int // status per request; then 200
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	sig := r.Header.Get(SignatureHeader)
	if VerifySignature([]byte(testSecret), sig, body, time.Now(), SignatureTolerance) != nil ||
		!strings.HasPrefix(sig, "t="+r.Header.Get(TimestampHeader)+",") || r.Header.Get("Content-Type") != "application/json" {
		rc.badSig++
	}
	rc.bodies = append(rc.bodies, body)
	rc.ids = append(rc.ids, r.Header.Get(DeliveryHeader))
	status := 200
	if len(rc.answers) > 0 {
		status, rc.answers = rc.answers[0], rc.answers[1:]
	}
	w.WriteHeader(status)
}

func (rc *receiver) count() int { rc.mu.Lock(); defer rc.mu.Unlock(); return len(rc.bodies) }

// A receiver that fails twice gets the lead on the third attempt; the
// waits between attempts grow, and every attempt is signed.
func TestWebhookRetriesUntilDelivered(t *testing.T) {
	rc := &receiver{answers: []int{500, 503}}
	ts := httptest.NewServer(rc)
	defer ts.Close()
	store := db.NewTestSQLite(t)
	n, clk := newNotifier(t, store, Config{Webhook: NewWebhook(ts.URL+"/hook", testSecret)}, nil)
	ctx := context.Background()
	if err := n.SaveLead(ctx, testLead("lead-3")); err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	for attempt := 1; attempt <= 3; attempt++ {
		got, err := n.DeliverDue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := n.DeliverDue(ctx); got != 0 {
			t.Fatal("a row not yet due was sent")
		}
		rows := outbox(t, store)
		if attempt < 3 {
			if got != 0 || rows[0].DeliveredAt != nil || !strings.HasPrefix(rows[0].LastError, "webhook: HTTP 5") {
				t.Fatalf("attempt %d: delivered %d, row %+v", attempt, got, rows[0])
			}
			wait := rows[0].NextAttemptAt.Sub(clk.now())
			waits = append(waits, wait)
			clk.add(wait)
			continue
		}
		if got != 1 || rows[0].DeliveredAt == nil || rows[0].Attempts != 3 {
			t.Fatalf("attempt 3: delivered %d, row %+v", got, rows[0])
		}
	}
	b := DefaultBackoff
	if waits[0] < b.Base/2 || waits[0] > b.Base || waits[1] < b.Base || waits[1] > 2*b.Base || waits[1] < waits[0] {
		t.Errorf("waits %v do not grow from base %v", waits, b.Base)
	}
	if rc.count() != 3 || rc.badSig != 0 {
		t.Fatalf("%d requests, %d badly signed", rc.count(), rc.badSig)
	}
	for i := 1; i < 3; i++ {
		if !bytes.Equal(rc.bodies[i], rc.bodies[0]) || rc.ids[i] != rc.ids[0] {
			t.Error("retries differ from the first attempt")
		}
	}
	var ev Event
	if err := json.Unmarshal(rc.bodies[0], &ev); err != nil || ev.Event != "lead.created" || ev.ID != "lead-3" ||
		ev.Lead.Phone != "+17705550199" || ev.Lead.PhoneTyped != "(770) 555-0199" || ev.PhoneDisplay != "(770) 555-0199" ||
		ev.PhoneHref != "tel:+17705550199" || ev.AdminURL != testBase+"/admin/leads?lead=lead-3" {
		t.Errorf("event %+v (%v)", ev, err)
	}
}

func TestBackoffGrows(t *testing.T) {
	b := Backoff{Base: time.Second, Max: time.Minute}
	for i := 0; i < 200; i++ {
		prev := time.Duration(0)
		for attempt := 1; attempt <= 12; attempt++ {
			d := b.Next(attempt)
			ceil := min(b.Base<<(attempt-1), b.Max)
			if d < ceil/2 || d > ceil || (ceil < b.Max && d < prev) {
				t.Fatalf("attempt %d: %v (ceiling %v, previous %v)", attempt, d, ceil, prev)
			}
			prev = d
		}
	}
	if d := DefaultBackoff.Next(100); d > time.Hour || d < 30*time.Minute {
		t.Errorf("cap: %v", d)
	}
}

// A 4xx other than 408 and 429 gives the row up after PermanentAttempts;
// 429 goes on being retried.
func TestWebhookPermanentFailure(t *testing.T) {
	for _, tc := range []struct {
		status     int
		wantFailed bool
	}{{400, true}, {410, true}, {429, false}, {408, false}, {500, false}} {
		rc := &receiver{answers: []int{tc.status, tc.status, tc.status, tc.status}}
		ts := httptest.NewServer(rc)
		store := db.NewTestSQLite(t)
		n, clk := newNotifier(t, store, Config{Webhook: NewWebhook(ts.URL, testSecret)}, nil)
		ctx := context.Background()
		n.SaveLead(ctx, testLead("lead-4"))
		for i := 0; i < PermanentAttempts; i++ {
			n.DeliverDue(ctx)
			clk.add(2 * time.Hour)
		}
		st, err := n.Status(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if tc.wantFailed && (st.Failed != 1 || st.Pending != 0 || st.Recent[0].FailedAt == nil) ||
			!tc.wantFailed && (st.Failed != 0 || st.Pending != 1 || st.Retrying != 1) {
			t.Errorf("%d: %+v", tc.status, st.OutboxStats)
		}
		if want := fmt.Sprintf("webhook: HTTP %d from the receiver", tc.status); st.LastError != want {
			t.Errorf("%d: last error %q", tc.status, st.LastError)
		}
		ts.Close()
	}
}

// The sender delivers as soon as a lead is saved, without waiting for
// its poll.
func TestRunDeliversOnSave(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	rc := &receiver{}
	ts := httptest.NewServer(rc)
	defer ts.Close()
	store := db.NewTestSQLite(t)
	n := New(store, Config{BaseURL: testBase, SMTP: smtpTo(fake), To: []string{"owner@example.test"}, Webhook: NewWebhook(ts.URL, testSecret)}, quiet)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { n.Run(ctx); close(done) }()
	time.Sleep(50 * time.Millisecond) // the sender is asleep
	if err := n.SaveLead(context.Background(), testLead("lead-5")); err != nil {
		t.Fatal(err)
	}
	if m := fake.WaitMessages(1, 5*time.Second); len(m) != 1 {
		t.Fatal("no email within 5 s of the save")
	}
	for end := time.Now().Add(5 * time.Second); rc.count() == 0 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if rc.count() != 1 {
		t.Fatal("no webhook within 5 s of the save")
	}
	cancel()
	<-done
}

// Neither channel configured: a lead is stored with no outbox rows.
func TestNoChannelsNoRows(t *testing.T) {
	store := db.NewTestSQLite(t)
	n, _ := newNotifier(t, store, Config{}, nil)
	if err := n.SaveLead(context.Background(), testLead("lead-6")); err != nil {
		t.Fatal(err)
	}
	if rows := outbox(t, store); len(rows) != 0 {
		t.Errorf("%d rows", len(rows))
	}
	if _, err := store.GetLead(context.Background(), "lead-6"); err != nil {
		t.Error(err)
	}
}

// The SMTP password, the webhook secret and the webhook's address (which
// may carry a token) reach neither the log nor the stored errors, through
// a refused login and an unreachable webhook.
func TestSecretsStayOutOfLogs(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: "another-password"})
	closed := httptest.NewServer(http.NotFoundHandler())
	hook := closed.URL + "/hooks/catch/TOKEN-do-not-log-5521"
	closed.Close()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil)) // no redaction: nothing to redact
	store := db.NewTestSQLite(t)
	n, clk := newNotifier(t, store, Config{SMTP: smtpTo(fake), To: []string{"owner@example.test"}, Webhook: NewWebhook(hook, testSecret)}, log)
	ctx := context.Background()
	n.SaveLead(ctx, testLead("lead-7"))
	for i := 0; i < 4; i++ {
		n.DeliverDue(ctx)
		clk.add(2 * time.Hour)
	}
	rows := outbox(t, store)
	stored := ""
	for _, r := range rows {
		stored += r.LastError + "\n"
	}
	out := buf.String()
	if !strings.Contains(out, "535") || !strings.Contains(out, "lead notification failed") {
		t.Fatalf("the failures were not logged:\n%s", out)
	}
	for _, secret := range []string{testPassword, "another-password", testSecret, "TOKEN-do-not-log-5521"} {
		if strings.Contains(out, secret) || strings.Contains(stored, secret) {
			t.Errorf("%q leaked:\n%s\n%s", secret, out, stored)
		}
	}
	// SMTP 535 is permanent: given up after PermanentAttempts.
	st, _ := n.Status(ctx, 10)
	if st.Failed != 1 {
		t.Errorf("failed %d, want the email row given up", st.Failed)
	}
}

// A temporary SMTP failure (451) is retried, then delivered.
func TestEmailTemporaryFailureRetried(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword, FailData: 2})
	store := db.NewTestSQLite(t)
	n, clk := newNotifier(t, store, Config{SMTP: smtpTo(fake), To: []string{"owner@example.test"}}, nil)
	ctx := context.Background()
	n.SaveLead(ctx, testLead("lead-8"))
	for i := 0; i < 3; i++ {
		n.DeliverDue(ctx)
		clk.add(2 * time.Hour)
	}
	if len(fake.Messages()) != 1 {
		t.Fatalf("%d messages", len(fake.Messages()))
	}
	rows := outbox(t, store)
	if rows[0].DeliveredAt == nil || rows[0].Attempts != 3 || rows[0].FailedAt != nil {
		t.Errorf("row %+v", rows[0])
	}
}

func TestFromConfig(t *testing.T) {
	load := func(env map[string]string) *config.Config {
		t.Helper()
		env["BASE_URL"] = testBase
		c, err := config.LoadFrom(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, tc := range []struct {
		env  map[string]string
		from string
		port string
	}{
		{map[string]string{"SMTP_URL": "smtp://leads%40example.test:p%40ss@mail.example.test", "LEAD_NOTIFY_TO": "a@example.test"}, "leads@example.test", "587"},
		{map[string]string{"SMTP_URL": "smtps://apikey:x@mail.example.test", "LEAD_NOTIFY_TO": "a@example.test"}, "noreply@www.example-restoration.test", "465"},
		{map[string]string{"SMTP_URL": "smtp://mail.example.test:2525", "LEAD_NOTIFY_TO": "a@example.test, b@example.test", "SMTP_FROM": "Leads <x@example.test>"}, "x@example.test", "2525"},
	} {
		c, err := FromConfig(load(tc.env))
		if err != nil {
			t.Fatal(err)
		}
		if c.From.Address != tc.from || c.SMTP.Port != tc.port || c.Webhook != nil {
			t.Errorf("%v: from %q port %q", tc.env["SMTP_URL"], c.From.Address, c.SMTP.Port)
		}
		if tc.port == "587" && (c.SMTP.User != "leads@example.test" || c.SMTP.Password != "p@ss") {
			t.Errorf("credentials %q %q", c.SMTP.User, c.SMTP.Password)
		}
	}
	c, _ := FromConfig(load(map[string]string{}))
	if c.SMTP != nil || c.Webhook != nil {
		t.Error("channels on without configuration")
	}
}
