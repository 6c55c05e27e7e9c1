package notify

import (
	"bytes"
	"context"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
)

func reviewNotifier(t *testing.T, store *db.Store, fake *notifytest.Server, sms *notifytest.Twilio, placeID string) (*Notifier, *clock) {
	t.Helper()
	cfg := Config{SMTP: smtpTo(fake), From: &mail.Address{Name: "Avatar website", Address: testUser},
		Review: &Review{BusinessName: "Avatar Restoration", ReplyTo: testBusiness, PlaceID: placeID}}
	if sms != nil {
		cfg.SMS = twilioTo(sms)
	}
	return newNotifier(t, store, cfg, nil)
}

// complete stores l and marks it completed at now.
func complete(t *testing.T, store *db.Store, l db.Lead, now time.Time) {
	t.Helper()
	ctx := context.Background()
	if err := store.CreateLead(ctx, l); err != nil {
		t.Fatal(err)
	}
	if _, err := store.ChangeLeadStatus(ctx, l.ID, "completed", db.SystemActor, now); err != nil {
		t.Fatal(err)
	}
}

func bodyOf(t *testing.T, m notifytest.Message) (mail.Header, string) {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		t.Fatal(err)
	}
	return msg.Header, string(b)
}

var feedbackRE = regexp.MustCompile(testBase + `/feedback/([A-Za-z0-9_-]{43})`)

// After the owner's delay the homeowner gets one email and one text,
// each with the Google review link, a feedback link whose token is
// stored only as a hash, and the opt-out; the email carries the
// List-Unsubscribe headers. Sending again sends nothing.
func TestReviewRequestSent(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	tw := notifytest.NewTwilio(t, testSID, testToken)
	store := db.NewTestSQLite(t)
	n, clk := reviewNotifier(t, store, fake, tw, "ChIJ-place")
	ctx := context.Background()
	complete(t, store, testLead("lead-r1"), clk.now())

	if q, err := n.QueueReviews(ctx); err != nil || q != 0 {
		t.Fatalf("before the delay: %d %v", q, err)
	}
	clk.add(2 * time.Hour)
	if q, err := n.QueueReviews(ctx); err != nil || q != 1 {
		t.Fatalf("after the default two hours: %d %v", q, err)
	}
	if d, err := n.DeliverDue(ctx); err != nil || d != 2 {
		t.Fatalf("delivered %d %v", d, err)
	}
	n.QueueReviews(ctx)
	n.DeliverDue(ctx)
	ms, texts := fake.Messages(), tw.Messages()
	if len(ms) != 1 || len(texts) != 1 {
		t.Fatalf("%d emails, %d texts; want one of each", len(ms), len(texts))
	}
	if ms[0].To[0] != "maria@example.com" || texts[0].To != "+17705550199" {
		t.Errorf("to %v and %s", ms[0].To, texts[0].To)
	}
	h, body := bodyOf(t, ms[0])
	google := "https://search.google.com/local/writereview?placeid=ChIJ-place"
	if !strings.Contains(body, google) || !strings.Contains(texts[0].Body, google) {
		t.Errorf("no Google link:\n%s\n%s", body, texts[0].Body)
	}
	m := feedbackRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no feedback link:\n%s", body)
	}
	if !strings.Contains(body, m[0]+"/stop") || h.Get("List-Unsubscribe") != "<"+m[0]+"/stop>" || h.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Errorf("opt-out: header %q, body:\n%s", h.Get("List-Unsubscribe"), body)
	}
	if !strings.HasPrefix(body, "Hello Maria,") {
		t.Errorf("greeting: %q", body[:20])
	}
	r, err := store.ReviewByToken(ctx, ReviewTokenHash(m[1]), clk.now().Add(-ReviewTokenTTL))
	if err != nil || r.LeadID != "lead-r1" {
		t.Fatalf("token: %+v %v", r, err)
	}
	rows, err := store.SQL().QueryContext(ctx, `SELECT token_hash FROM review_tokens`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var h string
		rows.Scan(&h)
		if strings.Contains(h, m[1]) {
			t.Error("the token itself is stored")
		}
	}
	rows.Close()
	evs, _ := store.LeadTimeline(ctx, "lead-r1")
	var got []string
	for _, e := range evs {
		if e.Channel == db.OutboxReview || e.Channel == db.OutboxReviewSMS {
			got = append(got, e.Channel+":"+e.To)
		}
	}
	if strings.Join(got, ",") != "review:scheduled,review:sent,review_sms:sent" && strings.Join(got, ",") != "review:scheduled,review_sms:sent,review:sent" {
		t.Errorf("timeline %v", got)
	}
}

