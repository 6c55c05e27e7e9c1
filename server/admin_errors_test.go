package server

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/indexnow/indexnowtest"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/notify/notifytest"
	"github.com/atlanta-restoration/site/spool"
	"github.com/atlanta-restoration/site/web/dashboard"
)

// urlToken is a secret-looking path segment put in every configured
// address of these tests: no admin answer may show it.
const urlToken = "TOKEN-do-not-show-2290"

// addressLeaks lists what of a configured address body shows.
func addressLeaks(body string, extra ...string) []string {
	var out []string
	for _, f := range append([]string{"127.0.0.1", "[::1]", "localhost", "crm-hook", ".invalid", urlToken, "/hooks", "/maps/", "/indexnow/",
		"http://127", "https://127", "dial tcp"}, extra...) {
		if f != "" && strings.Contains(body, f) {
			out = append(out, f)
		}
	}
	return out
}

// closedAddr is a loopback host:port nothing listens on.
func closedAddr(t *testing.T) (addr, port string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = ln.Addr().String()
	ln.Close()
	return addr, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// leadServerTimeout is leadServer with the webhook's timeout set to
// hookTimeout and the mail's cut, so a receiver that never answers fails
// within the test.
func leadServerTimeout(t *testing.T, env map[string]string, hookTimeout time.Duration) leadKit {
	t.Helper()
	newTestServer(t, nil)
	cfg := testConfig(t, mapWith(env, "ADMIN_PIN", testPIN, "DATA_DIR", t.TempDir()))
	nc, err := notify.FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if nc.Webhook != nil {
		nc.Webhook.Client.Timeout = hookTimeout
	}
	if nc.SMTP != nil {
		nc.SMTP.Timeout = 2 * time.Second
	}
	store := db.NewTestSQLite(t)
	n := notify.New(store, nc, quiet)
	sp, err := spool.Open(filepath.Join(cfg.DataDir, "spool"), quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	in := spool.NewIntake(n, sp, store.Ping, quiet)
	srv, err := buildServer(t, testParts{Config: cfg, Store: store, Leads: in, Notifier: n})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return leadKit{srv: srv, notifier: n, intake: in, spool: sp}
}

// The dashboard's notifications card names the kind of a webhook or mail
// failure, never the receiver's IP, host, port, path or token: a refused
// connection (IPv4, IPv6, by name), a receiver that never answers, a bad
// certificate, a 503, a name that does not resolve, a refused SMTP login.
func TestNotificationsCardNamesOnlyTheKind(t *testing.T) {
	refused, refusedPort := closedAddr(t)
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
	badTLS.Config.ErrorLog = log.New(io.Discard, "", 0)
	badTLS.StartTLS()
	defer badTLS.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream 10.9.8.7:9000 down", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	port := func(u string) string { _, p, _ := net.SplitHostPort(u[strings.Index(u, "//")+2:]); return p }
	cases := []struct{ name, base, want, port string }{
		{"refused", "http://" + refused, "webhook: connection refused", refusedPort},
		{"refused by name", "http://localhost:" + refusedPort, "webhook: connection refused", refusedPort},
		{"never answers", "http://" + silent.Addr().String(), "webhook: timed out", port("http://" + silent.Addr().String())},
		{"bad certificate", badTLS.URL, "webhook: TLS certificate not trusted", port(badTLS.URL)},
		{"503", down.URL, "webhook: HTTP 503 from the receiver", port(down.URL)},
		{"unknown host", "https://crm-hook.invalid:8443", "webhook: DNS lookup failed", "8443"},
	}
	if ln, err := net.Listen("tcp", "[::1]:0"); err == nil {
		p := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		ln.Close()
		cases = append(cases, struct{ name, base, want, port string }{"refused over IPv6", "http://[::1]:" + p, "webhook: connection refused", p})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Only the receiver that never answers should reach the
			// timeout; a loaded machine's slow TLS handshake must not.
			timeout := 10 * time.Second
			if c.want == "webhook: timed out" {
				timeout = 300 * time.Millisecond
			}
			k := leadServerTimeout(t, notifyEnv(nil, c.base+"/hooks/catch/"+urlToken+"?token="+urlToken), timeout)
			h := k.srv.Handler()
			if r := postForm(t, h, "/api/estimate", validForm(), "10.8.1.1", "application/json"); r.StatusCode != http.StatusCreated {
				t.Fatalf("submit: %d %s", r.StatusCode, r.Body)
			}
			k.notifier.DeliverDue(context.Background())
			tok := unlock(t, h)
			r := jsonReq(t, h, "GET", "/api/admin/notifications", tok, nil)
			var st dashboard.NotificationsStatus
			if err := json.Unmarshal([]byte(r.Body), &st); err != nil || r.StatusCode != 200 {
				t.Fatalf("notifications: %d %s", r.StatusCode, r.Body)
			}
			if st.LastError != c.want || len(st.Recent) != 1 || st.Recent[0].LastError != c.want {
				t.Errorf("want %q: %s", c.want, r.Body)
			}
			if l := addressLeaks(r.Body, ":"+c.port, "10.9.8.7"); len(l) > 0 {
				t.Errorf("the notifications answer shows %v: %s", l, r.Body)
			}
		})
	}

	t.Run("SMTP refuses the login", func(t *testing.T) {
		fake := notifytest.NewServer(t, notifytest.Options{StartTLS: true, User: smtpUser, Password: "not-the-configured-one"})
		env := notifyEnv(fake, "")
		delete(env, "LEAD_WEBHOOK_URL")
		k := leadServer(t, db.NewTestSQLite(t), env, fake.ClientTLS(), nil)
		h := k.srv.Handler()
		postForm(t, h, "/api/estimate", validForm(), "10.8.1.2", "application/json")
		k.notifier.DeliverDue(context.Background())
		r := jsonReq(t, h, "GET", "/api/admin/notifications", unlock(t, h), nil)
		if !strings.Contains(r.Body, `"lastError":"email: SMTP 535 authentication failed"`) {
			t.Errorf("want the SMTP refusal named: %s", r.Body)
		}
		_, p, _ := net.SplitHostPort(fake.Addr)
		if l := addressLeaks(r.Body, ":"+p, smtpPassword, smtpUser); len(l) > 0 {
			t.Errorf("the notifications answer shows %v: %s", l, r.Body)
		}
	})
}

