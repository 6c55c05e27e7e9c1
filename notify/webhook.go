package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/atlanta-restoration/site/failure"
)

// Webhook posts lead events to the owner's CRM (LEAD_WEBHOOK_URL).
type Webhook struct {
	URL    string
	Secret []byte
	Client *http.Client
}

// Headers of a webhook request.
const (
	// SignatureHeader is "t=<unix seconds>,v1=<hex HMAC-SHA256 of t, a
	// dot and the exact body, under LEAD_WEBHOOK_SECRET>", as Stripe signs
	// its webhooks. The timestamp is inside the signature: a captured
	// delivery replayed later cannot be given a fresh one, and a receiver
	// refuses one older than SignatureTolerance (VerifySignature).
	SignatureHeader = "X-Signature-256"
	// TimestampHeader repeats the signed t, for receivers' logs; only the
	// one in SignatureHeader counts.
	TimestampHeader = "X-Webhook-Timestamp"
	// DeliveryHeader is the outbox row's id, the same on every retry.
	DeliveryHeader = "X-Webhook-Delivery"
)

// SignatureTolerance is how far from the receiver's clock a delivery's
// timestamp may be. Every attempt is signed when it is sent, so a retry
// hours later carries a fresh timestamp.
const SignatureTolerance = 5 * time.Minute

// WebhookTimeout bounds one request.
const WebhookTimeout = 10 * time.Second

// NewWebhook returns a client for url signing with secret. It follows no
// redirects: a 3xx is reported, since a redirected POST would lose its body.
func NewWebhook(url, secret string) *Webhook {
	return &Webhook{URL: url, Secret: []byte(secret), Client: &http.Client{
		Timeout:       WebhookTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Sign returns the signature header's value for body sent at t.
func Sign(secret, body []byte, t time.Time) string {
	m := hmac.New(sha256.New, secret)
	fmt.Fprintf(m, "%d.", t.Unix())
	m.Write(body)
	return fmt.Sprintf("t=%d,v1=%s", t.Unix(), hex.EncodeToString(m.Sum(nil)))
}

// StatusError is a webhook answer other than 2xx.
type StatusError struct{ Code int }

func (e *StatusError) Error() string {
	return fmt.Sprintf("webhook answered %d %s", e.Code, http.StatusText(e.Code))
}

// HTTPStatus makes the admin's text "HTTP 503 from the receiver".
func (e *StatusError) HTTPStatus() int { return e.Code }

// Post sends body. Its error keeps the network detail for the log, but
// never quotes the URL (it may carry a token) nor the answer's body (it
// may echo the lead); what the admin sees of it is failure.Text.
func (w *Webhook) Post(ctx context.Context, delivery string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return failure.At(failure.Webhook, errors.New("bad LEAD_WEBHOOK_URL"))
	}
	now := time.Now()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "restoration-site-lead-webhook/1")
	req.Header.Set(SignatureHeader, Sign(w.Secret, body, now))
	req.Header.Set(TimestampHeader, strconv.FormatInt(now.Unix(), 10))
	req.Header.Set(DeliveryHeader, delivery)
	res, err := w.Client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return failure.At(failure.Webhook, err)
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return failure.At(failure.Webhook, &StatusError{Code: res.StatusCode})
	}
	return nil
}

// webhookPermanent reports an answer that retrying will not change: a 3xx
// or a 4xx other than 408 (timeout) and 429 (slow down).
func webhookPermanent(err error) bool { return httpPermanent(err) }

// httpPermanent is webhookPermanent's rule for any HTTP answer (the
// webhook's, a push service's, Twilio's).
func httpPermanent(err error) bool {
	var se interface{ HTTPStatus() int }
	if !errors.As(err, &se) {
		return false
	}
	c := se.HTTPStatus()
	return c >= 300 && c < 500 && c != http.StatusRequestTimeout && c != http.StatusTooManyRequests
}
