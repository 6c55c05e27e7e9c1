package securitycheck

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

const strictPolicy = "default-src 'self'; script-src 'self' 'sha256-abc'; frame-ancestors 'none'"

func running() Running {
	return Running{
		BaseURL: "https://www.example.com", HSTS: "max-age=31536000; includeSubDomains", CSP: strictPolicy,
		Limits:     Limits{PINAttempts: 5, PINWindow: 15 * time.Minute, EstimateAttempts: 5, EstimatePosts: 30, EstimateWindow: 10 * time.Minute, MaxConns: 2048, MaxConnsPerIP: 64},
		PINFromEnv: true, TokenTTL: 30 * time.Minute, SessionMax: 12 * time.Hour, LoginsPerAccount: 10, AnalyticsPerMinute: 300,
		ReviewsConfigured: true, ReviewsInterval: 10 * time.Minute,
		Backup: Backups{Location: "/srv/backups", EveryHours: 6, LastGoodAt: &lastGood},
	}
}

var lastGood = time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)

// TestBackupsNow: the Hardening tab says how backups stand, from the
// backup status, never that the site has no backups.
func TestBackupsNow(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    Backups
		want string
	}{
		{"scheduled, one good", Backups{Location: "/srv/backups", EveryHours: 6, LastGoodAt: &lastGood},
			"Backups go to /srv/backups, every 6 hours; the last good one finished Nov 25, 2026, 10:00 PM EST."},
		{"by hand, none yet", Backups{Location: "s3://bucket/site"}, "Backups go to s3://bucket/site, when started by hand; none has finished yet."},
		{"alarm", Backups{Location: "/b", EveryHours: 24, LastGoodAt: &lastGood, Alarm: "The last backup failed."},
			"Backups go to /b, every 24 hours; the last good one finished Nov 25, 2026, 10:00 PM EST. The last backup failed."},
		{"unreadable", Backups{Error: "the database is down."}, "The backup status could not be read: the database is down."},
		{"no service", Backups{Off: true}, "The backup service is not running on this server."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.b.now(); got != tc.want {
				t.Errorf("now() = %q, want %q", got, tc.want)
			}
			r := running()
			r.Backup = tc.b
			for _, h := range Hardening(nil, r) {
				if h.Name == "Encrypted backups" && (!strings.Contains(h.Why, tc.want) || strings.Contains(h.Why, "no backup feature")) {
					t.Errorf("Encrypted backups: why %q lacks %q", h.Why, tc.want)
				}
			}
		})
	}
}

func results(statuses map[string]Status) []db.SecurityResult {
	var out []db.SecurityResult
	for id, st := range statuses {
		out = append(out, db.SecurityResult{CheckID: id, Status: string(st), Description: "finding of " + id + "."})
	}
	return out
}

func allPass() map[string]Status {
	return map[string]Status{"headers-public": Pass, "headers-admin": Pass, "headers-admin-api": Pass, "headers-media": Pass,
		"https-hsts": Pass, "admin-noindex": Pass, "rate-limits": Pass, "upload-sniffing": Pass}
}

func with(m map[string]Status, kv ...any) map[string]Status {
	out := map[string]Status{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1].(Status)
	}
	return out
}

func item(t *testing.T, items []HardeningItem, name string) HardeningItem {
	t.Helper()
	for _, h := range items {
		if h.Name == name {
			return h
		}
	}
	t.Fatalf("no hardening item %q", name)
	return HardeningItem{}
}

