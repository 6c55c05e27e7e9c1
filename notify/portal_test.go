package notify

import (
	"context"
	"errors"
	"net/mail"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
	"github.com/atlanta-restoration/site/portal"
)

var homeRE = regexp.MustCompile(testBase + `/my/([A-Za-z0-9_-]{22})`)

// Told, not asked: a status change and a progress step each send the
// homeowner an email and a text, each with its own working link to the
// job's page and the opt-out; a status with nothing to tell sends
// nothing; a key told twice is one message; after the opt-out nothing
// more goes.
func TestHomeownerTold(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	tw := notifytest.NewTwilio(t, testSID, testToken)
	store := db.NewTestSQLite(t)
	cfg := Config{BaseURL: testBase, SMTP: smtpTo(fake), From: &mail.Address{Name: "Avatar website", Address: testUser}, SMS: twilioTo(tw),
		Ack: &Ack{BusinessName: "Avatar Restoration", ReplyTo: testBusiness, DefaultPhone: "+16785550100"}}
	n, clk := newNotifier(t, store, cfg, nil)
	store.OnStatusChangeTx(n.StatusChanged)
	ctx := context.Background()
	l := testLead("lead-t1")
	if err := store.CreateLead(ctx, l); err != nil {
		t.Fatal(err)
	}
	if _, err := store.ChangeLeadStatus(ctx, l.ID, "scheduled", db.Actor{UserID: "", Name: "Owner"}, clk.now()); err != nil {
		t.Fatal(err)
	}
	if _, err := store.RecordProgress(ctx, l.ID, db.ProgressOnTheWay, db.Actor{Name: "Owner"}, clk.now(), n.ProgressRecorded); err != nil {
		t.Fatal(err)
	}
	if _, err := store.ChangeLeadStatus(ctx, l.ID, "new", db.SystemActor, clk.now()); err != nil {
		t.Fatal(err)
	}
	if err := store.Transact(ctx, func(tx *sqlx.Tx) error {
		if err := n.TellHomeowner(ctx, tx, l.ID, "booking-1", "Your inspection is booked."); err != nil {
			return err
		}
		return n.TellHomeowner(ctx, tx, l.ID, "booking-1", "Your inspection is booked.")
	}); err != nil {
		t.Fatal(err)
	}
	if d, err := n.DeliverDue(ctx); err != nil || d != 6 {
		t.Fatalf("delivered %d %v; want 6 (3 emails, 3 texts)", d, err)
	}
	ms, texts := fake.Messages(), tw.Messages()
	if len(ms) != 3 || len(texts) != 3 {
		t.Fatalf("%d emails, %d texts", len(ms), len(texts))
	}
	tokens := map[string]bool{}
	var bodies []string
	for _, m := range ms {
		h, body := bodyOf(t, m)
		bodies = append(bodies, body)
		link := homeRE.FindStringSubmatch(body)
		if link == nil || !strings.Contains(body, link[0]+"/stop") || h.Get("List-Unsubscribe") != "<"+link[0]+"/stop>" {
			t.Fatalf("no link or opt-out:\n%s", body)
		}
		tokens[link[1]] = true
		if got, err := store.LeadLinkByHash(ctx, portal.Hash(link[1]), clk.now()); err != nil || got.LeadID != l.ID || got.Kind != db.LinkHomeowner {
			t.Errorf("link: %+v %v", got, err)
		}
	}
	for _, tx := range texts {
		link := homeRE.FindStringSubmatch(tx.Body)
		if link == nil || tx.To != "+17705550199" {
			t.Fatalf("text: %+v", tx)
		}
		tokens[link[1]] = true
	}
	if len(tokens) != 6 {
		t.Errorf("%d distinct tokens for 6 messages", len(tokens))
	}
	all := strings.Join(bodies, "\n")
	for _, want := range []string{StatusWhat("scheduled"), ProgressWhat(db.ProgressOnTheWay), "Your inspection is booked."} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in the emails", want)
		}
	}
	// The opt-out: nothing more goes, and what waits is given up.
	if err := store.OptOut(ctx, []string{l.Email, "+17705550199"}, clk.now()); err != nil {
		t.Fatal(err)
	}
	if _, err := store.ChangeLeadStatus(ctx, l.ID, "completed", db.SystemActor, clk.now()); err != nil {
		t.Fatal(err)
	}
	n.DeliverDue(ctx)
	if len(fake.Messages()) != 3 || len(tw.Messages()) != 3 {
		t.Errorf("sent after the opt-out: %d emails, %d texts", len(fake.Messages()), len(tw.Messages()))
	}
}

