// Package retention keeps each kind of record only as long as it should
// be: one daily job, on one instance, deletes what is past its
// time (RETAIN_*_DAYS), and the privacy page states the same periods,
// from the same configuration, so what the site says and what it does
// cannot drift apart. Leads are kept until an admin deletes them (a
// privacy request: web/leads).
package retention

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/words"
)

// Store deletes the records past their time (db.Store).
type Store interface {
	// PruneRawEvents deletes the raw analytics events of the rolled-up
	// days before keepRawFrom (the hourly roll-up folds them into daily
	// totals first).
	PruneRawEvents(ctx context.Context, keepRawFrom string) (int64, error)
	PruneAnalyticsDaily(ctx context.Context, beforeDay string) (int64, error)
	PruneAudit(ctx context.Context, before time.Time) (int64, error)
	PruneOutbox(ctx context.Context, before time.Time) (int64, error)
	PruneEndedSessions(ctx context.Context, now time.Time) (int64, error)
}

// Service is the retention job.
type Service struct {
	Policy config.Retention
	Store  Store
	// PruneNotFound deletes the 404 log's old days (editor.Service's,
	// which also lists them on the 404 monitor).
	PruneNotFound func(ctx context.Context) (string, error)
	// Now is the clock (tests move it).
	Now func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// Run deletes everything past its time and says how much. A step that
// fails does not stop the others; the run then fails naming them.
func (s *Service) Run(ctx context.Context) (string, error) {
	now := s.now()
	p := s.Policy
	var done []string
	var errs []error
	step := func(what, whats string, n int64, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
			return
		}
		done = append(done, words.Count(int(n), what, whats))
	}
	days := func(n int) time.Time { return now.AddDate(0, 0, -n) }

	n, err := s.Store.PruneRawEvents(ctx, analytics.Day(days(p.AnalyticsRawDays)))
	step("raw analytics event", "raw analytics events", n, err)
	if p.AnalyticsDailyDays > 0 {
		n, err := s.Store.PruneAnalyticsDaily(ctx, analytics.Day(days(p.AnalyticsDailyDays)))
		step("analytics total", "analytics totals", n, err)
	}
	n, err = s.Store.PruneAudit(ctx, days(p.AuditDays))
	step("audit entry", "audit entries", n, err)
	n, err = s.Store.PruneOutbox(ctx, days(p.OutboxDays))
	step("sent notification", "sent notifications", n, err)
	n, err = s.Store.PruneEndedSessions(ctx, now)
	step("ended session", "ended sessions", n, err)
	if s.PruneNotFound != nil {
		if msg, err := s.PruneNotFound(ctx); err != nil {
			errs = append(errs, fmt.Errorf("404 log: %w", err))
		} else {
			done = append(done, msg)
		}
	}
	summary := "deleted " + strings.Join(done, ", ")
	if len(errs) > 0 {
		return summary, errors.Join(errs...)
	}
	return summary, nil
}

// Item is one line of what the site keeps and for how long.
type Item struct {
	What string `json:"what"`
	Kept string `json:"kept"`
}

// Backups is what the privacy page says of backups: how long the
// scheduled ones are kept (0 and 0: not scheduled).
type Backups struct {
	KeepDaily, KeepWeekly int
}

// Items are the retention periods as the privacy page lists them, from
// the configuration the job enforces.
func Items(p config.Retention, b Backups) []Item {
	daily := "kept"
	if p.AnalyticsDailyDays > 0 {
		daily = "deleted after " + words.Days(p.AnalyticsDailyDays)
	}
	out := []Item{
		{"Estimate requests you send us (name, phone, email, address, insurance details, notes we add)",
			"Kept until the work and its paperwork are done and we delete them, or until you ask us to: we delete them on request, and can send you a copy of everything we hold about you."},
		{"Notifications of your request to our staff (email, text, push)",
			"Deleted " + words.Days(p.OutboxDays) + " after they are sent."},
		{"Visitor statistics (no IP address; a code that changes every day)",
			"Detailed records deleted after " + words.Days(p.AnalyticsRawDays) + "; daily totals with no personal data " + daily + "."},
		{"Records of missing pages visited (the address asked for, no visitor data)",
			"Deleted after " + words.Days(p.NotFoundDays) + "."},
		{"Staff sign-ins and access to your request (who, when, from which IP address)",
			"Deleted after " + words.Days(p.AuditDays) + "."},
		{"Staff sessions", "Deleted when they end."},
	}
	if b.KeepDaily+b.KeepWeekly > 0 {
		longest := b.KeepDaily
		if w := 7 * b.KeepWeekly; w > longest {
			longest = w
		}
		out = append(out, Item{"Backups of all of the above",
			"Kept at most " + words.Days(longest) + ", so a deleted record is gone from backups within that time too."})
	}
	return out
}
