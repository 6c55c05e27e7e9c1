package failure

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strconv"
	"strings"
	"testing"
	"time"
)

// token is a secret-looking path segment put in every URL: it must never
// come out.
const token = "TOKEN-do-not-show-5521"

// post sends a POST to u the way the site's clients do, and returns the
// raw error (a *url.Error quoting u).
func post(t *testing.T, c *http.Client, u string) error {
	t.Helper()
	if c == nil {
		// Only a bound on a hang: each failure arrives as soon as it
		// happens (a refusal, a bad certificate). Five seconds ran out
		// before a TLS handshake under the race detector on a loaded
		// machine, and the test read "timed out".
		c = &http.Client{Timeout: 90 * time.Second}
	}
	res, err := c.Post(u, "application/json", strings.NewReader("{}"))
	if err == nil {
		res.Body.Close()
		t.Fatalf("POST %s succeeded", u)
	}
	return err
}

// closedPort is a port on host that nothing listens on.
func closedPort(t *testing.T, host string) string {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Logf("no %s: %v", host, err)
		return ""
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	return port
}

// forbidden are the things of a configured URL an admin must never see.
func forbidden(t *testing.T, what, got string, extra ...string) {
	t.Helper()
	for _, f := range append([]string{"127.0.0.1", "::1", "localhost", token, "/hooks", ".invalid", "http", "dial", "tcp"}, extra...) {
		if f != "" && strings.Contains(got, f) {
			t.Errorf("%s: %q shows %q", what, got, f)
		}
	}
}

// Real failures of real calls are named by their kind, with the party,
// and nothing of the address: IPv4, IPv6, a host name, a port, a path.
func TestTextNamesTheKindOnly(t *testing.T) {
	port4 := closedPort(t, "127.0.0.1")
	if port4 == "" {
		t.Fatal("no loopback")
	}
	// A server that accepts and never answers.
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
			defer c.Close()
		}
	}()
	badTLS := httptest.NewUnstartedServer(http.NotFoundHandler())
	badTLS.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	badTLS.StartTLS()
	defer badTLS.Close()
	plain := httptest.NewServer(http.NotFoundHandler())
	defer plain.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cancelled, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://127.0.0.1:"+port4+"/hooks/"+token, nil)
	_, cancelErr := http.DefaultClient.Do(cancelled)

	cases := []struct {
		name  string
		err   error
		party Party
		want  string
		port  string
	}{
		{"refused, IPv4", post(t, nil, "http://127.0.0.1:"+port4+"/hooks/"+token), Webhook, "webhook: connection refused", port4},
		{"refused, localhost", post(t, nil, "http://localhost:"+port4+"/hooks/"+token+"?key="+token), Webhook, "webhook: connection refused", port4},
		{"timeout", post(t, &http.Client{Timeout: 200 * time.Millisecond}, "http://"+silent.Addr().String()+"/hooks/"+token), Webhook, "webhook: timed out", ""},
		{"untrusted certificate", post(t, nil, badTLS.URL+"/hooks/"+token), Webhook, "webhook: TLS certificate not trusted", ""},
		{"https to a plain server", post(t, nil, strings.Replace(plain.URL, "http:", "https:", 1)+"/hooks/"+token), Webhook, "webhook: TLS handshake failed", ""},
		{"DNS", post(t, nil, "http://crm-hook.invalid/hooks/"+token), Webhook, "webhook: DNS lookup failed", ""},
		{"HTTP 503", &StatusError{Code: 503}, Webhook, "webhook: HTTP 503 from the receiver", ""},
		{"HTTP 403, named party", &StatusError{Code: 403}, IndexNow, "HTTP 403 from IndexNow", ""},
		{"SMTP 535", SMTPAt(SMTPAuth, &textproto.Error{Code: 535, Msg: "5.7.8 bad credentials for leads@crm.example.com"}), Email, "email: SMTP 535 authentication failed", ""},
		{"SMTP 550 at RCPT", SMTPAt(SMTPRcpt, fmt.Errorf("owner@example.com: %w", &textproto.Error{Code: 550, Msg: "no such user"})), Email, "email: SMTP 550 recipient refused", ""},
		{"SMTP AUTH without TLS", SMTPAt(SMTPAuth, errors.New("unencrypted connection")), Email, "email: SMTP authentication not possible", ""},
		{"cancelled", cancelErr, Webhook, "webhook: cancelled", port4},
		{"an API's own status", &APIError{Status: "REQUEST_DENIED <b>http://x</b>", Detail: "key AIza-secret refused"}, Places, "Google Places: answered REQUEST_DENIED", ""},
		{"wrapped in context", fmt.Errorf("submitted 2 of 5 changed pages, then: %w", At(IndexNow, post(t, nil, "http://127.0.0.1:"+port4+"/indexnow/"+token))), Party{}, "IndexNow: connection refused", port4},
		{"no party", post(t, nil, "http://127.0.0.1:"+port4+"/"+token), Party{}, "connection refused", port4},
	}
	if port6 := closedPort(t, "::1"); port6 != "" {
		cases = append(cases, struct {
			name  string
			err   error
			party Party
			want  string
			port  string
		}{"refused, IPv6", post(t, nil, "http://[::1]:"+port6+"/hooks/"+token), Webhook, "webhook: connection refused", port6})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.err
			if c.party != (Party{}) {
				err = At(c.party, err)
			}
			got := Text(err)
			if got != c.want {
				t.Errorf("Text(%v)\n = %q, want %q", err, got, c.want)
			}
			forbidden(t, c.name, got, c.port)
			if again := Scrub(got); again != got {
				t.Errorf("Scrub(Text) = %q, want %q unchanged", again, got)
			}
			// The same error flattened to text (%v loses the types): the
			// stored-text path must not leak either.
			flat := Text(fmt.Errorf("%v", err))
			forbidden(t, c.name+" flattened", flat, c.port)
		})
	}
}

