package indexnow

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

const base = "https://www.example-restoration.test"
const key = "a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6"

// receiver is an IndexNow endpoint that answers with the statuses given,
// in order, then with the last one.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	statuses []int
	payloads []Payload
}

func newReceiver(t *testing.T, statuses ...int) *receiver {
	t.Helper()
	rc := &receiver{statuses: statuses}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p Payload
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil || r.Method != http.MethodPost {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		rc.mu.Lock()
		rc.payloads = append(rc.payloads, p)
		st := rc.statuses[0]
		if len(rc.statuses) > 1 {
			rc.statuses = rc.statuses[1:]
		}
		rc.mu.Unlock()
		if st == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(st)
		if st >= 300 {
			w.Write([]byte("  refused \n for now "))
		}
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) calls() []Payload {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Payload(nil), rc.payloads...)
}

func (rc *receiver) setStatus(st int) {
	rc.mu.Lock()
	rc.statuses = []int{st}
	rc.mu.Unlock()
}

func fastClient(endpoint string) *Client {
	c := NewClient(endpoint)
	c.Backoff, c.MaxBackoff = time.Millisecond, 5*time.Millisecond
	return c
}

func TestClientRetries429And5xx(t *testing.T) {
	for _, c := range []struct {
		name     string
		statuses []int
		retries  int
		status   int
		attempts int
		wantErr  string
	}{
		{"429 then 503 then 200", []int{429, 503, 200}, 3, 200, 3, ""},
		{"202 at once", []int{202}, 3, 202, 1, ""},
		{"403 is not retried", []int{403, 200}, 3, 403, 1, "HTTP 403 (key not valid: the key file was not found or does not match): refused for now"},
		{"422 is not retried", []int{422}, 3, 422, 1, "HTTP 422"},
		{"500 until retries run out", []int{500}, 2, 500, 3, "HTTP 500: refused for now"},
		{"manual: no retry", []int{503, 200}, 0, 503, 1, "HTTP 503"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rc := newReceiver(t, c.statuses...)
			res, err := fastClient(rc.URL).Submit(context.Background(), Payload{Host: "h", Key: key, URLList: []string{base + "/"}}, c.retries)
			if res.Status != c.status || res.Attempts != c.attempts || len(rc.calls()) != c.attempts {
				t.Errorf("status %d after %d attempts (%d calls), want %d after %d", res.Status, res.Attempts, len(rc.calls()), c.status, c.attempts)
			}
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), c.wantErr)) {
				t.Errorf("err = %v, want %q", err, c.wantErr)
			}
		})
	}
	// An unreachable endpoint is retried, then reported.
	rc := newReceiver(t, 200)
	rc.Close()
	res, err := fastClient(rc.URL).Submit(context.Background(), Payload{}, 1)
	if err == nil || !strings.Contains(err.Error(), "could not be reached") || res.Attempts != 2 || !Retryable(err) {
		t.Errorf("unreachable: %v after %d attempts", err, res.Attempts)
	}
}

type env struct {
	svc  *Service
	rc   *receiver
	st   *db.Store
	logs *bytes.Buffer
	mu   *sync.Mutex
	on   *bool
}

func newEnv(t *testing.T, fixedKey string, statuses ...int) *env {
	t.Helper()
	st := db.NewTestSQLite(t)
	rc := newReceiver(t, statuses...)
	logs := &bytes.Buffer{}
	mu := &sync.Mutex{}
	on := true
	svc := &Service{
		Client: fastClient(rc.URL), Keys: &Keys{Fixed: fixedKey, Store: st}, Store: st, Base: base,
		Enabled: func(context.Context) (bool, error) { mu.Lock(); defer mu.Unlock(); return on, nil },
		Log:     slog.New(slog.NewTextHandler(logs, nil)),
	}
	return &env{svc: svc, rc: rc, st: st, logs: logs, mu: mu, on: &on}
}

func pages(kv ...string) []Page {
	var out []Page
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, Page{Path: kv[i], ETag: kv[i+1]})
	}
	return out
}

