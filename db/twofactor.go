package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// The second factor's storage. The rules (TOTP, recovery
// codes) are accounts'; these methods make each use single and atomic.

// StartTOTP keeps secret as the account's pending authenticator until a
// first code confirms it (ConfirmTOTP). An enrolled one stays until then.
func (s *Store) StartTOTP(ctx context.Context, userID, secret string) error {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE users SET totp_pending = ? WHERE id = ?`), secret, userID)
	if err != nil {
		return fmt.Errorf("start totp %s: %w", userID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// ConfirmTOTP makes the pending secret the account's authenticator, from
// step on (the confirming code is used), and replaces its recovery codes
// with hashes. It fails with ErrNotFound when nothing is pending, or when
// the pending secret is no longer the one confirmed (a second enrolment
// started meanwhile).
func (s *Store) ConfirmTOTP(ctx context.Context, userID, secret string, step int64, hashes []string, now time.Time) error {
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET totp_secret = totp_pending, totp_pending = '', totp_enabled_at = ?, totp_last_step = ?
			WHERE id = ? AND totp_pending = ? AND totp_pending <> ''`), now, step, userID, secret)
		if err != nil {
			return fmt.Errorf("confirm totp %s: %w", userID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return replaceRecoveryCodes(ctx, tx, userID, hashes)
	})
}

// UseTOTPStep records that a code of step was accepted, once: it reports
// false when a code of this step or a later one was already used (a
// replayed code, or two sign-ins racing with one code).
func (s *Store) UseTOTPStep(ctx context.Context, userID string, step int64) (bool, error) {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE users SET totp_last_step = ? WHERE id = ? AND totp_secret <> '' AND totp_last_step < ?`), step, userID, step)
	if err != nil {
		return false, fmt.Errorf("use totp step %s: %w", userID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// UseRecoveryCode spends one recovery code, once: false when the account
// has no unused code with this hash.
func (s *Store) UseRecoveryCode(ctx context.Context, userID, hash string, now time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE user_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL`), now, userID, hash)
	if err != nil {
		return false, fmt.Errorf("use recovery code %s: %w", userID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// RecoveryCodesLeft counts the account's unused recovery codes.
func (s *Store) RecoveryCodesLeft(ctx context.Context, userID string) (int, error) {
	var n int
	err := s.db.GetContext(ctx, &n, s.q(`SELECT COUNT(*) FROM user_recovery_codes WHERE user_id = ? AND used_at IS NULL`), userID)
	return n, err
}

// RenewRecoveryCodes replaces the account's recovery codes with hashes in
// one transaction: the old set stops working as the new one starts. It
// fails with ErrNotFound when the account has no authenticator (recovery
// codes stand in for its codes, so they mean nothing without one).
func (s *Store) RenewRecoveryCodes(ctx context.Context, userID string, hashes []string) error {
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		// The account row is written first, so two renewals at once take
		// turns on it (a row lock on PostgreSQL, the write lock on SQLite)
		// and the account ends with exactly one set.
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET totp_secret = totp_secret WHERE id = ? AND totp_secret <> ''`), userID)
		if err != nil {
			return fmt.Errorf("renew recovery codes %s: %w", userID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return replaceRecoveryCodes(ctx, tx, userID, hashes)
	})
}

// ResetTOTP removes the account's authenticator, pending enrolment and
// recovery codes, and ends its sessions: the owner who lost the phone
// enrols again at the next sign-in.
func (s *Store) ResetTOTP(ctx context.Context, userID string) error {
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET totp_secret = '', totp_pending = '', totp_enabled_at = NULL, totp_last_step = 0 WHERE id = ?`), userID)
		if err != nil {
			return fmt.Errorf("reset totp %s: %w", userID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM user_recovery_codes WHERE user_id = ?`), userID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, tx.Rebind(`DELETE FROM admin_sessions WHERE user_id = ?`), userID)
		return err
	})
}

// replaceRecoveryCodes makes hashes the account's only recovery codes,
// inside the caller's transaction (a confirmed enrolment, a renewal).
func replaceRecoveryCodes(ctx context.Context, tx *sqlx.Tx, userID string, hashes []string) error {
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM user_recovery_codes WHERE user_id = ?`), userID); err != nil {
		return fmt.Errorf("recovery codes %s: %w", userID, err)
	}
	for _, h := range hashes {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO user_recovery_codes (user_id, code_hash) VALUES (?, ?)`), userID, h); err != nil {
			return fmt.Errorf("recovery codes %s: %w", userID, err)
		}
	}
	return nil
}
