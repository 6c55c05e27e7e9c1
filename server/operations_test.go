package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
)

// Issue 24's HTTP edge: /metrics and its guard, request ids, the log's
// formats, the backup alarm on /healthz and the dashboard, privacy
// requests, and the privacy page's retention block.

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

// /metrics shows every figure issue 24 lists, counts what happened, and
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

// Every answer carries X-Request-Id, and the request's log line the same
// id; behind TRUST_PROXY a well-formed incoming id is kept, anything
// else is replaced; without TRUST_PROXY nobody chooses the id.
func TestRequestIDs(t *testing.T) {
	for _, trust := range []bool{false, true} {
		t.Run(fmt.Sprint("trust proxy ", trust), func(t *testing.T) {
			srv, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir(), "TRUST_PROXY": fmt.Sprint(trust)})
			var buf bytes.Buffer
			var mu sync.Mutex
			srv.log = NewFormatLogger(lockedWriter{&buf, &mu}, nil, "json", 0)
			h := srv.Handler()
			get(t, h, "/") // warm: the next / is served from the cache
			seen := map[string]bool{}
			for _, c := range []struct {
				name, path, incoming string
			}{
				{"cached page", "/", ""},
				{"routed page", "/services", ""},
				{"404", "/nope", ""},
				{"admin API", "/api/admin/session", ""},
				{"incoming good", "/", "5f2b9c1e-7a4d-4c7b-9a55-0b3f1e2d4c6a"},
				{"incoming too short", "/", "abc"},
				{"incoming with a newline", "/", "good-id-123\nlevel=ERROR"},
				{"incoming with spaces", "/", "an id with spaces"},
			} {
				req := httptest.NewRequest("GET", c.path, nil)
				if c.incoming != "" {
					req.Header["X-Request-Id"] = []string{c.incoming}
				}
				r := do(t, h, req)
				id := r.Header.Get("X-Request-Id")
				keep := trust && c.name == "incoming good"
				switch {
				case keep && id != c.incoming:
					t.Errorf("%s: %q, want the incoming id", c.name, id)
				case !keep && !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(id):
					t.Errorf("%s: id %q is not one the server made", c.name, id)
				}
				if !keep && seen[id] {
					t.Errorf("%s: id %q seen twice", c.name, id)
				}
				seen[id] = true
				mu.Lock()
				logged := buf.String()
				mu.Unlock()
				if !strings.Contains(logged, `"req_id":"`+id+`"`) {
					t.Errorf("%s: the log has no line with req_id %q", c.name, id)
				}
			}
		})
	}
	// Ids minted in blocks stay unique across blocks and goroutines.
	var m idMinter
	var mu sync.Mutex
	all := map[string]bool{}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]string, 0, 1000)
			for i := 0; i < 1000; i++ {
				local = append(local, m.take()[0])
			}
			mu.Lock()
			for _, id := range local {
				all[id] = true
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(all) != 4000 {
		t.Errorf("%d distinct ids of 4000", len(all))
	}
}

// LOG_FORMAT=json writes the same keys as the text format, one object per
// line; LOG_LEVEL drops what is below it; secrets are redacted in both
// formats, in messages, attributes and errors.
func TestLogFormatsAndRedaction(t *testing.T) {
	secrets := []string{"s3-secret-do-not-log", "9071355"}
	for _, format := range []string{"text", "json"} {
		var buf bytes.Buffer
		log := NewFormatLogger(&buf, secrets, format, -4)
		log.Info("fetch failed for key s3-secret-do-not-log", "err", fmt.Errorf("GET https://x.example/?key=%s: refused", secrets[0]), "pin", secrets[1], "n", 3)
		log.Debug("debug line")
		out := buf.String()
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s: %q reached the log:\n%s", format, s, out)
			}
		}
		if !strings.Contains(out, "[REDACTED]") || !strings.Contains(out, "debug line") {
			t.Errorf("%s: %s", format, out)
		}
		if format == "json" {
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var m map[string]any
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Errorf("not one JSON object per line: %q", line)
				}
				for _, k := range []string{"time", "level", "msg"} {
					if _, ok := m[k]; !ok {
						t.Errorf("json line lacks %s: %q", k, line)
					}
				}
			}
		}
	}
	var buf bytes.Buffer
	warn := NewFormatLogger(&buf, nil, "text", 4)
	warn.Info("hidden")
	warn.Warn("shown")
	if strings.Contains(buf.String(), "hidden") || !strings.Contains(buf.String(), "shown") {
		t.Errorf("LOG_LEVEL=warn: %q", buf.String())
	}
	// A request line in each format carries the same keys.
	keys := func(format string) []string {
		srv, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir()})
		var b bytes.Buffer
		srv.log = NewFormatLogger(&b, nil, format, 0)
		get(t, srv.Handler(), "/robots.txt")
		line := strings.TrimSpace(b.String())
		var out []string
		if format == "json" {
			var m map[string]any
			json.Unmarshal([]byte(line), &m)
			for k := range m {
				out = append(out, k)
			}
		} else {
			for _, m := range regexp.MustCompile(`(?:^| )([a-z_]+)=`).FindAllStringSubmatch(line, -1) {
				out = append(out, m[1])
			}
		}
		return sortedStrings(out)
	}
	text, js := keys("text"), keys("json")
	if strings.Join(text, ",") != strings.Join(js, ",") || !strings.Contains(strings.Join(js, ","), "req_id") {
		t.Errorf("keys differ: text %v, json %v", text, js)
	}
}