// IndexNow and Google Places failures reach the admin as their kind: the
// manual submission's error, the submission history, and the recent
// activity of the jobs (job_runs), as answered and as stored.
func TestJobAndIndexNowErrorsNameOnlyTheKind(t *testing.T) {
	fake := indexnowtest.New(t, http.StatusOK)
	refused, refusedPort := closedAddr(t)
	places := "http://" + refused + "/maps/api/place/" + urlToken
	srv, store := warmServer(t, fake, map[string]string{"INDEXNOW_ENDPOINT": fake.URL + "/indexnow/" + urlToken,
		"GOOGLE_PLACES_API_KEY": "places-key-" + urlToken, "GOOGLE_PLACE_ID": "p", "GOOGLE_PLACES_ENDPOINT": places})
	h := srv.Handler()
	srv.jobs.indexNow.Client.Backoff, srv.jobs.indexNow.Client.MaxBackoff = time.Millisecond, time.Millisecond
	srv.Warm()
	waitRun(t, store, jobIndexNow, 1) // the baseline
	fake.Close()
	_, fakePort, _ := net.SplitHostPort(strings.TrimPrefix(fake.URL, "http://"))
	tok := unlock(t, h)

	// The admin's own submission.
	r := jsonReq(t, h, "POST", "/api/admin/indexnow/submit", tok, map[string]any{"urls": []string{testBase + "/"}, "apiKey": testIndexNowKey})
	if r.StatusCode != http.StatusBadGateway || !strings.Contains(r.Body, "The submission to IndexNow failed: connection refused.") {
		t.Errorf("submit: %d %s", r.StatusCode, r.Body)
	}
	if l := addressLeaks(r.Body, ":"+fakePort); len(l) > 0 {
		t.Errorf("the submit error shows %v: %s", l, r.Body)
	}
	// The automatic submission after a change.
	if r := upload(t, h, tok, "Kitchen Fire Repair", "IMG_0042.JPG", testJPEG(t, 640, 480)); r.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	if run := waitRun(t, store, jobIndexNow, 2); run.Outcome != db.OutcomeFailed || run.Summary != "IndexNow: connection refused" {
		t.Errorf("auto-submit run: %+v", run)
	}
	// The daily review refresh.
	srv.jobs.runner.RunNow(jobReviews)
	if run := waitRun(t, store, jobReviews, 1); run.Outcome != db.OutcomeFailed || run.Summary != "Google Places: connection refused" {
		t.Errorf("reviews run: %+v", run)
	}
	hist := jsonReq(t, h, "GET", "/api/admin/indexnow/submissions", tok, nil)
	if !strings.Contains(hist.Body, `"response":"IndexNow: connection refused"`) {
		t.Errorf("history: %s", hist.Body)
	}
	act := jsonReq(t, h, "GET", "/api/admin/jobs", tok, nil)
	for _, want := range []string{`"summary":"IndexNow: connection refused"`, `"summary":"Google Places: connection refused"`} {
		if !strings.Contains(act.Body, want) {
			t.Errorf("recent activity lacks %s: %s", want, act.Body)
		}
	}
	stored := rawColumn(t, store, `SELECT summary FROM job_runs`) + rawColumn(t, store, `SELECT response FROM indexnow_submissions`)
	for what, body := range map[string]string{"history": hist.Body, "activity": act.Body, "stored rows": stored} {
		if l := addressLeaks(body, ":"+fakePort, ":"+refusedPort, "places-key"); len(l) > 0 {
			t.Errorf("%s shows %v: %s", what, l, body)
		}
	}
}

