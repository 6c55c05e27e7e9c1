package config

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// loadOps reads the operations variables: the log's format and
// level, the metrics token, backups and retention.
func loadOps(c *Config, get func(string) string, errs []error) []error {
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", name, fmt.Sprintf(format, args...)))
	}
	switch c.Log.Format = get("LOG_FORMAT"); c.Log.Format {
	case "text", "json":
	default:
		bad("LOG_FORMAT", "%q must be text or json", c.Log.Format)
	}
	if err := c.Log.Level.UnmarshalText([]byte(get("LOG_LEVEL"))); err != nil || !validLevel(get("LOG_LEVEL")) {
		bad("LOG_LEVEL", "%q must be debug, info, warn or error", get("LOG_LEVEL"))
	}
	if c.MetricsToken = get("METRICS_TOKEN"); c.MetricsToken != "" && (len(c.MetricsToken) < 16 || strings.ContainsAny(c.MetricsToken, " \t\r\n")) {
		bad("METRICS_TOKEN", "must be at least 16 characters without spaces (value not shown)")
	}

	b := &c.Backup
	b.To = get("BACKUP_TO")
	if b.To == "" {
		b.To = filepath.Join(c.DataDir, "backups")
		if c.Storage.Kind == "s3" {
			b.To = "s3://" + c.Storage.Bucket + "/backups"
		}
	}
	if bucket, prefix, ok := ParseS3URL(b.To); ok {
		switch {
		case !bucketRE.MatchString(bucket):
			bad("BACKUP_TO", "%q: the bucket name must be 3-63 lower-case letters, digits, dots or dashes", b.To)
		case prefix == "" || !prefixRE.MatchString(prefix):
			bad("BACKUP_TO", "%q: give a prefix of lower-case letters, digits, dots, dashes or underscores after the bucket, e.g. s3://%s/backups", b.To, bucket)
		case c.Storage.Endpoint == "" || c.Storage.AccessKey == "" || c.Storage.SecretKey == "":
			bad("BACKUP_TO", "an s3:// address needs S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY")
		}
	} else if strings.Contains(b.To, "://") {
		bad("BACKUP_TO", "%q must be a folder or s3://bucket/prefix", b.To)
	}
	var err error
	if b.Every, err = time.ParseDuration(get("BACKUP_EVERY")); err != nil || b.Every < 0 || (b.Every > 0 && b.Every < time.Hour) {
		bad("BACKUP_EVERY", "%q must be 0 (off) or a duration of at least 1h, such as 24h", get("BACKUP_EVERY"))
	}
	for name, p := range map[string]*int{"BACKUP_KEEP_DAILY": &b.KeepDaily, "BACKUP_KEEP_WEEKLY": &b.KeepWeekly} {
		if *p, err = strconv.Atoi(get(name)); err != nil || *p < 0 || *p > 1000 {
			bad(name, "%q must be a whole number from 0 to 1000", get(name))
		}
	}
	if err == nil && b.KeepDaily+b.KeepWeekly == 0 {
		bad("BACKUP_KEEP_DAILY", "BACKUP_KEEP_DAILY and BACKUP_KEEP_WEEKLY are both 0: the scheduled backup would delete every backup it makes")
	}
	if b.MaxAge, err = time.ParseDuration(get("BACKUP_MAX_AGE")); err != nil || b.MaxAge < 0 {
		bad("BACKUP_MAX_AGE", "%q is not a duration such as 26h (0 turns the alarm off)", get("BACKUP_MAX_AGE"))
	}
	b.PGBinDir = get("PG_BIN_DIR")

	r := &c.Retention
	for _, d := range []struct {
		name string
		p    *int
		min  int
	}{
		{"RETAIN_ANALYTICS_RAW_DAYS", &r.AnalyticsRawDays, 28},
		{"RETAIN_ANALYTICS_DAILY_DAYS", &r.AnalyticsDailyDays, 0},
		{"RETAIN_AUDIT_DAYS", &r.AuditDays, 1},
		{"RETAIN_OUTBOX_DAYS", &r.OutboxDays, 1},
		{"RETAIN_NOT_FOUND_DAYS", &r.NotFoundDays, 1},
	} {
		if *d.p, err = strconv.Atoi(get(d.name)); err != nil || *d.p < d.min || *d.p > 36500 {
			bad(d.name, "%q must be a whole number of days from %d to 36500", get(d.name), d.min)
		}
	}
	if r.AnalyticsDailyDays > 0 && r.AnalyticsDailyDays < r.AnalyticsRawDays {
		bad("RETAIN_ANALYTICS_DAILY_DAYS", "%d is shorter than RETAIN_ANALYTICS_RAW_DAYS (%d): totals would go before the events they sum", r.AnalyticsDailyDays, r.AnalyticsRawDays)
	}
	return errs
}

// validLevel accepts the four level names slog knows, without offsets.
func validLevel(s string) bool {
	switch strings.ToLower(s) {
	case "debug", "info", "warn", "error":
		return true
	}
	return false
}

var (
	bucketRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)
	prefixRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*$`)
)

// ParseS3URL splits s3://bucket/prefix; ok is false for anything else.
// A trailing slash is dropped from the prefix.
func ParseS3URL(s string) (bucket, prefix string, ok bool) {
	rest, ok := strings.CutPrefix(s, "s3://")
	if !ok {
		return "", "", false
	}
	bucket, prefix, _ = strings.Cut(rest, "/")
	return bucket, strings.Trim(prefix, "/"), true
}

// LevelName is a slog level as LOG_LEVEL spells it.
func LevelName(l slog.Level) string { return strings.ToLower(l.String()) }
