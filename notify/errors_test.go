package notify

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify/notifytest"
)

// hookToken is a secret-looking path segment of the webhook's address.
const hookToken = "TOKEN-do-not-show-8841"

// leaks lists what of an address s shows: a loopback IP, a host name, a
// port, the URL's path or token, a raw network error's words.
func leaks(s string, ports ...string) []string {
	var out []string
	for _, f := range append([]string{"127.0.0.1", "::1", "[::", "localhost", ".invalid", ".test", hookToken, "/hooks", "http://", "https://", "dial ", "tcp", "crm-hook"}, ports...) {
		if f != "" && strings.Contains(s, f) {
			out = append(out, f)
		}
	}
	return out
}

// storedErrors reads outbox.last_error as stored, past the store's own
// reading.
func storedErrors(t *testing.T, store *db.Store) string {
	t.Helper()
	var errs []string
	rows, err := store.SQL().QueryContext(context.Background(), `SELECT last_error FROM outbox`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		rows.Scan(&s)
		errs = append(errs, s)
	}
	return strings.Join(errs, "\n")
}

// Each way a webhook or the mail server can fail is stored and shown as
// its kind only: no IP, host, port, path or token of the configured
// address, in the row, the dashboard's status or its recent rows.
func TestNotificationErrorsNameTheKindOnly(t *testing.T) {
	port := func(u string) string {
		_, p, _ := net.SplitHostPort(strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://"))
		return p
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	badTLS := httptest.NewUnstartedServer(http.NotFoundHandler())
	badTLS.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	badTLS.StartTLS()
	defer badTLS.Close()
	unavailable := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("backend 10.20.30.40:8080 is down"))
	}))
	defer unavailable.Close()
	var v6 string
	if ln, err := net.Listen("tcp", "[::1]:0"); err == nil {
		v6 = "http://[::1]:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		ln.Close()
	}

	for _, c := range []struct {
		name, url, want string
	}{
		{"refused", closedURL, "webhook: connection refused"},
		{"refused, by name", strings.Replace(closedURL, "127.0.0.1", "localhost", 1), "webhook: connection refused"},
		{"refused, IPv6", v6, "webhook: connection refused"},
		{"timeout", "http://" + silent.Addr().String(), "webhook: timed out"},
		{"bad certificate", badTLS.URL, "webhook: TLS certificate not trusted"},
		{"503", unavailable.URL, "webhook: HTTP 503 from the receiver"},
		{"unknown host", "https://crm-hook.invalid:8443", "webhook: DNS lookup failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.url == "" {
				t.Skip("no IPv6 loopback")
			}
			store := db.NewTestSQLite(t)
			hook := NewWebhook(c.url+"/hooks/catch/"+hookToken+"?key="+hookToken, testSecret)
			// Only the silent receiver should ever reach the timeout; the
			// others get a long one, so a loaded machine's slow TLS
			// handshake is not mistaken for a timeout.
			hook.Client.Timeout = 10 * time.Second
			if c.name == "timeout" {
				hook.Client.Timeout = 300 * time.Millisecond
			}
			n, _ := newNotifier(t, store, Config{Webhook: hook}, nil)
			ctx := context.Background()
			if err := n.SaveLead(ctx, testLead("lead-e")); err != nil {
				t.Fatal(err)
			}
			n.DeliverDue(ctx)
			st, err := n.Status(ctx, 10)
			if err != nil {
				t.Fatal(err)
			}
			if st.LastError != c.want || len(st.Recent) != 1 || st.Recent[0].LastError != c.want {
				t.Errorf("last error %q, recent %+v; want %q", st.LastError, st.Recent, c.want)
			}
			stored := storedErrors(t, store)
			if stored != c.want {
				t.Errorf("stored %q, want %q", stored, c.want)
			}
			for _, s := range []string{st.LastError, stored} {
				if l := leaks(s, port(c.url), "10.20.30.40"); len(l) > 0 {
					t.Errorf("%q shows %v", s, l)
				}
			}
		})
	}

	t.Run("SMTP refuses the password", func(t *testing.T) {
		fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: testUser, Password: "another-password"})
		store := db.NewTestSQLite(t)
		n, _ := newNotifier(t, store, Config{SMTP: smtpTo(fake), To: []string{"owner@example.test"}}, nil)
		ctx := context.Background()
		n.SaveLead(ctx, testLead("lead-s"))
		n.DeliverDue(ctx)
		st, _ := n.Status(ctx, 10)
		_, p, _ := net.SplitHostPort(fake.Addr)
		want := "email: SMTP 535 authentication failed"
		if st.LastError != want || storedErrors(t, store) != want {
			t.Errorf("last error %q, stored %q; want %q", st.LastError, storedErrors(t, store), want)
		}
		if l := leaks(st.LastError, p, testUser, testPassword); len(l) > 0 {
			t.Errorf("%q shows %v", st.LastError, l)
		}
	})

	t.Run("SMTP server down", func(t *testing.T) {
		store := db.NewTestSQLite(t)
		host, p, _ := net.SplitHostPort(strings.TrimPrefix(closedURL, "http://"))
		n, _ := newNotifier(t, store, Config{SMTP: &SMTP{Host: host, Port: p, Timeout: time.Second}, To: []string{"owner@example.test"}}, nil)
		ctx := context.Background()
		n.SaveLead(ctx, testLead("lead-d"))
		n.DeliverDue(ctx)
		st, _ := n.Status(ctx, 10)
		if want := "email: connection refused"; st.LastError != want {
			t.Errorf("last error %q, want %q", st.LastError, want)
		}
	})
}

// Rows stored before errors were classified hold the raw error; the
// dashboard's status shows them as their kind all the same.
func TestRawStoredErrorsShownAsTheirKind(t *testing.T) {
	store := db.NewTestSQLite(t)
	hook := NewWebhook("http://127.0.0.1:9/hooks/"+hookToken, testSecret)
	n, _ := newNotifier(t, store, Config{Webhook: hook, SMTP: &SMTP{Host: "127.0.0.1", Port: "9"}, To: []string{"owner@example.test"}}, nil)
	ctx := context.Background()
	if err := n.SaveLead(ctx, testLead("lead-old")); err != nil {
		t.Fatal(err)
	}
	raw := map[string]string{
		db.OutboxWebhook: "webhook: dial tcp 127.0.0.1:43421: connect: connection refused",
		db.OutboxEmail:   "smtp: connect: dial tcp [::1]:2525: connect: connection refused",
	}
	for kind, e := range raw {
		if _, err := store.SQL().ExecContext(ctx, `UPDATE outbox SET last_error = ?, attempts = 1 WHERE kind = ?`, e, kind); err != nil {
			t.Fatal(err)
		}
	}
	st, err := n.Status(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range st.Recent {
		got[r.Kind] = r.LastError
	}
	if got[db.OutboxWebhook] != "webhook: connection refused" || got[db.OutboxEmail] != "email: connection refused" ||
		(st.LastError != got[db.OutboxWebhook] && st.LastError != got[db.OutboxEmail]) {
		t.Errorf("last error %q, rows %v", st.LastError, got)
	}
	for _, s := range append([]string{st.LastError}, got[db.OutboxWebhook], got[db.OutboxEmail]) {
		if l := leaks(s, "43421", "2525"); len(l) > 0 {
			t.Errorf("%q shows %v", s, l)
		}
	}
}