// A Places answer with an error status of its own is named by that
// status; Places' message (which may quote anything) stays in the log.
func TestReviewsStatusNamedNotQuoted(t *testing.T) {
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"status":"REQUEST_DENIED","error_message":"API key places-key-` + urlToken + ` not valid for referer http://10.1.1.1:8080/admin"}`))
	}))
	defer fake.Close()
	srv, store := adminServer(t, map[string]string{"GOOGLE_PLACES_API_KEY": "places-key-" + urlToken, "GOOGLE_PLACE_ID": "p", "GOOGLE_PLACES_ENDPOINT": fake.URL + "/maps/" + urlToken})
	srv.StartJobs()
	t.Cleanup(func() { srv.StopJobs(context.Background()) })
	srv.jobs.runner.RunNow(jobReviews)
	if run := waitRun(t, store, jobReviews, 1); run.Summary != "Google Places: answered REQUEST_DENIED" {
		t.Errorf("run %+v", run)
	}
	act := jsonReq(t, srv.Handler(), "GET", "/api/admin/jobs", unlock(t, srv.Handler()), nil)
	if l := addressLeaks(act.Body, "10.1.1.1", "places-key"); len(l) > 0 || !strings.Contains(act.Body, "answered REQUEST_DENIED") {
		t.Errorf("activity shows %v: %s", l, act.Body)
	}
}

// Rows stored before errors were classified (outbox.last_error, a failed
// job run's summary, an IndexNow response) hold raw network errors; the
// admin answers show their kind, not the address.
func TestRawStoredErrorsAreNotShown(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	ctx := context.Background()
	now := time.Now().UTC()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := store.SQL().ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO job_runs (id, job, started_at, finished_at, outcome, summary) VALUES (?, ?, ?, ?, ?, ?)`,
		"run-old", jobIndexNow, now, now, db.OutcomeFailed,
		`submitted 0 of 2 changed pages, then: the endpoint could not be reached (Post "http://127.0.0.1:43421/indexnow/`+urlToken+`": dial tcp 127.0.0.1:43421: connect: connection refused)`)
	exec(`INSERT INTO indexnow_submissions (id, created_at, triggered_by, urls, url_count, status_code, response, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		"sub-old", now, "auto", `["https://www.example-restoration.test/"]`, 1, 0,
		`the endpoint could not be reached (Post "http://[::1]:43421/indexnow/`+urlToken+`": dial tcp [::1]:43421: i/o timeout) (after 4 attempts)`, db.OutcomeFailed)
	lead := db.Lead{ID: "lead-old", FirstName: "A", Phone: "7705550100", CreatedAt: now, UpdatedAt: now, Status: "new"}
	if _, err := store.CreateLeadWithOutbox(ctx, lead, []db.OutboxRow{{Kind: db.OutboxWebhook, LeadID: lead.ID, Payload: "{}", NextAttemptAt: now.Add(time.Hour), CreatedAt: now}}); err != nil {
		t.Fatal(err)
	}
	exec(`UPDATE outbox SET last_error = ?, attempts = 1`, "webhook: dial tcp 127.0.0.1:43421: connect: connection refused")

	tok := unlock(t, h)
	for path, want := range map[string]string{
		"/api/admin/jobs":                 `"summary":"connection refused"`,
		"/api/admin/indexnow/submissions": `"response":"timed out"`,
		"/api/admin/notifications":        `"lastError":"webhook: connection refused"`,
	} {
		r := jsonReq(t, h, "GET", path, tok, nil)
		if r.StatusCode != 200 || !strings.Contains(r.Body, want) {
			t.Errorf("%s: want %s: %d %s", path, want, r.StatusCode, r.Body)
		}
		if l := addressLeaks(r.Body, "43421"); len(l) > 0 {
			t.Errorf("%s shows %v: %s", path, l, r.Body)
		}
	}
}

// rawColumn reads one text column of every row, as stored.
func rawColumn(t *testing.T, store *db.Store, q string) string {
	t.Helper()
	rows, err := store.SQL().QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}
