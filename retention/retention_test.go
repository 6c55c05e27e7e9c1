package retention

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
)

func policy() config.Retention {
	return config.Retention{AnalyticsRawDays: 30, AnalyticsDailyDays: 400, AuditDays: 730, OutboxDays: 30, NotFoundDays: 30}
}

// The job, on both databases: each kind of record older than its period
// goes, the newer stay, and the summary says how many of each.
func TestRunDeletesWhatIsPastItsTime(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 17, 0, 0, 0, time.UTC)
		p := policy()
		for i, ago := range []int{731, 729} {
			s.AddAudit(ctx, db.AuditEntry{ID: fmt.Sprint("a", i), At: now.AddDate(0, 0, -ago), Actor: "owner@example.com", Action: db.AuditLogin})
		}
		for i, ago := range []int{31, 2} {
			at := now.AddDate(0, 0, -ago)
			id := fmt.Sprint("l", i)
			l := db.Lead{ID: id, CreatedAt: at, UpdatedAt: at, FirstName: "A", Phone: "4045550100", Status: "new", Source: "website"}
			if _, err := s.CreateLeadWithOutbox(ctx, l, []db.OutboxRow{{Kind: db.OutboxEmail, Payload: "{}", NextAttemptAt: at, CreatedAt: at}}); err != nil {
				t.Fatal(err)
			}
			rows, _ := s.RecentOutbox(ctx, 10)
			for _, r := range rows {
				if r.LeadID == id {
					s.OutboxDelivered(ctx, r.ID, at)
				}
			}
		}
		s.CreateSession(ctx, db.Session{ID: "ended", TokenHash: "h", CreatedAt: now.Add(-time.Hour), ExpiresAt: now.Add(-time.Minute), HardExpiresAt: now})
		var evs []db.Event
		for _, ago := range []int{45, 31, 29} {
			at := now.AddDate(0, 0, -ago)
			evs = append(evs, db.Event{ID: fmt.Sprint("e", ago), At: at, Day: analytics.Day(at), Kind: db.EventPageview, Path: "/", Visitor: "v"})
		}
		if err := s.AddEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
		// The hourly roll-up has folded the finished days into totals
		// (keeping every raw event: that is the retention job's to drop).
		if _, err := s.RollUp(ctx, analytics.Day(now), "2000-01-01", now); err != nil {
			t.Fatal(err)
		}
		pruned := false
		svc := &Service{Policy: p, Store: s, Now: func() time.Time { return now },
			PruneNotFound: func(context.Context) (string, error) { pruned = true; return "pruned 0 old 404 rows", nil }}
		summary, err := svc.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"1 audit entry", "1 sent notification", "1 ended session", "2 raw analytics events", "pruned 0 old 404 rows"} {
			if !strings.Contains(summary, w) {
				t.Errorf("summary %q lacks %q", summary, w)
			}
		}
		if !pruned {
			t.Error("the 404 log was not pruned")
		}
		counts, _ := s.RowCounts(ctx)
		if counts["audit_log"] != 1 || counts["outbox"] != 1 || counts["admin_sessions"] != 0 || counts["avatar_leads"] != 2 {
			t.Errorf("left %v", counts)
		}
		// Raw events: the day 29 days ago stays, the older go (rolled up).
		if counts["analytics_events"] != 1 || counts["analytics_daily"] == 0 {
			t.Errorf("analytics left: %d raw, %d daily", counts["analytics_events"], counts["analytics_daily"])
		}
		// Daily totals older than 400 days go; there are none here.
		if _, err := svc.Run(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// A failing step fails the run, names itself, and the others still run.
func TestRunGoesOnPastAFailure(t *testing.T) {
	st := &failingStore{}
	svc := &Service{Policy: policy(), Store: st}
	summary, err := svc.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "audit entry: disk full") {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(summary, "sent notification") || !st.sessions {
		t.Errorf("the other steps did not run: %q", summary)
	}
}

type failingStore struct{ sessions bool }

func (f *failingStore) PruneRawEvents(context.Context, string) (int64, error)      { return 0, nil }
func (f *failingStore) PruneAnalyticsDaily(context.Context, string) (int64, error) { return 0, nil }
func (f *failingStore) PruneAudit(context.Context, time.Time) (int64, error) {
	return 0, errors.New("disk full")
}
func (f *failingStore) PruneOutbox(context.Context, time.Time) (int64, error) { return 3, nil }
func (f *failingStore) PruneEndedSessions(context.Context, time.Time) (int64, error) {
	f.sessions = true
	return 0, nil
}

// The privacy page's periods come from the configuration.
func TestItemsFollowTheConfiguration(t *testing.T) {
	p := policy()
	p.AuditDays, p.OutboxDays, p.AnalyticsDailyDays = 365, 14, 0
	text := fmt.Sprint(Items(p, Backups{KeepDaily: 7, KeepWeekly: 4}))
	for _, w := range []string{"Deleted after 1 year", "Deleted 14 days after they are sent", "Detailed records deleted after 30 days; daily totals with no personal data kept",
		"Kept at most 28 days", "we delete them on request"} {
		if !strings.Contains(text, w) {
			t.Errorf("items lack %q:\n%s", w, text)
		}
	}
	if strings.Contains(fmt.Sprint(Items(p, Backups{})), "Backups") {
		t.Error("backups listed without a schedule")
	}
}
