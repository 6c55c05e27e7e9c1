package db

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Retention deletes exactly what is past its time: an entry one second
// older than the cut goes, one at the cut stays, on both
// databases.
func TestRetentionDeletesExactlyWhatIsPastItsTime(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		cut := now.AddDate(0, 0, -730)
		// The audit log.
		for i, at := range []time.Time{cut.Add(-time.Hour), cut.Add(-time.Second), cut, cut.Add(time.Second), now} {
			if err := s.AddAudit(ctx, AuditEntry{ID: "a" + string(rune('0'+i)), At: at, Actor: "owner@example.com", Action: AuditLogin, IP: "203.0.113.9"}); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := s.PruneAudit(ctx, cut); err != nil || n != 2 {
			t.Fatalf("audit pruned %d, %v; want 2", n, err)
		}
		var ids []string
		s.db.Select(&ids, `SELECT id FROM audit_log ORDER BY id`)
		if diff := cmp.Diff([]string{"a2", "a3", "a4"}, ids); diff != "" {
			t.Errorf("audit rows kept (-want, +got):\n%s", diff)
		}

		// Sent and given-up notifications; pending ones stay whatever their age.
		ocut := now.AddDate(0, 0, -30)
		for i, c := range []struct {
			id       string
			at       time.Time
			outcome  string
			wantKept bool
		}{
			{"old-sent", ocut.Add(-time.Minute), "sent", false},
			{"old-failed", ocut.Add(-time.Minute), "failed", false},
			{"cut-sent", ocut, "sent", true},
			{"new-sent", now, "sent", true},
			{"old-pending", ocut.AddDate(0, 0, -10), "", true},
		} {
			_ = i
			if _, err := s.CreateLeadWithOutbox(ctx, outboxLead(c.id, c.at), outboxRows(c.at, OutboxEmail)); err != nil {
				t.Fatal(err)
			}
			var rowID string
			s.db.Get(&rowID, s.q(`SELECT id FROM outbox WHERE lead_id = ?`), c.id)
			switch c.outcome {
			case "sent":
				err := s.OutboxDelivered(ctx, rowID, c.at)
				if err != nil {
					t.Fatal(err)
				}
			case "failed":
				if err := s.OutboxFailed(ctx, rowID, "refused", c.at); err != nil {
					t.Fatal(err)
				}
			}
		}
		if n, err := s.PruneOutbox(ctx, ocut); err != nil || n != 2 {
			t.Fatalf("outbox pruned %d, %v; want 2", n, err)
		}
		var left []string
		s.db.Select(&left, `SELECT lead_id FROM outbox ORDER BY lead_id`)
		if diff := cmp.Diff([]string{"cut-sent", "new-sent", "old-pending"}, left); diff != "" {
			t.Errorf("outbox rows kept (-want, +got):\n%s", diff)
		}

		// Ended sessions go; a live one stays.
		for _, se := range []Session{
			{ID: "expired", TokenHash: "h1", CreatedAt: now.Add(-2 * time.Hour), ExpiresAt: now.Add(-time.Second), HardExpiresAt: now.Add(time.Hour)},
			{ID: "hard", TokenHash: "h2", CreatedAt: now.Add(-13 * time.Hour), ExpiresAt: now.Add(time.Hour), HardExpiresAt: now},
			{ID: "live", TokenHash: "h3", CreatedAt: now, ExpiresAt: now.Add(time.Minute), HardExpiresAt: now.Add(time.Hour)},
		} {
			if err := s.CreateSession(ctx, se); err != nil {
				t.Fatal(err)
			}
		}
		if n, _ := s.CountLiveSessions(ctx, now); n != 1 {
			t.Errorf("live sessions %d", n)
		}
		if n, err := s.PruneEndedSessions(ctx, now); err != nil || n != 2 {
			t.Fatalf("sessions pruned %d, %v; want 2", n, err)
		}
		if n := countRows(t, s, "admin_sessions"); n != 1 {
			t.Errorf("%d sessions left", n)
		}

		// Daily analytics totals: the days before the cut go.
		for _, day := range []string{"2024-01-01", "2024-01-02", "2024-01-03"} {
			if _, err := s.db.Exec(s.q(`INSERT INTO analytics_daily (day, kind, dim, key, events, visitors) VALUES (?, 'pageview', 'total', '', 1, 1)`), day); err != nil {
				t.Fatal(err)
			}
			s.db.Exec(s.q(`INSERT INTO analytics_rollups (day, rolled_at) VALUES (?, ?)`), day, now)
		}
		if n, err := s.PruneAnalyticsDaily(ctx, "2024-01-02"); err != nil || n != 1 {
			t.Fatalf("daily totals pruned %d, %v; want 1", n, err)
		}
		var days []string
		s.db.Select(&days, `SELECT day FROM analytics_daily ORDER BY day`)
		if diff := cmp.Diff([]string{"2024-01-02", "2024-01-03"}, days); diff != "" {
			t.Errorf("daily totals kept (-want, +got):\n%s", diff)
		}
		if n := countRows(t, s, "analytics_rollups"); n != 2 {
			t.Errorf("%d roll-up markers left", n)
		}
	})
}

