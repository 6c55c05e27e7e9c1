package db

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// User is an account (table users) with its roles (table user_roles).
// The Users screen reads web/leads.Account, never the row; its secrets
// are kept out of JSON all the same.
type User struct {
	ID           string     `db:"id"`
	Email        string     `db:"email"`
	Name         string     `db:"name"`
	PasswordHash string     `db:"password_hash" json:"-"`
	CreatedAt    time.Time  `db:"created_at"`
	UpdatedAt    time.Time  `db:"updated_at"`
	LastLoginAt  *time.Time `db:"last_login_at"`
	DisabledAt   *time.Time `db:"disabled_at"`
	// LoginEpoch names the account's current sign-in counters: a password
	// reset or an unlock bumps it, and failures counted under the old
	// epoch no longer apply.
	LoginEpoch int64 `db:"login_epoch" json:"-"`
	// TOTPSecret is the enrolled authenticator's secret ("" when none);
	// TOTPPending the one being enrolled; TOTPLastStep the last step a
	// code was accepted for (codes are single use).
	TOTPSecret    string     `db:"totp_secret" json:"-"`
	TOTPPending   string     `db:"totp_pending" json:"-"`
	TOTPEnabledAt *time.Time `db:"totp_enabled_at"`
	TOTPLastStep  int64      `db:"totp_last_step" json:"-"`
	Roles         []string   `db:"-"`
}

// Roles are the account roles: spec 6's admin and staff, and the editor
// (content and photos, no leads).
var Roles = []string{"admin", "staff", "editor"}

// ErrDuplicate is returned when an account with the same email exists.
var ErrDuplicate = errors.New("already exists")

// ErrLastAdmin is returned when a change would leave no enabled admin.
var ErrLastAdmin = errors.New("the last admin cannot be disabled or demoted")

const userColumns = `id, email, name, password_hash, created_at, updated_at, last_login_at, disabled_at, login_epoch,
	totp_secret, totp_pending, totp_enabled_at, totp_last_step`

func isUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	m := err.Error()
	return strings.Contains(m, "UNIQUE constraint failed") || strings.Contains(m, "duplicate key value") || strings.Contains(m, "23505")
}

// CreateUser stores a new account with its roles. The email is stored
// lower-cased; ErrDuplicate when it is taken, whatever its case.
func (s *Store) CreateUser(ctx context.Context, u User) error {
	u.Email = strings.ToLower(strings.TrimSpace(u.Email))
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO users (`+userColumns+`) VALUES (:id, :email, :name, :password_hash,
			:created_at, :updated_at, :last_login_at, :disabled_at, :login_epoch,
			:totp_secret, :totp_pending, :totp_enabled_at, :totp_last_step)`, u); err != nil {
			return err
		}
		for _, r := range u.Roles {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO user_roles (user_id, role) VALUES (?, ?)`), u.ID, r); err != nil {
				return err
			}
		}
		return nil
	})
	if isUniqueViolation(err) {
		return fmt.Errorf("user %s: %w", u.Email, ErrDuplicate)
	}
	if err != nil {
		return fmt.Errorf("create user: %w", err)
	}
	return nil
}

type querier interface {
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
	Rebind(string) string
}

func (s *Store) loadUser(ctx context.Context, q querier, where string, arg any) (User, error) {
	var u User
	if err := q.GetContext(ctx, &u, q.Rebind(`SELECT `+userColumns+` FROM users WHERE `+where), arg); err != nil {
		return u, notFound(err)
	}
	if err := q.SelectContext(ctx, &u.Roles, q.Rebind(`SELECT role FROM user_roles WHERE user_id = ? ORDER BY role`), u.ID); err != nil {
		return u, err
	}
	return u, nil
}

// UserByEmail returns the account with that email, whatever its case.
func (s *Store) UserByEmail(ctx context.Context, email string) (User, error) {
	u, err := s.loadUser(ctx, s.db, `LOWER(email) = ?`, strings.ToLower(strings.TrimSpace(email)))
	if err != nil {
		return u, fmt.Errorf("user %s: %w", email, err)
	}
	return u, nil
}

// UserByID returns one account.
func (s *Store) UserByID(ctx context.Context, id string) (User, error) {
	u, err := s.loadUser(ctx, s.db, `id = ?`, id)
	if err != nil {
		return u, fmt.Errorf("user %s: %w", id, err)
	}
	return u, nil
}

