package db

import (
	"context"
	"fmt"
	"time"
)

// Session is a row of admin_sessions: a PIN session (UserID empty) or an
// account session. The token itself is never stored, only its hash.
type Session struct {
	ID            string    `db:"id" json:"id"`
	TokenHash     string    `db:"token_hash" json:"-"`
	UserID        string    `db:"user_id" json:"userId"`
	IP            string    `db:"ip" json:"ip"`
	CreatedAt     time.Time `db:"created_at" json:"createdAt"`
	LastSeenAt    time.Time `db:"last_seen_at" json:"lastSeenAt"`
	ExpiresAt     time.Time `db:"expires_at" json:"expiresAt"`
	HardExpiresAt time.Time `db:"hard_expires_at" json:"hardExpiresAt"`
	// Stage is "full", or for an account between its password and its
	// second factor "totp" or "enrol".
	Stage string `db:"stage" json:"stage"`
}

// Session stages.
const (
	StageFull  = "full"
	StageTOTP  = "totp"
	StageEnrol = "enrol"
)

const sessionColumns = `id, token_hash, COALESCE(user_id, '') AS user_id, ip, created_at, last_seen_at, expires_at, hard_expires_at, stage`

// SetSessionStage moves a session from one stage to another, once: it
// reports false when the session is not (or no longer) at from.
func (s *Store) SetSessionStage(ctx context.Context, tokenHash, from, to string) (bool, error) {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE admin_sessions SET stage = ? WHERE token_hash = ? AND stage = ?`), to, tokenHash, from)
	if err != nil {
		return false, fmt.Errorf("session stage: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// CreateSession stores a session. ExpiresAt must not be after HardExpiresAt.
func (s *Store) CreateSession(ctx context.Context, se Session) error {
	var uid any
	if se.UserID != "" {
		uid = se.UserID
	}
	if se.Stage == "" {
		se.Stage = StageFull
	}
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO admin_sessions (id, token_hash, user_id, ip, created_at, last_seen_at, expires_at, hard_expires_at, stage)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), se.ID, se.TokenHash, uid, se.IP, se.CreatedAt, se.CreatedAt, se.ExpiresAt, se.HardExpiresAt, se.Stage)
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// TouchSession returns the live session of a token hash and slides its
// expiry to now+ttl (never past its hard expiry). An unknown, expired or
// revoked session is ErrNotFound.
func (s *Store) TouchSession(ctx context.Context, tokenHash string, now time.Time, ttl time.Duration) (Session, error) {
	var se Session
	err := s.db.GetContext(ctx, &se, s.q(`SELECT `+sessionColumns+` FROM admin_sessions WHERE token_hash = ? AND expires_at > ? AND hard_expires_at > ?`), tokenHash, now, now)
	if err != nil {
		return se, fmt.Errorf("session: %w", notFound(err))
	}
	exp := now.Add(ttl)
	if exp.After(se.HardExpiresAt) {
		exp = se.HardExpiresAt
	}
	// Writing on every request would turn reads into writes; a minute of
	// slack in the sliding expiry is invisible to people.
	if exp.Sub(se.ExpiresAt) >= time.Minute || now.Sub(se.LastSeenAt) >= time.Minute {
		if _, err := s.db.ExecContext(ctx, s.q(`UPDATE admin_sessions SET expires_at = ?, last_seen_at = ? WHERE token_hash = ?`), exp, now, tokenHash); err != nil {
			return se, fmt.Errorf("session: %w", err)
		}
		se.ExpiresAt, se.LastSeenAt = exp, now
	}
	return se, nil
}

// SessionValid reports whether a session exists and has not expired.
func (s *Store) SessionValid(ctx context.Context, tokenHash string, now time.Time) (bool, error) {
	var n int
	err := s.db.GetContext(ctx, &n, s.q(`SELECT COUNT(*) FROM admin_sessions WHERE token_hash = ? AND expires_at > ? AND hard_expires_at > ?`), tokenHash, now, now)
	if err != nil {
		return false, fmt.Errorf("session: %w", err)
	}
	return n > 0, nil
}

// RevokeSession deletes the session of a token hash and reports whether
// one existed.
func (s *Store) RevokeSession(ctx context.Context, tokenHash string) (bool, error) {
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM admin_sessions WHERE token_hash = ?`), tokenHash)
	if err != nil {
		return false, fmt.Errorf("revoke session: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// RevokeSessionByID deletes a session by its public id.
func (s *Store) RevokeSessionByID(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM admin_sessions WHERE id = ?`), id)
	if err != nil {
		return fmt.Errorf("revoke session %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	return nil
}

// RevokeUserSessions deletes every session of an account, or every PIN
// session when userID is empty (the PIN changed).
func (s *Store) RevokeUserSessions(ctx context.Context, userID string) (int64, error) {
	q := `DELETE FROM admin_sessions WHERE user_id = ?`
	args := []any{userID}
	if userID == "" {
		q, args = `DELETE FROM admin_sessions WHERE user_id IS NULL`, nil
	}
	res, err := s.db.ExecContext(ctx, s.q(q), args...)
	if err != nil {
		return 0, fmt.Errorf("revoke sessions: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// ListSessions returns the live sessions, newest first.
func (s *Store) ListSessions(ctx context.Context, now time.Time) ([]Session, error) {
	out := []Session{}
	err := s.db.SelectContext(ctx, &out, s.q(`SELECT `+sessionColumns+` FROM admin_sessions WHERE expires_at > ? AND hard_expires_at > ? ORDER BY created_at DESC`), now, now)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}

// SessionView is a live session with its account's name and email (""
// for the PIN's sessions and accounts since deleted).
type SessionView struct {
	Session
	Name  string `db:"user_name"`
	Email string `db:"user_email"`
}

// SessionQuery selects the live sessions a caller may list: UserID or ID,
// when set, keep that account's sessions or that one session only.
type SessionQuery struct {
	UserID, ID string
	Page
}

// SessionsPage returns one page of the live sessions q selects, newest
// first (created_at, then id: the index admin_sessions_created, migration
// 112), and how many it selects in all. q.Q matches the account's name
// and email and the address the session signed in from, ignoring case.
func (s *Store) SessionsPage(ctx context.Context, now time.Time, q SessionQuery) ([]SessionView, int, error) {
	where := ` WHERE s.expires_at > ? AND s.hard_expires_at > ?`
	args := []any{now, now}
	if q.UserID != "" {
		where += ` AND s.user_id = ?`
		args = append(args, q.UserID)
	}
	if q.ID != "" {
		where += ` AND s.id = ?`
		args = append(args, q.ID)
	}
	if cond, cargs := Contains(q.Q, "COALESCE(u.name, '')", "COALESCE(u.email, '')", "s.ip"); cond != "" {
		where += ` AND ` + cond
		args = append(args, cargs...)
	}
	const from = ` FROM admin_sessions s LEFT JOIN users u ON u.id = s.user_id`
	var total int
	if err := s.db.GetContext(ctx, &total, s.q(`SELECT COUNT(*)`+from+where), args...); err != nil {
		return nil, 0, fmt.Errorf("count sessions: %w", err)
	}
	out := []SessionView{}
	if err := s.db.SelectContext(ctx, &out, s.q(`SELECT s.id, s.token_hash, COALESCE(s.user_id, '') AS user_id, s.ip, s.created_at,
		s.last_seen_at, s.expires_at, s.hard_expires_at, s.stage, COALESCE(u.name, '') AS user_name, COALESCE(u.email, '') AS user_email`+
		from+where+` ORDER BY s.created_at DESC, s.id DESC LIMIT ? OFFSET ?`), append(args, q.Limit, q.Offset)...); err != nil {
		return nil, 0, fmt.Errorf("list sessions: %w", err)
	}
	return out, total, nil
}

// DeleteExpiredSessions removes sessions past their expiry.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) error {
	_, err := s.db.ExecContext(ctx, s.q(`DELETE FROM admin_sessions WHERE expires_at <= ? OR hard_expires_at <= ?`), now, now)
	return err
}
