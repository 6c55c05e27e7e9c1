package db

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Review requests (issue 33, ADR 063): a lead that becomes completed is
// asked once for a review. ChangeLeadStatus schedules the request in the
// status change's own transaction (scheduleReviewRequest); the sender
// (notify) claims it when it is due and writes its outbox rows
// (ClaimReviewRequests), so a crash or a restart loses nothing and two
// instances never ask twice.

// Outbox kinds of a review request: the email and the text.
const (
	OutboxReview    = "review"
	OutboxReviewSMS = "review_sms"
)

// A review request is on the lead's timeline as an EventNotified entry
// whose Channel is OutboxReview (or OutboxReviewSMS for the text) and
// whose To says what happened: ReviewScheduled, ReviewSent, ReviewFailed
// or ReviewNotAskable. (lead_events' kinds are a CHECK; the channel is
// free text, so no table is rebuilt.)
const (
	ReviewScheduled  = "scheduled"
	ReviewSent       = "sent"
	ReviewFailed     = "failed"
	ReviewNotAskable = "not_askable"
)

// Review request states.
const (
	ReviewStateScheduled  = "scheduled"
	ReviewStateQueued     = "queued"
	ReviewStateNotAskable = "not_askable"
)

// ReviewDelaySetting is the settings key of the owner's delay between a
// lead's completion and its review request, in minutes.
const ReviewDelaySetting = "review_request_delay_minutes"

// Bounds of the delay, in minutes: none at all, up to two weeks.
const (
	DefaultReviewDelayMinutes = 120
	MaxReviewDelayMinutes     = 14 * 24 * 60
)

// ReviewLinkSetting is the settings key of the review link the owner
// pasted (used when no Google place id is configured).
const ReviewLinkSetting = "review_link"

// ReviewRequest is a row of review_requests.
type ReviewRequest struct {
	ID        string     `db:"id"`
	LeadID    string     `db:"lead_id"`
	State     string     `db:"state"`
	DueAt     time.Time  `db:"due_at"`
	CreatedAt time.Time  `db:"created_at"`
	QueuedAt  *time.Time `db:"queued_at"`
}

const reviewRequestColumns = `id, lead_id, state, due_at, created_at, queued_at`

// ReviewDelay reads the owner's delay (the default when none is saved or
// the saved one is unreadable).
func ReviewDelay(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 || n > MaxReviewDelayMinutes {
		n = DefaultReviewDelayMinutes
	}
	return time.Duration(n) * time.Minute
}

// OptOutKey is how an email or a phone is remembered as opted out:
// an email lowercased, a phone as stored (E.164).
func OptOutKey(contact string) string {
	c := strings.TrimSpace(contact)
	if strings.Contains(c, "@") {
		return strings.ToLower(c)
	}
	return c
}

