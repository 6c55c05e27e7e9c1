// Package config reads the server's settings from environment variables
// once, at boot, and validates them. A bad or missing value stops the boot
// with a message naming the variable.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/phone"
)

// Business holds the company facts shown on every page. They come from
// configuration so the owner can change them without a code change.
type Business struct {
	Name      string `json:"name"`
	Phone     string `json:"phone"`
	Street    string `json:"street"`
	City      string `json:"city"`
	State     string `json:"state"`
	Zip       string `json:"zip"`
	County    string `json:"county"`
	License   string `json:"license"`
	Email     string `json:"email"`
	Facebook  string `json:"facebook"`
	Instagram string `json:"instagram"`
	YouTube   string `json:"youtube"`
	Yelp      string `json:"yelp"`
	ReviewURL string `json:"reviewUrl"`
	// Website is the business's public web address for structured data;
	// empty means BASE_URL. System Settings can change it.
	Website string `json:"website"`
	// LeadFormURL is the CRM lead-capture iframe address; empty shows the
	// native estimate form instead.
	LeadFormURL string `json:"leadFormUrl"`
	// LeadFormScript is the CRM's embed script, injected once, lazily.
	LeadFormScript string `json:"leadFormScript"`
}

// Reviews configures the Google Places review fetch.
type Reviews struct {
	APIKey      string
	PlaceID     string
	Endpoint    string
	MinInterval time.Duration
}

// Admin configures the admin gate and the media uploads.
type Admin struct {
	PIN         string
	TokenTTL    time.Duration
	MaxAttempts int
	Lockout     time.Duration
	MaxUpload   int64
}

// Storage says where uploaded media live.
type Storage struct {
	Kind      string // local or s3
	Endpoint  string
	Bucket    string
	Region    string
	AccessKey string
	SecretKey string
}

// Config is the whole validated configuration.
type Config struct {
	Addr          string
	BaseURL       string // absolute, no trailing slash
	Env           string // production or development
	DatabaseURL   string // empty: SQLite in DataDir
	DataDir       string
	SourceDir     string // project root with pages/, components/, node_modules/
	PoolSize      int
	RenderTimeout time.Duration
	BodyLimit     string
	AccessLog     bool
	TrustProxy    bool
	Business      Business
	Reviews       Reviews
	Admin         Admin
	Storage       Storage
	// IndexNowEndpoint is where the admin IndexNow submission posts (INDEXNOW_ENDPOINT).
	IndexNowEndpoint string
	// IndexNowKey is INDEXNOW_KEY: when set it is the key, and the admin
	// screen cannot replace it.
	IndexNowKey string
	// IndexNowDebounce is how long automatic submission waits for further
	// content changes before it posts one batch (INDEXNOW_DEBOUNCE).
	IndexNowDebounce time.Duration
	// HealthInterval is how often the SEO health monitor runs (HEALTH_INTERVAL).
	HealthInterval time.Duration
	// Limits bounds how long and how many connections may be held open.
	Limits Limits
	// CDN is the optional CDN in front of the site.
	CDN CDN
	// Notify is where new leads are announced (docs/notifications.md).
	Notify Notify
	// HealthToken opens /healthz's details to a monitor (HEALTH_TOKEN).
	HealthToken string
	// Log is how the server writes its log (LOG_FORMAT, LOG_LEVEL).
	Log Log
	// MetricsToken opens /metrics to a Prometheus scraper (METRICS_TOKEN);
	// empty: only this machine, unforwarded, may read it.
	MetricsToken string
	// Backup is where and how often the site backs itself up.
	Backup Backup
	// Retention is how long each kind of record is kept.
	Retention Retention

	// secrets are the configured secret values, for log redaction.
	secrets []string
}

// Limits bound what slow or numerous clients can hold.
type Limits struct {
	// BodyReadTimeout is the longest a form or JSON body may take to
	// arrive; a request that has not sent it by then is cut off.
	BodyReadTimeout time.Duration
	// UploadIdleTimeout is the longest an upload may go without sending a
	// byte: a slow but moving upload of any size keeps going.
	UploadIdleTimeout time.Duration
	// MaxConns caps open connections server-wide; MaxConnsPerIP per
	// client IP (not applied behind a trusted proxy, where every
	// connection comes from the proxy).
	MaxConns      int
	MaxConnsPerIP int
	// ShutdownDrain is how long a stopping instance keeps serving with its
	// readiness check failing; ShutdownTimeout how long in-flight requests
	// then have to finish.
	ShutdownDrain   time.Duration
	ShutdownTimeout time.Duration
}

// CDN configures a CDN in front of the site (docs/deploying.md).
type CDN struct {
	// PurgeURL receives the changed paths after each content change.
	PurgeURL   string
	PurgeToken string
	// ProxyPurgeURLs are caching proxies in front of the instances
	// (Varnish, deploy/varnish/site.vcl) that get a PURGE request for
	// each changed page.
	ProxyPurgeURLs []string
	// SMaxAge lets shared caches keep public pages this long (0: off).
	SMaxAge time.Duration
}