// UsersPage returns one page of the accounts, oldest first (created_at,
// then the email, unique: the index users_created, migration 112), with
// their roles, and
// how many match p.Q in all. p.Q matches the name and the email, ignoring
// case.
func (s *Store) UsersPage(ctx context.Context, p Page) ([]User, int, error) {
	where, args := Contains(p.Q, "name", "email")
	if where != "" {
		where = " WHERE " + where
	}
	var total int
	if err := s.db.GetContext(ctx, &total, s.q(`SELECT COUNT(*) FROM users`+where), args...); err != nil {
		return nil, 0, fmt.Errorf("count users: %w", err)
	}
	us := []User{}
	if err := s.db.SelectContext(ctx, &us, s.q(`SELECT `+userColumns+` FROM users`+where+` ORDER BY created_at, email LIMIT ? OFFSET ?`),
		append(args, p.Limit, p.Offset)...); err != nil {
		return nil, 0, fmt.Errorf("list users: %w", err)
	}
	if len(us) == 0 {
		return us, total, nil
	}
	ids := make([]any, len(us))
	idx := map[string]int{}
	for i := range us {
		ids[i] = us[i].ID
		idx[us[i].ID] = i
		us[i].Roles = []string{}
	}
	var roles []struct {
		UserID string `db:"user_id"`
		Role   string `db:"role"`
	}
	if err := s.db.SelectContext(ctx, &roles, s.q(`SELECT user_id, role FROM user_roles WHERE user_id IN (?`+strings.Repeat(", ?", len(ids)-1)+`) ORDER BY role`), ids...); err != nil {
		return nil, 0, fmt.Errorf("list roles: %w", err)
	}
	for _, r := range roles {
		us[idx[r.UserID]].Roles = append(us[idx[r.UserID]].Roles, r.Role)
	}
	return us, total, nil
}

// ActiveUsersWithRole counts the accounts not disabled that hold role
// (the last active admin may not be disabled or demoted).
func (s *Store) ActiveUsersWithRole(ctx context.Context, role string) (int, error) {
	var n int
	if err := s.db.GetContext(ctx, &n, s.q(`SELECT COUNT(*) FROM users u JOIN user_roles r ON r.user_id = u.id
		WHERE u.disabled_at IS NULL AND r.role = ?`), role); err != nil {
		return 0, fmt.Errorf("count %s accounts: %w", role, err)
	}
	return n, nil
}

// ListUsers returns every account, oldest first, with roles.
func (s *Store) ListUsers(ctx context.Context) ([]User, error) {
	var us []User
	if err := s.db.SelectContext(ctx, &us, `SELECT `+userColumns+` FROM users ORDER BY created_at, email`); err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	var roles []struct {
		UserID string `db:"user_id"`
		Role   string `db:"role"`
	}
	if err := s.db.SelectContext(ctx, &roles, `SELECT user_id, role FROM user_roles ORDER BY role`); err != nil {
		return nil, fmt.Errorf("list roles: %w", err)
	}
	idx := map[string]int{}
	for i := range us {
		idx[us[i].ID] = i
		us[i].Roles = []string{}
	}
	for _, r := range roles {
		if i, ok := idx[r.UserID]; ok {
			us[i].Roles = append(us[i].Roles, r.Role)
		}
	}
	return us, nil
}

// UserChange is what ChangeUser may change; nil fields stay.
type UserChange struct {
	Name         *string
	Role         *string // replaces the roles with this one
	Disabled     *bool
	PasswordHash *string
	// Unlock clears the account's failed sign-ins (a new LoginEpoch);
	// a new password does too.
	Unlock bool
}

