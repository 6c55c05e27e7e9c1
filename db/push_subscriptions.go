package db

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// PushSubscription is a row of push_subscriptions: one browser on one
// device that asked to be told of new leads for its account.
// Endpoint and keys are what the browser's Push API handed out; they are
// never sent back to a browser.
type PushSubscription struct {
	ID     string `db:"id" json:"id"`
	UserID string `db:"user_id" json:"-"`
	// Endpoint is the push service's address for this browser: a secret
	// capability (whoever has it and the keys can notify the device).
	Endpoint string `db:"endpoint" json:"-"`
	// P256dh and Auth are the browser's keys (base64url), for RFC 8291.
	P256dh string `db:"p256dh" json:"-"`
	Auth   string `db:"auth" json:"-"`
	// Label names the device for its owner ("Chrome on Android").
	Label      string     `db:"label" json:"label"`
	CreatedAt  time.Time  `db:"created_at" json:"createdAt"`
	LastSentAt *time.Time `db:"last_sent_at" json:"lastSentAt"`
}

// PushRecipient is a subscription with its account's role as it is now:
// "admin", "staff", or "" when the account is disabled or has neither
// role (then it may not be told of leads at all).
type PushRecipient struct {
	PushSubscription
	Role string `db:"role" json:"role"`
}

// MaxPushDevices is how many devices one account may subscribe: each
// new lead is one outbox row per device, so an account cannot make a
// lead cost thousands of sends.
const MaxPushDevices = 10

// ErrTooManyDevices is returned when an account has MaxPushDevices
// subscribed already.
var ErrTooManyDevices = errors.New("too many devices subscribed")

const pushColumns = `id, user_id, endpoint, p256dh, auth, label, created_at, last_sent_at`

// pushRoleSQL is an account's role for pushes: admin over staff, and
// nothing for a disabled account (u is users, p push_subscriptions).
const pushRoleSQL = `CASE WHEN u.disabled_at IS NOT NULL THEN ''
	WHEN EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = p.user_id AND r.role = 'admin') THEN 'admin'
	WHEN EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = p.user_id AND r.role = 'staff') THEN 'staff'
	ELSE '' END AS role`

// AddPushSubscription stores a browser's subscription for its account
// and returns the stored row. An endpoint stored already (the browser
// subscribing again, perhaps signed in to another account) is taken over:
// its keys, label and account are replaced and its id is kept. An
// account holds at most MaxPushDevices (ErrTooManyDevices), a limit that
// holds when one account subscribes from several requests at once.
func (s *Store) AddPushSubscription(ctx context.Context, p PushSubscription) (PushSubscription, error) {
	if p.ID == "" {
		p.ID = newRowID()
	}
	p.CreatedAt = p.CreatedAt.UTC()
	var out PushSubscription
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		// PostgreSQL: one account's subscriptions are added one at a time
		// across instances. SQLite: the insert, the first statement, takes
		// the write lock, so the count after it is exact.
		if s.dialect == "postgres" {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(`+pgLockKey+`)`, "push:"+p.UserID); err != nil {
				return err
			}
		}
		var rows []PushSubscription
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(`INSERT INTO push_subscriptions (`+pushColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
			ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth, label = excluded.label
			RETURNING `+pushColumns), p.ID, p.UserID, p.Endpoint, p.P256dh, p.Auth, p.Label, p.CreatedAt); err != nil {
			return err
		}
		if len(rows) != 1 {
			return fmt.Errorf("stored %d rows", len(rows))
		}
		out = rows[0]
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM push_subscriptions WHERE user_id = ?`), p.UserID); err != nil {
			return err
		}
		if n > MaxPushDevices {
			return ErrTooManyDevices
		}
		return nil
	})
	if err != nil {
		return PushSubscription{}, fmt.Errorf("push subscription for %s: %w", p.UserID, err)
	}
	return out, nil
}

// PushSubscriptionsFor returns an account's devices, oldest first.
func (s *Store) PushSubscriptionsFor(ctx context.Context, userID string) ([]PushSubscription, error) {
	out := []PushSubscription{}
	if err := s.db.SelectContext(ctx, &out, s.q(`SELECT `+pushColumns+` FROM push_subscriptions WHERE user_id = ? ORDER BY created_at, id`), userID); err != nil {
		return nil, fmt.Errorf("push subscriptions of %s: %w", userID, err)
	}
	return out, nil
}

// ListPushSubscriptions returns every device of every account, oldest
// first.
func (s *Store) ListPushSubscriptions(ctx context.Context) ([]PushSubscription, error) {
	out := []PushSubscription{}
	if err := s.db.SelectContext(ctx, &out, `SELECT `+pushColumns+` FROM push_subscriptions ORDER BY created_at, id`); err != nil {
		return nil, fmt.Errorf("push subscriptions: %w", err)
	}
	return out, nil
}

// PushRecipients returns every device whose account may be told of leads
// now (enabled, admin or staff), with that role, oldest first.
func (s *Store) PushRecipients(ctx context.Context) ([]PushRecipient, error) {
	var all []PushRecipient
	if err := s.db.SelectContext(ctx, &all, `SELECT p.id, p.user_id, p.endpoint, p.p256dh, p.auth, p.label, p.created_at, p.last_sent_at, `+pushRoleSQL+`
		FROM push_subscriptions p JOIN users u ON u.id = p.user_id ORDER BY p.created_at, p.id`); err != nil {
		return nil, fmt.Errorf("push recipients: %w", err)
	}
	out := []PushRecipient{}
	for _, r := range all {
		if r.Role != "" {
			out = append(out, r)
		}
	}
	return out, nil
}

// PushRecipientByID returns one device with its account's role as it is
// now ("" when the account may no longer see leads): what a delivery
// reads, so a demotion or a disable between the lead and the send
// counts. ErrNotFound when the device was removed.
func (s *Store) PushRecipientByID(ctx context.Context, id string) (PushRecipient, error) {
	var r PushRecipient
	err := s.db.GetContext(ctx, &r, s.q(`SELECT p.id, p.user_id, p.endpoint, p.p256dh, p.auth, p.label, p.created_at, p.last_sent_at, `+pushRoleSQL+`
		FROM push_subscriptions p JOIN users u ON u.id = p.user_id WHERE p.id = ?`), id)
	if err != nil {
		return r, fmt.Errorf("push subscription %s: %w", id, notFound(err))
	}
	return r, nil
}

// DeletePushSubscription removes one of userID's devices; ErrNotFound
// when it is not theirs (or gone), so nobody removes another's device.
func (s *Store) DeletePushSubscription(ctx context.Context, id, userID string) error {
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM push_subscriptions WHERE id = ? AND user_id = ?`), id, userID)
	if err != nil {
		return fmt.Errorf("push subscription %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("push subscription %s: %w", id, ErrNotFound)
	}
	return nil
}

// DeletePushSubscriptionByEndpoint removes the device the push service
// says is gone (404 or 410). It reports whether a row was removed: the
// same answer for two leads removes it once.
func (s *Store) DeletePushSubscriptionByEndpoint(ctx context.Context, endpoint string) (bool, error) {
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM push_subscriptions WHERE endpoint = ?`), endpoint)
	if err != nil {
		return false, fmt.Errorf("delete push subscription: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// PushSent records a push the service accepted, for the device list.
func (s *Store) PushSent(ctx context.Context, id string, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, s.q(`UPDATE push_subscriptions SET last_sent_at = ? WHERE id = ?`), now.UTC(), id); err != nil {
		return fmt.Errorf("push subscription %s: %w", id, err)
	}
	return nil
}