// Notify configures new-lead notifications. Either channel may be off.
type Notify struct {
	// SMTPURL is smtp://user:pass@host:587 (STARTTLS when offered) or
	// smtps://user:pass@host:465; empty: no email.
	SMTPURL string
	// SMTPFrom is the sender; empty: see notify.FromConfig.
	SMTPFrom string
	// To are the owner's addresses (LEAD_NOTIFY_TO).
	To []string
	// WebhookURL receives each lead as signed JSON; empty: no webhook.
	WebhookURL    string
	WebhookSecret string
	// VAPIDSubject is the contact the push services see in every Web
	// Push's VAPID claim (RFC 8292 "sub"): a mailto: or https: URI.
	// VAPID_SUBJECT, else derived (see Vars).
	VAPIDSubject string
	// SMS texts each new lead to the owner's phones; off unless
	// SMS_PROVIDER is set.
	SMS SMS
	// EscalateAfter is how long an emergency lead may stay 'new' before
	// every admin is notified again (LEAD_ESCALATE_AFTER).
	EscalateAfter time.Duration
}

// Log configures the server's log. Format is "text" (slog's key=value
// lines) or "json" (one object per line, the same keys); Level is the
// least severe level written.
type Log struct {
	Format string
	Level  slog.Level
}

// Backup configures backups (docs/operations.md, ADR 036).
type Backup struct {
	// To is where backups go: a folder, or s3://bucket/prefix (with the
	// S3_* credentials). Never empty after Load: DATA_DIR/backups, or
	// s3://S3_BUCKET/backups with STORAGE=s3.
	To string
	// Every is the scheduled backup's interval; 0 turns it off (backups
	// then come from `site backup`, e.g. in cron).
	Every time.Duration
	// KeepDaily and KeepWeekly are how many backups the scheduled job
	// keeps: the newest of each of the last KeepDaily days and of each
	// of the last KeepWeekly weeks.
	KeepDaily, KeepWeekly int
	// MaxAge raises the alarm (dashboard, /healthz, metrics) when the
	// last good backup is older; 0 turns the alarm off.
	MaxAge time.Duration
	// PGBinDir is the folder holding pg_dump and pg_restore; empty
	// searches PATH.
	PGBinDir string
}

// Retention says how long records are kept, in days (docs/operations.md). The daily retention job deletes what is older;
// the privacy page states the same figures.
type Retention struct {
	// AnalyticsRawDays keeps raw analytics events (no IP, a daily
	// visitor code) before only their daily totals remain.
	AnalyticsRawDays int
	// AnalyticsDailyDays keeps the daily totals; 0 keeps them (they
	// hold no personal data).
	AnalyticsDailyDays int
	// AuditDays keeps the audit log (sign-ins with their IP, views,
	// exports, changes).
	AuditDays int
	// OutboxDays keeps sent and given-up lead notifications (each holds
	// the lead's contact details).
	OutboxDays int
	// NotFoundDays keeps the 404 log (the 404 monitor lists this many
	// days).
	NotFoundDays int
}

// SMS configures new-lead texts. Provider "" is off.
type SMS struct {
	Provider   string // "" or "twilio"
	AccountSID string
	AuthToken  string
	// From is the sending number in E.164, or a Twilio Messaging Service
	// SID (MG...).
	From string
	// APIBase is Twilio's API address (tests point it at a fake).
	APIBase string
	// To are the owner's numbers in E.164 (LEAD_NOTIFY_SMS).
	To []string
}

// SecretVars are the variables whose values must never reach a log.
var SecretVars = []string{"CDN_PURGE_TOKEN", "ADMIN_PIN", "GOOGLE_PLACES_API_KEY", "S3_ACCESS_KEY", "S3_SECRET_KEY", "SMTP_URL", "LEAD_WEBHOOK_SECRET", "LEAD_WEBHOOK_URL", "INDEXNOW_KEY", "DATABASE_URL", "HEALTH_TOKEN", "TWILIO_AUTH_TOKEN", "METRICS_TOKEN"}

// Secrets returns every configured secret value (and the password part of
// URLs that carry one), for log redaction.
func (c *Config) Secrets() []string { return c.secrets }

// Dev reports development mode (rebuild on change, errors in the page).
func (c *Config) Dev() bool { return c.Env == "development" }

// Var documents one variable for docs/configuration.md and for errors.
type Var struct {
	Name, Default, Help string
}

