// Package failure turns an error from a call to another service (the
// lead webhook's receiver, the mail server, IndexNow, Google Places, the
// database) into the few words an admin screen may show: the kind of
// failure ("connection refused", "timed out", "HTTP 503 from the
// receiver", "SMTP 535 authentication failed"), never an address, host,
// port, path, query or credential that the error's own text carries.
//
// The detail stays in the server log (redacted for secrets already).
// Whatever is stored for an admin screen (outbox.last_error, a failed
// job_runs summary, indexnow_submissions.response) goes through Text when
// it is written and Scrub when it is read, so rows written before this
// package existed are not shown raw either (ADR 027).
//
// The package imports only the standard library, so that every other
// package, db included, can use it.
package failure

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"strings"
	"syscall"
)

// Party names who a failed call talked to, in the admin's words. Label
// starts the text ("webhook: connection refused"); Who is the one that
// answered an HTTP status ("HTTP 503 from the receiver").
type Party struct {
	Label string
	Who   string
}

// The parties of the site's outside calls.
var (
	Webhook  = Party{Label: "webhook", Who: "the receiver"}
	Email    = Party{Label: "email", Who: "the mail server"}
	IndexNow = Party{Label: "IndexNow", Who: "IndexNow"}
	Places   = Party{Label: "Google Places", Who: "Google Places"}
	CDN      = Party{Label: "CDN purge", Who: "the purge hook"}
	Database = Party{Label: "database", Who: "the database"}
	// Push is a Web Push service (the browser maker's: FCM, Mozilla,
	// Apple, Microsoft).
	Push = Party{Label: "push", Who: "the push service"}
	SMS  = Party{Label: "SMS", Who: "Twilio"}
	// Ack is the mail server, sending the homeowner's acknowledgement.
	Ack = Party{Label: "acknowledgement", Who: "the mail server"}
	// Review is the mail server, sending a review request (ADR 063).
	Review = Party{Label: "review request", Who: "the mail server"}
	// Update is the mail server, sending the homeowner an update on
	// their job (ADR 065).
	Update = Party{Label: "job update", Who: "the mail server"}
)

// labels are the leading words Scrub keeps: today's labels and the
// prefixes errors had before (smtp:, reviews:).
var labels = map[string]Party{
	"webhook": Webhook, "email": Email, "smtp": Email, "indexnow": IndexNow, "google places": Places,
	"reviews": Places, "cdn purge": CDN, "purge hook": CDN, "database": Database,
	"push": Push, "sms": SMS, "acknowledgement": Ack, "review request": Review, "job update": Update,
}

// The phrases: the only words, besides a party's label and a status code,
// that Text and Scrub ever return.
const (
	Refused     = "connection refused"
	TimedOut    = "timed out"
	DNS         = "DNS lookup failed"
	TLS         = "TLS handshake failed"
	Certificate = "TLS certificate not trusted"
	Reset       = "connection reset"
	Unreachable = "network unreachable"
	Closed      = "connection closed early"
	Network     = "network error"
	Cancelled   = "cancelled"
	Unreadable  = "unreadable answer"
	// Unknown replaces a text that names an address but whose kind is
	// not recognised.
	Unknown = "failed (details in the server log)"
)

// At marks err as a failure talking to p. Its Error keeps the detail
// (for the log); Text names p.
func At(p Party, err error) error {
	if err == nil {
		return nil
	}
	return &atError{party: p, err: err}
}

type atError struct {
	party Party
	err   error
}

func (e *atError) Error() string { return e.party.Label + ": " + e.err.Error() }
func (e *atError) Unwrap() error { return e.err }

// StatusError is an HTTP answer other than 2xx.
type StatusError struct{ Code int }

func (e *StatusError) Error() string   { return fmt.Sprintf("HTTP %d", e.Code) }
func (e *StatusError) HTTPStatus() int { return e.Code }

// statusCoder is an HTTP answer other than 2xx (StatusError, and the
// packages' own status errors).
type statusCoder interface{ HTTPStatus() int }

// statusHinter adds a fixed explanation of a status, written in code
// (IndexNow's documented answers).
type statusHinter interface{ StatusHint() string }

// SMTP stages, for SMTPAt.
const (
	SMTPGreeting = "greeting"
	SMTPHello    = "EHLO"
	SMTPStartTLS = "STARTTLS"
	SMTPAuth     = "AUTH"
	SMTPMail     = "MAIL FROM"
	SMTPRcpt     = "RCPT TO"
	SMTPData     = "DATA"
)

// smtpPhrases name what a refusal at each stage means.
var smtpPhrases = map[string]string{
	SMTPGreeting: "server not accepting mail", SMTPHello: "EHLO refused", SMTPStartTLS: "STARTTLS refused",
	SMTPAuth: "authentication failed", SMTPMail: "sender refused", SMTPRcpt: "recipient refused", SMTPData: "message refused",
}

// SMTPAt marks err as having happened at stage of an SMTP conversation:
// a reply code then reads "SMTP 535 authentication failed".
func SMTPAt(stage string, err error) error {
	if err == nil {
		return nil
	}
	return &smtpError{stage: stage, err: err}
}

