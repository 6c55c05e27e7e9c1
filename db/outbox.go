package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/failure"
)

// OutboxRow is a row of outbox: one notification of one lead on one
// channel to one recipient, delivered at least once by the sender
// (notify.Notifier).
type OutboxRow struct {
	ID   string `db:"id" json:"id"`
	Kind string `db:"kind" json:"kind"` // OutboxEmail, OutboxWebhook, OutboxPush, OutboxSMS or OutboxAck
	// Event is what the row announces: OutboxCreated or OutboxEscalated.
	// Empty is OutboxCreated.
	Event string `db:"event" json:"event"`
	// Target is the recipient within the channel: a push subscription's
	// id, an E.164 number, an email address; "" for the channel's
	// configured recipients. It may be a homeowner's address, so it is
	// never sent to a browser.
	Target string `db:"target" json:"-"`
	LeadID string `db:"lead_id" json:"leadId"`
	// Payload is the JSON event; the webhook posts it byte for byte.
	Payload  string `db:"payload" json:"-"`
	Attempts int    `db:"attempts" json:"attempts"`
	// NextAttemptAt is when the row is due; a claim moves it forward by
	// the lease, so a sender that dies mid-send hands the row back.
	NextAttemptAt time.Time  `db:"next_attempt_at" json:"nextAttemptAt"`
	LastError     string     `db:"last_error" json:"lastError"`
	CreatedAt     time.Time  `db:"created_at" json:"createdAt"`
	DeliveredAt   *time.Time `db:"delivered_at" json:"deliveredAt"`
	FailedAt      *time.Time `db:"failed_at" json:"failedAt"`
}

// Outbox channels.
const (
	OutboxEmail   = "email"
	OutboxWebhook = "webhook"
	// OutboxPush is Web Push to one subscribed device (Target: the
	// subscription's id).
	OutboxPush = "push"
	// OutboxSMS is a text to one number (Target: E.164).
	OutboxSMS = "sms"
	// OutboxAck is the homeowner's acknowledgement email (Target: the
	// lead's address).
	OutboxAck = "ack"
	// OutboxPortal and OutboxPortalSMS are a message to the homeowner
	// about their own job (a status step, a booking), by email and by
	// text (migration 108). Their Event is OutboxPortalEvent and their
	// Target the message's own key, so a lead can have many.
	OutboxPortal    = "portal"
	OutboxPortalSMS = "portal_sms"
)

// Outbox events.
const (
	OutboxCreated     = "created"
	OutboxEscalated   = "escalated"
	OutboxPortalEvent = "portal"
)

const outboxColumns = `id, kind, event, target, lead_id, payload, attempts, next_attempt_at, last_error, created_at, delivered_at, failed_at`

// CreateLeadWithOutbox stores a lead and its notifications in one
// transaction: if any insert fails, nothing is stored. It is idempotent on
// the lead's id: when a lead with that id exists already (a spool replay
// of a lead that did reach the database) it stores nothing and reports
// false, so a lead is never stored or announced twice. Empty row ids are
// generated; LeadID is set from l. The phone is stored normalised
// (Lead.Normalized); callers that build rows from l normalise it first,
// so the announcement shows what is stored.
func (s *Store) CreateLeadWithOutbox(ctx context.Context, l Lead, rows []OutboxRow) (bool, error) {
	l = l.Normalized()
	inserted := false
	ch := s.leadChange(LeadCreated, l.ID, l.CreatedAt)
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.NamedExecContext(ctx, `INSERT INTO avatar_leads (`+leadColumns+`, search_name, search_contact, source_key) VALUES (`+leadValues+`, :search_name, :search_contact, :source_key)
			ON CONFLICT (id) DO NOTHING`, stored(l))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		if err := insertOutbox(ctx, tx, l.ID, rows); err != nil {
			return err
		}
		inserted = true
		return s.notifyLead(ctx, tx, ch)
	})
	if err != nil {
		return false, fmt.Errorf("create lead %s: %w", l.ID, err)
	}
	if inserted {
		s.leadChanged(ch)
	}
	return inserted, nil
}