func sortedStrings(xs []string) []string {
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			if xs[j] < xs[i] {
				xs[i], xs[j] = xs[j], xs[i]
			}
		}
	}
	return xs
}

// The backup alarm shows on /healthz's details (the public answer says
// nothing of it) and on the dashboard: no backup on an old site, a
// failed last backup, a good recent one.
func TestBackupAlarmOnHealthAndDashboard(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	ctx := context.Background()
	details := func() map[string]any {
		req := httptest.NewRequest("GET", "/healthz", nil)
		req.RemoteAddr = "127.0.0.1:1"
		r := do(t, h, req)
		var out map[string]any
		json.Unmarshal([]byte(r.Body), &out)
		return out
	}
	overview := func() map[string]any {
		r := jsonReq(t, h, "GET", "/api/admin/overview", tok, nil)
		var out struct{ Backup map[string]any }
		json.Unmarshal([]byte(r.Body), &out)
		return out.Backup
	}
	// A new site: no backup yet, no alarm.
	if b, _ := details()["backup"].(map[string]any); b == nil || b["alarm"] != "" {
		t.Errorf("new site: %v", b)
	}
	// Installed three days ago and never backed up.
	store.SQL().Exec(`UPDATE schema_migrations SET applied_at = ?`, time.Now().UTC().Add(-72*time.Hour))
	d := details()
	if b, _ := d["backup"].(map[string]any); !strings.Contains(fmt.Sprint(b["alarm"]), "No backup has been made") || d["status"] != "degraded" {
		t.Errorf("never backed up: %v", d)
	}
	if a := fmt.Sprint(overview()["alarm"]); !strings.Contains(a, "No backup has been made") {
		t.Errorf("dashboard: %q", a)
	}
	// The last one failed.
	now := time.Now().UTC()
	store.RecordBackup(ctx, db.BackupRun{StartedAt: now.Add(-30 * time.Hour), FinishedAt: now.Add(-30 * time.Hour), Outcome: db.OutcomeOK, Name: "20261124-010000", Bytes: 2048})
	store.RecordBackup(ctx, db.BackupRun{StartedAt: now.Add(-time.Hour), FinishedAt: now.Add(-time.Hour), Outcome: db.OutcomeFailed, Summary: "disk full"})
	b := overview()
	if !strings.Contains(fmt.Sprint(b["alarm"]), "The last backup failed") || b["lastError"] != "disk full" || b["lastGoodName"] != "20261124-010000" {
		t.Errorf("failed: %v", b)
	}
	// A good one now: the alarm is gone.
	store.RecordBackup(ctx, db.BackupRun{StartedAt: now, FinishedAt: now, Outcome: db.OutcomeOK, Name: "20261125-010000", Bytes: 4096})
	if b := overview(); b["alarm"] != "" || b["lastGoodName"] != "20261125-010000" {
		t.Errorf("good: %v", b)
	}
	if d := details(); d["status"] != "ok" {
		t.Errorf("healthz after a good backup: %v", d)
	}
	// The public answer says up, nothing more.
	if r := get(t, h, "/healthz"); strings.Contains(r.Body, "backup") {
		t.Errorf("public /healthz: %s", r.Body)
	}
}

