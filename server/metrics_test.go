package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

const metricsToken = "scrape-0123456789abcdef"

func metricsReq(t *testing.T, h http.Handler, remote, token string, hdr ...string) *response {
	t.Helper()
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.RemoteAddr = remote
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return do(t, h, req)
}

// /metrics is refused to anyone but its scraper: without a token, only
// this machine unforwarded; with METRICS_TOKEN, only that bearer token
// (loopback included). Refusals read nothing and are no-store.
func TestMetricsGuard(t *testing.T) {
	open, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir()})
	guarded, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir(), "METRICS_TOKEN": metricsToken})
	for _, c := range []struct {
		name   string
		srv    *Server
		remote string
		token  string
		hdr    []string
		want   int
	}{
		{"no token, from another machine", open, "203.0.113.7:5000", "", nil, http.StatusForbidden},
		{"no token, loopback", open, "127.0.0.1:5000", "", nil, http.StatusOK},
		{"no token, loopback IPv6", open, "[::1]:5000", "", nil, http.StatusOK},
		{"no token, loopback but forwarded", open, "127.0.0.1:5000", "", []string{"X-Forwarded-For", "203.0.113.7"}, http.StatusForbidden},
		{"no token, loopback but Forwarded", open, "127.0.0.1:5000", "", []string{"Forwarded", "for=203.0.113.7"}, http.StatusForbidden},
		{"no token, loopback but X-Real-IP", open, "127.0.0.1:5000", "", []string{"X-Real-Ip", "203.0.113.7"}, http.StatusForbidden},
		{"a made-up token where none is set", open, "203.0.113.7:5000", "anything-at-all-1234", nil, http.StatusForbidden},
		{"token set, none sent, from another machine", guarded, "203.0.113.7:5000", "", nil, http.StatusUnauthorized},
		{"token set, none sent, loopback", guarded, "127.0.0.1:5000", "", nil, http.StatusUnauthorized},
		{"token set, wrong token", guarded, "203.0.113.7:5000", metricsToken + "x", nil, http.StatusUnauthorized},
		{"token set, a prefix of it", guarded, "203.0.113.7:5000", metricsToken[:10], nil, http.StatusUnauthorized},
		{"token set, the token, forwarded", guarded, "203.0.113.7:5000", metricsToken, []string{"X-Forwarded-For", "198.51.100.1"}, http.StatusOK},
		{"token set, the token", guarded, "203.0.113.7:5000", metricsToken, nil, http.StatusOK},
	} {
		r := metricsReq(t, c.srv.Handler(), c.remote, c.token, c.hdr...)
		if r.StatusCode != c.want {
			t.Errorf("%s: %d, want %d", c.name, r.StatusCode, c.want)
		}
		if r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Cache-Control %q", c.name, r.Header.Get("Cache-Control"))
		}
		if c.want != http.StatusOK && strings.Contains(r.Body, "site_") {
			t.Errorf("%s: a refusal carries metrics: %.200s", c.name, r.Body)
		}
	}
	// A token in a query string is not a token.
	req := httptest.NewRequest("GET", "/metrics?token="+metricsToken, nil)
	req.RemoteAddr = "203.0.113.7:5000"
	if r := do(t, guarded.Handler(), req); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("token in the query: %d", r.StatusCode)
	}
	// Other methods are not routed to the registry.
	req = httptest.NewRequest("POST", "/metrics", nil)
	req.RemoteAddr = "127.0.0.1:5000"
	if r := do(t, open.Handler(), req); r.StatusCode == http.StatusOK || strings.Contains(r.Body, "site_") {
		t.Errorf("POST /metrics: %d", r.StatusCode)
	}
}

