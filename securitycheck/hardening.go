package securitycheck

import (
	"fmt"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/words"
)

// The Security Hardening tab: each measure's state is read from
// the latest scan or from the running configuration, never assumed, and
// says what it rests on. The configuration panel shows the values in
// force, not the spec's samples (ADR 021).

// Hardening states.
const (
	// HardeningEnabled: working, by the latest scan or the configuration.
	HardeningEnabled = "enabled"
	// HardeningPartly: on, but the latest scan found part of it missing.
	HardeningPartly = "partly"
	// HardeningOff: not enabled, and Why says why.
	HardeningOff = "not-enabled"
	// HardeningNotChecked: rests on a scan that has not run yet.
	HardeningNotChecked = "not-checked"
	// HardeningBuiltIn: a property of the code, not a setting that could
	// be off.
	HardeningBuiltIn = "built-in"
)

// What a hardening state is read from.
const (
	FromScan   = "scan"
	FromConfig = "config"
	FromCode   = "code"
)

// HardeningItem is one measure of the Hardening tab.
type HardeningItem struct {
	Name        string `json:"name"`
	State       string `json:"state" tstype:"'enabled' | 'partly' | 'not-enabled' | 'not-checked' | 'built-in'"`
	Description string `json:"description"`
	// Why is what the state rests on: the scan's finding, or the setting
	// in force.
	Why string `json:"why"`
	// Source is FromScan, FromConfig or FromCode.
	Source string `json:"source" tstype:"'scan' | 'config' | 'code'"`
}

// Running is what the running server is configured to do. The server
// fills it from its configuration and the headers it has built.
type Running struct {
	BaseURL string
	// HSTS is the Strict-Transport-Security header the server sends, ""
	// when it sends none; CSP its Content-Security-Policy.
	HSTS, CSP string
	Limits    Limits
	// PINFromEnv: ADMIN_PIN is set (else the server generated a PIN).
	PINFromEnv bool
	// TokenTTL is ADMIN_TOKEN_TTL; SessionMax the hard session limit.
	TokenTTL, SessionMax time.Duration
	// LoginsPerAccount are the failed sign-ins allowed per account per
	// Limits.PINWindow.
	LoginsPerAccount int
	// AnalyticsPerMinute are the analytics events allowed per client IP
	// per minute.
	AnalyticsPerMinute int
	// ReviewsConfigured: Google Places is configured; ReviewsInterval is
	// REVIEWS_MIN_INTERVAL.
	ReviewsConfigured bool
	ReviewsInterval   time.Duration
	// Backup is how backups stand, read from the backup status when the
	// tab is asked for.
	Backup Backups
}

// Backups is what the Hardening tab says of backups (backup.Status):
// where they go, how often, the last good one and the alarm. Error is
// set when the status could not be read; Off when the server has no
// backup service.
type Backups struct {
	Off        bool
	Error      string
	Location   string
	EveryHours float64
	LastGoodAt *time.Time
	Alarm      string
}

// backupsNow says how backups stand, in a sentence.
func (b Backups) now() string {
	switch {
	case b.Off:
		return "The backup service is not running on this server."
	case b.Error != "":
		return "The backup status could not be read: " + b.Error
	}
	s := "Backups go to " + b.Location
	if b.EveryHours > 0 {
		s += fmt.Sprintf(", every %s", human(time.Duration(b.EveryHours*float64(time.Hour))))
	} else {
		s += ", when started by hand"
	}
	if b.LastGoodAt != nil {
		s += "; the last good one finished " + words.When(*b.LastGoodAt) + "."
	} else {
		s += "; none has finished yet."
	}
	if b.Alarm != "" {
		s += " " + b.Alarm
	}
	return s
}