// Privacy requests: an admin exports one person's data (every lead with
// their email or phone, with its timeline) and deletes a lead; each is
// audited with who and when and no contact data. Staff, the PIN and no
// session are refused; a search that names nobody is refused.
func TestPrivacyRequests(t *testing.T) {
	srv, store, h := accountServer(t)
	seedLeads(t, store, 3) // lead-002 is Maria Gonzalez, maria.g@example.com, (770) 555-0134
	ctx := context.Background()
	now := time.Now().UTC()
	store.CreateLead(ctx, db.Lead{ID: "maria-again", CreatedAt: now, UpdatedAt: now, FirstName: "Maria", Phone: "770.555.0134", Email: "other@example.com", Status: "new", Source: "website"})
	store.AddLeadNote(ctx, "lead-002", db.Actor{Name: "crew"}, "prefers texts", now)
	admin := signIn(t, h, adminEmail, adminPass)
	staff := signIn(t, h, staffEmail, staffPass)
	pin := unlock(t, h)
	_ = srv

	for who, tok := range map[string]string{"no session": "", "staff": staff, "pin": pin} {
		r := jsonReq(t, h, "GET", "/api/admin/leads/person?email=maria.g@example.com", tok, nil)
		if r.StatusCode != 401 && r.StatusCode != 403 || strings.Contains(r.Body, "Gonzalez") {
			t.Errorf("export as %s: %d %.100s", who, r.StatusCode, r.Body)
		}
		if r := jsonReq(t, h, "DELETE", "/api/admin/leads/lead-002", tok, nil); r.StatusCode != 401 && r.StatusCode != 403 {
			t.Errorf("delete as %s: %d", who, r.StatusCode)
		}
	}
	for _, q := range []string{"", "email=", "email=maria", "phone=12", "email=%25"} {
		if r := jsonReq(t, h, "GET", "/api/admin/leads/person?"+q, admin, nil); r.StatusCode != 400 {
			t.Errorf("search %q: %d %s", q, r.StatusCode, r.Body)
		}
	}
	r := jsonReq(t, h, "GET", "/api/admin/leads/person?email=MARIA.G@example.com&phone="+url.QueryEscape("(770) 555-0134"), admin, nil)
	if r.StatusCode != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), "attachment") || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("export: %d %v %s", r.StatusCode, r.Header, r.Body)
	}
	var exp struct {
		Leads []struct {
			ID       string `json:"id"`
			Email    string `json:"email"`
			Timeline []struct{ Kind, Body string }
		}
	}
	json.Unmarshal([]byte(r.Body), &exp)
	if len(exp.Leads) != 2 || exp.Leads[0].ID != "lead-002" || exp.Leads[1].ID != "maria-again" {
		t.Fatalf("exported %+v", exp.Leads)
	}
	if !strings.Contains(r.Body, "prefers texts") || !strings.Contains(r.Body, "12 Secret Lane") {
		t.Errorf("the export lacks the timeline or the address: %.300s", r.Body)
	}

	// Delete: gone, and the audit keeps who and when, no contact data.
	if r := jsonReq(t, h, "DELETE", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 200 || !strings.Contains(r.Body, `"deleted":true`) {
		t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 404 {
		t.Errorf("the deleted lead: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/leads/lead-002", admin, nil); r.StatusCode != 404 {
		t.Errorf("delete again: %d", r.StatusCode)
	}
	entries, _, _ := store.ListAudit(ctx, 100, 0)
	var deleted, exported int
	for _, e := range entries {
		for _, s := range []string{"maria.g@", "555-0134", "5550134", "Gonzalez", "Secret Lane"} {
			if strings.Contains(e.Detail, s) || strings.Contains(e.Actor, s) {
				t.Errorf("audit entry holds contact data: %+v", e)
			}
		}
		switch e.Action {
		case db.AuditLeadDeleted:
			deleted++
			if e.LeadID != "lead-002" || e.Actor != adminEmail || e.At.IsZero() {
				t.Errorf("deletion entry %+v", e)
			}
		case db.AuditPrivacyExport:
			exported++
			if e.Detail != "2 leads: lead-002, maria-again" || e.Actor != adminEmail {
				t.Errorf("export entry %+v", e)
			}
		}
	}
	if deleted != 1 || exported != 1 {
		t.Errorf("audit: %d deletions, %d exports", deleted, exported)
	}
	if !slices.Contains(accounts.Capabilities(accounts.RoleAdmin), accounts.LeadsErase) || slices.Contains(accounts.Capabilities(accounts.RoleStaff), accounts.LeadsErase) ||
		slices.Contains(accounts.Capabilities(accounts.RolePIN), accounts.LeadsErase) {
		t.Error("leads.erase must be the admins' alone")
	}
}

// The privacy page says what is kept and for how long from the
// configuration the retention job enforces.
func TestPrivacyPageStatesRetention(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir(), "RETAIN_AUDIT_DAYS": "365", "RETAIN_OUTBOX_DAYS": "14"})
	r := get(t, srv.Handler(), "/privacy")
	if r.StatusCode != 200 {
		t.Fatalf("/privacy: %d", r.StatusCode)
	}
	for _, want := range []string{"What this website keeps, and for how long", "Deleted after 1 year", "Deleted 14 days after they are sent", "Kept at most 28 days", "Detailed records deleted after 30 days"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("/privacy lacks %q", want)
		}
	}
	if r := get(t, srv.Handler(), "/terms"); strings.Contains(r.Body, "What this website keeps") {
		t.Error("/terms shows the retention block")
	}
}
