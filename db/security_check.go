package db

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// SecurityScan is a row of security_scans: one run of every check.
type SecurityScan struct {
	ID          string    `db:"id"`
	StartedAt   time.Time `db:"started_at"`
	FinishedAt  time.Time `db:"finished_at"`
	TriggeredBy string    `db:"triggered_by"`
	Passed      int       `db:"passed"`
	Warnings    int       `db:"warnings"`
	Failed      int       `db:"failed"`
	NotChecked  int       `db:"not_checked"`
}

// SecurityResult is a row of security_results: the latest result of one
// check (spec 3's security check). CVE and FixedIn travel to the
// vulnerability a failed check opens.
type SecurityResult struct {
	CheckID        string    `db:"check_id"`
	ScanID         string    `db:"scan_id"`
	Seq            int       `db:"seq"`
	Category       string    `db:"category"`
	Name           string    `db:"name"`
	Severity       string    `db:"severity"`
	Status         string    `db:"status"`
	Description    string    `db:"description"`
	Recommendation string    `db:"recommendation"`
	CheckedAt      time.Time `db:"checked_at"`
	CVE            string    `db:"-"`
	FixedIn        string    `db:"-"`
}

// Vulnerability is a row of security_vulnerabilities: spec 3's
// vulnerability, one per check that has failed, with the status an admin
// sets.
type Vulnerability struct {
	CheckID         string    `db:"check_id"`
	Title           string    `db:"title"`
	Severity        string    `db:"severity"`
	Description     string    `db:"description"`
	CVE             string    `db:"cve"`
	FixedIn         string    `db:"fixed_in"`
	Status          string    `db:"status"`
	FirstSeenAt     time.Time `db:"first_seen_at"`
	LastSeenAt      time.Time `db:"last_seen_at"`
	StatusChangedAt time.Time `db:"status_changed_at"`
}

// Vulnerability statuses (spec 4).
const (
	VulnOpen         = "open"
	VulnAcknowledged = "acknowledged"
	VulnFixed        = "fixed"
)

// SecurityScansKept is how many scans are kept (a month of daily scans).
const SecurityScansKept = 31

// SaveSecurityScan stores a scan and its results (they replace the
// previous results) and updates the vulnerabilities, in one transaction:
// a failed check opens its vulnerability, or reopens it when it was
// fixed, and keeps an acknowledged one acknowledged; a check that passes
// or only warns marks its vulnerability fixed; a check that could not be
// run leaves it as it was.
func (s *Store) SaveSecurityScan(ctx context.Context, scan SecurityScan, results []SecurityResult) (SecurityScan, error) {
	if scan.ID == "" {
		scan.ID = newRowID()
	}
	now := scan.FinishedAt
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO security_scans (id, started_at, finished_at, triggered_by, passed, warnings, failed, not_checked)
			VALUES (:id, :started_at, :finished_at, :triggered_by, :passed, :warnings, :failed, :not_checked)`, scan); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM security_results`); err != nil {
			return err
		}
		for i, r := range results {
			r.ScanID, r.Seq = scan.ID, i
			if _, err := tx.NamedExecContext(ctx, `INSERT INTO security_results (check_id, scan_id, seq, category, name, severity, status, description, recommendation, checked_at)
				VALUES (:check_id, :scan_id, :seq, :category, :name, :severity, :status, :description, :recommendation, :checked_at)`, r); err != nil {
				return fmt.Errorf("%s: %w", r.CheckID, err)
			}
			var err error
			switch r.Status {
			case "fail":
				_, err = tx.ExecContext(ctx, tx.Rebind(`INSERT INTO security_vulnerabilities
					(check_id, title, severity, description, cve, fixed_in, status, first_seen_at, last_seen_at, status_changed_at)
					VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?, ?)
					ON CONFLICT (check_id) DO UPDATE SET title = excluded.title, severity = excluded.severity,
						description = excluded.description, cve = excluded.cve, fixed_in = excluded.fixed_in, last_seen_at = excluded.last_seen_at,
						status = CASE WHEN security_vulnerabilities.status = 'fixed' THEN 'open' ELSE security_vulnerabilities.status END,
						status_changed_at = CASE WHEN security_vulnerabilities.status = 'fixed' THEN excluded.status_changed_at ELSE security_vulnerabilities.status_changed_at END`),
					r.CheckID, r.Name, r.Severity, r.Description, r.CVE, r.FixedIn, now, now, now)
			case "pass", "warning":
				_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE security_vulnerabilities SET status = 'fixed', status_changed_at = ? WHERE check_id = ? AND status <> 'fixed'`), now, r.CheckID)
			}
			if err != nil {
				return fmt.Errorf("vulnerability %s: %w", r.CheckID, err)
			}
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM security_scans WHERE id NOT IN (SELECT id FROM security_scans ORDER BY started_at DESC, id DESC LIMIT ?)`), SecurityScansKept)
		return err
	})
	if err != nil {
		return scan, fmt.Errorf("save security scan: %w", err)
	}
	return scan, nil
}

// LatestSecurityScan returns the newest scan and the latest result of
// every check in scan order, or ErrNotFound before the first scan.
func (s *Store) LatestSecurityScan(ctx context.Context) (SecurityScan, []SecurityResult, error) {
	var scan SecurityScan
	err := s.db.GetContext(ctx, &scan, `SELECT id, started_at, finished_at, triggered_by, passed, warnings, failed, not_checked
		FROM security_scans ORDER BY started_at DESC, id DESC LIMIT 1`)
	if err != nil {
		return scan, nil, fmt.Errorf("latest security scan: %w", notFound(err))
	}
	results := []SecurityResult{}
	err = s.db.SelectContext(ctx, &results, `SELECT check_id, scan_id, seq, category, name, severity, status, description, recommendation, checked_at
		FROM security_results ORDER BY seq`)
	if err != nil {
		return scan, nil, fmt.Errorf("security results: %w", err)
	}
	return scan, results, nil
}

