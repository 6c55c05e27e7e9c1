package db

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Kinds of lead_events: a lead's timeline.
const (
	// EventCreated is the lead's arrival. It is never stored: the
	// timeline reads it from the lead row, so leads older than the
	// timeline have it too.
	EventCreated   = "created"
	EventNote      = "note"
	EventStatus    = "status"
	EventAssigned  = "assigned"
	EventNotified  = "notified"
	EventEscalated = "escalated"
	// The homeowner's pages (migration 108, issue 34): a step of the
	// work the owner records (on the way, work started, drying day N),
	// an inspection booked, moved or cancelled, a message or photos the
	// homeowner sent, a file the owner attached or shared, a private
	// link issued or revoked.
	EventProgress  = "progress"
	EventBooking   = "booking"
	EventHomeowner = "homeowner"
	EventDocument  = "document"
	EventLink      = "link"
)

// MaxNoteBytes bounds a note as stored; leads.CheckNote gives people the
// message for the (smaller) limit they see.
const MaxNoteBytes = 16 << 10

// MaxLeadNotes bounds the notes of one lead: a lead worked for months
// has a few dozen; an account that writes thousands is a script, and each
// note is a row every timeline read returns.
const MaxLeadNotes = 500

// ErrTooManyNotes is returned when a lead has MaxLeadNotes notes already.
var ErrTooManyNotes = errors.New("this lead has too many notes")

// ErrCannotAssign is returned when the account a lead is given to does
// not exist, is disabled or has no role that may see leads.
var ErrCannotAssign = errors.New("that account cannot take leads")

// Actor is who did something to a lead. A person has a UserID; the
// server's own work (a delivered notification, an escalation) has none.
// Only a person's status change or note ends a lead's first response
// time.
type Actor struct {
	UserID string
	// Name is how the timeline shows them: the account's name or email
	// at the time, so a renamed or removed account still reads right.
	Name string
}

// SystemActor is the server itself.
var SystemActor = Actor{Name: "system"}

func (a Actor) person() bool { return a.UserID != "" }

// LeadEvent is one entry of a lead's timeline (table lead_events).
type LeadEvent struct {
	ID     string    `db:"id"`
	LeadID string    `db:"lead_id"`
	At     time.Time `db:"at"`
	Kind   string    `db:"kind"`
	// UserID is the person who did it ("" for the server); Actor is how
	// they are shown.
	UserID string `db:"user_id"`
	Actor  string `db:"actor"`
	// Channel is the notification's channel (EventNotified): email,
	// webhook, push, sms or ack.
	Channel string `db:"channel"`
	// From and To are the status before and after (EventStatus), the
	// account ids before and after (EventAssigned; "" is nobody), or, for
	// EventNotified, To is "escalated" when the notification announced
	// an escalation.
	From string `db:"from_value"`
	To   string `db:"to_value"`
	// Body is a note's text, or the name of the account a lead was
	// assigned to.
	Body string `db:"body"`
}

const leadEventColumns = `id, lead_id, at, kind, COALESCE(user_id, '') AS user_id, actor, channel, from_value, to_value, body`

// addLeadEvent stores e in tx (a missing id is generated).
func addLeadEvent(ctx context.Context, tx *sqlx.Tx, e LeadEvent) error {
	if e.ID == "" {
		e.ID = newRowID()
	}
	var uid any
	if e.UserID != "" {
		uid = e.UserID
	}
	_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO lead_events (id, lead_id, at, kind, user_id, actor, channel, from_value, to_value, body)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), e.ID, e.LeadID, e.At.UTC(), e.Kind, uid, e.Actor, e.Channel, e.From, e.To, e.Body)
	if err != nil {
		return fmt.Errorf("lead %s event %s: %w", e.LeadID, e.Kind, err)
	}
	return nil
}

func (a Actor) event(leadID, kind string, at time.Time) LeadEvent {
	return LeadEvent{ID: newRowID(), LeadID: leadID, At: at.UTC(), Kind: kind, UserID: a.UserID, Actor: a.Name}
}

