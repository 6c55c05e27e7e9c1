// Package cdnpurge tells a CDN in front of the site which pages changed,
// so it drops them at once instead of waiting for their max-age. The hook
// is a URL (CDN_PURGE_URL) that receives a JSON POST with the changed
// paths and their absolute URLs; most CDNs' purge APIs can be reached
// directly or through a small adapter with that shape.
package cdnpurge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

// Request is the body posted to the purge hook.
type Request struct {
	Paths   []string `json:"paths"`
	URLs    []string `json:"urls"`
	Reason  string   `json:"reason"`
	Version int64    `json:"version"`
}

// Client posts purge requests with retries.
type Client struct {
	URL   string
	Token string // sent as a bearer token when set
	HTTP  *http.Client
	Log   *slog.Logger
	// Backoff is the first retry delay; it doubles up to 4 attempts.
	Backoff time.Duration
}

// New returns a client for url, or nil when url is empty (no CDN).
func New(url, token string, log *slog.Logger) *Client {
	if url == "" {
		return nil
	}
	return &Client{URL: url, Token: token, HTTP: &http.Client{Timeout: 10 * time.Second}, Log: log, Backoff: time.Second}
}

// maxBatch bounds one request; a larger change is sent in several.
const maxBatch = 500

// Purge sends the paths, batched, retrying network errors, 429 and 5xx.
func (c *Client) Purge(ctx context.Context, r Request) error {
	for start := 0; start < len(r.Paths); start += maxBatch {
		end := min(start+maxBatch, len(r.Paths))
		part := r
		part.Paths, part.URLs = r.Paths[start:end], r.URLs[start:end]
		if err := c.send(ctx, part); err != nil {
			c.Log.Warn("CDN purge failed", "paths", len(part.Paths), "err", err)
			return err
		}
	}
	c.Log.Info("CDN purged", "paths", len(r.Paths), "reason", r.Reason)
	return nil
}

func (c *Client) send(ctx context.Context, r Request) error {
	body, _ := json.Marshal(r)
	return do(ctx, c.HTTP, c.Backoff, "purge hook", func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		if c.Token != "" {
			req.Header.Set("Authorization", "Bearer "+c.Token)
		}
		return req, nil
	})
}

// do sends the request that newRequest makes, up to four times with a
// delay that starts at backoff and doubles, while it cannot be sent or
// is answered 429 or 5xx; any other answer of 300 or more is final.
// what names the request in its errors.
func do(ctx context.Context, client *http.Client, backoff time.Duration, what string, newRequest func() (*http.Request, error)) error {
	delay := backoff
	var last error
	for attempt := 0; attempt < 4; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(delay):
			}
			delay *= 2
		}
		req, err := newRequest()
		if err != nil {
			return err
		}
		res, err := client.Do(req)
		if err != nil {
			last = err
			continue
		}
		io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
		res.Body.Close()
		switch {
		case res.StatusCode < 300:
			return nil
		case res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500:
			last = fmt.Errorf("%s: HTTP %d", what, res.StatusCode)
		default:
			return fmt.Errorf("%s: HTTP %d", what, res.StatusCode)
		}
	}
	return last
}