// insertOutbox writes rows for lead leadID in tx. Empty ids are
// generated, an empty Event is OutboxCreated.
func insertOutbox(ctx context.Context, tx *sqlx.Tx, leadID string, rows []OutboxRow) error {
	for _, r := range rows {
		if r.ID == "" {
			r.ID = newRowID()
		}
		if r.Event == "" {
			r.Event = OutboxCreated
		}
		r.LeadID = leadID
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO outbox (`+outboxColumns+`) VALUES (:id, :kind, :event, :target, :lead_id, :payload,
			:attempts, :next_attempt_at, :last_error, :created_at, :delivered_at, :failed_at)`, r); err != nil {
			return fmt.Errorf("outbox %s: %w", r.Kind, err)
		}
	}
	return nil
}

// ClaimOutbox takes up to limit rows that are due at now, counts an
// attempt on each and moves their next_attempt_at to now+lease, in one
// statement, and returns them. On PostgreSQL rows another instance is
// claiming are skipped (FOR UPDATE SKIP LOCKED), so two instances never
// send the same row at once; SQLite serialises writers.
func (s *Store) ClaimOutbox(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]OutboxRow, error) {
	lock := ""
	if s.dialect == "postgres" {
		lock = ` FOR UPDATE SKIP LOCKED`
	}
	out := []OutboxRow{}
	err := s.db.SelectContext(ctx, &out, s.q(`UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?
		WHERE id IN (SELECT id FROM outbox WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ?
			ORDER BY next_attempt_at, id LIMIT ?`+lock+`)
		RETURNING `+outboxColumns), now.Add(lease), now, limit)
	if err != nil {
		return nil, fmt.Errorf("claim outbox: %w", err)
	}
	return out, nil
}

// OutboxDelivered records a delivery, and puts it on the lead's
// timeline (a 'notified' event naming the channel, and the escalation
// when it announced one), in one transaction.
func (s *Store) OutboxDelivered(ctx context.Context, id string, now time.Time) error {
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		var rows []OutboxRow
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(`UPDATE outbox SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL
			RETURNING `+outboxColumns), now, id); err != nil {
			return err
		}
		if len(rows) == 0 {
			// Recorded already (delivery is at least once: a sender
			// whose lease ran out sent it again), or no such row.
			var n int
			if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM outbox WHERE id = ?`), id); err != nil {
				return err
			}
			if n == 0 {
				return ErrNotFound
			}
			return nil
		}
		r := rows[0]
		if reviewKind(r.Kind) {
			return reviewOutcome(ctx, tx, r, ReviewSent, now)
		}
		detail := ""
		if r.Event == OutboxEscalated {
			detail = OutboxEscalated
		}
		return addLeadEvent(ctx, tx, LeadEvent{LeadID: r.LeadID, At: now, Kind: EventNotified, Actor: SystemActor.Name, Channel: r.Kind, To: detail})
	})
	if err != nil {
		return fmt.Errorf("outbox %s: %w", id, err)
	}
	return nil
}

// OutboxRetry records a failed attempt and when to try again. lastErr is
// shown on the dashboard: it is kept as failure.Scrub leaves it, the kind
// of failure without the receiver's address.
func (s *Store) OutboxRetry(ctx context.Context, id, lastErr string, next time.Time) error {
	return s.outboxUpdate(ctx, id, `UPDATE outbox SET last_error = ?, next_attempt_at = ? WHERE id = ?`, cleanText(failure.Scrub(lastErr), 1000), next, id)
}

// OutboxFailed gives a row up: it is not tried again and shows as failed.
// A review request's failure goes on the lead's timeline too.
func (s *Store) OutboxFailed(ctx context.Context, id, lastErr string, now time.Time) error {
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		var rows []OutboxRow
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(`UPDATE outbox SET last_error = ?, failed_at = ? WHERE id = ?
			RETURNING `+outboxColumns), cleanText(failure.Scrub(lastErr), 1000), now, id); err != nil {
			return err
		}
		if len(rows) == 0 {
			return ErrNotFound
		}
		if reviewKind(rows[0].Kind) {
			return reviewOutcome(ctx, tx, rows[0], ReviewFailed, now)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("outbox %s: %w", id, err)
	}
	return nil
}

