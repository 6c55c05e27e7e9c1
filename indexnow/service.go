package indexnow

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
	"github.com/atlanta-restoration/site/jobs"
)

// Store records submissions and the last accepted ETag of each path;
// *db.Store is one.
type Store interface {
	KeyStore
	CreateIndexNowSubmission(ctx context.Context, sub db.IndexNowSubmission) error
	IndexNowSent(ctx context.Context) (map[string]string, error)
	MarkIndexNowSent(ctx context.Context, etags map[string]string, at time.Time) error
}

// Page is a rendered indexable page: its path and its ETag, which changes
// exactly when its bytes do.
type Page struct {
	Path string
	ETag string
}

// Trigger values recorded with each submission.
const (
	TriggerAuto   = "auto"
	TriggerAll    = "all"
	TriggerCustom = "custom"
)

// Service submits URLs to IndexNow, by hand (the admin screen) and
// automatically after content changes.
//
// Automatic submission works on ETags: after every warm-up of the render
// cache the server hands Observe the ETag of each indexable page; the job
// (AutoSubmit, debounced by the runner) compares them with the ETags last
// accepted by IndexNow (indexnow_sent) and submits only the pages that
// differ. indexnow_sent is updated only after a 2xx. The very first run,
// with nothing recorded, submits nothing and records the baseline: a new
// site is submitted whole with Submit All Site Pages (ADR 011).
type Service struct {
	Client *Client
	Keys   *Keys
	Store  Store
	// Base is the site's absolute address (BASE_URL), no trailing slash.
	Base string
	// Enabled reads the 'auto-submit to IndexNow' toggle.
	Enabled func(ctx context.Context) (bool, error)
	Log     *slog.Logger

	mu     sync.Mutex
	latest []Page
	// missing lists the site's pages the warm-up behind latest could not
	// render (a render error or timeout on a very busy machine).
	missing []string

	noKey sync.Once
}

// Observe records the pages of a completed warm-up (in sitemap order).
// It is cheap and never blocks on I/O: the diff happens in the job.
func (s *Service) Observe(pages []Page) { s.ObserveWarm(pages, nil) }

// ObserveWarm is Observe for a warm-up that could not render the site's
// pages in missing. A baseline taken from it marks those as unknown: the
// first time one renders, its version is recorded and not sent, since
// nothing says it changed.
func (s *Service) ObserveWarm(pages []Page, missing []string) {
	s.mu.Lock()
	s.latest = append([]Page(nil), pages...)
	s.missing = append([]string(nil), missing...)
	s.mu.Unlock()
}

func (s *Service) snapshot() ([]Page, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latest, s.missing
}

// unknownETag marks, in the baseline, a page the baseline's warm-up could
// not render (a real ETag is quoted, so none equals it).
const unknownETag = "unrendered"

// AutoSubmit is the automatic submission job: it posts the changed pages
// in one batch (chunks of MaxURLs) and reports what it did.
func (s *Service) AutoSubmit(ctx context.Context) (string, error) {
	on, err := s.Enabled(ctx)
	if err != nil {
		return "", fmt.Errorf("read the auto-submit setting: %w", err)
	}
	if !on {
		return "", jobs.Skip("auto-submit to IndexNow is off")
	}
	pages, missing := s.snapshot()
	if len(pages) == 0 {
		return "", jobs.Skip("no rendered pages yet")
	}
	sent, err := s.Store.IndexNowSent(ctx)
	if err != nil {
		return "", err
	}
	if len(sent) == 0 {
		base := map[string]string{}
		for _, p := range pages {
			base[p.Path] = p.ETag
		}
		for _, p := range missing {
			base[p] = unknownETag
		}
		if err := s.Store.MarkIndexNowSent(ctx, base, time.Now().UTC()); err != nil {
			return "", err
		}
		return fmt.Sprintf("first run: recorded the current version of %d pages as the baseline; nothing submitted (use Submit All Site Pages for a new site)", len(base)), nil
	}
	var changed []Page
	learned := map[string]string{}
	for _, p := range pages {
		switch sent[p.Path] {
		case p.ETag:
		case unknownETag:
			learned[p.Path] = p.ETag
		default:
			changed = append(changed, p)
		}
	}
	if len(learned) > 0 {
		// Rendered for the first time since the baseline: recorded, not sent.
		if err := s.Store.MarkIndexNowSent(ctx, learned, time.Now().UTC()); err != nil {
			return "", err
		}
	}
	if len(changed) == 0 {
		return "no page changed since the last submission", nil
	}
	key, _, err := s.Keys.Key(ctx)
	if err != nil {
		return "", fmt.Errorf("read the IndexNow key: %w", err)
	}
	if key == "" {
		s.noKey.Do(func() { s.Log.Warn("IndexNow API key not configured") })
		return "", jobs.Skip(fmt.Sprintf("IndexNow API key not configured; %d changed pages not submitted", len(changed)))
	}
	var (
		done   int
		status int
		all    []string
	)
	for start := 0; start < len(changed); start += MaxURLs {
		batch := changed[start:min(len(changed), start+MaxURLs)]
		urls := make([]string, len(batch))
		acc := map[string]string{}
		for i, p := range batch {
			urls[i] = s.Base + p.Path
			acc[p.Path] = p.ETag
		}
		res, err := s.send(ctx, TriggerAuto, key, urls, s.Client.Retries)
		if err != nil {
			if !Retryable(err) {
				err = jobs.NoRetry(err)
			}
			return "", fmt.Errorf("submitted %d of %d changed pages, then: %w", done, len(changed), failure.At(failure.IndexNow, err))
		}
		if err := s.Store.MarkIndexNowSent(ctx, acc, time.Now().UTC()); err != nil {
			return "", err
		}
		done, status, all = done+len(batch), res.Status, append(all, urls...)
	}
	return fmt.Sprintf("submitted %d changed %s (HTTP %d): %s", done, plural(done, "page", "pages"), status, shortList(all, s.Base)), nil
}

