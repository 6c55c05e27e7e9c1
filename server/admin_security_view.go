package server

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/securitycheck"
)

// The Security screen's Monitoring and Hardening tabs, from measured
// facts only: what the latest scan found, the live sessions, the latest
// health and SEO runs, and the configuration in force.

// MonitoringItem is one figure of the Monitoring tab.
type MonitoringItem struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Status      string `json:"status"` // good, warn or bad
	Description string `json:"description"`
}

// HardeningItem is one measure of the Hardening tab. Unknown is set when
// no scan has checked it yet.
type HardeningItem struct {
	Name        string `json:"name"`
	Enabled     bool   `json:"enabled"`
	Unknown     bool   `json:"unknown,omitempty"`
	Description string `json:"description"`
}

// HardeningConfig is the configuration panel. The PIN is only a mask: the
// browser never receives it.
type HardeningConfig struct {
	PINMask          string `json:"pinMask"`
	SessionTimeout   string `json:"sessionTimeout"`
	APIRateLimit     string `json:"apiRateLimit"`
	BackupEncryption string `json:"backupEncryption"`
}

func (s *Server) securityMonitoring(ctx context.Context, scan *db.SecurityScan, vulns []db.Vulnerability) []MonitoringItem {
	open := 0
	for _, v := range vulns {
		if v.Status == db.VulnOpen {
			open++
		}
	}
	out := []MonitoringItem{}
	if scan != nil {
		st := "good"
		if open > 0 {
			st = "bad"
		}
		out = append(out, MonitoringItem{"Open vulnerabilities", strconv.Itoa(open), st, "Failed checks nobody has acknowledged or fixed yet."})
	}
	if list, err := s.store.ListSessions(ctx, time.Now().UTC()); err == nil {
		out = append(out, MonitoringItem{"Active sessions", strconv.Itoa(len(list)), "good", "Unlocked admin and account sessions right now (listed below)."})
	}
	if run, _, err := s.store.LatestHealthRun(ctx); err == nil {
		st := "good"
		if run.Issues > 0 {
			st = "warn"
		}
		out = append(out, MonitoringItem{"SEO health issues", strconv.Itoa(run.Issues), st, "URLs with a problem in the health check of " + run.FinishedAt.Format("Jan 2, 15:04 MST") + "."})
	}
	if run, err := s.store.LatestSEOAuditRun(ctx); err == nil {
		st := "good"
		if run.Score < 70 {
			st = "bad"
		} else if run.Score < 90 {
			st = "warn"
		}
		out = append(out, MonitoringItem{"SEO audit score", strconv.Itoa(run.Score) + "%", st, "Site-wide, from the audit of " + run.FinishedAt.Format("Jan 2, 15:04 MST") + "."})
	}
	out = append(out, MonitoringItem{"Automated scan", "Every 24 hours", "good", "Also at every start of the server; Run Full Scan runs one now."})
	return out
}

// hardening lists the measures, each enabled only when the latest scan
// found it working (or, for the two facts of the code itself, always).
func (s *Server) hardening(checks []db.SecurityResult) []HardeningItem {
	by := map[string]string{}
	for _, c := range checks {
		by[c.CheckID] = c.Status
	}
	item := func(name, desc string, ids ...string) HardeningItem {
		h := HardeningItem{Name: name, Description: desc, Enabled: true}
		for _, id := range ids {
			switch by[id] {
			case "":
				return HardeningItem{Name: name, Description: desc + " Not checked yet: fills after the first scan.", Unknown: true}
			case string(securitycheck.Fail):
				h.Enabled = false
			}
		}
		return h
	}
	csp := s.secHeaders.Get("Content-Security-Policy")
	script := ""
	for _, d := range strings.Split(csp, ";") {
		if f := strings.Fields(d); len(f) > 0 && f[0] == "script-src" {
			script = strings.Join(f[1:], " ")
		}
	}
	strict := script != "" && !strings.Contains(script, "unsafe-inline") && !strings.Contains(script, "unsafe-eval")
	return []HardeningItem{
		item("Security headers on every response", "CSP with frame-ancestors, nosniff and a referrer policy on public pages, admin pages, admin API answers and media.",
			"headers-public", "headers-admin", "headers-admin-api", "headers-media"),
		item("HTTPS with HSTS", "Browsers are told to use HTTPS only (when BASE_URL is https).", "https-hsts"),
		item("Admin routes excluded from search", "noindex on /admin and disallowed in robots.txt.", "admin-noindex"),
		{Name: "Admin token kept in memory only", Enabled: true, Description: "The browser keeps the admin token in memory: a reload locks the admin area again (ADR 007)."},
		item("Request rate limiting", "Wrong PINs, estimate requests and connections per client are limited.", "rate-limits"),
		item("Upload type sniffing", "Uploads are typed from their content; anything but photos and videos is refused.", "upload-sniffing"),
		{Name: "Strict Content Security Policy", Enabled: strict, Description: "Scripts only from the site itself, plus two inline scripts of public pages (the loader line and the speculation rules that prefetch the next page), each allowed by its hash (script-src " + script + "); no other inline script and no eval."},
		{Name: "Encrypted backups", Enabled: false, Description: "The site makes no backups of its own: back up the database and the media folder with your host, encrypted."},
	}
}

func (s *Server) hardeningConfig() HardeningConfig {
	a := s.cfg.Admin
	return HardeningConfig{
		PINMask:        "••••••",
		SessionTimeout: securitycheck.Human(a.TokenTTL) + " without use (" + securitycheck.Human(SessionHardMax) + " at most)",
		APIRateLimit: strconv.Itoa(a.MaxAttempts) + " wrong PINs per " + securitycheck.Human(a.Lockout) + "; " + strconv.Itoa(EstimatesPerWindow) +
			" estimate requests per " + securitycheck.Human(EstimateWindow) + " (per client IP)",
		BackupEncryption: "Not managed by the site",
	}
}