// Without a place id the owner's pasted link is used; without either the
// message leaves that link out and still carries the feedback page. Every
// customer gets the same words: no gate.
func TestReviewLinkFallbacks(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	store := db.NewTestSQLite(t)
	n, clk := reviewNotifier(t, store, fake, nil, "")
	ctx := context.Background()
	complete(t, store, testLead("lead-r1"), clk.now())
	clk.add(3 * time.Hour)
	n.QueueReviews(ctx)
	n.DeliverDue(ctx)
	if err := store.SetSettings(ctx, map[string]string{db.ReviewLinkSetting: "https://g.page/r/example/review"}, clk.now()); err != nil {
		t.Fatal(err)
	}
	l := testLead("lead-r2")
	l.Email = "other@example.com"
	complete(t, store, l, clk.now())
	clk.add(3 * time.Hour)
	n.QueueReviews(ctx)
	n.DeliverDue(ctx)
	ms := fake.Messages()
	if len(ms) != 2 {
		t.Fatalf("%d emails", len(ms))
	}
	_, first := bodyOf(t, ms[0])
	_, second := bodyOf(t, ms[1])
	if strings.Contains(first, "Google") || !feedbackRE.MatchString(first) {
		t.Errorf("no link configured:\n%s", first)
	}
	if !strings.Contains(second, "Review us on Google:\r\nhttps://g.page/r/example/review") {
		t.Errorf("owner's link:\n%s", second)
	}
	strip := func(s string) string {
		return feedbackRE.ReplaceAllString(strings.ReplaceAll(s, "Review us on Google:\r\nhttps://g.page/r/example/review\r\n\r\n", ""), "")
	}
	if strip(first) != strip(second) {
		t.Errorf("two customers read different words:\n%s\n---\n%s", first, second)
	}
	for _, bad := range []string{"http://g.page/x", "javascript:alert(1)", "https://x.test/a b", "https://user@x.test/"} {
		if ValidReviewLink(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A homeowner who opted out is not asked, on this lead or a later one; a
// lead with no contact is recorded as not askable once, not retried.
func TestReviewOptOutAndNotAskable(t *testing.T) {
	fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: testPassword})
	store := db.NewTestSQLite(t)
	n, clk := reviewNotifier(t, store, fake, nil, "p")
	ctx := context.Background()
	if err := store.OptOut(ctx, []string{"maria@example.com"}, clk.now()); err != nil {
		t.Fatal(err)
	}
	complete(t, store, testLead("lead-r1"), clk.now())
	none := testLead("lead-r2")
	none.Email, none.Phone = "", ""
	complete(t, store, none, clk.now())
	clk.add(3 * time.Hour)
	for range 3 {
		n.QueueReviews(ctx)
		n.DeliverDue(ctx)
	}
	if len(fake.Messages()) != 0 {
		t.Fatalf("%d emails; want none", len(fake.Messages()))
	}
	for _, id := range []string{"lead-r1", "lead-r2"} {
		r, err := store.ReviewRequestOf(ctx, id)
		if err != nil || r.State != db.ReviewStateNotAskable {
			t.Errorf("%s: %+v %v", id, r, err)
		}
	}
}

// A testimonial keeps its words and line breaks (two at most in a row)
// and loses control and invisible formatting characters; over 1,000
// characters, or no words at all, is refused with the homeowner's
// message.
func TestCleanTestimonial(t *testing.T) {
	for in, want := range map[string]string{
		"  Great crew.\r\n\r\n\r\n\r\nFast.  ":    "Great crew.\n\nFast.",
		"Great\u202e crew\u200b\x00\x1b[31m.":     "Great crew[31m.",
		"Tab\there, \u00a0spaces kept":            "Tab here, \u00a0spaces kept",
		"<script>alert(1)</script> stays as text": "<script>alert(1)</script> stays as text",
	} {
		if got, msg := CleanTestimonial(in); got != want || msg != "" {
			t.Errorf("%q: %q %q; want %q", in, got, msg, want)
		}
	}
	if _, msg := CleanTestimonial(strings.Repeat("é", MaxTestimonial)); msg != "" {
		t.Errorf("1,000 characters: %q", msg)
	}
	if _, msg := CleanTestimonial(strings.Repeat("é", MaxTestimonial+1)); msg != TestimonialTooLong {
		t.Errorf("1,001 characters: %q", msg)
	}
	if _, msg := CleanTestimonial(" \u200b\r\n\t"); msg != TestimonialEmpty {
		t.Errorf("no words: %q", msg)
	}
	if PublicFirstName("  Maria Luisa ") != "Maria" || PublicFirstName("") != "" {
		t.Error("first name")
	}
}
