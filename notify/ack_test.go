package notify

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
)

const (
	testOwner    = "owner@example-restoration.test"
	testBusiness = "office@example-restoration.test"
)

func ackNotifier(t *testing.T, store *db.Store, fake *notifytest.Server, ack *Ack) (*Notifier, *clock) {
	t.Helper()
	if ack == nil {
		ack = &Ack{BusinessName: "Avatar Restoration & Construction", ReplyTo: testBusiness, DefaultPhone: "(770) 555-0134"}
	}
	return newNotifier(t, store, Config{SMTP: smtpTo(fake), From: &mail.Address{Name: "Avatar website", Address: testUser},
		To: []string{testOwner}, Ack: ack}, nil)
}

// acks are the messages to anyone but the owner.
func acks(fake *notifytest.Server) []notifytest.Message {
	var out []notifytest.Message
	for _, m := range fake.Messages() {
		if len(m.To) != 1 || m.To[0] != testOwner {
			out = append(out, m)
		}
	}
	return out
}

// The homeowner who left an email hears back at once: a plain-text
// email, from the site, replying to the business, that says what
// happens next with the spec's response-time claim and the 24/7 phone as
// a tel: link. Sent once per lead, a replay included.
func TestAckSentOnce(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	store := db.NewTestSQLite(t)
	n, _ := ackNotifier(t, store, fake, nil)
	ctx := context.Background()
	if err := n.SaveLead(ctx, testLead("lead-a1")); err != nil {
		t.Fatal(err)
	}
	if got, err := n.DeliverDue(ctx); err != nil || got != 2 {
		t.Fatalf("delivered %d, %v", got, err)
	}
	n.SaveLead(ctx, testLead("lead-a1")) // a spool replay
	n.DeliverDue(ctx)
	as := acks(fake)
	if len(as) != 1 || len(fake.Messages()) != 2 {
		t.Fatalf("%d acknowledgements among %d messages", len(as), len(fake.Messages()))
	}
	m := as[0]
	if m.To[0] != "maria@example.com" || m.From != testUser || !m.TLS {
		t.Errorf("envelope from %q to %v, TLS %v", m.From, m.To, m.TLS)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	h := msg.Header
	subject, _ := new(mime.WordDecoder).DecodeHeader(h.Get("Subject"))
	if subject != "We received your request - Avatar Restoration & Construction" {
		t.Errorf("subject %q", subject)
	}
	if ct := h.Get("Content-Type"); ct != "text/plain; charset=UTF-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if rt, err := mail.ParseAddress(h.Get("Reply-To")); err != nil || rt.Address != testBusiness {
		t.Errorf("Reply-To %q", h.Get("Reply-To"))
	}
	if h.Get("Auto-Submitted") != "auto-generated" || h.Get("To") != "<maria@example.com>" || !strings.HasPrefix(h.Get("Message-Id"), "<ack-") {
		t.Errorf("headers %v", h)
	}
	body, _ := io.ReadAll(quotedprintable.NewReader(msg.Body))
	for _, want := range []string{AckResponseClaim, "(770) 555-0134 <tel:+17705550134>", "What happens next", "lead-a1", "you told us it is an emergency"} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	// Nothing the visitor typed is carried back: a form that mails any
	// address must not carry a stranger's words.
	for _, typed := range []string{"Maria", "Gonzalez", "Marietta", "Roswell", "State Farm", "Water heater", "555-0199"} {
		if bytes.Contains(body, []byte(typed)) {
			t.Errorf("the acknowledgement repeats %q", typed)
		}
	}
	tl, _ := store.LeadTimeline(ctx, "lead-a1")
	channels := map[string]bool{}
	for _, e := range tl {
		channels[e.Channel] = true
	}
	if !channels[db.OutboxAck] || !channels[db.OutboxEmail] {
		t.Errorf("timeline %+v", tl)
	}
}