// Hardening lists the measures of the Hardening tab from the latest
// scan's results (none before the first scan) and the running
// configuration.
func Hardening(results []db.SecurityResult, r Running) []HardeningItem {
	by := map[string]db.SecurityResult{}
	for _, res := range results {
		by[res.CheckID] = res
	}
	return []HardeningItem{
		fromScan(by, "Security headers on every response", "CSP with frame-ancestors, nosniff and a referrer policy on public pages, admin pages, admin API answers and media.",
			"found on a public page, an admin page, an admin API answer and media.", "headers-public", "headers-admin", "headers-admin-api", "headers-media"),
		hsts(by, r),
		fromScan(by, "Admin routes excluded from search", "noindex on /admin and disallowed in robots.txt.", "", "admin-noindex"),
		{Name: "Admin token kept in memory only", State: HardeningBuiltIn, Source: FromCode,
			Description: "The browser keeps the admin token in memory: a reload locks the admin area again (ADR 007).",
			Why:         "A property of the admin app's code, not a setting: nothing can switch it off. The scan does not check it; the browser tests do."},
		fromScan(by, "Request rate limiting", "Wrong PINs, estimate requests and connections per client are limited.", "", "rate-limits"),
		fromScan(by, "Upload type sniffing", "Uploads are typed from their content; anything but photos and videos is refused.", "", "upload-sniffing"),
		strictCSP(r.CSP),
		{Name: "Encrypted backups", State: HardeningOff, Source: FromConfig,
			Description: "Encrypted copies of the database and the uploaded media.",
			Why:         r.Backup.now() + " The site does not encrypt its backups: keep them where only you can read them (an encrypted disk or a bucket with encryption on)."},
	}
}

// fromScan is a measure judged by scan checks: enabled when all pass,
// partly on a warning, not enabled on a failure, not checked before the
// first scan. passWhy says what a pass means for several checks; a single
// check's own finding says it best.
func fromScan(by map[string]db.SecurityResult, name, desc, passWhy string, ids ...string) HardeningItem {
	h := HardeningItem{Name: name, Description: desc, Source: FromScan, State: HardeningEnabled}
	var notes []string
	for _, id := range ids {
		res, ok := by[id]
		if !ok || res.Status == string(NotChecked) {
			why := "Not checked yet: fills after the first scan."
			if ok && res.Description != "" {
				why = "The latest scan could not check it: " + res.Description
			}
			return HardeningItem{Name: name, Description: desc, Source: FromScan, State: HardeningNotChecked, Why: why}
		}
		switch Status(res.Status) {
		case Fail:
			h.State = HardeningOff
			notes = append(notes, res.Description)
		case Warning:
			if h.State != HardeningOff {
				h.State = HardeningPartly
			}
			notes = append(notes, res.Description)
		case Pass:
			if len(ids) == 1 {
				notes = append(notes, res.Description)
			}
		}
	}
	switch {
	case h.State == HardeningEnabled && passWhy != "":
		h.Why = "Working: " + passWhy
	case h.State == HardeningEnabled:
		h.Why = "Working. " + strings.Join(notes, " ")
	default:
		h.Why = "Found: " + strings.Join(notes, " ")
	}
	return h
}

// hsts is read from the header the server sends, then from the scan's
// verdict on what a browser receives.
func hsts(by map[string]db.SecurityResult, r Running) HardeningItem {
	h := HardeningItem{Name: "HTTPS with HSTS", Description: "Browsers are told to use HTTPS only (Strict-Transport-Security).", Source: FromConfig}
	res, scanned := by["https-hsts"]
	if r.HSTS == "" {
		h.State = HardeningOff
		h.Why = fmt.Sprintf("Not sent: the server sends Strict-Transport-Security only when the site's address is https, and it is %s.", r.BaseURL)
		if scanned && res.Status != string(Pass) && res.Description != "" {
			h.Why += " The latest scan: " + res.Description
		}
		return h
	}
	h.State, h.Why = HardeningEnabled, "Sent on every answer: Strict-Transport-Security: "+r.HSTS+" (the site's address is https)."
	if !scanned || res.Status == string(NotChecked) {
		h.Why += " The scan has not checked it yet."
		return h
	}
	h.Source = FromScan
	switch Status(res.Status) {
	case Pass:
		h.Why += " The latest scan confirmed it."
	case Warning:
		h.State, h.Why = HardeningPartly, "Found: "+res.Description
	case Fail:
		h.State, h.Why = HardeningOff, "Found: "+res.Description
	}
	return h
}