// Vars lists every variable with its default. docs/configuration.md's table mirrors
// it (scripts/config-doc.sh).
var Vars = []Var{
	{"PORT", "8080", "TCP port to listen on"},
	{"BASE_URL", "http://localhost:$PORT", "absolute site address used for canonicals, sitemap and structured data"},
	{"APP_ENV", "production", "production or development (rebuild on change, errors shown in the page)"},
	{"DATABASE_URL", "", "postgres://... to use PostgreSQL; empty uses SQLite in DATA_DIR"},
	{"DATA_DIR", "./data", "folder for the SQLite file and uploaded media"},
	{"SOURCE_DIR", ".", "project folder holding pages/, components/ and node_modules/ for the startup build"},
	{"SSR_POOL_SIZE", "number of CPUs", "goja runtimes rendering pages"},
	{"RENDER_TIMEOUT", "5s", "longest a single render may run before it is interrupted"},
	{"BODY_LIMIT", "1M", "largest request body for forms and APIs"},
	{"ACCESS_LOG", "true", "write one log line per request (true or false)"},
	{"TRUST_PROXY", "false", "take client IPs from X-Forwarded-For (only behind a proxy that sets it)"},
	{"BODY_READ_TIMEOUT", "15s", "longest a form or JSON request body may take to arrive"},
	{"UPLOAD_IDLE_TIMEOUT", "60s", "longest an upload may go without sending a byte (a slow but moving upload keeps going)"},
	{"MAX_CONNS", "2048", "open connections allowed server-wide; past it new ones wait to be accepted"},
	{"SHUTDOWN_DRAIN", "5s", "on SIGTERM, how long to keep serving with /healthz?ready=1 failing before closing the listener"},
	{"SHUTDOWN_TIMEOUT", "60s", "on SIGTERM, how long in-flight requests (uploads included) may take to finish"},
	{"CDN_PURGE_URL", "", "URL that receives a JSON POST of the changed paths after each content change (a CDN purge hook; optional)"},
	{"CDN_PURGE_TOKEN", "", "bearer token sent to CDN_PURGE_URL (optional)"},
	{"CDN_SMAXAGE", "0s", "how long a CDN or caching proxy may keep public pages (s-maxage, with stale-while-revalidate and stale-if-error); 0 sends none"},
	{"PROXY_PURGE_URLS", "", "caching proxies in front of the instances (Varnish), comma-separated, e.g. http://10.0.0.5:6081: each gets a PURGE request for every page a content change altered (optional)"},
	{"MAX_CONNS_PER_IP", "64", "open connections allowed per client IP; past it new ones are closed (0: no cap; not applied with TRUST_PROXY)"},
	{"BUSINESS_NAME", "Avatar Restoration & Construction", "company name"},
	{"BUSINESS_PHONE", "(770) 555-0134", "the 24/7 phone number every call button dials (default until set in System Settings), 10 US digits"},
	{"BUSINESS_STREET", "6595 Church Street", "office street address"},
	{"BUSINESS_CITY", "Douglasville", "office city"},
	{"BUSINESS_STATE", "GA", "office state"},
	{"BUSINESS_ZIP", "30134", "office postal code, 5 digits"},
	{"BUSINESS_COUNTY", "Douglas", "office county, used by the home hero"},
	{"LICENSE_NUMBER", "RBQA006428", "contractor licence number shown on pages"},
	{"BUSINESS_EMAIL", "", "public contact email (optional)"},
	{"FACEBOOK_URL", "https://www.facebook.com/", "Facebook page"},
	{"INSTAGRAM_URL", "https://www.instagram.com/", "Instagram profile"},
	{"YOUTUBE_URL", "https://www.youtube.com/", "YouTube channel"},
	{"YELP_URL", "https://www.yelp.com/", "Yelp listing"},
	{"GOOGLE_REVIEW_URL", "https://www.google.com/maps", "page where customers write a Google review"},
	{"GOOGLE_PLACES_API_KEY", "", "Google Places API key for the review refresh (optional)"},
	{"GOOGLE_PLACE_ID", "", "Google place id of the business (optional)"},
	{"GOOGLE_PLACES_ENDPOINT", "https://maps.googleapis.com/maps/api/place/details/json", "Places Details endpoint (tests point it at a fake)"},
	{"REVIEWS_MIN_INTERVAL", "10m", "shortest time between two review fetches"},
	{"ADMIN_PIN", "", "admin PIN (4-64 characters); empty: a random PIN is generated at first boot and printed once"},
	{"ADMIN_TOKEN_TTL", "30m", "how long an unlocked admin session lasts"},
	{"ADMIN_MAX_ATTEMPTS", "5", "wrong PINs (and failed sign-ins) allowed per client within ADMIN_LOCKOUT; a client is an IPv4 address or an IPv6 /64"},
	{"ADMIN_LOCKOUT", "15m", "window for wrong PINs; past the limit the gate answers 429"},
	{"MAX_UPLOAD_BYTES", "2147483648", "largest photo or video upload (bytes; 2 GB)"},
	{"STORAGE", "local", "media storage: local (DATA_DIR/media) or s3"},
	{"S3_ENDPOINT", "", "S3-compatible endpoint, e.g. https://s3.us-east-1.amazonaws.com"},
	{"S3_BUCKET", "project-photos", "bucket for media"},
	{"S3_REGION", "us-east-1", "bucket region"},
	{"S3_ACCESS_KEY", "", "S3 access key id"},
	{"S3_SECRET_KEY", "", "S3 secret key"},
	{"LEAD_FORM_URL", "", "CRM lead-form iframe address (https); empty shows the native estimate form"},
	{"LEAD_FORM_SCRIPT", "", "CRM embed script address (https), injected once and lazily"},
	// IndexNow (admin SEO & IndexNow screen)
	{"INDEXNOW_ENDPOINT", "https://api.indexnow.org/indexnow", "IndexNow endpoint the admin submission posts to (tests point it at a fake)"},
	{"INDEXNOW_KEY", "", "IndexNow key (8-128 letters, digits or dashes); empty: the key generated on the admin IndexNow tab"},
	{"INDEXNOW_DEBOUNCE", "10s", "how long automatic IndexNow submission waits for further content changes before it posts one batch"},
	// Background jobs
	{"HEALTH_INTERVAL", "1h", "how often the SEO health monitor checks every sitemap URL, sitemap.xml and robots.txt"},
	// New-lead notifications
	{"SMTP_URL", "", "mail server for new-lead emails: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465; empty sends no email"},
	{"SMTP_FROM", "", "sender of lead emails, e.g. Website <leads@example.com>; empty: the SMTP_URL user when it is an email address, else noreply@ the BASE_URL host"},
	{"LEAD_NOTIFY_TO", "", "comma-separated addresses that receive an email for every new lead (required with SMTP_URL)"},
	{"LEAD_WEBHOOK_URL", "", "http(s) address that receives every new lead as JSON, signed in X-Signature-256 (optional)"},
	{"LEAD_WEBHOOK_SECRET", "", "HMAC-SHA256 key for LEAD_WEBHOOK_URL's signature, at least 16 characters (required with LEAD_WEBHOOK_URL)"},
	{"HEALTH_TOKEN", "", "bearer token (16+ characters) that shows a monitor /healthz's details (database, spool, outbox, cache); without it only loopback requests that no proxy forwarded see them"},
	// Speed to lead
	{"VAPID_SUBJECT", "", "contact the push services see in every Web Push (mailto:you@example.com or an https: URL); empty: mailto:BUSINESS_EMAIL, else mailto: the SMTP_FROM address, else BASE_URL when it is https, else mailto:noreply@ the BASE_URL host"},
	{"LEAD_ESCALATE_AFTER", "10m", "how long an emergency lead may stay new before every admin is notified again, by push and email (at least 1m)"},
	{"SMS_PROVIDER", "", "twilio to text every new lead to LEAD_NOTIFY_SMS; empty sends no texts"},
	{"TWILIO_ACCOUNT_SID", "", "Twilio account SID, AC and 32 hex digits (required with SMS_PROVIDER=twilio)"},
	{"TWILIO_AUTH_TOKEN", "", "Twilio auth token (required with SMS_PROVIDER=twilio; never logged)"},
	{"TWILIO_FROM", "", "the texts' sender: a Twilio number (e.g. +17705550134) or a Messaging Service SID (MG...)"},
	{"TWILIO_API_BASE", "https://api.twilio.com", "Twilio's API address (tests point it at a fake; https unless on this machine)"},
	{"LEAD_NOTIFY_SMS", "", "comma-separated US phone numbers that get a text for every new lead (required with SMS_PROVIDER)"},
	// Operations: logs, metrics, backups, retention
	{"LOG_FORMAT", "text", "text (slog key=value lines) or json (one object per line, the same keys)"},
	{"LOG_LEVEL", "info", "least severe log level written: debug, info, warn or error"},
	{"METRICS_TOKEN", "", "bearer token (16+ characters) that opens /metrics to a Prometheus scraper; empty: only requests from this machine that no proxy forwarded"},
	{"BACKUP_TO", "", "where backups go: a folder or s3://bucket/prefix (with the S3_* credentials); empty: DATA_DIR/backups, or s3://S3_BUCKET/backups with STORAGE=s3"},
	{"BACKUP_EVERY", "24h", "how often the scheduled backup runs (on one instance); 0 turns it off"},
	{"BACKUP_KEEP_DAILY", "7", "scheduled backups kept: the newest of each of this many days"},
	{"BACKUP_KEEP_WEEKLY", "4", "and the newest of each of this many weeks"},
	{"BACKUP_MAX_AGE", "26h", "alarm (dashboard, /healthz, /metrics) when the last good backup is older than this or the last one failed; 0 turns the alarm off"},
	{"PG_BIN_DIR", "", "folder holding pg_dump and pg_restore for backups on PostgreSQL; empty: searched in PATH"},
	{"RETAIN_ANALYTICS_RAW_DAYS", "30", "days raw analytics events are kept before only daily totals remain (at least 28: the Performance Monitor reads 28 days)"},
	{"RETAIN_ANALYTICS_DAILY_DAYS", "0", "days analytics daily totals are kept; 0 keeps them (they hold no personal data)"},
	{"RETAIN_AUDIT_DAYS", "730", "days the audit log (sign-ins with IP, views, exports, changes) is kept"},
	{"RETAIN_OUTBOX_DAYS", "30", "days sent or given-up lead notifications (which hold the lead's contact details) are kept"},
	{"RETAIN_NOT_FOUND_DAYS", "30", "days the 404 log is kept (the 404 monitor lists them)"},
}