// No acknowledgement to an address that failed validation: no row is
// written, and a row that names one anyway is given up unsent.
func TestAckNeverToInvalidAddress(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	store := db.NewTestSQLite(t)
	n, clk := ackNotifier(t, store, fake, nil)
	ctx := context.Background()
	for i, e := range []string{"", "maria", "maria@localhost", "Maria <maria@example.com>", "maria@example.com\r\nBcc: x@evil.test", "a@example.com, b@example.com"} {
		l := testLead("lead-bad-" + string(rune('a'+i)))
		l.Email = e
		if err := n.SaveLead(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range outbox(t, store) {
		if r.Kind == db.OutboxAck {
			t.Errorf("an acknowledgement row for lead %s", r.LeadID)
		}
	}
	// A row naming a bad address (written by anything else) is not sent.
	now := clk.now()
	l := testLead("lead-forged")
	if _, err := store.CreateLeadWithOutbox(ctx, l, []db.OutboxRow{{Kind: db.OutboxAck, Target: "victim@example.com\r\nBcc: x@evil.test",
		Payload: `{"event":"lead.created","lead":{"id":"lead-forged"}}`, NextAttemptAt: now, CreatedAt: now}}); err != nil {
		t.Fatal(err)
	}
	n.DeliverDue(ctx)
	if as := acks(fake); len(as) != 0 {
		t.Errorf("%d acknowledgements sent", len(as))
	}
	st, _ := n.Status(ctx, 50)
	if st.LastError != "acknowledgement: the visitor's address is not valid: not sent" {
		t.Errorf("last error %q", st.LastError)
	}
	for _, r := range st.Recent {
		if r.Kind == db.OutboxAck && (r.FailedAt == nil || r.Attempts != 1) {
			t.Errorf("forged row %+v, want given up at once", r)
		}
	}
}

// The switch: the lead_ack setting turns the acknowledgement off, and a
// function the wiring plugs in (System Settings) decides instead. A
// switch that cannot be read keeps the lead out of the database (the
// intake spools it and replays it later), rather than guess.
func TestAckSwitch(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	ctx := context.Background()
	countAcks := func(store *db.Store) int {
		n := 0
		for _, r := range outbox(t, store) {
			if r.Kind == db.OutboxAck {
				n++
			}
		}
		return n
	}
	store := db.NewTestSQLite(t)
	n, _ := ackNotifier(t, store, fake, nil)
	if err := store.SetSettings(ctx, map[string]string{AckSetting: "false"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	n.SaveLead(ctx, testLead("lead-off"))
	if c := countAcks(store); c != 0 {
		t.Errorf("switched off: %d rows", c)
	}
	store.SetSettings(ctx, map[string]string{AckSetting: "true"}, time.Now())
	n.SaveLead(ctx, testLead("lead-on"))
	if c := countAcks(store); c != 1 {
		t.Errorf("switched on: %d rows", c)
	}

	store2 := db.NewTestSQLite(t)
	on := false
	n2, _ := ackNotifier(t, store2, fake, &Ack{BusinessName: "B", DefaultPhone: "(770) 555-0134",
		Enabled: func(context.Context) (bool, error) { return on, nil }})
	n2.SaveLead(ctx, testLead("lead-f1"))
	on = true
	n2.SaveLead(ctx, testLead("lead-f2"))
	if c := countAcks(store2); c != 1 {
		t.Errorf("plugged-in switch: %d rows, want 1", c)
	}
	broken := errors.New("settings unreadable")
	n3, _ := ackNotifier(t, store2, fake, &Ack{Enabled: func(context.Context) (bool, error) { return false, broken }})
	if err := n3.SaveLead(ctx, testLead("lead-f3")); !errors.Is(err, broken) {
		t.Errorf("SaveLead with an unreadable switch: %v", err)
	}
	if _, err := store2.GetLead(ctx, "lead-f3"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("the lead was stored without its decision: %v", err)
	}
}

// The claim the acknowledgement makes is the one the visitor has just
// read on the form's thank-you message, word for word: its first
// sentence, with the response times filled in.
func TestAckClaimIsTheForms(t *testing.T) {
	w := content.DefaultWords()
	thanks := content.FillText(w["form"]["thanks"], w.InsertValues(content.Facts{Phone: "(770) 555-0134"}))
	if !strings.HasPrefix(thanks, AckResponseClaim+" ") {
		t.Errorf("the thank-you message %q does not start with the acknowledgement's claim %q", thanks, AckResponseClaim)
	}
	if got := ResponseClaim(w["times"]["emergency"], w["times"]["general"]); got != AckResponseClaim {
		t.Errorf("the default times give %q", got)
	}
}

// The acknowledgement states the response times the site shows now (the
// owner edits them); times it cannot read give the defaults.
func TestAckClaimFollowsTheSite(t *testing.T) {
	for _, c := range []struct {
		times func(context.Context) (string, string, error)
		want  string
	}{
		{func(context.Context) (string, string, error) { return "45 minutes", "1 hour", nil },
			"Our team will contact you within 45 minutes for emergencies and within 1 hour for general inquiries."},
		{func(context.Context) (string, string, error) { return "", "", errors.New("database down") }, AckResponseClaim},
	} {
		fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
		store := db.NewTestSQLite(t)
		n, _ := ackNotifier(t, store, fake, &Ack{BusinessName: "B", DefaultPhone: "(770) 555-0134", Times: c.times})
		ctx := context.Background()
		n.SaveLead(ctx, testLead("lead-t1"))
		n.DeliverDue(ctx)
		as := acks(fake)
		if len(as) != 1 {
			t.Fatalf("%d acknowledgements", len(as))
		}
		msg, _ := mail.ReadMessage(bytes.NewReader(as[0].Data))
		body, _ := io.ReadAll(quotedprintable.NewReader(msg.Body))
		if !bytes.Contains(body, []byte("- "+c.want+"\r\n")) {
			t.Errorf("acknowledgement does not say %q:\n%s", c.want, body)
		}
	}
}

// The phone the homeowner is told to call comes from the plugged-in
// source (System Settings' emergency phone) when there is one.
func TestAckPhoneFromSettings(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	store := db.NewTestSQLite(t)
	n, _ := ackNotifier(t, store, fake, &Ack{BusinessName: "B", DefaultPhone: "(770) 555-0134",
		Phone: func(context.Context) string { return "678-555-0100" }})
	ctx := context.Background()
	calm := testLead("lead-a2")
	calm.IsEmergency = false
	n.SaveLead(ctx, calm)
	n.DeliverDue(ctx)
	as := acks(fake)
	if len(as) != 1 {
		t.Fatalf("%d acknowledgements", len(as))
	}
	msg, _ := mail.ReadMessage(bytes.NewReader(as[0].Data))
	body, _ := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if !bytes.Contains(body, []byte("(678) 555-0100 <tel:+16785550100>")) || bytes.Contains(body, []byte("555-0134")) ||
		!bytes.Contains(body, []byte("request for a free estimate")) || msg.Header.Get("Reply-To") != "" {
		t.Errorf("acknowledgement:\n%s\n%v", body, msg.Header)
	}
}