// The acknowledgement carries a working link to the job's page and says
// how to stop the updates; with SMS configured, a text carries one too.
func TestAckCarriesHomeLink(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	tw := notifytest.NewTwilio(t, testSID, testToken)
	store := db.NewTestSQLite(t)
	cfg := Config{BaseURL: testBase, SMTP: smtpTo(fake), From: &mail.Address{Name: "Avatar website", Address: testUser}, SMS: twilioTo(tw),
		Ack: &Ack{BusinessName: "Avatar Restoration", ReplyTo: testBusiness, DefaultPhone: "+16785550100"}}
	n, clk := newNotifier(t, store, cfg, nil)
	ctx := context.Background()
	if err := n.SaveLead(ctx, testLead("lead-a1")); err != nil {
		t.Fatal(err)
	}
	n.DeliverDue(ctx)
	ms := fake.Messages()
	if len(ms) != 1 {
		t.Fatalf("%d emails", len(ms))
	}
	var homeTexts []string
	for _, m := range tw.Messages() {
		if m.To == "+17705550199" {
			homeTexts = append(homeTexts, m.Body)
		}
	}
	if len(homeTexts) != 1 || !strings.Contains(homeTexts[0], "We received your request.") || homeRE.FindString(homeTexts[0]) == "" {
		t.Errorf("the acknowledgement's text: %q", homeTexts)
	}
	_, body := bodyOf(t, ms[0])
	link := homeRE.FindStringSubmatch(body)
	if link == nil || !strings.Contains(body, link[0]+"/stop") || strings.Contains(body, "we will not email you again") {
		t.Fatalf("ack:\n%s", body)
	}
	if got, err := store.LeadLinkByHash(ctx, portal.Hash(link[1]), clk.now()); err != nil || got.LeadID != "lead-a1" {
		t.Errorf("link: %+v %v", got, err)
	}
}

// A booked, moved and cancelled inspection visit each reach the
// homeowner with the visit's window in Atlanta's time (the booking
// room's Tell); a booking that fails to tell is not made.
func TestBookingTold(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	store := db.NewTestSQLite(t)
	cfg := Config{BaseURL: testBase, SMTP: smtpTo(fake), From: &mail.Address{Name: "Avatar website", Address: testUser},
		Ack: &Ack{BusinessName: "Avatar Restoration", ReplyTo: testBusiness, DefaultPhone: "+16785550100"}}
	n, clk := newNotifier(t, store, cfg, nil)
	ctx := context.Background()
	l := testLead("lead-b1")
	if err := store.CreateLead(ctx, l); err != nil {
		t.Fatal(err)
	}
	// Tuesday, December 1, 2026, 9:00 to 11:00 in Atlanta (UTC-5).
	start := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
	b, err := store.BookVisit(ctx, l.ID, start, start.Add(2*time.Hour), 1, db.SystemActor, clk.now(), n.BookingChanged)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.MoveVisit(ctx, b.ID, start.Add(24*time.Hour), start.Add(26*time.Hour), 1, db.SystemActor, clk.now(), n.BookingChanged); err != nil {
		t.Fatal(err)
	}
	if _, err := store.CancelVisit(ctx, b.ID, db.SystemActor, clk.now(), n.BookingChanged); err != nil {
		t.Fatal(err)
	}
	if d, err := n.DeliverDue(ctx); err != nil || d != 3 {
		t.Fatalf("delivered %d %v; want 3", d, err)
	}
	var all []string
	for _, m := range fake.Messages() {
		_, body := bodyOf(t, m)
		all = append(all, body)
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{
		"Your inspection visit is booked for Tuesday, December 1, 9:00 AM to 11:00 AM.",
		"Your inspection visit has moved to Wednesday, December 2, 9:00 AM to 11:00 AM.",
		"Your inspection visit of Wednesday, December 2, 9:00 AM to 11:00 AM is cancelled.",
	} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	// A tell that fails undoes the booking: nothing is booked that the
	// homeowner was not told of.
	failing := func(ctx context.Context, tx *sqlx.Tx, b db.Booking, what string) error {
		return errors.New("outbox down")
	}
	if _, err := store.BookVisit(ctx, l.ID, start, start.Add(2*time.Hour), 1, db.SystemActor, clk.now(), failing); err == nil {
		t.Fatal("booked although the homeowner could not be told")
	}
	if _, err := store.LeadBooking(ctx, l.ID); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("a booking stayed: %v", err)
	}
}