// ListVulnerabilities lists every vulnerability: open first, then
// acknowledged, then fixed, newest first within each.
func (s *Store) ListVulnerabilities(ctx context.Context) ([]Vulnerability, error) {
	out := []Vulnerability{}
	err := s.db.SelectContext(ctx, &out, `SELECT check_id, title, severity, description, cve, fixed_in, status, first_seen_at, last_seen_at, status_changed_at
		FROM security_vulnerabilities
		ORDER BY CASE status WHEN 'open' THEN 0 WHEN 'acknowledged' THEN 1 ELSE 2 END, last_seen_at DESC, check_id`)
	if err != nil {
		return nil, fmt.Errorf("list vulnerabilities: %w", err)
	}
	return out, nil
}

// CountOpenVulnerabilities is the dashboard's Security Issues.
func (s *Store) CountOpenVulnerabilities(ctx context.Context) (int, error) {
	var n int
	if err := s.db.GetContext(ctx, &n, `SELECT COUNT(*) FROM security_vulnerabilities WHERE status = 'open'`); err != nil {
		return 0, fmt.Errorf("count open vulnerabilities: %w", err)
	}
	return n, nil
}

// ErrBadStatus is returned for a vulnerability status outside spec 4's.
var ErrBadStatus = errors.New("status must be open, acknowledged or fixed")

// SetVulnerabilityStatus sets the status an admin chose; ErrNotFound when
// no vulnerability has the id.
func (s *Store) SetVulnerabilityStatus(ctx context.Context, id, status string, at time.Time) (Vulnerability, error) {
	var v Vulnerability
	if status != VulnOpen && status != VulnAcknowledged && status != VulnFixed {
		return v, ErrBadStatus
	}
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE security_vulnerabilities SET status = ?, status_changed_at = ? WHERE check_id = ?`), status, at, id)
	if err != nil {
		return v, fmt.Errorf("vulnerability %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return v, fmt.Errorf("vulnerability %s: %w", id, ErrNotFound)
	}
	err = s.db.GetContext(ctx, &v, s.q(`SELECT check_id, title, severity, description, cve, fixed_in, status, first_seen_at, last_seen_at, status_changed_at
		FROM security_vulnerabilities WHERE check_id = ?`), id)
	return v, err
}

// MigrationStatus compares the migrations this build carries with those
// the database has applied: pending are known but not applied, unknown
// applied but not in this build (a newer deploy shares the database).
func (s *Store) MigrationStatus(ctx context.Context) (known int, pending, unknown []int, err error) {
	var applied []int
	if err := s.db.SelectContext(ctx, &applied, `SELECT version FROM schema_migrations ORDER BY version`); err != nil {
		return 0, nil, nil, fmt.Errorf("read schema_migrations: %w", err)
	}
	have := map[int]bool{}
	for _, v := range applied {
		have[v] = true
	}
	names, _ := migrations.ReadDir("migrations")
	inBuild := map[int]bool{}
	for _, n := range names {
		num, _, _ := strings.Cut(n.Name(), "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		inBuild[v] = true
		if !have[v] {
			pending = append(pending, v)
		}
	}
	for _, v := range applied {
		if !inBuild[v] {
			unknown = append(unknown, v)
		}
	}
	sort.Ints(pending)
	return len(inBuild), pending, unknown, nil
}

// ErrAccountsNotSetUp is returned by AccountStats when the accounts
// tables do not exist in this database yet.
var ErrAccountsNotSetUp = errors.New("accounts are not set up")

// AccountStats counts accounts for the Security Scanner.
type AccountStats struct {
	Accounts int
	Admins   int
	// Inactive are enabled accounts without a sign-in since the cut-off
	// (never signed in counts as inactive once the account is older).
	Inactive int
}

// AccountStats counts enabled accounts, admins (user_roles) and enabled
// accounts without a sign-in since `since`. It returns
// ErrAccountsNotSetUp when the users or user_roles table is missing.
func (s *Store) AccountStats(ctx context.Context, since time.Time) (AccountStats, error) {
	var st AccountStats
	for _, t := range []string{"users", "user_roles"} {
		ok, err := s.tableExists(ctx, t)
		if err != nil {
			return st, err
		}
		if !ok {
			return st, ErrAccountsNotSetUp
		}
	}
	if err := s.db.GetContext(ctx, &st.Accounts, `SELECT COUNT(*) FROM users WHERE disabled_at IS NULL`); err != nil {
		return st, fmt.Errorf("count accounts: %w", err)
	}
	if err := s.db.GetContext(ctx, &st.Admins, `SELECT COUNT(DISTINCT r.user_id) FROM user_roles r JOIN users u ON u.id = r.user_id
		WHERE r.role = 'admin' AND u.disabled_at IS NULL`); err != nil {
		return st, fmt.Errorf("count admins: %w", err)
	}
	if err := s.db.GetContext(ctx, &st.Inactive, s.q(`SELECT COUNT(*) FROM users WHERE disabled_at IS NULL
		AND COALESCE(last_login_at, created_at) < ?`), since); err != nil {
		return st, fmt.Errorf("count inactive accounts: %w", err)
	}
	return st, nil
}

// tableExists reports whether a table exists in the store's schema.
func (s *Store) tableExists(ctx context.Context, name string) (bool, error) {
	q := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`
	if s.dialect == "postgres" {
		q = `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`
	}
	var n int
	if err := s.db.GetContext(ctx, &n, s.q(q), name); err != nil {
		return false, fmt.Errorf("table %s: %w", name, err)
	}
	return n > 0, nil
}