// ChangeUser applies a change to one account. It refuses (ErrLastAdmin) a
// change that would leave no enabled admin, and the check and the write
// are one serialised step, so two admins demoting each other at once
// cannot both succeed. Disabling an account or changing its password or
// role ends its sessions in the same transaction.
func (s *Store) ChangeUser(ctx context.Context, id string, ch UserChange, now time.Time) (User, error) {
	var out User
	// Serialized: the last-admin rule holds under concurrency (an advisory
	// lock on PostgreSQL, every instance), and on SQLite the transaction
	// takes the write lock before it reads, so a commit elsewhere between
	// its read and its write cannot fail it with "database is locked".
	err := s.Serialized(ctx, "accounts", func(tx *sqlx.Tx) error {
		u, err := s.loadUser(ctx, tx, `id = ?`, id)
		if err != nil {
			return err
		}
		wasAdmin := u.DisabledAt == nil && contains(u.Roles, "admin")
		if ch.Name != nil {
			u.Name = *ch.Name
		}
		if ch.Role != nil {
			u.Roles = []string{*ch.Role}
		}
		if ch.Disabled != nil {
			switch {
			case *ch.Disabled && u.DisabledAt == nil:
				t := now
				u.DisabledAt = &t
			case !*ch.Disabled:
				u.DisabledAt = nil
			}
		}
		if ch.PasswordHash != nil {
			u.PasswordHash = *ch.PasswordHash
		}
		if ch.PasswordHash != nil || ch.Unlock {
			u.LoginEpoch++
		}
		if wasAdmin && (u.DisabledAt != nil || !contains(u.Roles, "admin")) {
			var others int
			if err := tx.GetContext(ctx, &others, tx.Rebind(`SELECT COUNT(DISTINCT r.user_id) FROM user_roles r JOIN users u ON u.id = r.user_id
				WHERE r.role = 'admin' AND u.disabled_at IS NULL AND u.id <> ?`), id); err != nil {
				return err
			}
			if others == 0 {
				return ErrLastAdmin
			}
		}
		u.UpdatedAt = now
		if _, err := tx.NamedExecContext(ctx, `UPDATE users SET name = :name, password_hash = :password_hash, updated_at = :updated_at,
			disabled_at = :disabled_at, login_epoch = :login_epoch WHERE id = :id`, u); err != nil {
			return err
		}
		if ch.Role != nil {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM user_roles WHERE user_id = ?`), id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO user_roles (user_id, role) VALUES (?, ?)`), id, *ch.Role); err != nil {
				return err
			}
		}
		if u.DisabledAt != nil || ch.PasswordHash != nil || ch.Role != nil {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM admin_sessions WHERE user_id = ?`), id); err != nil {
				return err
			}
		}
		out = u
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("change user %s: %w", id, err)
	}
	return out, nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// RecordLogin sets an account's last sign-in time.
func (s *Store) RecordLogin(ctx context.Context, id string, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, s.q(`UPDATE users SET last_login_at = ? WHERE id = ?`), now, id); err != nil {
		return fmt.Errorf("record login %s: %w", id, err)
	}
	return nil
}

// CountAdmins counts enabled accounts with the admin role.
func (s *Store) CountAdmins(ctx context.Context) (int, error) {
	var n int
	err := s.db.GetContext(ctx, &n, `SELECT COUNT(DISTINCT r.user_id) FROM user_roles r JOIN users u ON u.id = r.user_id
		WHERE r.role = 'admin' AND u.disabled_at IS NULL`)
	if err != nil {
		return 0, fmt.Errorf("count admins: %w", err)
	}
	return n, nil
}

// Audit actions.
const (
	AuditLogin        = "login"
	AuditLoginFailed  = "login_failed"
	AuditListFull     = "list_full"
	AuditLeadDetail   = "lead_detail"
	AuditExport       = "export"
	AuditStatusChange = "status_change"
	AuditUserCreated  = "user_created"
	AuditUserUpdated  = "user_updated"
	// The second factor.
	AuditTwoFactorEnrolled = "2fa_enrolled"
	AuditTwoFactorFailed   = "2fa_failed"
	AuditRecoveryCodeUsed  = "recovery_code_used"
	AuditTwoFactorReset    = "2fa_reset"
	// A new set of recovery codes replaced the old one.
	AuditRecoveryCodesRenewed = "recovery_codes_renewed"
	// Working a lead.
	AuditLeadNote          = "lead_note"
	AuditLeadAssign        = "lead_assign"
	AuditPushDeviceAdded   = "push_device_added"
	AuditPushDeviceRemoved = "push_device_removed"
	// Backups the owner acts on: 'Back up now' and a download.
	AuditBackupRun      = "backup_run"
	AuditBackupDownload = "backup_download"
	// AuditLeadReveal is one tap on Call or Text: the lead's full phone
	// and email were sent to an admin's browser.
	AuditLeadReveal = "lead_reveal"
	// System Settings saved (ADR 039): Detail names what changed.
	AuditSettingsSaved = "settings_saved"
)