func TestHardeningStates(t *testing.T) {
	local := running()
	local.BaseURL, local.HSTS = "http://127.0.0.1:8080", ""
	for _, tt := range []struct {
		name    string
		scan    map[string]Status
		run     Running
		want    map[string]string // item -> state
		whyHas  map[string]string // item -> text its Why must contain
		sources map[string]string
	}{
		{
			name: "before any scan",
			run:  running(),
			want: map[string]string{"Security headers on every response": HardeningNotChecked, "HTTPS with HSTS": HardeningEnabled,
				"Admin routes excluded from search": HardeningNotChecked, "Admin token kept in memory only": HardeningBuiltIn,
				"Request rate limiting": HardeningNotChecked, "Upload type sniffing": HardeningNotChecked,
				"Strict Content Security Policy": HardeningEnabled, "Encrypted backups": HardeningOff},
			whyHas:  map[string]string{"HTTPS with HSTS": "has not checked it yet", "Encrypted backups": "Backups go to /srv/backups, every 6 hours", "Security headers on every response": "first scan"},
			sources: map[string]string{"HTTPS with HSTS": FromConfig, "Strict Content Security Policy": FromConfig, "Admin token kept in memory only": FromCode},
		},
		{
			// The scan warned and no HSTS header is sent over
			// plain http, yet the screen said Enabled.
			name: "plain http: HSTS is not enabled, whatever the scan said",
			scan: with(allPass(), "https-hsts", Warning),
			run:  local,
			want: map[string]string{"HTTPS with HSTS": HardeningOff, "Security headers on every response": HardeningEnabled},
			whyHas: map[string]string{"HTTPS with HSTS": "it is http://127.0.0.1:8080",
				"Security headers on every response": "Working"},
		},
		{
			name:   "https, scan passes",
			scan:   allPass(),
			run:    running(),
			want:   map[string]string{"HTTPS with HSTS": HardeningEnabled, "Request rate limiting": HardeningEnabled},
			whyHas: map[string]string{"HTTPS with HSTS": "confirmed", "Request rate limiting": "finding of rate-limits"},
		},
		{
			name:   "https, short max-age: partly",
			scan:   with(allPass(), "https-hsts", Warning),
			run:    running(),
			want:   map[string]string{"HTTPS with HSTS": HardeningPartly},
			whyHas: map[string]string{"HTTPS with HSTS": "finding of https-hsts"},
		},
		{
			name: "https, the home page lacks the header: not enabled",
			scan: with(allPass(), "https-hsts", Fail),
			run:  running(),
			want: map[string]string{"HTTPS with HSTS": HardeningOff},
		},
		{
			name:   "a warning is not enabled: connections per IP uncapped",
			scan:   with(allPass(), "rate-limits", Warning),
			run:    running(),
			want:   map[string]string{"Request rate limiting": HardeningPartly},
			whyHas: map[string]string{"Request rate limiting": "finding of rate-limits"},
		},
		{
			name:   "one failing header check fails the measure",
			scan:   with(allPass(), "headers-media", Fail, "headers-admin", Warning),
			run:    running(),
			want:   map[string]string{"Security headers on every response": HardeningOff},
			whyHas: map[string]string{"Security headers on every response": "finding of headers-media"},
		},
		{
			name: "a check the scan could not run",
			scan: with(allPass(), "upload-sniffing", NotChecked),
			run:  running(),
			want: map[string]string{"Upload type sniffing": HardeningNotChecked},
		},
		{
			name:   "a lax CSP",
			run:    Running{CSP: "default-src 'self'; script-src 'self' 'unsafe-inline'"},
			want:   map[string]string{"Strict Content Security Policy": HardeningOff},
			whyHas: map[string]string{"Strict Content Security Policy": "unsafe-inline"},
		},
		{
			name: "no CSP",
			run:  Running{},
			want: map[string]string{"Strict Content Security Policy": HardeningOff, "HTTPS with HSTS": HardeningOff},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			items := Hardening(results(tt.scan), tt.run)
			for name, want := range tt.want {
				if h := item(t, items, name); h.State != want {
					t.Errorf("%s: %s (%s), want %s", name, h.State, h.Why, want)
				}
			}
			for name, sub := range tt.whyHas {
				if h := item(t, items, name); !strings.Contains(h.Why, sub) {
					t.Errorf("%s: why %q lacks %q", name, h.Why, sub)
				}
			}
			for name, src := range tt.sources {
				if h := item(t, items, name); h.Source != src {
					t.Errorf("%s: source %s, want %s", name, h.Source, src)
				}
			}
			// Every item says what it is and what its state rests on.
			for _, h := range items {
				if h.Why == "" || h.Description == "" || h.Source == "" {
					t.Errorf("%s: empty why, description or source: %+v", h.Name, h)
				}
			}
		})
	}
}

func TestConfigurationPanel(t *testing.T) {
	got := Configuration(running())
	want := ConfigPanel{
		PINMask: "••••••", PINSource: "Chosen by whoever set up the server (a server setting).",
		SessionTimeout: "30 minutes without use, 12 hours at most",
		APIRateLimit:   "No overall per-minute limit on API requests; each of these is limited:",
		RateLimits: []string{
			"5 wrong PINs per client IP per 15 minutes, and as many failed sign-ins",
			"10 failed sign-ins per account per 15 minutes from browsers that never signed in to it; as many per browser that did",
			"5 estimate requests stored per client IP per 10 minutes (30 form posts, valid or not)",
			"300 analytics events per client IP per minute",
			"1 review fetch from Google per 10 minutes, never two at once",
			"2048 open connections in all",
			"64 open connections per client IP",
		},
		BackupEncryption: "Not encrypted by the site. Backups go to /srv/backups, every 6 hours; the last good one finished Nov 25, 2026, 10:00 PM EST.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("panel (-want, +got):\n%s", diff)
	}
	// Other settings show as they are; none is the spec's sample.
	r := running()
	r.PINFromEnv, r.TokenTTL, r.ReviewsConfigured = false, 2*time.Hour, false
	r.Limits.TrustProxy = true
	got = Configuration(r)
	for _, sub := range []string{"Made up by the server at its first start", "2 hours without use", "Google Places is not configured", "behind the proxy the site trusts"} {
		if !strings.Contains(strings.Join(append(got.RateLimits, got.PINSource, got.SessionTimeout), "\n"), sub) {
			t.Errorf("panel lacks %q: %+v", sub, got)
		}
	}
	for _, sample := range []string{"24 hours", "100 req/min", "AES-256"} {
		if strings.Contains(strings.Join(append(got.RateLimits, got.SessionTimeout, got.APIRateLimit, got.BackupEncryption), "\n"), sample) {
			t.Errorf("panel shows the spec's sample %q", sample)
		}
	}
}
