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
)

// Webhook posts lead events to the owner's CRM (LEAD_WEBHOOK_URL).
type Webhook struct {
	URL    string
	Secret []byte
	Client *http.Client
}

// Headers of a webhook request.
const (
	// SignatureHeader is "sha256=" and the hex HMAC-SHA256 of the exact
	// body under LEAD_WEBHOOK_SECRET (as GitHub signs its webhooks).
	SignatureHeader = "X-Signature-256"
	// TimestampHeader is when this attempt was sent, in Unix seconds.
	TimestampHeader = "X-Webhook-Timestamp"
	// DeliveryHeader is the outbox row's id, the same on every retry.
	DeliveryHeader = "X-Webhook-Delivery"
)

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

// Sign returns the signature header's value for body.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// StatusError is a webhook answer other than 2xx.
type StatusError struct{ Code int }

func (e *StatusError) Error() string {
	return fmt.Sprintf("webhook answered %d %s", e.Code, http.StatusText(e.Code))
}

// Post sends body. The error never quotes the URL (it may carry a token)
// nor the answer's body (it may echo the lead).
func (w *Webhook) Post(ctx context.Context, delivery string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return errors.New("webhook: bad LEAD_WEBHOOK_URL")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "restoration-site-lead-webhook/1")
	req.Header.Set(SignatureHeader, Sign(w.Secret, body))
	req.Header.Set(TimestampHeader, strconv.FormatInt(time.Now().Unix(), 10))
	req.Header.Set(DeliveryHeader, delivery)
	res, err := w.Client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("webhook: %w", err)
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return &StatusError{Code: res.StatusCode}
	}
	return nil
}

// webhookPermanent reports an answer that retrying will not change: a 3xx
// or a 4xx other than 408 (timeout) and 429 (slow down).
func webhookPermanent(err error) bool {
	var se *StatusError
	if !errors.As(err, &se) {
		return false
	}
	return se.Code >= 300 && se.Code < 500 && se.Code != http.StatusRequestTimeout && se.Code != http.StatusTooManyRequests
}