// Submit posts urls (absolute, on this site) by hand: one attempt, so the
// admin sees the answer at once. It is recorded, and on success the pages
// among urls are marked as sent with their current ETags.
func (s *Service) Submit(ctx context.Context, trigger, key string, urls []string) (Result, error) {
	res, err := s.send(ctx, trigger, key, urls, 0)
	if err != nil {
		return res, err
	}
	want := map[string]bool{}
	for _, u := range urls {
		want[u] = true
	}
	acc := map[string]string{}
	latest, _ := s.snapshot()
	for _, p := range latest {
		if want[s.Base+p.Path] {
			acc[p.Path] = p.ETag
		}
	}
	if len(acc) > 0 {
		if err := s.Store.MarkIndexNowSent(ctx, acc, time.Now().UTC()); err != nil {
			s.Log.Warn("indexnow: submitted pages not recorded", "err", err)
		}
	}
	return res, nil
}

// send posts one payload and records it, whatever the answer.
func (s *Service) send(ctx context.Context, trigger, key string, urls []string, retries int) (Result, error) {
	u, err := url.Parse(s.Base)
	if err != nil {
		return Result{}, err
	}
	p := Payload{Host: u.Hostname(), Key: key, KeyLocation: s.Base + "/" + key + ".txt", URLList: urls}
	res, err := s.Client.Submit(ctx, p, retries)
	list, _ := json.Marshal(urls)
	sub := db.IndexNowSubmission{CreatedAt: time.Now().UTC(), TriggeredBy: trigger, URLs: string(list), URLCount: len(urls),
		StatusCode: res.Status, Response: res.Body, Outcome: db.OutcomeOK}
	if err != nil {
		// The history shows the kind of failure; the log has the detail.
		sub.Outcome = db.OutcomeFailed
		sub.Response = failure.Text(failure.At(failure.IndexNow, err))
	}
	if res.Attempts > 1 {
		sub.Response = strings.TrimSpace(fmt.Sprintf("%s (after %d attempts)", sub.Response, res.Attempts))
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if rerr := s.Store.CreateIndexNowSubmission(rctx, sub); rerr != nil {
		s.Log.Warn("indexnow: submission not recorded", "err", rerr)
	}
	if err != nil {
		s.Log.Warn("indexnow: submission failed", "trigger", trigger, "urls", len(urls), "status", res.Status, "attempts", res.Attempts, "err", err)
	} else {
		s.Log.Info("indexnow: submitted", "trigger", trigger, "urls", len(urls), "status", res.Status)
	}
	return res, err
}

// SubmissionURLs decodes a recorded submission's URL list.
func SubmissionURLs(sub db.IndexNowSubmission) []string {
	var out []string
	if err := json.Unmarshal([]byte(sub.URLs), &out); err != nil {
		return nil
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// shortList names a few paths for a one-line summary.
func shortList(urls []string, base string) string {
	var ps []string
	for i, u := range urls {
		if i == 5 {
			ps = append(ps, fmt.Sprintf("and %d more", len(urls)-5))
			break
		}
		ps = append(ps, strings.TrimPrefix(u, base))
	}
	return strings.Join(ps, ", ")
}