// lockLead takes the lead's row for the rest of tx with a write that
// changes nothing: on PostgreSQL a row lock, on SQLite the write lock.
// Taking it first, before any read, is what lets a SQLite transaction
// wait for another writer instead of failing at once, and what makes the
// reads after it current on both. ErrNotFound when there is no such lead.
func lockLead(ctx context.Context, tx *sqlx.Tx, id string) error {
	res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE avatar_leads SET updated_at = updated_at WHERE id = ?`), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// markResponded sets the lead's first response time when by is a person
// and none is set yet: the first one wins, whoever commits first.
func markResponded(ctx context.Context, tx *sqlx.Tx, id string, by Actor, at time.Time) error {
	if !by.person() {
		return nil
	}
	_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE avatar_leads SET first_response_at = ? WHERE id = ? AND first_response_at IS NULL`), at.UTC(), id)
	return err
}

// ChangeLeadStatus sets a lead's status and updated_at, puts the change
// on its timeline and, when by is a person, ends its first response time
// if nothing had. The event is returned; it is the zero LeadEvent when
// the lead had that status already (updated_at is still set, as spec 4
// says of every update, but nothing happened to time or record).
func (s *Store) ChangeLeadStatus(ctx context.Context, id, status string, by Actor, now time.Time) (LeadEvent, error) {
	if !validLeadStatus(status) {
		return LeadEvent{}, fmt.Errorf("lead %s: status %q is not one of %v", id, status, LeadStatuses)
	}
	var ev LeadEvent
	ch := s.leadChange(LeadStatus, id, now)
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if err := lockLead(ctx, tx, id); err != nil {
			return err
		}
		// Announced even when the status stays: updated_at moves.
		if err := s.notifyLead(ctx, tx, ch); err != nil {
			return err
		}
		var from string
		if err := tx.GetContext(ctx, &from, tx.Rebind(`SELECT status FROM avatar_leads WHERE id = ?`), id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE avatar_leads SET status = ?, updated_at = ? WHERE id = ?`), status, now.UTC(), id); err != nil {
			return err
		}
		if from == status {
			return nil
		}
		e := by.event(id, EventStatus, now)
		e.From, e.To = from, status
		if err := addLeadEvent(ctx, tx, e); err != nil {
			return err
		}
		if err := markResponded(ctx, tx, id, by, now); err != nil {
			return err
		}
		ev = e
		// The homeowner's link expires some time after completion, and
		// works again when the job is reopened (ADR 065).
		if err := homeLinksExpiry(ctx, tx, id, status, now); err != nil {
			return err
		}
		if s.statusTold != nil {
			if err := s.statusTold(ctx, tx, e); err != nil {
				return err
			}
		}
		if status == "completed" {
			// Asked once per lead, after the owner's delay (ADR 063).
			return scheduleReviewRequest(ctx, tx, id, now)
		}
		return nil
	})
	if err != nil {
		return LeadEvent{}, fmt.Errorf("lead %s status: %w", id, err)
	}
	s.leadChanged(ch)
	return ev, nil
}

func validLeadStatus(s string) bool {
	for _, st := range LeadStatuses {
		if st == s {
			return true
		}
	}
	return false
}

// AddLeadNote adds a note to a lead's timeline and, when by is a person,
// ends its first response time if nothing had. body is stored as given
// (leads.CheckNote is the rule people are held to); an empty or
// oversized one is refused, and so is a note past MaxLeadNotes
// (ErrTooManyNotes).
func (s *Store) AddLeadNote(ctx context.Context, leadID string, by Actor, body string, now time.Time) (LeadEvent, error) {
	if strings.TrimSpace(body) == "" || len(body) > MaxNoteBytes {
		return LeadEvent{}, fmt.Errorf("lead %s note: empty or over %d bytes", leadID, MaxNoteBytes)
	}
	e := by.event(leadID, EventNote, now)
	e.Body = body
	ch := s.leadChange(LeadNote, leadID, now)
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if err := lockLead(ctx, tx, leadID); err != nil {
			return err
		}
		// Counted under the lead's lock: racing notes cannot pass the bound.
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM lead_events WHERE lead_id = ? AND kind = ?`), leadID, EventNote); err != nil {
			return err
		}
		if n >= MaxLeadNotes {
			return ErrTooManyNotes
		}
		if err := addLeadEvent(ctx, tx, e); err != nil {
			return err
		}
		if err := s.notifyLead(ctx, tx, ch); err != nil {
			return err
		}
		return markResponded(ctx, tx, leadID, by, now)
	})
	if err != nil {
		return LeadEvent{}, fmt.Errorf("lead %s note: %w", leadID, err)
	}
	s.leadChanged(ch)
	return e, nil
}