// An error of the site's own (no address in it) keeps its words; one
// that quotes an address in any spelling does not.
func TestTextOfOwnErrors(t *testing.T) {
	for _, s := range []string{"the sitemap has no pages", "this channel is no longer configured", "webhook: bad LEAD_WEBHOOK_URL",
		"panic: runtime error: index out of range [3] with length 2", "record job run health: database is locked"} {
		if got := Text(errors.New(s)); got != s {
			t.Errorf("Text(%q) = %q", s, got)
		}
	}
	if Text(nil) != "" {
		t.Error("Text(nil) is not empty")
	}
}

// Stored texts from before (raw Go network errors, in every spelling of
// an address) come out as the kind of failure, with a known label kept;
// everything Text writes comes out unchanged.
func TestScrub(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"webhook: dial tcp 127.0.0.1:43421: connect: connection refused", "webhook: connection refused"},
		{"webhook: dial tcp [::1]:43421: connect: connection refused", "webhook: connection refused"},
		{"webhook: dial tcp [fe80::1%eth0]:443: connect: network is unreachable", "webhook: network unreachable"},
		{"webhook: dial tcp 10.1.2.3:8443: i/o timeout", "webhook: timed out"},
		{`webhook: Post "https://crm.example.com/hooks/catch/` + token + `": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, "webhook: timed out"},
		{"webhook: dial tcp: lookup crm-hook.invalid on 127.0.0.53:53: no such host", "webhook: DNS lookup failed"},
		{"webhook: dial tcp: lookup crm-hook.internal: server misbehaving", "webhook: DNS lookup failed"},
		{"webhook: tls: failed to verify certificate: x509: certificate signed by unknown authority", "webhook: TLS certificate not trusted"},
		{"webhook: remote error: tls: handshake failure", "webhook: TLS handshake failed"},
		{"webhook: read tcp 10.0.0.2:5555->10.0.0.3:443: read: connection reset by peer", "webhook: connection reset"},
		{"webhook: Post \"http://crm.local/x\": EOF", "webhook: connection closed early"},
		{"smtp: connect: dial tcp 127.0.0.1:587: connect: connection refused", "email: connection refused"},
		{"smtp: RCPT TO owner@example.com: 550 5.1.1 <owner@example.com>: Recipient address rejected", "email: SMTP 550 recipient refused"},
		{"smtp: AUTH: 535 5.7.8 Username and Password not accepted. Learn more at https://support.google.com/mail/?p=BadCredentials", "email: SMTP 535 authentication failed"},
		{`the endpoint could not be reached (Post "http://127.0.0.1:9/indexnow?key=abc": dial tcp 127.0.0.1:9: connect: connection refused) (after 4 attempts)`, "connection refused"},
		{`reviews: Get "https://maps.googleapis.com/maps/api/place/details/json?place_id=…&key=[REDACTED]": dial tcp: lookup maps.googleapis.com: no such host`, "Google Places: DNS lookup failed"},
		{"HTTP 502: <html>bad gateway at edge-7.cdn.example.net</html>", "HTTP 502 from the server"},
		{"http%3A%2F%2F127.0.0.1%3A8080%2Fhooks", Unknown},
		{"failed at 0:0:0:0:0:0:0:1 somehow", Unknown},
		{"lookup failed for localhost", DNS},
		// Not an address: unchanged.
		{"webhook answered 503 Service Unavailable", "webhook answered 503 Service Unavailable"},
		{"smtp: AUTH: 535 5.7.8 authentication failed", "smtp: AUTH: 535 5.7.8 authentication failed"},
		{"the sitemap has no pages", "the sitemap has no pages"},
		{"submitted 3 changed pages (HTTP 200): /, /contact, /services/water", "submitted 3 changed pages (HTTP 200): /, /contact, /services/water"},
		{"", ""},
	} {
		if got := Scrub(c.in); got != c.want {
			t.Errorf("Scrub(%q)\n = %q, want %q", c.in, got, c.want)
		}
	}
}

// Every text Text can write is left as it is by Scrub (rows are scrubbed
// again when read).
func TestScrubKeepsEveryPhrase(t *testing.T) {
	phrases := []string{Refused, TimedOut, DNS, TLS, Certificate, Reset, Unreachable, Closed, Network, Cancelled, Unreadable, Unknown,
		"SMTP authentication not possible", "SMTP 535 authentication failed", "SMTP 550 recipient refused", "SMTP 451 message refused",
		"answered OVER_QUERY_LIMIT", "HTTP 503 from the receiver", "HTTP 422 from IndexNow (URLs do not belong to the host or the key does not match)"}
	for _, p := range []Party{{}, Webhook, Email, IndexNow, Places, CDN, Database} {
		for _, ph := range phrases {
			s := compose(p, ph)
			if got := Scrub(s); got != s {
				t.Errorf("Scrub(%q) = %q", s, got)
			}
		}
	}
}
