package notify

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
)

const (
	testSID   = "AC0123456789abcdef0123456789abcdef"
	testToken = "twilio-token-do-not-log-8841"
)

func twilioTo(fake *notifytest.Twilio, to ...string) *Twilio {
	return NewTwilio(config.SMS{Provider: "twilio", AccountSID: testSID, AuthToken: testToken, From: "+17705550100", APIBase: fake.URL, To: to})
}

// Every new lead is texted to each of the owner's numbers, through the
// Messages API with basic authentication.
func TestSMSDelivered(t *testing.T) {
	fake := notifytest.NewTwilio(t, testSID, testToken)
	store := db.NewTestSQLite(t)
	n, _ := newNotifier(t, store, Config{SMS: twilioTo(fake, "+17705550111", "+16785550122")}, nil)
	ctx := context.Background()
	if err := n.SaveLead(ctx, testLead("lead-s1")); err != nil {
		t.Fatal(err)
	}
	if got, err := n.DeliverDue(ctx); err != nil || got != 2 {
		t.Fatalf("delivered %d, %v", got, err)
	}
	body := "EMERGENCY lead: Maria Gonzalez, Water Damage, Marietta. Call (770) 555-0199. " + testBase + "/admin/leads?lead=lead-s1"
	got := fake.Messages()
	want := []notifytest.SMS{{To: "+17705550111", From: "+17705550100", Body: body}, {To: "+16785550122", From: "+17705550100", Body: body}}
	if len(got) == 2 && got[0].To != want[0].To {
		got[0], got[1] = got[1], got[0]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want, +got):\n%s", diff)
	}
	if _, bad := fake.Requests(); bad != 0 {
		t.Errorf("%d requests failed authentication", bad)
	}
	// A replay of the lead texts nobody again.
	n.SaveLead(ctx, testLead("lead-s1"))
	if got, _ := n.DeliverDue(ctx); got != 0 {
		t.Errorf("a replay sent %d more", got)
	}
	// A Messaging Service sends instead of a number.
	tw := twilioTo(fake, "+17705550111")
	tw.From = "MG0123456789abcdef0123456789abcdef"
	if err := tw.Send(ctx, "+17705550111", "x"); err != nil {
		t.Fatal(err)
	}
	if m := fake.Messages(); m[2].MessagingServiceSid != tw.From || m[2].From != "" {
		t.Errorf("messaging service: %+v", m[2])
	}
}

// Twilio answering 429: the text is tried again later (no sooner than
// its Retry-After), and sent once.
func TestSMSTooManyRequestsRetried(t *testing.T) {
	fake := notifytest.NewTwilio(t, testSID, testToken)
	fake.Answer(notifytest.TwilioAnswer{Status: 429, Code: 20429, Message: "Too Many Requests", RetryAfter: "90"})
	store := db.NewTestSQLite(t)
	n, clk := newNotifier(t, store, Config{SMS: twilioTo(fake, "+17705550111")}, nil)
	ctx := context.Background()
	n.SaveLead(ctx, testLead("lead-s2"))
	if got, _ := n.DeliverDue(ctx); got != 0 {
		t.Fatalf("delivered %d through a 429", got)
	}
	rows := outbox(t, store)
	if len(rows) != 1 || rows[0].LastError != "SMS: HTTP 429 from Twilio" || rows[0].FailedAt != nil {
		t.Fatalf("rows %+v", rows)
	}
	if wait := rows[0].NextAttemptAt.Sub(clk.now()); wait < 90*time.Second {
		t.Errorf("retry in %v, sooner than Twilio's 90 s", wait)
	}
	clk.add(30 * time.Second)
	if got, _ := n.DeliverDue(ctx); got != 0 {
		t.Error("retried before Retry-After")
	}
	clk.add(2 * time.Minute)
	if got, _ := n.DeliverDue(ctx); got != 1 {
		t.Fatalf("not delivered after the wait")
	}
	if m := fake.Messages(); len(m) != 1 {
		t.Errorf("%d messages", len(m))
	}
}

// A 4xx Twilio will keep answering (21211: not a valid number) gives the
// row up after PermanentAttempts, shown as its kind.
func TestSMSPermanentError(t *testing.T) {
	fake := notifytest.NewTwilio(t, testSID, testToken)
	bad := notifytest.TwilioAnswer{Status: 400, Code: 21211, Message: "The 'To' number +17705550111 is not a valid phone number."}
	fake.Answer(bad, bad, bad, bad)
	store := db.NewTestSQLite(t)
	n, clk := newNotifier(t, store, Config{SMS: twilioTo(fake, "+17705550111")}, nil)
	ctx := context.Background()
	n.SaveLead(ctx, testLead("lead-s3"))
	for range PermanentAttempts {
		n.DeliverDue(ctx)
		clk.add(2 * time.Hour)
	}
	st, _ := n.Status(ctx, 10)
	if st.Failed != 1 || st.Pending != 0 || st.LastError != "SMS: HTTP 400 from Twilio" || !st.SMS {
		t.Errorf("status %+v, sms %v", st.OutboxStats, st.SMS)
	}
	if all, _ := fake.Requests(); all != PermanentAttempts {
		t.Errorf("%d requests, want %d", all, PermanentAttempts)
	}
}

// The auth token reaches neither an error, nor the log, nor the
// dashboard: not through a refused login, an answer that quotes it, or an
// unreachable API.
func TestSMSTokenNeverShown(t *testing.T) {
	echo := notifytest.NewTwilio(t, testSID, testToken)
	echo.Answer(notifytest.TwilioAnswer{Status: 400, Code: 21211, Message: "invalid request with token " + testToken})
	wrong := notifytest.NewTwilio(t, testSID, "the-token-twilio-expects-1234")
	gone := notifytest.NewTwilio(t, testSID, testToken)
	goneURL := gone.URL
	gone.Close() // its port now refuses connections
	for _, tc := range []struct {
		name string
		base string
		want string
	}{
		{"answer quoting the token", echo.URL, "SMS: HTTP 400 from Twilio"},
		{"token refused", wrong.URL, "SMS: HTTP 401 from Twilio"},
		{"unreachable", goneURL, "SMS: connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(slog.NewTextHandler(&buf, nil)) // no redaction: nothing may need it
			store := db.NewTestSQLite(t)
			tw := NewTwilio(config.SMS{Provider: "twilio", AccountSID: testSID, AuthToken: testToken, From: "+17705550100", APIBase: tc.base, To: []string{"+17705550111"}})
			n, _ := newNotifier(t, store, Config{SMS: tw}, log)
			ctx := context.Background()
			n.SaveLead(ctx, testLead("lead-s4"))
			n.DeliverDue(ctx)
			err := tw.Send(ctx, "+17705550111", "x")
			st, _ := n.Status(ctx, 10)
			if st.LastError != tc.want {
				t.Errorf("dashboard %q, want %q", st.LastError, tc.want)
			}
			if !strings.Contains(buf.String(), "lead notification failed") {
				t.Errorf("the failure was not logged:\n%s", buf.String())
			}
			for what, text := range map[string]string{"error": errString(err), "log": buf.String(), "dashboard": st.LastError} {
				if strings.Contains(text, testToken) || strings.Contains(text, "do-not-log") {
					t.Errorf("the auth token reached the %s: %s", what, text)
				}
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