func TestAutoSubmitSendsOnlyChangedPages(t *testing.T) {
	e := newEnv(t, key, 200)
	ctx := context.Background()
	e.svc.Observe(pages("/", `"1"`, "/services", `"2"`, "/portfolio", `"3"`))
	sum, err := e.svc.AutoSubmit(ctx)
	if err != nil || !strings.Contains(sum, "baseline") || len(e.rc.calls()) != 0 {
		t.Fatalf("first run: %q %v, %d calls; want a baseline and no call", sum, err, len(e.rc.calls()))
	}
	// Home and portfolio change (an upload); services does not; a new page appears.
	e.svc.Observe(pages("/", `"1b"`, "/services", `"2"`, "/portfolio", `"3b"`, "/new", `"4"`))
	sum, err = e.svc.AutoSubmit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	calls := e.rc.calls()
	if len(calls) != 1 {
		t.Fatalf("%d calls, want 1", len(calls))
	}
	want := Payload{Host: "www.example-restoration.test", Key: key, KeyLocation: base + "/" + key + ".txt", URLList: []string{base + "/", base + "/portfolio", base + "/new"}}
	if diff := cmp.Diff(want, calls[0]); diff != "" {
		t.Errorf("payload (-want, +got):\n%s", diff)
	}
	if sum != "submitted 3 changed pages (HTTP 200): /, /portfolio, /new" {
		t.Errorf("summary %q", sum)
	}
	sent, _ := e.st.IndexNowSent(ctx)
	if diff := cmp.Diff(map[string]string{"/": `"1b"`, "/services": `"2"`, "/portfolio": `"3b"`, "/new": `"4"`}, sent); diff != "" {
		t.Errorf("indexnow_sent (-want, +got):\n%s", diff)
	}
	subs, total, _ := e.st.ListIndexNowSubmissions(ctx, 10, 0)
	if total != 1 || subs[0].TriggeredBy != "auto" || subs[0].StatusCode != 200 || subs[0].Outcome != "ok" || len(SubmissionURLs(subs[0])) != 3 {
		t.Errorf("recorded submissions = %+v", subs)
	}
	// Nothing changed: nothing sent.
	if sum, err := e.svc.AutoSubmit(ctx); err != nil || len(e.rc.calls()) != 1 || !strings.Contains(sum, "no page changed") {
		t.Errorf("unchanged run: %q %v, %d calls", sum, err, len(e.rc.calls()))
	}
}

// A warm-up that could not render some pages (a very busy machine) still
// gives the baseline, with those pages marked unknown: the first time one
// renders it is recorded, not sent as changed, and a page published later
// is sent as usual.
func TestBaselineFromAPartialWarmUp(t *testing.T) {
	e := newEnv(t, key, 200)
	ctx := context.Background()
	e.svc.ObserveWarm(pages("/", `"1"`, "/services", `"2"`), []string{"/portfolio"})
	if sum, err := e.svc.AutoSubmit(ctx); err != nil || !strings.Contains(sum, "recorded the current version of 3 pages") {
		t.Fatalf("first run after a warm-up with a failure: %q %v", sum, err)
	}
	// The page that failed renders, and a new post is published.
	e.svc.ObserveWarm(pages("/", `"1"`, "/services", `"2"`, "/portfolio", `"3"`, "/blog/new", `"4"`), nil)
	if sum, err := e.svc.AutoSubmit(ctx); err != nil || sum != "submitted 1 changed page (HTTP 200): /blog/new" {
		t.Fatalf("run after the whole site rendered: %q %v", sum, err)
	}
	sent, _ := e.st.IndexNowSent(ctx)
	if sent["/portfolio"] != `"3"` {
		t.Errorf("the page first rendered after the baseline was not recorded: %q", sent["/portfolio"])
	}
	// Later it changes: now it is sent. A partial warm-up sends what
	// changed among the pages it rendered, nothing for the others.
	e.svc.ObserveWarm(pages("/", `"1"`, "/portfolio", `"3b"`), []string{"/services", "/blog/new"})
	if sum, err := e.svc.AutoSubmit(ctx); err != nil || sum != "submitted 1 changed page (HTTP 200): /portfolio" {
		t.Fatalf("run after a partial warm-up: %q %v", sum, err)
	}
	if n := len(e.rc.calls()); n != 2 {
		t.Errorf("%d calls to IndexNow, want 2", n)
	}
}

func TestAutoSubmitOffSendsNothing(t *testing.T) {
	e := newEnv(t, key, 200)
	ctx := context.Background()
	e.svc.Observe(pages("/", `"1"`))
	e.svc.AutoSubmit(ctx) // baseline
	*e.on = false
	e.svc.Observe(pages("/", `"2"`))
	_, err := e.svc.AutoSubmit(ctx)
	if err == nil || err.Error() != "auto-submit to IndexNow is off" {
		t.Errorf("toggle off: err = %v, want the skip", err)
	}
	if n := len(e.rc.calls()); n != 0 {
		t.Errorf("%d calls with the toggle off", n)
	}
	// Switched on again, the change made meanwhile goes out.
	*e.on = true
	if _, err := e.svc.AutoSubmit(ctx); err != nil || len(e.rc.calls()) != 1 {
		t.Errorf("after switching on: %v, %d calls", err, len(e.rc.calls()))
	}
}

