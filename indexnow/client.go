// Package indexnow tells search engines about new and changed pages with
// the IndexNow protocol: the client that posts {host, key, keyLocation,
// urlList} with retries, the key (configured or saved from the admin
// screen), and automatic submission of the pages whose rendered bytes
// changed, with every submission recorded.
package indexnow

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Payload is the body IndexNow expects (spec 3).
type Payload struct {
	Host        string   `json:"host"`
	Key         string   `json:"key"`
	KeyLocation string   `json:"keyLocation"`
	URLList     []string `json:"urlList"`
}

// MaxURLs is the most URLs one submission may carry (the protocol's limit).
const MaxURLs = 10_000

// Client posts payloads to an IndexNow endpoint.
type Client struct {
	Endpoint string
	HTTP     *http.Client
	// Retries is how many times an automatic submission is retried after a
	// 429, a 5xx or a network failure; Backoff is the first wait, doubled
	// each time up to MaxBackoff. A Retry-After answer is honoured up to
	// MaxBackoff.
	Retries             int
	Backoff, MaxBackoff time.Duration
}

// NewClient returns a client with 3 retries from 2 s up to 1 minute.
func NewClient(endpoint string) *Client {
	return &Client{Endpoint: endpoint, HTTP: &http.Client{Timeout: 20 * time.Second}, Retries: 3, Backoff: 2 * time.Second, MaxBackoff: time.Minute}
}

// Result is IndexNow's answer to a submission.
type Result struct {
	// Status is the last HTTP status (0: no answer).
	Status int
	// Body is the start of the last answer's body, whitespace folded.
	Body     string
	Attempts int
}

// StatusError is a submission IndexNow answered with a non-2xx status.
type StatusError struct {
	Status int
	Body   string
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("HTTP %d", e.Status)
	if hint := statusHint[e.Status]; hint != "" {
		msg += " (" + hint + ")"
	}
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// HTTPStatus and StatusHint make the admin's text "HTTP 403 from
// IndexNow (key not valid: ...)", without the answer's body.
func (e *StatusError) HTTPStatus() int    { return e.Status }
func (e *StatusError) StatusHint() string { return statusHint[e.Status] }

// Retryable reports whether a failed submission may succeed later: 429,
// 5xx and network failures may; other refusals (bad key, foreign URLs)
// will not.
func Retryable(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status == http.StatusTooManyRequests || se.Status >= 500
	}
	return err != nil && !errors.Is(err, context.Canceled)
}

// statusHint explains IndexNow's documented error answers.
var statusHint = map[int]string{
	http.StatusBadRequest:          "invalid format",
	http.StatusForbidden:           "key not valid: the key file was not found or does not match",
	http.StatusUnprocessableEntity: "URLs do not belong to the host or the key does not match",
	http.StatusTooManyRequests:     "too many requests",
}

// Submit posts p, retrying 429, 5xx and network failures up to retries
// times with backoff. 200 and 202 mean received.
func (c *Client) Submit(ctx context.Context, p Payload, retries int) (Result, error) {
	body, err := json.Marshal(p)
	if err != nil {
		return Result{}, err
	}
	var res Result
	for {
		res.Attempts++
		var retryAfter time.Duration
		res.Status, res.Body, retryAfter, err = c.post(ctx, body)
		if err == nil || !Retryable(err) || res.Attempts > retries {
			return res, err
		}
		wait := c.Backoff << (res.Attempts - 1)
		if wait > c.MaxBackoff || wait <= 0 {
			wait = c.MaxBackoff
		}
		if retryAfter > wait {
			wait = min(retryAfter, c.MaxBackoff)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return res, err
		case <-t.C:
		}
	}
}

func (c *Client) post(ctx context.Context, body []byte) (status int, text string, retryAfter time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, "", 0, err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	res, err := c.HTTP.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			// The endpoint's URL is configuration; the log has it.
			err = ue.Err
		}
		return 0, "", 0, fmt.Errorf("the endpoint could not be reached: %w", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 512))
	text = strings.Join(strings.Fields(string(b)), " ")
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s > 0 {
		retryAfter = time.Duration(s) * time.Second
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return res.StatusCode, text, retryAfter, &StatusError{Status: res.StatusCode, Body: text}
	}
	return res.StatusCode, text, 0, nil
}
