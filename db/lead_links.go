package db

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// The private links to a lead's pages (migration 108, ADR 065): the
// homeowner's (/my/{token}) and an insurer's read-only one
// (/claim/{token}). Only a token's hash is stored (package portal makes
// tokens). A link is live until it is revoked or its expires_at passes;
// a homeowner's link gets an expiry when the job is completed
// (HomeLinkAfterCompletion) and loses it when the job is reopened.
// Issuing or revoking an adjuster's link, and revoking the homeowner's,
// is on the lead's timeline (EventLink: To "issued" or "revoked",
// Channel the link's kind).

// HomeLinkAfterCompletion is how long a homeowner's link works after the
// job is marked completed.
const HomeLinkAfterCompletion = 90 * 24 * time.Hour

// Progress steps the owner records on a lead (EventProgress, To).
const (
	ProgressOnTheWay      = "on_the_way"
	ProgressWorkStarted   = "work_started"
	ProgressDryingStarted = "drying_started"
)

// ProgressSteps lists the steps, in the order work happens.
var ProgressSteps = []string{ProgressOnTheWay, ProgressWorkStarted, ProgressDryingStarted}

// ErrBadLink is returned for a link of an unknown kind, or issued for a
// lead that does not exist.
var ErrBadLink = errors.New("no such link kind or lead")

type leadLinkRow struct {
	ID           string     `db:"id"`
	LeadID       string     `db:"lead_id"`
	Kind         string     `db:"kind"`
	TokenHash    string     `db:"token_hash"`
	CreatedAt    time.Time  `db:"created_at"`
	ExpiresAt    *time.Time `db:"expires_at"`
	RevokedAt    *time.Time `db:"revoked_at"`
	Opens        int        `db:"opens"`
	LastOpenedAt *time.Time `db:"last_opened_at"`
}

func (r leadLinkRow) link() LeadLink {
	utc := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		u := t.UTC()
		return &u
	}
	return LeadLink{ID: r.ID, LeadID: r.LeadID, Kind: r.Kind, TokenHash: r.TokenHash, CreatedAt: r.CreatedAt.UTC(),
		ExpiresAt: utc(r.ExpiresAt), RevokedAt: utc(r.RevokedAt), Opens: r.Opens, LastOpenedAt: utc(r.LastOpenedAt)}
}

const leadLinkColumns = `id, lead_id, kind, token_hash, created_at, expires_at, revoked_at, opens, last_opened_at`

