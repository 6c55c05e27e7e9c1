package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// /healthz's details with forged forwarding, TRUST_PROXY on and off: a
// visitor who claims to be loopback in X-Forwarded-For, or reaches a
// trusting server from loopback through a proxy, gets up/down only.
func TestAttackHealthzForgedForwarding(t *testing.T) {
	for _, trust := range []string{"false", "true"} {
		srv, _ := newTestServer(t, map[string]string{"TRUST_PROXY": trust})
		h := srv.Handler()
		for name, c := range map[string]struct{ remote, xff, xri string }{
			"visitor claims loopback":          {"203.0.113.5:5000", "127.0.0.1", ""},
			"visitor claims loopback (X-Real)": {"203.0.113.5:5000", "", "127.0.0.1"},
			"proxy on loopback":                {"127.0.0.1:5000", "203.0.113.5", ""},
			"proxy forwards a forged loopback": {"127.0.0.1:5000", "127.0.0.1, 203.0.113.5", ""},
			"IPv6 visitor claims ::1":          {"[2001:db8::5]:5000", "::1", ""},
		} {
			req := httptest.NewRequest("GET", "/healthz", nil)
			req.RemoteAddr = c.remote
			if c.xff != "" {
				req.Header.Set("X-Forwarded-For", c.xff)
			}
			if c.xri != "" {
				req.Header.Set("X-Real-Ip", c.xri)
			}
			for _, m := range []string{"GET", "HEAD"} {
				req.Method = m
				r := do(t, h, req)
				if (m == "GET" && r.Body != `{"status":"up"}`+"\n") || r.Header.Get("Cache-Control") != "no-store" {
					t.Errorf("TRUST_PROXY=%s, %s, %s: %d %q", trust, name, m, r.StatusCode, r.Body)
				}
			}
		}
	}
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