type smtpError struct {
	stage string
	err   error
}

func (e *smtpError) Error() string { return "SMTP " + e.stage + ": " + e.err.Error() }
func (e *smtpError) Unwrap() error { return e.err }

// APIError is an answer whose own status field reports an error (Google
// Places answers 200 with "status": "REQUEST_DENIED"). Status is shown
// (cut to capitals, digits and underscores); Detail only goes to the log.
type APIError struct {
	Status string
	Detail string
}

func (e *APIError) Error() string {
	if e.Detail == "" {
		return "status " + e.Status
	}
	return "status " + e.Status + ": " + e.Detail
}

// Text is what an admin screen may show of err: the party's label and the
// kind of failure. An error of no known kind keeps its own text unless it
// names an address (then Scrub replaces it): such errors come from the
// site's own code.
func Text(err error) string {
	if err == nil {
		return ""
	}
	p := partyOf(err)
	phrase, ok := classify(err, p)
	if !ok {
		return Scrub(err.Error())
	}
	return compose(p, phrase)
}

// Kind is Text without the party's label, for a sentence that names the
// party already ("The submission to IndexNow failed: timed out").
func Kind(err error) string {
	if err == nil {
		return ""
	}
	p := partyOf(err)
	phrase, ok := classify(err, p)
	if !ok {
		return Scrub(err.Error())
	}
	return phrase
}

// partyOf is the outermost party err names.
func partyOf(err error) Party {
	var at *atError
	if errors.As(err, &at) {
		return at.party
	}
	return Party{}
}

// compose puts the label before the phrase, once: "HTTP 403 from
// IndexNow", not "IndexNow: HTTP 403 from IndexNow".
func compose(p Party, phrase string) string {
	if p.Label == "" || strings.HasSuffix(phrase, " from "+p.Label) || strings.Contains(phrase, " from "+p.Label+" (") {
		return phrase
	}
	return p.Label + ": " + phrase
}

func who(p Party) string {
	if p.Who == "" {
		return "the server"
	}
	return p.Who
}

// classify names err's kind from its types, never from its text.
func classify(err error, p Party) (string, bool) {
	var (
		sc    statusCoder
		te    *textproto.Error
		smtpe *smtpError
		dns   *net.DNSError
		ne    net.Error
		op    *net.OpError
		api   *APIError
	)
	errors.As(err, &smtpe)
	switch {
	case errors.Is(err, context.Canceled):
		return Cancelled, true
	case errors.As(err, &sc):
		s := fmt.Sprintf("HTTP %d from %s", sc.HTTPStatus(), who(p))
		var h statusHinter
		if errors.As(err, &h) && h.StatusHint() != "" {
			s += " (" + h.StatusHint() + ")"
		}
		return s, true
	case errors.As(err, &te):
		what := "refused"
		if smtpe != nil && smtpPhrases[smtpe.stage] != "" {
			what = smtpPhrases[smtpe.stage]
		}
		return fmt.Sprintf("SMTP %d %s", te.Code, what), true
	case errors.As(err, &dns):
		return DNS, true
	case isCertificate(err):
		return Certificate, true
	case isTLS(err), errors.Is(err, http.ErrSchemeMismatch):
		return TLS, true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return TimedOut, true
	case errors.Is(err, syscall.ECONNREFUSED):
		return Refused, true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED):
		return Reset, true
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return Unreachable, true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed):
		return Closed, true
	case isJSON(err):
		return Unreadable, true
	case errors.As(err, &api):
		return "answered " + statusWord(api.Status), true
	case errors.As(err, &op):
		return Network, true
	case smtpe != nil && smtpe.stage == SMTPAuth:
		// net/smtp refuses to send a password in clear, or the server
		// offers no AUTH: not a reply code, but the same remedy.
		return "SMTP authentication not possible", true
	case smtpe != nil && (smtpe.stage == SMTPStartTLS):
		return TLS, true
	case smtpe != nil:
		return "SMTP " + smtpe.stage + " failed", true
	}
	return "", false
}

func isCertificate(err error) bool {
	var (
		cv *tls.CertificateVerificationError
		ua x509.UnknownAuthorityError
		he x509.HostnameError
		ci x509.CertificateInvalidError
		sr x509.SystemRootsError
	)
	return errors.As(err, &cv) || errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci) || errors.As(err, &sr)
}

func isTLS(err error) bool {
	var (
		rh tls.RecordHeaderError
		al tls.AlertError
		ec *tls.ECHRejectionError
	)
	return errors.As(err, &rh) || errors.As(err, &al) || errors.As(err, &ec)
}

func isJSON(err error) bool {
	var (
		se *json.SyntaxError
		ut *json.UnmarshalTypeError
	)
	return errors.As(err, &se) || errors.As(err, &ut)
}

// statusWord keeps an API's status word to capitals, digits and
// underscores, at most 40 of them: it comes from the other side.
func statusWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() == 40 {
			break
		}
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "an error status"
	}
	return b.String()
}