// IssueLeadLink stores the hash of a new link of kind to lead leadID,
// expiring at expires (nil: a homeowner's link of a job not completed
// yet, which expires HomeLinkAfterCompletion after completion; a
// homeowner's link issued for a completed job gets that expiry now).
// An adjuster's link goes on the timeline, by by.
func (s *Store) IssueLeadLink(ctx context.Context, leadID, kind, hash string, expires *time.Time, by Actor, now time.Time) (LeadLink, error) {
	if kind != LinkHomeowner && kind != LinkAdjuster || hash == "" {
		return LeadLink{}, ErrBadLink
	}
	r := leadLinkRow{ID: newRowID(), LeadID: leadID, Kind: kind, TokenHash: hash, CreatedAt: now.UTC(), ExpiresAt: expires}
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		// The lead's row is written first: a transaction that read
		// before its first write fails on SQLite when another
		// connection commits in between (SQLITE_BUSY_SNAPSHOT, seen as
		// "database is locked (517)" on an acknowledgement beside other
		// writes), and on PostgreSQL the row lock orders the lead's
		// changes.
		if err := lockLead(ctx, tx, leadID); errors.Is(err, ErrNotFound) {
			return ErrBadLink
		} else if err != nil {
			return err
		}
		var status []string
		if err := tx.SelectContext(ctx, &status, tx.Rebind(`SELECT status FROM avatar_leads WHERE id = ?`), leadID); err != nil {
			return err
		}
		if len(status) == 0 {
			return ErrBadLink
		}
		if kind == LinkHomeowner && r.ExpiresAt == nil && status[0] == "completed" {
			t := now.Add(HomeLinkAfterCompletion).UTC()
			r.ExpiresAt = &t
		}
		if r.ExpiresAt != nil {
			t := r.ExpiresAt.UTC()
			r.ExpiresAt = &t
		}
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO lead_links (`+leadLinkColumns+`)
			VALUES (:id, :lead_id, :kind, :token_hash, :created_at, :expires_at, :revoked_at, :opens, :last_opened_at)`, r); err != nil {
			return err
		}
		if kind != LinkAdjuster {
			return nil
		}
		e := by.event(leadID, EventLink, now)
		e.Channel, e.To = kind, "issued"
		if r.ExpiresAt != nil {
			e.Body = r.ExpiresAt.Format(time.RFC3339)
		}
		return addLeadEvent(ctx, tx, e)
	})
	if err != nil {
		return LeadLink{}, fmt.Errorf("lead %s link: %w", leadID, err)
	}
	if kind == LinkAdjuster {
		s.leadChanged(s.leadChange(LeadNote, leadID, now))
	}
	return r.link(), nil
}

// LeadLinkByHash finds a live link (ErrNotFound when it is unknown,
// revoked or expired at now).
func (s *Store) LeadLinkByHash(ctx context.Context, hash string, now time.Time) (LeadLink, error) {
	var r leadLinkRow
	if hash == "" {
		return LeadLink{}, ErrNotFound
	}
	err := s.db.GetContext(ctx, &r, s.q(`SELECT `+leadLinkColumns+` FROM lead_links
		WHERE token_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`), hash, now.UTC())
	if err != nil {
		return LeadLink{}, notFound(err)
	}
	return r.link(), nil
}

// CountLeadLinkOpen counts one opening of link id at now.
func (s *Store) CountLeadLinkOpen(ctx context.Context, id string, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, s.q(`UPDATE lead_links SET opens = opens + 1, last_opened_at = ? WHERE id = ?`), now.UTC(), id); err != nil {
		return fmt.Errorf("link %s open: %w", id, err)
	}
	return nil
}

// LeadLinks lists a lead's links, newest first, live or not.
func (s *Store) LeadLinks(ctx context.Context, leadID string) ([]LeadLink, error) {
	var rows []leadLinkRow
	if err := s.db.SelectContext(ctx, &rows, s.q(`SELECT `+leadLinkColumns+` FROM lead_links WHERE lead_id = ? ORDER BY created_at DESC, id`), leadID); err != nil {
		return nil, fmt.Errorf("lead %s links: %w", leadID, err)
	}
	out := make([]LeadLink, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.link())
	}
	return out, nil
}

// RevokeLeadLink revokes link linkID of lead leadID (ErrNotFound when
// the lead has no such live link: another lead's link is never touched).
func (s *Store) RevokeLeadLink(ctx context.Context, leadID, linkID string, by Actor, now time.Time) (LeadLink, error) {
	var r leadLinkRow
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		// Written first, as IssueLeadLink does.
		if err := lockLead(ctx, tx, leadID); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &r, tx.Rebind(`SELECT `+leadLinkColumns+` FROM lead_links WHERE id = ? AND lead_id = ? AND revoked_at IS NULL`), linkID, leadID); err != nil {
			return notFound(err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE lead_links SET revoked_at = ? WHERE id = ?`), now.UTC(), linkID); err != nil {
			return err
		}
		t := now.UTC()
		r.RevokedAt = &t
		e := by.event(leadID, EventLink, now)
		e.Channel, e.To = r.Kind, "revoked"
		return addLeadEvent(ctx, tx, e)
	})
	if err != nil {
		return LeadLink{}, fmt.Errorf("lead %s revoke link: %w", leadID, err)
	}
	s.leadChanged(s.leadChange(LeadNote, leadID, now))
	return r.link(), nil
}

// RevokeHomeLinks revokes every live homeowner link of a lead (every
// message carried its own) and says how many there were. Messages sent
// later carry a new, working link.
func (s *Store) RevokeHomeLinks(ctx context.Context, leadID string, by Actor, now time.Time) (int, error) {
	var n int64
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE lead_links SET revoked_at = ? WHERE lead_id = ? AND kind = ? AND revoked_at IS NULL`), now.UTC(), leadID, LinkHomeowner)
		if err != nil {
			return err
		}
		if n, _ = res.RowsAffected(); n == 0 {
			return nil
		}
		e := by.event(leadID, EventLink, now)
		e.Channel, e.To = LinkHomeowner, "revoked"
		return addLeadEvent(ctx, tx, e)
	})
	if err != nil {
		return 0, fmt.Errorf("lead %s revoke home links: %w", leadID, err)
	}
	if n > 0 {
		s.leadChanged(s.leadChange(LeadNote, leadID, now))
	}
	return int(n), nil
}

// homeLinksExpiry sets, in a status change's tx, the expiry of the
// lead's homeowner links: HomeLinkAfterCompletion from now when the job
// is completed, none when it is reopened.
func homeLinksExpiry(ctx context.Context, tx *sqlx.Tx, leadID, status string, now time.Time) error {
	var exp any
	if status == "completed" {
		exp = now.Add(HomeLinkAfterCompletion).UTC()
	}
	_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE lead_links SET expires_at = ? WHERE lead_id = ? AND kind = ? AND revoked_at IS NULL`), exp, leadID, LinkHomeowner)
	return err
}