func (s *Store) outboxUpdate(ctx context.Context, id, query string, args ...any) error {
	res, err := s.db.ExecContext(ctx, s.q(query), args...)
	if err != nil {
		return fmt.Errorf("outbox %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("outbox %s: %w", id, ErrNotFound)
	}
	return nil
}

// NextOutboxAttempt returns when the earliest pending row is due; ok is
// false when nothing is pending.
func (s *Store) NextOutboxAttempt(ctx context.Context) (at time.Time, ok bool, err error) {
	var ts []time.Time
	if err := s.db.SelectContext(ctx, &ts, `SELECT next_attempt_at FROM outbox WHERE delivered_at IS NULL AND failed_at IS NULL
		ORDER BY next_attempt_at LIMIT 1`); err != nil {
		return at, false, fmt.Errorf("next outbox attempt: %w", err)
	}
	if len(ts) == 0 {
		return at, false, nil
	}
	return ts[0], true, nil
}

// OutboxStats sums up the outbox for the dashboard and /healthz.
type OutboxStats struct {
	// Pending rows are not delivered yet and still tried.
	Pending int `db:"pending" json:"pending"`
	// Retrying rows are pending rows that have failed at least once.
	Retrying int `db:"retrying" json:"retrying"`
	// Failed rows were given up.
	Failed int `db:"failed" json:"failed"`
	// LastError is the newest error of a row not delivered ("" if none).
	LastError       string     `db:"-" json:"lastError"`
	LastDeliveredAt *time.Time `db:"-" json:"lastDeliveredAt"`
}

// OutboxCounts returns the pending, retrying and failed counts only
// (cheap enough for every /healthz call).
func (s *Store) OutboxCounts(ctx context.Context) (OutboxStats, error) {
	var st OutboxStats
	err := s.db.GetContext(ctx, &st, `SELECT
		COUNT(CASE WHEN delivered_at IS NULL AND failed_at IS NULL THEN 1 END) AS pending,
		COUNT(CASE WHEN delivered_at IS NULL AND failed_at IS NULL AND last_error <> '' THEN 1 END) AS retrying,
		COUNT(CASE WHEN failed_at IS NOT NULL THEN 1 END) AS failed
		FROM outbox`)
	if err != nil {
		return st, fmt.Errorf("outbox counts: %w", err)
	}
	return st, nil
}

// OutboxStatus returns the counts, the newest error of an undelivered row
// and the time of the latest delivery.
func (s *Store) OutboxStatus(ctx context.Context) (OutboxStats, error) {
	st, err := s.OutboxCounts(ctx)
	if err != nil {
		return st, err
	}
	var errs []string
	if err := s.db.SelectContext(ctx, &errs, `SELECT last_error FROM outbox WHERE delivered_at IS NULL AND last_error <> ''
		ORDER BY created_at DESC, id LIMIT 1`); err != nil {
		return st, fmt.Errorf("outbox last error: %w", err)
	}
	if len(errs) > 0 {
		// Rows written before errors were scrubbed are shown scrubbed.
		st.LastError = failure.Scrub(errs[0])
	}
	var ts []time.Time
	if err := s.db.SelectContext(ctx, &ts, `SELECT delivered_at FROM outbox WHERE delivered_at IS NOT NULL
		ORDER BY delivered_at DESC LIMIT 1`); err != nil {
		return st, fmt.Errorf("outbox last delivery: %w", err)
	}
	if len(ts) > 0 {
		st.LastDeliveredAt = &ts[0]
	}
	return st, nil
}

// RecentOutbox returns the newest rows, without their payloads.
func (s *Store) RecentOutbox(ctx context.Context, limit int) ([]OutboxRow, error) {
	out := []OutboxRow{}
	err := s.db.SelectContext(ctx, &out, s.q(`SELECT id, kind, event, target, lead_id, '' AS payload, attempts, next_attempt_at, last_error,
		created_at, delivered_at, failed_at FROM outbox ORDER BY created_at DESC, id LIMIT ?`), limit)
	if err != nil {
		return nil, fmt.Errorf("recent outbox: %w", err)
	}
	for i := range out {
		out[i].LastError = failure.Scrub(out[i].LastError)
	}
	return out, nil
}

// PruneOutbox drops rows delivered or given up before before (the
// retention job, RETAIN_OUTBOX_DAYS) and says how many.
func (s *Store) PruneOutbox(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM outbox WHERE delivered_at < ? OR failed_at < ?`), before, before)
	if err != nil {
		return 0, fmt.Errorf("prune outbox: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}
