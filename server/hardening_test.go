package server

import (
	"context"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/securitycheck"
	"github.com/atlanta-restoration/site/web/audits"
)

// The Security Hardening tab shows what the running server does: over
// plain http no HSTS is sent, so it is not enabled whatever else holds,
// and the configuration panel shows the configured values, not the spec's
// samples.
func TestHardeningTabReadsTheRunningServer(t *testing.T) {
	srv, _ := adminServer(t, map[string]string{"BASE_URL": "http://127.0.0.1:8080", "ADMIN_TOKEN_TTL": "45m", "ADMIN_MAX_ATTEMPTS": "7", "MAX_CONNS_PER_IP": "0"})
	if _, _, err := srv.jobs.security.Scan(context.Background(), securitycheck.TriggerManual); err != nil {
		t.Fatal(err)
	}
	tok := unlock(t, srv)
	rep := decode[audits.SecurityReport](t, jsonReq(t, srv, "GET", "/api/admin/security", tok, nil))
	states := map[string]securitycheck.HardeningItem{}
	for _, h := range rep.Hardening {
		states[h.Name] = h
	}
	if h := states["HTTPS with HSTS"]; h.State != securitycheck.HardeningOff || !strings.Contains(h.Why, "and it is http://127.0.0.1:8080") {
		t.Errorf("HSTS over plain http: %+v", h)
	}
	if h := states["Request rate limiting"]; h.State != securitycheck.HardeningPartly || !strings.Contains(h.Why, "connections per client IP are not capped") {
		t.Errorf("rate limiting without a per-IP cap: %+v", h)
	}
	if h := states["Security headers on every response"]; h.State != securitycheck.HardeningEnabled {
		t.Errorf("headers: %+v", h)
	}
	// Backups are read from the backup status the Backups screen shows, never "no backup feature".
	if h := states["Encrypted backups"]; h.State != securitycheck.HardeningOff || !strings.Contains(h.Why, "Backups go to ") || strings.Contains(h.Why, "no backup feature") {
		t.Errorf("backups: %+v", h)
	}
	c := rep.Config
	all := strings.Join(append(c.RateLimits, c.SessionTimeout, c.APIRateLimit, c.BackupEncryption, c.PINSource), "\n")
	for _, want := range []string{"45 minutes without use", "7 wrong PINs per client IP", "Chosen by whoever set up the server", "Connections per client IP: not capped", "Google Places is not configured", "Not encrypted by the site. Backups go to "} {
		if !strings.Contains(all, want) {
			t.Errorf("configuration panel lacks %q:\n%s", want, all)
		}
	}
	if c.PINMask == "" || strings.Contains(all, testPIN) {
		t.Errorf("PIN: mask %q", c.PINMask)
	}
}