func defaults() map[string]string {
	m := map[string]string{}
	for _, v := range Vars {
		m[v.Name] = v.Default
	}
	return m
}

// Load reads the configuration from the environment.
func Load() (*Config, error) { return LoadFrom(os.Getenv) }

// LoadFrom reads the configuration through getenv (tests pass a map).
func LoadFrom(getenv func(string) string) (*Config, error) {
	def := defaults()
	get := func(name string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def[name]
	}
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", name, fmt.Sprintf(format, args...)))
	}
	c := &Config{}

	port, err := strconv.Atoi(get("PORT"))
	if err != nil || port < 1 || port > 65535 {
		bad("PORT", "%q is not a port number (1-65535)", get("PORT"))
	}
	c.Addr = ":" + strconv.Itoa(port)

	// BASE_URL defaults to this machine on the configured port, so
	// canonicals follow PORT when only PORT is set.
	def["BASE_URL"] = "http://localhost:" + strconv.Itoa(port)
	c.BaseURL = strings.TrimRight(get("BASE_URL"), "/")
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		bad("BASE_URL", "%q must be an absolute http(s) address with no path, e.g. https://example.com", get("BASE_URL"))
	}

	c.Env = get("APP_ENV")
	if c.Env != "production" && c.Env != "development" {
		bad("APP_ENV", "%q must be production or development", c.Env)
	}

	c.DatabaseURL = get("DATABASE_URL")
	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		bad("DATABASE_URL", "must start with postgres:// or postgresql:// (leave it empty for SQLite)")
	}
	c.DataDir = get("DATA_DIR")
	c.SourceDir = get("SOURCE_DIR")

	c.PoolSize = runtime.NumCPU()
	if v := getenv("SSR_POOL_SIZE"); strings.TrimSpace(v) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > 64 {
			bad("SSR_POOL_SIZE", "%q must be a whole number from 1 to 64", v)
		}
		c.PoolSize = n
	}
	c.RenderTimeout, err = time.ParseDuration(get("RENDER_TIMEOUT"))
	if err != nil || c.RenderTimeout <= 0 {
		bad("RENDER_TIMEOUT", "%q is not a positive duration such as 5s", get("RENDER_TIMEOUT"))
	}
	switch get("ACCESS_LOG") {
	case "true", "1":
		c.AccessLog = true
	case "false", "0":
	default:
		bad("ACCESS_LOG", "%q must be true or false", get("ACCESS_LOG"))
	}
	switch get("TRUST_PROXY") {
	case "true", "1":
		c.TrustProxy = true
	case "false", "0":
	default:
		bad("TRUST_PROXY", "%q must be true or false", get("TRUST_PROXY"))
	}
	for name, d := range map[string]*time.Duration{"BODY_READ_TIMEOUT": &c.Limits.BodyReadTimeout, "UPLOAD_IDLE_TIMEOUT": &c.Limits.UploadIdleTimeout, "SHUTDOWN_TIMEOUT": &c.Limits.ShutdownTimeout} {
		if *d, err = time.ParseDuration(get(name)); err != nil || *d <= 0 {
			bad(name, "%q is not a positive duration such as 15s", get(name))
		}
	}
	c.CDN = CDN{PurgeURL: get("CDN_PURGE_URL"), PurgeToken: get("CDN_PURGE_TOKEN")}
	if c.HealthToken = get("HEALTH_TOKEN"); c.HealthToken != "" && len(c.HealthToken) < 16 {
		bad("HEALTH_TOKEN", "must be at least 16 characters")
	}
	if c.CDN.PurgeURL != "" {
		if u, err := url.Parse(c.CDN.PurgeURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad("CDN_PURGE_URL", "%q must be an absolute http(s) address", c.CDN.PurgeURL)
		}
	}
	for _, p := range strings.Split(get("PROXY_PURGE_URLS"), ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if u, err := url.Parse(p); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" {
			bad("PROXY_PURGE_URLS", "%q must be a proxy's address such as http://10.0.0.5:6081, without a path", p)
			continue
		}
		c.CDN.ProxyPurgeURLs = append(c.CDN.ProxyPurgeURLs, strings.TrimRight(p, "/"))
	}
	if c.CDN.SMaxAge, err = time.ParseDuration(get("CDN_SMAXAGE")); err != nil || c.CDN.SMaxAge < 0 {
		bad("CDN_SMAXAGE", "%q is not a duration such as 5m", get("CDN_SMAXAGE"))
	}
	if c.Limits.ShutdownDrain, err = time.ParseDuration(get("SHUTDOWN_DRAIN")); err != nil || c.Limits.ShutdownDrain < 0 {
		bad("SHUTDOWN_DRAIN", "%q is not a duration such as 5s", get("SHUTDOWN_DRAIN"))
	}
	if c.Limits.MaxConns, err = strconv.Atoi(get("MAX_CONNS")); err != nil || c.Limits.MaxConns < 1 {
		bad("MAX_CONNS", "%q must be a whole number of at least 1", get("MAX_CONNS"))
	}
	if c.Limits.MaxConnsPerIP, err = strconv.Atoi(get("MAX_CONNS_PER_IP")); err != nil || c.Limits.MaxConnsPerIP < 0 {
		bad("MAX_CONNS_PER_IP", "%q must be a whole number (0 for no cap)", get("MAX_CONNS_PER_IP"))
	}
	c.BodyLimit = get("BODY_LIMIT")
	if !regexpBodyLimit(c.BodyLimit) {
		bad("BODY_LIMIT", "%q must be a size such as 512K or 1M", c.BodyLimit)
	}

	b := Business{
		Name: get("BUSINESS_NAME"), Phone: get("BUSINESS_PHONE"), Street: get("BUSINESS_STREET"),
		City: get("BUSINESS_CITY"), State: get("BUSINESS_STATE"), Zip: get("BUSINESS_ZIP"),
		County: get("BUSINESS_COUNTY"), License: get("LICENSE_NUMBER"), Email: get("BUSINESS_EMAIL"),
		Facebook: get("FACEBOOK_URL"), Instagram: get("INSTAGRAM_URL"), YouTube: get("YOUTUBE_URL"),
		Yelp: get("YELP_URL"), ReviewURL: get("GOOGLE_REVIEW_URL"),
		LeadFormURL: get("LEAD_FORM_URL"), LeadFormScript: get("LEAD_FORM_SCRIPT"),
	}
	if len(PhoneDigits(b.Phone)) != 10 {
		bad("BUSINESS_PHONE", "%q must hold 10 digits, e.g. (770) 555-0134", b.Phone)
	}
	if len(b.Zip) != 5 || strings.Trim(b.Zip, "0123456789") != "" {
		bad("BUSINESS_ZIP", "%q must be 5 digits", b.Zip)
	}
	for name, v := range map[string]string{"BUSINESS_NAME": b.Name, "BUSINESS_STREET": b.Street, "BUSINESS_CITY": b.City, "BUSINESS_STATE": b.State, "LICENSE_NUMBER": b.License} {
		if v == "" {
			bad(name, "must not be empty")
		}
	}
	for name, v := range map[string]string{"FACEBOOK_URL": b.Facebook, "INSTAGRAM_URL": b.Instagram, "YOUTUBE_URL": b.YouTube, "YELP_URL": b.Yelp, "GOOGLE_REVIEW_URL": b.ReviewURL, "LEAD_FORM_URL": b.LeadFormURL, "LEAD_FORM_SCRIPT": b.LeadFormScript} {
		if v == "" {
			continue
		}
		if u, err := url.Parse(v); err != nil || u.Scheme != "https" || u.Host == "" {
			bad(name, "%q must be an absolute https address", v)
		}
	}
	if b.LeadFormScript != "" && b.LeadFormURL == "" {
		bad("LEAD_FORM_SCRIPT", "is set but LEAD_FORM_URL is empty; the script needs the form it embeds")
	}
	c.Business = b
	c.Reviews = Reviews{APIKey: get("GOOGLE_PLACES_API_KEY"), PlaceID: get("GOOGLE_PLACE_ID"), Endpoint: get("GOOGLE_PLACES_ENDPOINT")}
	if u, err := url.Parse(c.Reviews.Endpoint); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		bad("GOOGLE_PLACES_ENDPOINT", "%q must be an absolute http(s) address", c.Reviews.Endpoint)
	}
	if c.Reviews.MinInterval, err = time.ParseDuration(get("REVIEWS_MIN_INTERVAL")); err != nil || c.Reviews.MinInterval < 0 {
		bad("REVIEWS_MIN_INTERVAL", "%q is not a duration such as 10m", get("REVIEWS_MIN_INTERVAL"))
	}
	c.Admin = Admin{PIN: getenv("ADMIN_PIN")}
	if p := c.Admin.PIN; p != "" && (len(p) < 4 || len(p) > 64 || strings.TrimSpace(p) != p) {
		bad("ADMIN_PIN", "must be 4-64 characters without surrounding spaces")
	}
	if c.Admin.TokenTTL, err = time.ParseDuration(get("ADMIN_TOKEN_TTL")); err != nil || c.Admin.TokenTTL <= 0 {
		bad("ADMIN_TOKEN_TTL", "%q is not a positive duration such as 30m", get("ADMIN_TOKEN_TTL"))
	}
	if c.Admin.MaxAttempts, err = strconv.Atoi(get("ADMIN_MAX_ATTEMPTS")); err != nil || c.Admin.MaxAttempts < 1 {
		bad("ADMIN_MAX_ATTEMPTS", "%q must be a whole number of at least 1", get("ADMIN_MAX_ATTEMPTS"))
	}
	if c.Admin.Lockout, err = time.ParseDuration(get("ADMIN_LOCKOUT")); err != nil || c.Admin.Lockout <= 0 {
		bad("ADMIN_LOCKOUT", "%q is not a positive duration such as 15m", get("ADMIN_LOCKOUT"))
	}
	if c.Admin.MaxUpload, err = strconv.ParseInt(get("MAX_UPLOAD_BYTES"), 10, 64); err != nil || c.Admin.MaxUpload < 1 {
		bad("MAX_UPLOAD_BYTES", "%q must be a positive number of bytes", get("MAX_UPLOAD_BYTES"))
	}
	c.Storage = Storage{Kind: get("STORAGE"), Endpoint: get("S3_ENDPOINT"), Bucket: get("S3_BUCKET"), Region: get("S3_REGION"), AccessKey: get("S3_ACCESS_KEY"), SecretKey: get("S3_SECRET_KEY")}
	switch c.Storage.Kind {
	case "local":
	case "s3":
		if u, err := url.Parse(c.Storage.Endpoint); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad("S3_ENDPOINT", "%q must be an absolute http(s) address when STORAGE=s3", c.Storage.Endpoint)
		}
		if c.Storage.AccessKey == "" || c.Storage.SecretKey == "" {
			bad("S3_ACCESS_KEY", "S3_ACCESS_KEY and S3_SECRET_KEY are required when STORAGE=s3")
		}
	default:
		bad("STORAGE", "%q must be local or s3", c.Storage.Kind)
	}
	// IndexNow (admin SEO & IndexNow screen)
	c.IndexNowEndpoint = get("INDEXNOW_ENDPOINT")
	if u, err := url.Parse(c.IndexNowEndpoint); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		bad("INDEXNOW_ENDPOINT", "%q must be an absolute http(s) address", c.IndexNowEndpoint)
	}
	c.IndexNowKey = get("INDEXNOW_KEY")
	if k := c.IndexNowKey; k != "" && !indexNowKeyRE.MatchString(k) {
		bad("INDEXNOW_KEY", "must be 8-128 letters, digits or dashes")
	}
	if c.IndexNowDebounce, err = time.ParseDuration(get("INDEXNOW_DEBOUNCE")); err != nil || c.IndexNowDebounce <= 0 {
		bad("INDEXNOW_DEBOUNCE", "%q is not a positive duration such as 10s", get("INDEXNOW_DEBOUNCE"))
	}
	// Background jobs
	if c.HealthInterval, err = time.ParseDuration(get("HEALTH_INTERVAL")); err != nil || c.HealthInterval <= 0 {
		bad("HEALTH_INTERVAL", "%q is not a positive duration such as 1h", get("HEALTH_INTERVAL"))
	}
	// New-lead notifications. SMTP_URL and the webhook URL may carry
	// credentials: their values are never quoted in an error.
	c.Notify = Notify{SMTPURL: get("SMTP_URL"), SMTPFrom: get("SMTP_FROM"), WebhookURL: get("LEAD_WEBHOOK_URL"), WebhookSecret: get("LEAD_WEBHOOK_SECRET")}
	if v := c.Notify.SMTPURL; v != "" {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			bad("SMTP_URL", "must look like smtp://user:password@host:587 or smtps://user:password@host:465 (value not shown)")
		} else if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				bad("SMTP_URL", "has a port that is not a number from 1 to 65535 (value not shown)")
			}
		}
	}
	if v := c.Notify.SMTPFrom; v != "" {
		if _, err := mail.ParseAddress(v); err != nil {
			bad("SMTP_FROM", "%q is not an email address such as Website <leads@example.com>", v)
		}
	}
	for _, a := range strings.Split(get("LEAD_NOTIFY_TO"), ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		if p, err := mail.ParseAddress(a); err != nil {
			bad("LEAD_NOTIFY_TO", "%q is not an email address", a)
		} else {
			c.Notify.To = append(c.Notify.To, p.Address)
		}
	}
	if c.Notify.SMTPURL != "" && len(c.Notify.To) == 0 {
		bad("LEAD_NOTIFY_TO", "is required when SMTP_URL is set: whom should new leads be emailed to?")
	}
	if c.Notify.SMTPURL == "" && len(c.Notify.To) > 0 {
		bad("SMTP_URL", "is required when LEAD_NOTIFY_TO is set: the mail server that sends the emails")
	}
	if v := c.Notify.WebhookURL; v != "" {
		if u, err := url.Parse(v); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad("LEAD_WEBHOOK_URL", "must be an absolute http(s) address (value not shown)")
		}
		if len(c.Notify.WebhookSecret) < 16 {
			bad("LEAD_WEBHOOK_SECRET", "is required when LEAD_WEBHOOK_URL is set, at least 16 characters")
		}
	}
	c.Notify.VAPIDSubject = get("VAPID_SUBJECT")
	if v := c.Notify.VAPIDSubject; v != "" && !ValidVAPIDSubject(v) {
		bad("VAPID_SUBJECT", "%q must be mailto: and an email address, or an https: URL", v)
	}
	if c.Notify.VAPIDSubject == "" {
		c.Notify.VAPIDSubject = defaultVAPIDSubject(c.Business.Email, c.Notify.SMTPFrom, c.BaseURL)
	}
	if c.Notify.EscalateAfter, err = time.ParseDuration(get("LEAD_ESCALATE_AFTER")); err != nil || c.Notify.EscalateAfter < time.Minute {
		bad("LEAD_ESCALATE_AFTER", "%q is not a duration of at least 1m, such as 10m", get("LEAD_ESCALATE_AFTER"))
	}
	c.Notify.SMS, errs = loadSMS(get, errs)
	errs = loadOps(c, get, errs)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	for _, name := range SecretVars {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			continue
		}
		c.secrets = append(c.secrets, v)
		if u, err := url.Parse(v); err == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok && pw != "" {
				c.secrets = append(c.secrets, pw, url.QueryEscape(pw))
			}
		}
	}
	return c, nil
}

