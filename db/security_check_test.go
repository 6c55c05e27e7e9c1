package db

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func result(id, status string) SecurityResult {
	return SecurityResult{CheckID: id, Category: "Access", Name: "Check " + id, Severity: "high", Status: status, Description: id + " is " + status}
}

func TestSecurityStoreVulnerabilityLifecycle(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, _, err := s.LatestSecurityScan(ctx); !errors.Is(err, ErrNotFound) {
			t.Fatalf("before any scan: %v", err)
		}
		t0 := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)
		scan := func(at time.Time, rs ...SecurityResult) {
			t.Helper()
			for i := range rs {
				rs[i].CheckedAt = at
			}
			if _, err := s.SaveSecurityScan(ctx, SecurityScan{StartedAt: at, FinishedAt: at, TriggeredBy: "schedule"}, rs); err != nil {
				t.Fatal(err)
			}
		}
		status := func() map[string]string {
			t.Helper()
			vs, err := s.ListVulnerabilities(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]string{}
			for _, v := range vs {
				out[v.CheckID] = v.Status
			}
			return out
		}
		open := func() int {
			n, err := s.CountOpenVulnerabilities(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}

		// 1: two failures open two vulnerabilities; a warning and a
		// not-checked open none.
		scan(t0, result("pin", "fail"), result("hsts", "fail"), result("limits", "warning"), result("go", "not-checked"), result("db", "pass"))
		if diff := cmp.Diff(map[string]string{"pin": "open", "hsts": "open"}, status()); diff != "" {
			t.Errorf("scan 1 (-want, +got):\n%s", diff)
		}
		if open() != 2 {
			t.Errorf("open = %d, want 2", open())
		}
		// The admin acknowledges one; a later failing scan keeps it so.
		v, err := s.SetVulnerabilityStatus(ctx, "hsts", VulnAcknowledged, t0.Add(time.Minute))
		if err != nil || v.Status != VulnAcknowledged || v.Title != "Check hsts" {
			t.Fatalf("acknowledge: %+v, %v", v, err)
		}
		if _, err := s.SetVulnerabilityStatus(ctx, "hsts", "ignored", t0); !errors.Is(err, ErrBadStatus) {
			t.Errorf("bad status: %v", err)
		}
		if _, err := s.SetVulnerabilityStatus(ctx, "nope", VulnFixed, t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown id: %v", err)
		}
		// 2: the PIN is fixed, HSTS still fails, go cannot be checked.
		scan(t0.Add(24*time.Hour), result("pin", "pass"), result("hsts", "fail"), result("go", "not-checked"))
		if diff := cmp.Diff(map[string]string{"pin": "fixed", "hsts": "acknowledged"}, status()); diff != "" {
			t.Errorf("scan 2 (-want, +got):\n%s", diff)
		}
		if open() != 0 {
			t.Errorf("open = %d, want 0", open())
		}
		// 3: the PIN fails again: reopened. HSTS only warns: fixed.
		scan(t0.Add(48*time.Hour), result("pin", "fail"), result("hsts", "warning"))
		if diff := cmp.Diff(map[string]string{"pin": "open", "hsts": "fixed"}, status()); diff != "" {
			t.Errorf("scan 3 (-want, +got):\n%s", diff)
		}
		vs, _ := s.ListVulnerabilities(ctx)
		if vs[0].CheckID != "pin" || !vs[0].FirstSeenAt.Equal(t0) || !vs[0].LastSeenAt.Equal(t0.Add(48*time.Hour)) || !vs[0].StatusChangedAt.Equal(t0.Add(48*time.Hour)) {
			t.Errorf("reopened: %+v", vs[0])
		}
		// The latest results replace the earlier ones.
		sc, rs, err := s.LatestSecurityScan(ctx)
		if err != nil || len(rs) != 2 || rs[0].CheckID != "pin" || rs[1].Status != "warning" || !sc.StartedAt.Equal(t0.Add(48*time.Hour)) {
			t.Errorf("latest: %+v %+v %v", sc, rs, err)
		}
	})
}

func TestMigrationStatusAndAccounts(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		known, pending, unknown, err := s.MigrationStatus(ctx)
		if err != nil || known == 0 || len(pending) != 0 || len(unknown) != 0 {
			t.Fatalf("fresh store: %d %v %v %v", known, pending, unknown, err)
		}
		if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM schema_migrations WHERE version = ?`), 10); err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`), 999, time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		_, pending, unknown, _ = s.MigrationStatus(ctx)
		if diff := cmp.Diff([]int{10}, pending); diff != "" {
			t.Errorf("pending (-want, +got):\n%s", diff)
		}
		if diff := cmp.Diff([]int{999}, unknown); diff != "" {
			t.Errorf("unknown (-want, +got):\n%s", diff)
		}

		// Accounts: absent tables are "not set up"; present ones are counted.
		exists, err := s.tableExists(ctx, "users")
		if err != nil {
			t.Fatal(err)
		}
		if !exists {
			if _, err := s.AccountStats(ctx, time.Now()); !errors.Is(err, ErrAccountsNotSetUp) {
				t.Fatalf("no accounts tables: %v", err)
			}
			for _, q := range []string{
				`CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL, created_at TIMESTAMP NOT NULL, last_login_at TIMESTAMP, disabled_at TIMESTAMP)`,
				`CREATE TABLE user_roles (user_id TEXT NOT NULL, role TEXT NOT NULL)`,
			} {
				if _, err := s.db.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
		}
		now := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
		old, recent := now.Add(-200*24*time.Hour), now.Add(-time.Hour)
		for _, u := range []struct {
			id       string
			created  time.Time
			login    *time.Time
			disabled *time.Time
			role     string
		}{
			{"a", old, &recent, nil, "admin"},
			{"b", old, nil, nil, "staff"},
			{"c", old, &old, nil, "admin"},
			{"d", old, nil, &recent, "admin"},
		} {
			if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO users (id, email, created_at, last_login_at, disabled_at) VALUES (?, ?, ?, ?, ?)`),
				u.id, u.id+"@example.com", u.created, u.login, u.disabled); err != nil {
				t.Skipf("the accounts tables have another shape: %v", err)
			}
			s.db.ExecContext(ctx, s.q(`INSERT INTO user_roles (user_id, role) VALUES (?, ?)`), u.id, u.role)
		}
		st, err := s.AccountStats(ctx, now.Add(-90*24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(AccountStats{Accounts: 3, Admins: 2, Inactive: 2}, st); diff != "" {
			t.Errorf("AccountStats (-want, +got):\n%s", diff)
		}
	})
}