// AssignLead gives a lead to the account userID ("" takes it from
// whoever had it) and puts that on the timeline, with the account's name
// as it is now. The account must be enabled and have a role that sees
// leads (ErrCannotAssign). The event is the zero LeadEvent when the lead
// was assigned so already. Assigning is not a response: the first
// response time runs on.
func (s *Store) AssignLead(ctx context.Context, leadID, userID string, by Actor, now time.Time) (LeadEvent, error) {
	var ev LeadEvent
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if err := lockLead(ctx, tx, leadID); err != nil {
			return err
		}
		e := by.event(leadID, EventAssigned, now)
		if userID != "" {
			var who []struct {
				Email string `db:"email"`
				Name  string `db:"name"`
			}
			if err := tx.SelectContext(ctx, &who, tx.Rebind(`SELECT u.email, u.name FROM users u WHERE u.id = ? AND u.disabled_at IS NULL
				AND EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role IN ('admin', 'staff'))`), userID); err != nil {
				return err
			}
			if len(who) == 0 {
				return ErrCannotAssign
			}
			e.Body = who[0].Name
			if e.Body == "" {
				e.Body = who[0].Email
			}
		}
		var from *string
		if err := tx.GetContext(ctx, &from, tx.Rebind(`SELECT assigned_to FROM avatar_leads WHERE id = ?`), leadID); err != nil {
			return err
		}
		if from != nil {
			e.From = *from
		}
		if e.From == userID {
			return nil
		}
		var to any
		if userID != "" {
			to = userID
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE avatar_leads SET assigned_to = ? WHERE id = ?`), to, leadID); err != nil {
			return err
		}
		e.To = userID
		if err := addLeadEvent(ctx, tx, e); err != nil {
			return err
		}
		ev = e
		return s.notifyLead(ctx, tx, s.leadChange(LeadAssigned, leadID, now))
	})
	if err != nil {
		return LeadEvent{}, fmt.Errorf("lead %s assign: %w", leadID, err)
	}
	if ev.ID != "" {
		s.leadChanged(s.leadChange(LeadAssigned, leadID, now))
	}
	return ev, nil
}

// LeadTimeline returns a lead's timeline, oldest first: its creation (by
// its source, "website"), then every stored event.
func (s *Store) LeadTimeline(ctx context.Context, leadID string) ([]LeadEvent, error) {
	var head struct {
		CreatedAt time.Time `db:"created_at"`
		Source    string    `db:"source"`
	}
	if err := s.db.GetContext(ctx, &head, s.q(`SELECT created_at, source FROM avatar_leads WHERE id = ?`), leadID); err != nil {
		return nil, fmt.Errorf("lead %s timeline: %w", leadID, notFound(err))
	}
	out := []LeadEvent{{LeadID: leadID, At: head.CreatedAt, Kind: EventCreated, Actor: head.Source}}
	var evs []LeadEvent
	if err := s.db.SelectContext(ctx, &evs, s.q(`SELECT `+leadEventColumns+` FROM lead_events WHERE lead_id = ? ORDER BY at, id`), leadID); err != nil {
		return nil, fmt.Errorf("lead %s timeline: %w", leadID, err)
	}
	return append(out, evs...), nil
}