// ValidVAPIDSubject reports whether s is what RFC 8292 asks of a VAPID
// "sub": mailto: and one bare email address, or an absolute https: URL.
func ValidVAPIDSubject(s string) bool {
	if addr, ok := strings.CutPrefix(s, "mailto:"); ok {
		a, err := mail.ParseAddress(addr)
		return err == nil && a.Address == addr
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.User == nil
}

// defaultVAPIDSubject is the push services' contact when VAPID_SUBJECT is
// unset: the business's public email, else the address lead emails come
// from, else the site (when it is https), else noreply@ its host. Apple's
// push service refuses a subject that is neither mailto: nor https:.
func defaultVAPIDSubject(businessEmail, smtpFrom, baseURL string) string {
	if a, err := mail.ParseAddress(businessEmail); err == nil {
		return "mailto:" + a.Address
	}
	if a, err := mail.ParseAddress(smtpFrom); err == nil {
		return "mailto:" + a.Address
	}
	u, err := url.Parse(baseURL)
	if err == nil && u.Scheme == "https" {
		return baseURL
	}
	host := "localhost"
	if err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return "mailto:noreply@" + host
}

var (
	twilioSIDRE     = regexp.MustCompile(`^AC[0-9a-fA-F]{32}$`)
	twilioServiceRE = regexp.MustCompile(`^MG[0-9a-fA-F]{32}$`)
)

// MaxSMSRecipients bounds LEAD_NOTIFY_SMS: every number costs a text per
// lead.
const MaxSMSRecipients = 10

// loadSMS reads and checks the SMS variables. The auth token is never
// quoted in an error.
func loadSMS(get func(string) string, errs []error) (SMS, []error) {
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", name, fmt.Sprintf(format, args...)))
	}
	s := SMS{Provider: get("SMS_PROVIDER"), AccountSID: get("TWILIO_ACCOUNT_SID"), AuthToken: get("TWILIO_AUTH_TOKEN"), APIBase: strings.TrimRight(get("TWILIO_API_BASE"), "/")}
	if u, err := url.Parse(s.APIBase); err != nil || u.Host == "" || (u.Scheme != "https" && !(u.Scheme == "http" && loopback(u.Hostname()))) || u.User != nil {
		// Plain http would carry the auth token in clear.
		bad("TWILIO_API_BASE", "%q must be an absolute https address (http only to this machine)", s.APIBase)
	}
	if from := get("TWILIO_FROM"); from != "" {
		if twilioServiceRE.MatchString(from) {
			s.From = from
		} else if e164, ok := phone.Normalize(from); ok {
			s.From = e164
		} else {
			bad("TWILIO_FROM", "%q must be a US phone number such as +17705550134, or a Messaging Service SID (MG...)", from)
		}
	}
	for _, n := range strings.Split(get("LEAD_NOTIFY_SMS"), ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		e164, ok := phone.Normalize(n)
		if !ok {
			bad("LEAD_NOTIFY_SMS", "%q is not a US phone number such as (770) 555-0134", n)
			continue
		}
		if !slices.Contains(s.To, e164) {
			s.To = append(s.To, e164)
		}
	}
	if len(s.To) > MaxSMSRecipients {
		bad("LEAD_NOTIFY_SMS", "lists %d numbers; at most %d", len(s.To), MaxSMSRecipients)
	}
	switch s.Provider {
	case "":
		for _, name := range []string{"TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM", "LEAD_NOTIFY_SMS"} {
			if get(name) != "" {
				bad(name, "is set but SMS_PROVIDER is not: set SMS_PROVIDER=twilio to send texts")
			}
		}
	case "twilio":
		if !twilioSIDRE.MatchString(s.AccountSID) {
			bad("TWILIO_ACCOUNT_SID", "must be AC and 32 hex digits when SMS_PROVIDER=twilio")
		}
		if len(s.AuthToken) < 16 || strings.ContainsAny(s.AuthToken, " \t\r\n") {
			bad("TWILIO_AUTH_TOKEN", "is required when SMS_PROVIDER=twilio: at least 16 characters, no spaces (value not shown)")
		}
		if s.From == "" && get("TWILIO_FROM") == "" {
			bad("TWILIO_FROM", "is required when SMS_PROVIDER=twilio: the number the texts come from")
		}
		if len(s.To) == 0 && get("LEAD_NOTIFY_SMS") == "" {
			bad("LEAD_NOTIFY_SMS", "is required when SMS_PROVIDER=twilio: whom should new leads be texted to?")
		}
	default:
		bad("SMS_PROVIDER", "%q must be twilio or empty", s.Provider)
	}
	return s, errs
}

func loopback(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1"
}

// indexNowKeyRE is the IndexNow protocol's key rule.
var indexNowKeyRE = regexp.MustCompile(`^[a-zA-Z0-9-]{8,128}$`)

func regexpBodyLimit(s string) bool {
	if s == "" {
		return false
	}
	n := strings.TrimRight(strings.ToUpper(s), "BKMG")
	if len(s)-len(n) > 2 {
		return false
	}
	_, err := strconv.Atoi(n)
	return err == nil
}

// PhoneDigits keeps the digits of a phone number, dropping a leading US 1.
func PhoneDigits(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	d := b.String()
	if len(d) == 11 && d[0] == '1' {
		d = d[1:]
	}
	return d
}

// TelHref is the tel: link for a phone number.
func TelHref(p string) string { return "tel:+1" + PhoneDigits(p) }