// OnStatusChangeTx makes f run in every status change's own transaction
// with its event (the homeowner's message: notify). One f; a later call
// replaces it.
func (s *Store) OnStatusChangeTx(f func(ctx context.Context, tx *sqlx.Tx, e LeadEvent) error) {
	s.statusTold = f
}

// RecordProgress puts a step of the work (ProgressSteps) on a lead's
// timeline, by a person, and runs tell in the same transaction (the
// homeowner's message). A step is a response: it ends the first response
// time.
func (s *Store) RecordProgress(ctx context.Context, leadID, step string, by Actor, now time.Time, tell func(ctx context.Context, tx *sqlx.Tx, e LeadEvent) error) (LeadEvent, error) {
	valid := false
	for _, st := range ProgressSteps {
		valid = valid || st == step
	}
	if !valid {
		return LeadEvent{}, fmt.Errorf("lead %s: progress %q is not one of %v", leadID, step, ProgressSteps)
	}
	e := by.event(leadID, EventProgress, now)
	e.To = step
	ch := s.leadChange(LeadStatus, leadID, now)
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if err := lockLead(ctx, tx, leadID); err != nil {
			return err
		}
		if err := addLeadEvent(ctx, tx, e); err != nil {
			return err
		}
		if err := s.notifyLead(ctx, tx, ch); err != nil {
			return err
		}
		if err := markResponded(ctx, tx, leadID, by, now); err != nil {
			return err
		}
		if tell != nil {
			return tell(ctx, tx, e)
		}
		return nil
	})
	if err != nil {
		return LeadEvent{}, fmt.Errorf("lead %s progress: %w", leadID, err)
	}
	s.leadChanged(ch)
	return e, nil
}

// LeadPortal is what a lead's private pages show of it: the lead, the
// first name of the account working it ("" : nobody yet) and its
// timeline.
type LeadPortal struct {
	Lead        Lead
	WhoIsComing string
	Timeline    []LeadEvent
}

// LeadForPortal reads a lead's private page data (ErrNotFound: no lead).
func (s *Store) LeadForPortal(ctx context.Context, leadID string) (LeadPortal, error) {
	var p LeadPortal
	var err error
	if p.Lead, err = s.GetLead(ctx, leadID); err != nil {
		return p, err
	}
	if p.Lead.AssignedTo != nil {
		var names []string
		if err := s.db.SelectContext(ctx, &names, s.q(`SELECT name FROM users WHERE id = ? AND disabled_at IS NULL`), *p.Lead.AssignedTo); err != nil {
			return p, fmt.Errorf("lead %s portal: %w", leadID, err)
		}
		if len(names) > 0 {
			p.WhoIsComing = names[0]
		}
	}
	p.Timeline, err = s.LeadTimeline(ctx, leadID)
	return p, err
}

// HomeownerContacts are, in tx, the lead's email and phone that may
// receive messages: present and not opted out (review_optouts: one
// opt-out stops every message to the homeowner but the
// acknowledgement, ADR 065). ErrNotFound: no such lead.
func HomeownerContacts(ctx context.Context, tx *sqlx.Tx, leadID string) (email, phone string, err error) {
	var l struct {
		Email string `db:"email"`
		Phone string `db:"phone"`
	}
	if err := tx.GetContext(ctx, &l, tx.Rebind(`SELECT email, phone FROM avatar_leads WHERE id = ?`), leadID); err != nil {
		return "", "", notFound(err)
	}
	return leadContacts(ctx, tx, l.Email, l.Phone)
}

// QueuePortalMessages writes, in tx, the outbox rows of a message to a
// lead's homeowner (kinds OutboxPortal and OutboxPortalSMS, event
// OutboxPortalEvent, target the message's key), due at once. A key
// queued before is not queued again.
func QueuePortalMessages(ctx context.Context, tx *sqlx.Tx, leadID string, rows []OutboxRow, now time.Time) error {
	for _, r := range rows {
		if r.Kind != OutboxPortal && r.Kind != OutboxPortalSMS {
			return fmt.Errorf("outbox %s: not a message to the homeowner", r.Kind)
		}
		r.ID, r.Event, r.LeadID = newRowID(), OutboxPortalEvent, leadID
		r.NextAttemptAt, r.CreatedAt = now.UTC(), now.UTC()
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO outbox (`+outboxColumns+`) VALUES (:id, :kind, :event, :target, :lead_id, :payload,
			:attempts, :next_attempt_at, :last_error, :created_at, :delivered_at, :failed_at) ON CONFLICT (lead_id, kind, event, target) DO NOTHING`, r); err != nil {
			return fmt.Errorf("outbox %s: %w", r.Kind, err)
		}
	}
	return nil
}
