package config

import (
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaultsAreValid(t *testing.T) {
	c, err := LoadFrom(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.BaseURL != "http://localhost:8080" || c.Business.License != "RBQA006428" || c.Business.Zip != "30134" {
		t.Errorf("unexpected defaults: %+v", c)
	}
	if TelHref(c.Business.Phone) != "tel:+17705550134" {
		t.Errorf("tel href %q", TelHref(c.Business.Phone))
	}
}

func TestBadValuesNameTheVariable(t *testing.T) {
	for name, val := range map[string]string{
		"PORT": "http", "BASE_URL": "example.com/x", "APP_ENV": "staging", "DATABASE_URL": "mysql://x",
		"SSR_POOL_SIZE": "0", "RENDER_TIMEOUT": "soon", "BODY_LIMIT": "lots", "BUSINESS_PHONE": "555-01",
		"BUSINESS_ZIP": "3013", "FACEBOOK_URL": "http://facebook.com/x", "LEAD_FORM_URL": "ftp://x",
		"INDEXNOW_KEY": "bad key!", "INDEXNOW_DEBOUNCE": "soon", "HEALTH_INTERVAL": "0s",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := LoadFrom(env(map[string]string{name: val}))
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("err = %v, want one naming %s", err, name)
			}
		})
	}
}

func TestScriptNeedsForm(t *testing.T) {
	_, err := LoadFrom(env(map[string]string{"LEAD_FORM_SCRIPT": "https://x.test/a.js"}))
	if err == nil || !strings.Contains(err.Error(), "LEAD_FORM_SCRIPT") {
		t.Fatalf("err = %v", err)
	}
}

// The operations variables: defaults that boot, and a bad
// value stops the boot naming its variable, a secret never quoted.
func TestOpsVariables(t *testing.T) {
	c, err := LoadFrom(env(map[string]string{"DATA_DIR": "/srv/data"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Log.Format != "text" || LevelName(c.Log.Level) != "info" || c.Backup.To != "/srv/data/backups" || c.Backup.KeepDaily != 7 || c.Backup.KeepWeekly != 4 ||
		c.Backup.MaxAge.Hours() != 26 || c.Backup.Every.Hours() != 24 || c.Retention.AuditDays != 730 || c.Retention.AnalyticsRawDays != 30 {
		t.Errorf("defaults: %+v %+v %+v", c.Log, c.Backup, c.Retention)
	}
	s3 := map[string]string{"STORAGE": "s3", "S3_ENDPOINT": "https://s3.example.com", "S3_ACCESS_KEY": "k", "S3_SECRET_KEY": "s", "S3_BUCKET": "media-bucket"}
	if c, err := LoadFrom(env(s3)); err != nil || c.Backup.To != "s3://media-bucket/backups" {
		t.Errorf("backups with STORAGE=s3: %v %q", err, c.Backup.To)
	}
	for name, val := range map[string]string{
		"LOG_FORMAT": "xml", "LOG_LEVEL": "loud", "METRICS_TOKEN": "short", "BACKUP_TO": "s3://Bad_Bucket/x", "BACKUP_EVERY": "5m",
		"BACKUP_KEEP_DAILY": "-1", "BACKUP_MAX_AGE": "soon", "RETAIN_ANALYTICS_RAW_DAYS": "7", "RETAIN_AUDIT_DAYS": "0", "RETAIN_OUTBOX_DAYS": "x",
		"RETAIN_NOT_FOUND_DAYS": "0", "RETAIN_ANALYTICS_DAILY_DAYS": "29",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := LoadFrom(env(map[string]string{name: val}))
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("err = %v, want one naming %s", err, name)
			}
			if name == "METRICS_TOKEN" && strings.Contains(err.Error(), val) {
				t.Errorf("the token is quoted: %v", err)
			}
		})
	}
	// An s3:// destination needs credentials.
	if _, err := LoadFrom(env(map[string]string{"BACKUP_TO": "s3://backups-bucket/site"})); err == nil || !strings.Contains(err.Error(), "S3_ENDPOINT") {
		t.Errorf("s3 backups without credentials: %v", err)
	}
	c, err = LoadFrom(env(map[string]string{"METRICS_TOKEN": "0123456789abcdef-metrics"}))
	if err != nil || c.MetricsToken == "" || !contains(c.Secrets(), "0123456789abcdef-metrics") {
		t.Errorf("METRICS_TOKEN is a secret: %v", err)
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// PROXY_PURGE_URLS: a list of proxies' addresses, each an absolute http(s)
// address without a path; anything else stops the boot naming it.
func TestProxyPurgeURLs(t *testing.T) {
	c, err := LoadFrom(env(map[string]string{"PROXY_PURGE_URLS": " http://10.0.0.5:6081/ , https://cache.example.com"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.CDN.ProxyPurgeURLs, " "); got != "http://10.0.0.5:6081 https://cache.example.com" {
		t.Errorf("proxies %q", got)
	}
	if c, _ := LoadFrom(env(nil)); len(c.CDN.ProxyPurgeURLs) != 0 {
		t.Errorf("proxies by default: %v", c.CDN.ProxyPurgeURLs)
	}
	for _, bad := range []string{"10.0.0.5:6081", "http://10.0.0.5:6081/purge", "ftp://x", "http://x?y=1", "http://"} {
		if _, err := LoadFrom(env(map[string]string{"PROXY_PURGE_URLS": "http://ok:1," + bad})); err == nil || !strings.Contains(err.Error(), "PROXY_PURGE_URLS") {
			t.Errorf("%q: err = %v, want one naming PROXY_PURGE_URLS", bad, err)
		}
	}
}