// leadContacts are the lead's email and phone that may be asked: present
// and not opted out.
func leadContacts(ctx context.Context, tx *sqlx.Tx, email, phone string) (okEmail, okPhone string, err error) {
	check := func(c string) (string, error) {
		if strings.TrimSpace(c) == "" {
			return "", nil
		}
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM review_optouts WHERE contact = ?`), OptOutKey(c)); err != nil {
			return "", err
		}
		if n > 0 {
			return "", nil
		}
		return c, nil
	}
	if okEmail, err = check(email); err != nil {
		return
	}
	okPhone, err = check(phone)
	return
}

// scheduleReviewRequest asks lead id for a review after the owner's delay,
// in tx (its status has just become completed): once per lead, ever. A
// lead with no email or phone that may be asked is recorded as not
// askable. Both land on the timeline.
func scheduleReviewRequest(ctx context.Context, tx *sqlx.Tx, id string, now time.Time) error {
	var delay []string
	if err := tx.SelectContext(ctx, &delay, tx.Rebind(`SELECT value FROM settings WHERE key = ?`), ReviewDelaySetting); err != nil {
		return err
	}
	d := ReviewDelay("")
	if len(delay) > 0 {
		d = ReviewDelay(delay[0])
	}
	var l struct {
		Email string `db:"email"`
		Phone string `db:"phone"`
	}
	if err := tx.GetContext(ctx, &l, tx.Rebind(`SELECT email, phone FROM avatar_leads WHERE id = ?`), id); err != nil {
		return err
	}
	email, phone, err := leadContacts(ctx, tx, l.Email, l.Phone)
	if err != nil {
		return err
	}
	state := ReviewStateScheduled
	if email == "" && phone == "" {
		state = ReviewStateNotAskable
	}
	r := ReviewRequest{ID: newRowID(), LeadID: id, State: state, DueAt: now.Add(d).UTC(), CreatedAt: now.UTC()}
	res, err := tx.NamedExecContext(ctx, `INSERT INTO review_requests (`+reviewRequestColumns+`) VALUES (:id, :lead_id, :state, :due_at, :created_at, :queued_at)
		ON CONFLICT (lead_id) DO NOTHING`, r)
	if err != nil {
		return fmt.Errorf("review request: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil // asked once already
	}
	e := SystemActor.event(id, EventNotified, now)
	e.Channel, e.To = OutboxReview, state
	if state == ReviewStateScheduled {
		e.Body = r.DueAt.Format(time.RFC3339)
	}
	return addLeadEvent(ctx, tx, e)
}

// ReviewLead is what the sender needs of a due request's lead.
type ReviewLead struct {
	RequestID string
	LeadID    string
	FirstName string
	City      string
	// Email and Phone are the lead's contacts that may be asked now ("":
	// none, or opted out since).
	Email string
	Phone string
}

// ClaimReviewRequests takes up to limit requests due at now, and writes
// for each, in one transaction, the outbox rows rows returns (due at
// once). A request rows gives none is recorded as not askable, on the
// timeline. On PostgreSQL requests another instance is claiming are
// skipped; either way a request is claimed once. It returns how many
// requests had rows.
func (s *Store) ClaimReviewRequests(ctx context.Context, now time.Time, limit int, rows func(ReviewLead) []OutboxRow) (int, error) {
	lock := ""
	if s.dialect == "postgres" {
		lock = ` FOR UPDATE SKIP LOCKED`
	}
	queued := 0
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		queued = 0
		var due []ReviewRequest
		if err := tx.SelectContext(ctx, &due, tx.Rebind(`UPDATE review_requests SET state = ?, queued_at = ?
			WHERE id IN (SELECT id FROM review_requests WHERE state = ? AND due_at <= ? ORDER BY due_at, id LIMIT ?`+lock+`)
			RETURNING `+reviewRequestColumns), ReviewStateQueued, now.UTC(), ReviewStateScheduled, now.UTC(), limit); err != nil {
			return err
		}
		for _, r := range due {
			var l struct {
				FirstName string `db:"first_name"`
				City      string `db:"city"`
				Email     string `db:"email"`
				Phone     string `db:"phone"`
			}
			if err := tx.GetContext(ctx, &l, tx.Rebind(`SELECT first_name, city, email, phone FROM avatar_leads WHERE id = ?`), r.LeadID); err != nil {
				return err
			}
			email, phone, err := leadContacts(ctx, tx, l.Email, l.Phone)
			if err != nil {
				return err
			}
			out := rows(ReviewLead{RequestID: r.ID, LeadID: r.LeadID, FirstName: l.FirstName, City: l.City, Email: email, Phone: phone})
			if len(out) == 0 {
				if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE review_requests SET state = ? WHERE id = ?`), ReviewStateNotAskable, r.ID); err != nil {
					return err
				}
				e := SystemActor.event(r.LeadID, EventNotified, now)
				e.Channel, e.To = OutboxReview, ReviewNotAskable
				if err := addLeadEvent(ctx, tx, e); err != nil {
					return err
				}
				continue
			}
			for i := range out {
				out[i].NextAttemptAt, out[i].CreatedAt = now.UTC(), now.UTC()
			}
			if err := insertOutbox(ctx, tx, r.LeadID, out); err != nil {
				return err
			}
			queued++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("claim review requests: %w", err)
	}
	return queued, nil
}

// NextReviewDue is when the earliest scheduled request is due; ok is
// false when none is.
func (s *Store) NextReviewDue(ctx context.Context) (at time.Time, ok bool, err error) {
	var ts []time.Time
	if err := s.db.SelectContext(ctx, &ts, s.q(`SELECT due_at FROM review_requests WHERE state = ? ORDER BY due_at LIMIT 1`), ReviewStateScheduled); err != nil {
		return at, false, fmt.Errorf("next review request: %w", err)
	}
	if len(ts) == 0 {
		return at, false, nil
	}
	return ts[0], true, nil
}