// strictCSP is read from the Content-Security-Policy the server sends.
func strictCSP(csp string) HardeningItem {
	h := HardeningItem{Name: "Strict Content Security Policy", Source: FromConfig,
		Description: "Scripts only from the site itself, plus two inline scripts of public pages (the loader line and the speculation rules that prefetch the next page), each allowed by its hash; no other inline script and no eval."}
	script, ok := cspDirective(csp, "script-src")
	switch {
	case csp == "":
		h.State, h.Why = HardeningOff, "The server sends no Content-Security-Policy."
	case !ok:
		h.State, h.Why = HardeningOff, "The Content-Security-Policy sent has no script-src: "+csp
	case strings.Contains(script, "unsafe-inline") || strings.Contains(script, "unsafe-eval"):
		h.State, h.Why = HardeningOff, "The policy sent allows inline scripts or eval: script-src "+script
	default:
		h.State, h.Why = HardeningEnabled, "The policy the server sends: script-src "+script
	}
	return h
}

// ConfigPanel is the Hardening tab's configuration panel, read from the
// running configuration. The PIN is only a mask: the browser never
// receives it.
type ConfigPanel struct {
	PINMask   string `json:"pinMask"`
	PINSource string `json:"pinSource"`
	// SessionTimeout is ADMIN_TOKEN_TTL and the hard limit.
	SessionTimeout string `json:"sessionTimeout"`
	// APIRateLimit sums up the limits; RateLimits lists each one in force.
	APIRateLimit     string   `json:"apiRateLimit"`
	RateLimits       []string `json:"rateLimits"`
	BackupEncryption string   `json:"backupEncryption"`
}

// Configuration is the panel for r.
func Configuration(r Running) ConfigPanel {
	p := ConfigPanel{
		PINMask:          "••••••",
		PINSource:        "Chosen by whoever set up the server (a server setting).",
		SessionTimeout:   human(r.TokenTTL) + " without use, " + human(r.SessionMax) + " at most",
		APIRateLimit:     "No overall per-minute limit on API requests; each of these is limited:",
		BackupEncryption: "Not encrypted by the site. " + r.Backup.now(),
	}
	if !r.PINFromEnv {
		p.PINSource = "Made up by the server at its first start (8 random digits, written once to the server's log)."
	}
	l := r.Limits
	if l.PINAttempts > 0 && l.PINWindow > 0 {
		p.RateLimits = append(p.RateLimits, fmt.Sprintf("%d wrong PINs per client IP per %s, and as many failed sign-ins", l.PINAttempts, human(l.PINWindow)))
	} else {
		p.RateLimits = append(p.RateLimits, "Wrong PINs and sign-ins: not limited")
	}
	if r.LoginsPerAccount > 0 && l.PINWindow > 0 {
		p.RateLimits = append(p.RateLimits, fmt.Sprintf("%d failed sign-ins per account per %s from browsers that never signed in to it; as many per browser that did", r.LoginsPerAccount, human(l.PINWindow)))
	}
	if l.EstimateAttempts > 0 && l.EstimateWindow > 0 {
		p.RateLimits = append(p.RateLimits, estimateLimitText(l))
	}
	if r.AnalyticsPerMinute > 0 {
		p.RateLimits = append(p.RateLimits, fmt.Sprintf("%d analytics events per client IP per minute", r.AnalyticsPerMinute))
	}
	switch {
	case !r.ReviewsConfigured:
		p.RateLimits = append(p.RateLimits, "Review fetches from Google: none (Google Places is not configured)")
	case r.ReviewsInterval > 0:
		p.RateLimits = append(p.RateLimits, fmt.Sprintf("1 review fetch from Google per %s, never two at once", human(r.ReviewsInterval)))
	default:
		p.RateLimits = append(p.RateLimits, "Review fetches from Google: never two at once, no interval")
	}
	if l.MaxConns > 0 {
		p.RateLimits = append(p.RateLimits, fmt.Sprintf("%d open connections in all", l.MaxConns))
	} else {
		p.RateLimits = append(p.RateLimits, "Open connections: not capped")
	}
	switch {
	case l.TrustProxy:
		p.RateLimits = append(p.RateLimits, "Connections per client IP: not capped here, behind the proxy the site trusts; the proxy must limit clients")
	case l.MaxConnsPerIP > 0:
		p.RateLimits = append(p.RateLimits, fmt.Sprintf("%d open connections per client IP", l.MaxConnsPerIP))
	default:
		p.RateLimits = append(p.RateLimits, "Connections per client IP: not capped")
	}
	return p
}