// /metrics shows every figure the alert rules and dashboards read, counts what happened, and
// never a path, an address, an account, a lead's data or a secret.
func TestMetricsContent(t *testing.T) {
	srv, store, h := accountServer(t)
	// A public page (twice: a miss, then cached), a search, 404s with
	// made-up paths, a lead, a failed sign-in and a wrong PIN.
	get(t, h, "/")
	get(t, h, "/")
	get(t, h, "/search?q=water")
	for i := 0; i < 20; i++ {
		get(t, h, fmt.Sprintf("/no-such-page-%d-maria.g@example.com", i))
	}
	if r := postForm(t, h, "/api/estimate", validForm(), "10.9.8.7", "application/json"); r.StatusCode != 201 {
		t.Fatalf("estimate: %d %s", r.StatusCode, r.Body)
	}
	loginFrom(t, h, "10.9.8.6", adminEmail, "not the password")
	jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": "000000"})
	signIn(t, h, adminEmail, adminPass)
	// A notification waiting (no channel is configured here, so the
	// row is written directly).
	now := time.Now().UTC()
	store.CreateLeadWithOutbox(context.Background(), db.Lead{ID: "waiting", CreatedAt: now, UpdatedAt: now, FirstName: "W", Phone: "4045550100", Status: "new", Source: "website"},
		[]db.OutboxRow{{Kind: db.OutboxWebhook, Payload: "{}", NextAttemptAt: now.Add(time.Hour), CreatedAt: now.Add(-10 * time.Minute)}})
	// A job's outcome is counted through jobs.Options.Observe.
	srv.metrics.ObserveJob("retention", db.OutcomeOK, time.Second)
	store.RecordBackup(context.Background(), db.BackupRun{StartedAt: time.Now().Add(-time.Hour), FinishedAt: time.Now().Add(-time.Hour), Outcome: db.OutcomeOK, Name: "20261125-031500", Bytes: 4096})

	r := metricsReq(t, h, "127.0.0.1:5000", "")
	if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %d %s", r.StatusCode, r.Header.Get("Content-Type"))
	}
	body := r.Body
	for _, want := range []string{
		`site_http_requests_total{code="200",kind="page_cached"}`,
		`site_http_requests_total{code="200",kind="page"}`,
		`site_http_requests_total{code="404",kind="page"} 20`,
		`site_http_request_duration_seconds_bucket{kind="page_cached",le=`,
		`site_http_requests_total{code="201",kind="estimate"} 1`,
		"site_render_cache_hits_total", "site_render_cache_misses_total", "site_render_cache_pages",
		`site_render_duration_seconds_count{page_kind="home"}`, "site_render_pool_wait_seconds_count",
		"site_search_queue 0", "site_search_running 0", "site_search_rejected_total 0",
		`site_outbox_pending{channel="webhook"} 1`, `site_outbox_retrying{channel="webhook"} 0`, `site_outbox_failed{channel="webhook"} 0`, "site_outbox_oldest_pending_seconds 6",
		"site_spool_backlog 0", "site_spool_set_aside 0",
		`site_job_runs_total{outcome="ok",task="retention"} 1`,
		"site_admin_sessions 1",
		`site_signin_failures_total{secret="password"} 1`, `site_signin_failures_total{secret="pin"} 1`, `site_signin_lockouts_total{secret="pin"} 0`,
		`go_sql_open_connections{db_name="site"}`, `go_sql_wait_count_total{db_name="site"}`,
		"site_backup_last_success_timestamp_seconds", "site_backup_age_seconds", "site_backup_last_run_failed 0", "site_backup_alarm 0",
		"site_content_version", "site_database_up 1", "site_build_info{", "go_goroutines", "process_resident_memory_bytes",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if m := regexp.MustCompile(`(?m)^site_backup_age_seconds (\S+)`).FindStringSubmatch(body); m == nil || !strings.HasPrefix(m[1], "3") {
		t.Errorf("backup age: %v", m)
	}
	for _, never := range []string{"maria", "example.com", "555-01", "5550199", "10.9.8", "no-such-page", "water", testPIN, adminPass, "/search", "Gonzalez"} {
		if strings.Contains(body, never) {
			t.Errorf("/metrics shows %q", never)
		}
	}
	// Every series the example alert rules use exists.
	rules, err := os.ReadFile("../docs/prometheus-alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range regexp.MustCompile(`site_[a-z_]+`).FindAllString(string(rules), -1) {
		if !strings.Contains(body, "\n"+name) {
			t.Errorf("docs/prometheus-alerts.yml uses %s, which /metrics does not show", name)
		}
	}
	// No series carries a label a scrape sets itself (`job`, `instance`):
	// Prometheus would rename ours to exported_job and the alert rules
	// would read one job for all (docs/prometheus-alerts.test.yml tests
	// the rules on series as a scrape stores them).
	if m := regexp.MustCompile(`(?m)^\w+\{[^}]*\b(job|instance)="`).FindString(body); m != "" {
		t.Errorf("/metrics has a series with a scrape's own label: %s", m)
	}
	// Route kinds are a small fixed set whatever the paths asked for.
	kinds := map[string]bool{}
	for _, m := range regexp.MustCompile(`site_http_requests_total\{code="\d+",kind="([a-z_]+)"\}`).FindAllStringSubmatch(body, -1) {
		kinds[m[1]] = true
	}
	if len(kinds) > 8 {
		t.Errorf("route kinds: %v", kinds)
	}
}
