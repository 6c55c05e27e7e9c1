package server

import (
	"context"
	"strconv"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/securitycheck"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/insights"
)

// The Security screen's Monitoring and Hardening tabs, from measured
// facts only: what the latest scan found, the live sessions, the latest
// health and SEO runs, and the configuration in force (the Hardening
// tab's rules are securitycheck.Hardening and Configuration).

// MonitoringItem is one figure of the Monitoring tab.
type MonitoringItem struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Status      string `json:"status"` // good, warn or bad
	Description string `json:"description"`
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

// runningSecurity is what the Hardening tab reads from the running
// configuration: the headers this server sends and the limits in force.
func (s *Server) runningSecurity() securitycheck.Running {
	cfg := s.cfg
	return securitycheck.Running{
		BaseURL: cfg.BaseURL, HSTS: s.secHeaders.Get("Strict-Transport-Security"), CSP: s.secHeaders.Get("Content-Security-Policy"),
		Limits:     s.securityEnv().Limits,
		PINFromEnv: cfg.Admin.PIN != "", TokenTTL: cfg.Admin.TokenTTL, SessionMax: auth.HardMax,
		LoginsPerAccount: auth.LoginAttemptsPerAccount, AnalyticsPerMinute: insights.CollectPerIP,
		ReviewsConfigured: s.reviews.Client.Configured(), ReviewsInterval: cfg.Reviews.MinInterval,
	}
}