// A privacy request: every lead with the email (any case) or the phone
// (as typed or normalised) is found; erasing one removes it, its
// timeline and notifications, and its contact data from audit details,
// and leaves one audit row with who and when.
func TestLeadsByContactAndDeleteLead(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		mk := func(id, email, tel string, at time.Time) {
			l := Lead{ID: id, CreatedAt: at, UpdatedAt: at, FirstName: "P", Phone: tel, Email: email, Status: "new", Source: "website"}
			if _, err := s.CreateLeadWithOutbox(ctx, l, outboxRows(at, OutboxEmail)); err != nil {
				t.Fatal(err)
			}
		}
		mk("l1", "Maria.G@Example.com", "(770) 555-0134", now.Add(-2*time.Hour))
		mk("l2", "other@example.com", "770.555.0134", now.Add(-time.Hour))
		mk("l3", "maria.g@example.com", "(404) 555-0199", now)
		mk("l4", "someone@example.com", "(678) 555-0100", now)
		ids := func(ls []Lead) []string {
			out := []string{}
			for _, l := range ls {
				out = append(out, l.ID)
			}
			return out
		}
		for _, c := range []struct {
			email, tel string
			want       []string
		}{
			{"maria.g@example.com", "", []string{"l1", "l3"}},
			{"", "+17705550134", []string{"l1", "l2"}},
			{"MARIA.G@EXAMPLE.COM", "770-555-0134", []string{"l1", "l2", "l3"}},
			{"", "", []string{}},
			{"nobody@example.com", "", []string{}},
		} {
			got, err := s.LeadsByContact(ctx, c.email, c.tel)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, ids(got)); diff != "" {
				t.Errorf("%q %q (-want, +got):\n%s", c.email, c.tel, diff)
			}
		}
		if _, err := s.AddLeadNote(ctx, "l1", Actor{Name: "owner"}, "call after 5", now); err != nil {
			t.Fatal(err)
		}
		s.AddAudit(ctx, AuditEntry{At: now, Actor: "owner@example.com", Action: AuditListFull, Detail: `search "maria.g@example.com" page 1`})
		s.AddAudit(ctx, AuditEntry{At: now, Actor: "owner@example.com", Action: AuditLeadDetail, LeadID: "l1"})
		err := s.DeleteLead(ctx, "l1", AuditEntry{At: now, UserID: "", Actor: "owner@example.com", IP: "203.0.113.9"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetLead(ctx, "l1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("the lead is still there: %v", err)
		}
		for _, table := range []string{"lead_events", "outbox"} {
			var n int
			s.db.Get(&n, s.q(`SELECT COUNT(*) FROM `+table+` WHERE lead_id = ?`), "l1")
			if n != 0 {
				t.Errorf("%d rows of %s left for the erased lead", n, table)
			}
		}
		entries, _, _ := s.ListAudit(ctx, 10, 0)
		var deleted int
		for _, e := range entries {
			if strings.Contains(e.Detail, "maria.g@") || strings.Contains(e.Detail, "555-0134") {
				t.Errorf("contact data left in the audit log: %+v", e)
			}
			if e.Action == AuditLeadDeleted {
				deleted++
				if e.LeadID != "l1" || e.Actor != "owner@example.com" || !e.At.Equal(now) {
					t.Errorf("deletion entry %+v", e)
				}
			}
		}
		if deleted != 1 {
			t.Errorf("%d deletion entries", deleted)
		}
		if err := s.DeleteLead(ctx, "l1", AuditEntry{At: now, Actor: "x"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("second delete: %v", err)
		}
		if got, _ := s.LeadsByContact(ctx, "maria.g@example.com", ""); len(got) != 1 || got[0].ID != "l3" {
			t.Errorf("after the erasure: %v", ids(got))
		}
	})
}