// ReviewRequestOf returns a lead's review request (ErrNotFound: none).
func (s *Store) ReviewRequestOf(ctx context.Context, leadID string) (ReviewRequest, error) {
	var r ReviewRequest
	err := s.db.GetContext(ctx, &r, s.q(`SELECT `+reviewRequestColumns+` FROM review_requests WHERE lead_id = ?`), leadID)
	return r, notFound(err)
}

// AddReviewToken stores the hash of a feedback link's token for a request.
func (s *Store) AddReviewToken(ctx context.Context, requestID, tokenHash string, now time.Time) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO review_tokens (token_hash, request_id, created_at) VALUES (?, ?, ?)`), tokenHash, requestID, now.UTC())
	if err != nil {
		return fmt.Errorf("review token: %w", err)
	}
	return nil
}

// ReviewTokenLead is a feedback link's request and lead.
type ReviewTokenLead struct {
	RequestID string `db:"request_id"`
	LeadID    string `db:"lead_id"`
	FirstName string `db:"first_name"`
	City      string `db:"city"`
	Email     string `db:"email"`
	Phone     string `db:"phone"`
}

// ReviewByToken finds the request of a token hash issued after since
// (older links have expired): ErrNotFound when there is none.
func (s *Store) ReviewByToken(ctx context.Context, tokenHash string, since time.Time) (ReviewTokenLead, error) {
	var r ReviewTokenLead
	err := s.db.GetContext(ctx, &r, s.q(`SELECT t.request_id, r.lead_id, l.first_name, l.city, l.email, l.phone
		FROM review_tokens t JOIN review_requests r ON r.id = t.request_id JOIN avatar_leads l ON l.id = r.lead_id
		WHERE t.token_hash = ? AND t.created_at > ?`), tokenHash, since.UTC())
	return r, notFound(err)
}

// OptOut remembers contacts as opted out of review requests (again is
// no error), and gives up the review messages still waiting for them.
func (s *Store) OptOut(ctx context.Context, contacts []string, now time.Time) error {
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		for _, c := range contacts {
			if strings.TrimSpace(c) == "" {
				continue
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO review_optouts (contact, created_at) VALUES (?, ?) ON CONFLICT (contact) DO NOTHING`),
				OptOutKey(c), now.UTC()); err != nil {
				return fmt.Errorf("opt out: %w", err)
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE outbox SET failed_at = ?, last_error = 'opted out' WHERE kind IN (?, ?)
				AND delivered_at IS NULL AND failed_at IS NULL AND (target = ? OR LOWER(target) = ?)`), now.UTC(), OutboxReview, OutboxReviewSMS, c, OptOutKey(c)); err != nil {
				return fmt.Errorf("opt out: %w", err)
			}
		}
		return nil
	})
}

// OptedOut reports whether a contact has opted out.
func (s *Store) OptedOut(ctx context.Context, contact string) (bool, error) {
	var n int
	if err := s.db.GetContext(ctx, &n, s.q(`SELECT COUNT(*) FROM review_optouts WHERE contact = ?`), OptOutKey(contact)); err != nil {
		return false, fmt.Errorf("opted out: %w", err)
	}
	return n > 0, nil
}

// reviewOutcome puts a review message's delivery or failure on the
// lead's timeline (called in the outbox's own transaction).
func reviewOutcome(ctx context.Context, tx *sqlx.Tx, r OutboxRow, to string, now time.Time) error {
	return addLeadEvent(ctx, tx, LeadEvent{LeadID: r.LeadID, At: now, Kind: EventNotified, Actor: SystemActor.Name, Channel: r.Kind, To: to})
}

// reviewKind reports whether an outbox kind is a message to the
// homeowner whose delivery goes on the lead's timeline: a review
// request's, or a message about their job (ADR 065).
func reviewKind(kind string) bool {
	return kind == OutboxReview || kind == OutboxReviewSMS || kind == OutboxPortal || kind == OutboxPortalSMS
}