func TestNoKeyLogsOnceAndSendsNothing(t *testing.T) {
	e := newEnv(t, "", 200)
	ctx := context.Background()
	e.svc.Observe(pages("/", `"1"`))
	e.svc.AutoSubmit(ctx) // baseline
	for i, etag := range []string{`"2"`, `"3"`, `"4"`} {
		e.svc.Observe(pages("/", etag))
		_, err := e.svc.AutoSubmit(ctx)
		if err == nil || !strings.HasPrefix(err.Error(), "IndexNow API key not configured") {
			t.Errorf("run %d: err = %v", i, err)
		}
	}
	if n := strings.Count(e.logs.String(), "IndexNow API key not configured"); n != 1 {
		t.Errorf("logged %d times, want once:\n%s", n, e.logs.String())
	}
	if n := len(e.rc.calls()); n != 0 {
		t.Errorf("%d calls without a key", n)
	}
	// A key saved from the admin screen is used from then on.
	if err := e.svc.Keys.Save(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.AutoSubmit(ctx); err != nil || len(e.rc.calls()) != 1 || e.rc.calls()[0].Key != key {
		t.Errorf("with a saved key: %v, calls %+v", err, e.rc.calls())
	}
}

func TestFailedSubmissionKeepsPagesPending(t *testing.T) {
	e := newEnv(t, key, 500)
	ctx := context.Background()
	e.svc.Observe(pages("/", `"1"`, "/a", `"2"`))
	e.svc.AutoSubmit(ctx)
	e.svc.Observe(pages("/", `"1"`, "/a", `"2b"`))
	_, err := e.svc.AutoSubmit(ctx)
	if err == nil || !Retryable(err) || !strings.Contains(err.Error(), "HTTP 500") {
		t.Fatalf("err = %v, want a retryable 500", err)
	}
	// 1 + 3 retries.
	if n := len(e.rc.calls()); n != 4 {
		t.Errorf("%d calls, want 4", n)
	}
	sent, _ := e.st.IndexNowSent(ctx)
	if sent["/a"] != `"2"` {
		t.Errorf("a failed submission updated indexnow_sent: %v", sent)
	}
	subs, _, _ := e.st.ListIndexNowSubmissions(ctx, 10, 0)
	if len(subs) != 1 || subs[0].Outcome != "failed" || subs[0].StatusCode != 500 || !strings.Contains(subs[0].Response, "after 4 attempts") {
		t.Errorf("recorded = %+v", subs)
	}
	// The retry (the runner's) sends the same page once IndexNow is back.
	e.rc.setStatus(200)
	if _, err := e.svc.AutoSubmit(ctx); err != nil {
		t.Fatal(err)
	}
	calls := e.rc.calls()
	if got := calls[len(calls)-1].URLList; len(got) != 1 || got[0] != base+"/a" {
		t.Errorf("resubmitted %v", got)
	}
	// A refusal that retrying cannot fix is marked so.
	e.rc.setStatus(403)
	e.svc.Observe(pages("/", `"1"`, "/a", `"2c"`))
	_, err = e.svc.AutoSubmit(ctx)
	if err == nil || Retryable(err) || !strings.Contains(err.Error(), "HTTP 403") {
		t.Errorf("403: %v, want a permanent failure", err)
	}
}

func TestManualSubmitMarksPagesSent(t *testing.T) {
	e := newEnv(t, "", 200)
	ctx := context.Background()
	e.svc.Observe(pages("/", `"1"`, "/a", `"2"`))
	res, err := e.svc.Submit(ctx, TriggerAll, key, []string{base + "/", base + "/a"})
	if err != nil || res.Status != 200 {
		t.Fatal(res, err)
	}
	sent, _ := e.st.IndexNowSent(ctx)
	if len(sent) != 2 {
		t.Errorf("sent = %v", sent)
	}
	subs, _, _ := e.st.ListIndexNowSubmissions(ctx, 10, 0)
	if len(subs) != 1 || subs[0].TriggeredBy != "all" {
		t.Errorf("recorded = %+v", subs)
	}
}

func TestKeys(t *testing.T) {
	st := db.NewTestSQLite(t)
	ctx := context.Background()
	k := &Keys{Store: st}
	if got, fixed, err := k.Key(ctx); got != "" || fixed || err != nil {
		t.Errorf("no key: %q %v %v", got, fixed, err)
	}
	if err := k.Save(ctx, "bad key"); !errors.Is(err, ErrBadKey) {
		t.Errorf("bad key: %v", err)
	}
	if err := k.Save(ctx, key); err != nil {
		t.Fatal(err)
	}
	if got, fixed, _ := k.Key(ctx); got != key || fixed {
		t.Errorf("saved key: %q %v", got, fixed)
	}
	// INDEXNOW_KEY wins and cannot be replaced from the admin screen.
	k.Fixed = "configured-key-123"
	if got, fixed, _ := k.Key(ctx); got != "configured-key-123" || !fixed {
		t.Errorf("configured key: %q %v", got, fixed)
	}
	if err := k.Save(ctx, key); !errors.Is(err, ErrFixedKey) {
		t.Errorf("save over INDEXNOW_KEY: %v", err)
	}
}