// Backup runs: the last run and the last good one.
func TestLastBackups(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		if last, good, err := s.LastBackups(ctx); err != nil || last != nil || good != nil {
			t.Fatalf("none yet: %v %v %v", last, good, err)
		}
		s.RecordBackup(ctx, BackupRun{StartedAt: now.Add(-2 * time.Hour), FinishedAt: now.Add(-2 * time.Hour), Outcome: OutcomeOK, Name: "a", Bytes: 10})
		s.RecordBackup(ctx, BackupRun{StartedAt: now, FinishedAt: now, Outcome: OutcomeFailed, Summary: "dial tcp 10.0.0.1:9000: connection refused"})
		last, good, err := s.LastBackups(ctx)
		if err != nil || last == nil || good == nil || last.Outcome != OutcomeFailed || good.Name != "a" || good.Bytes != 10 {
			t.Fatalf("%+v %+v %v", last, good, err)
		}
		if strings.Contains(last.Summary, "10.0.0.1") {
			t.Errorf("an address reached the summary: %q", last.Summary)
		}
		if at, err := s.InstalledAt(ctx); err != nil || at.IsZero() {
			t.Errorf("installed at %v %v", at, err)
		}
	})
}

// Row counts and the schema version, as a backup's manifest records them.
func TestCountRows(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		s.CreateLead(ctx, outboxLead("l1", time.Now()))
		counts, err := CountRows(ctx, s.db, s.dialect)
		if err != nil {
			t.Fatal(err)
		}
		if counts["avatar_leads"] != 1 || counts["backup_runs"] != 0 || counts["schema_migrations"] < 20 {
			t.Errorf("counts %v", counts)
		}
		if v, err := SchemaVersion(ctx, s.db); err != nil || v != LatestMigration() || v < 50 {
			t.Errorf("schema version %d (%v), latest %d", v, err, LatestMigration())
		}
	})
}

// A running instance holds its database: a restore's exclusive lock is
// refused while it runs and granted once it has stopped; an instance
// that starts during a restore is refused.
func TestInstanceHoldRefusesRestore(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		file := dir + "/site.db"
		s := openTestSQLite(t, file)
		release, err := s.HoldInstance(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		second, err := s.HoldInstance(context.Background(), dir)
		if err != nil {
			t.Fatalf("a second instance on the same data: %v", err)
		}
		if _, err := Exclusive(context.Background(), "", dir); !errors.Is(err, ErrInUse) {
			t.Fatalf("restore while held: %v", err)
		}
		release()
		second()
		x, err := Exclusive(context.Background(), "", dir)
		if err != nil {
			t.Fatalf("restore after the instances stopped: %v", err)
		}
		if _, err := s.HoldInstance(context.Background(), dir); !errors.Is(err, ErrRestoring) {
			t.Errorf("an instance starting during a restore: %v", err)
		}
		x()
	})
	t.Run("postgres", func(t *testing.T) {
		s, dsn, err := newTestPostgres(t)
		if err != nil {
			t.Skipf("PostgreSQL not reachable: %v", err)
		}
		// The lock is per schema: other tests on the shared test
		// database do not count.
		release, err := s.HoldInstance(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Exclusive(context.Background(), dsn, ""); !errors.Is(err, ErrInUse) {
			t.Fatalf("restore while held: %v", err)
		}
		release()
		x, err := Exclusive(context.Background(), dsn, "")
		if err != nil {
			t.Fatalf("restore after the instance stopped: %v", err)
		}
		if _, err := s.HoldInstance(context.Background(), ""); !errors.Is(err, ErrRestoring) {
			t.Errorf("an instance starting during a restore: %v", err)
		}
		x()
	})
}
