package db

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Booking is an inspection visit a homeowner booked (table bookings,
// ADR 066).
type Booking struct {
	ID     string    `db:"id"`
	LeadID string    `db:"lead_id"`
	Start  time.Time `db:"starts_at"`
	End    time.Time `db:"ends_at"`
	// Sequence counts the moves (the calendar file's SEQUENCE).
	Sequence    int        `db:"sequence"`
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at"`
	CancelledAt *time.Time `db:"cancelled_at"`
}

// Visit is a live booking with what the dashboard shows of its lead.
type Visit struct {
	Booking
	FirstName  string `db:"first_name"`
	City       string `db:"city"`
	DamageType string `db:"damage_type"`
}

var (
	// ErrSlotFull is returned when the window already holds as many
	// visits as the owner takes at once.
	ErrSlotFull = errors.New("that time is no longer free")
	// ErrAlreadyBooked is returned when the lead has a live booking.
	ErrAlreadyBooked = errors.New("this request already has a visit booked")
)

// bookingLock names the Serialized transaction every booking change
// takes: a window's count and the write that follows cannot interleave
// with another's, in this process or another instance.
const bookingLock = "bookings"

// What a booking change did (the timeline entry's To).
const (
	BookingBooked    = "booked"
	BookingMoved     = "moved"
	BookingCancelled = "cancelled"
)

// BookingChange is what a booking change does besides the row, inside
// the same transaction: the homeowner's message (notify.TellHomeowner,
// once wired). what is "booked", "moved" or "cancelled". nil: nothing.
type BookingChange func(ctx context.Context, tx *sqlx.Tx, b Booking, what string) error

const bookingColumns = `id, lead_id, starts_at, ends_at, sequence, created_at, updated_at, cancelled_at`

// overlapping counts the live bookings overlapping [start, end), other
// than except.
func overlapping(ctx context.Context, tx *sqlx.Tx, start, end time.Time, except string) (int, error) {
	var n int
	err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM bookings
		WHERE cancelled_at IS NULL AND starts_at < ? AND ends_at > ? AND id <> ?`), end.UTC(), start.UTC(), except)
	return n, err
}

// bookingEvent writes the lead's timeline entry: To is what happened
// (booked, moved, cancelled), Body the window in RFC 3339 (start/end).
func bookingEvent(ctx context.Context, tx *sqlx.Tx, b Booking, what string, by Actor, now time.Time) error {
	e := by.event(b.LeadID, EventBooking, now)
	e.To = what
	e.Body = b.Start.UTC().Format(time.RFC3339) + "/" + b.End.UTC().Format(time.RFC3339)
	return addLeadEvent(ctx, tx, e)
}

// BookVisit books [start, end) for the lead when the window holds fewer
// than capacity live visits: ErrSlotFull when it is full, and
// ErrAlreadyBooked when the lead has a visit (move it instead). The
// count and the insert run under one lock shared by every instance, so
// parallel bookings of one window never exceed its capacity.
func (s *Store) BookVisit(ctx context.Context, leadID string, start, end time.Time, capacity int, by Actor, now time.Time, then BookingChange) (Booking, error) {
	b := Booking{ID: newRowID(), LeadID: leadID, Start: start.UTC(), End: end.UTC(), CreatedAt: now.UTC(), UpdatedAt: now.UTC()}
	err := s.Serialized(ctx, bookingLock, func(tx *sqlx.Tx) error {
		var live int
		if err := tx.GetContext(ctx, &live, tx.Rebind(`SELECT COUNT(*) FROM bookings WHERE lead_id = ? AND cancelled_at IS NULL`), leadID); err != nil {
			return err
		}
		if live > 0 {
			return ErrAlreadyBooked
		}
		n, err := overlapping(ctx, tx, start, end, "")
		if err != nil {
			return err
		}
		if n >= capacity {
			return ErrSlotFull
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO bookings (`+bookingColumns+`) VALUES (?, ?, ?, ?, 0, ?, ?, NULL)`),
			b.ID, b.LeadID, b.Start, b.End, b.CreatedAt, b.UpdatedAt); err != nil {
			return err
		}
		return s.bookingChanged(ctx, tx, b, BookingBooked, by, now, then)
	})
	if err != nil {
		return Booking{}, fmt.Errorf("book lead %s: %w", leadID, err)
	}
	return b, nil
}

func (s *Store) bookingChanged(ctx context.Context, tx *sqlx.Tx, b Booking, what string, by Actor, now time.Time, then BookingChange) error {
	if err := bookingEvent(ctx, tx, b, what, by, now); err != nil {
		return err
	}
	if then != nil {
		return then(ctx, tx, b, what)
	}
	return nil
}

// liveBooking reads a live booking by id inside tx.
func liveBooking(ctx context.Context, tx *sqlx.Tx, id string) (Booking, error) {
	var b Booking
	err := tx.GetContext(ctx, &b, tx.Rebind(`SELECT `+bookingColumns+` FROM bookings WHERE id = ? AND cancelled_at IS NULL`), id)
	return b, notFound(err)
}

// MoveVisit moves a live booking to [start, end) when that window has
// room without it (ErrSlotFull otherwise; ErrNotFound for no such live
// booking). The calendar sequence grows by one.
func (s *Store) MoveVisit(ctx context.Context, id string, start, end time.Time, capacity int, by Actor, now time.Time, then BookingChange) (Booking, error) {
	var b Booking
	err := s.Serialized(ctx, bookingLock, func(tx *sqlx.Tx) error {
		var err error
		if b, err = liveBooking(ctx, tx, id); err != nil {
			return err
		}
		n, err := overlapping(ctx, tx, start, end, id)
		if err != nil {
			return err
		}
		if n >= capacity {
			return ErrSlotFull
		}
		b.Start, b.End, b.Sequence, b.UpdatedAt = start.UTC(), end.UTC(), b.Sequence+1, now.UTC()
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE bookings SET starts_at = ?, ends_at = ?, sequence = ?, updated_at = ? WHERE id = ?`),
			b.Start, b.End, b.Sequence, b.UpdatedAt, id); err != nil {
			return err
		}
		return s.bookingChanged(ctx, tx, b, BookingMoved, by, now, then)
	})
	if err != nil {
		return Booking{}, fmt.Errorf("move visit %s: %w", id, err)
	}
	return b, nil
}

// CancelVisit cancels a live booking (ErrNotFound for none); its window
// is free again at once.
func (s *Store) CancelVisit(ctx context.Context, id string, by Actor, now time.Time, then BookingChange) (Booking, error) {
	var b Booking
	err := s.Serialized(ctx, bookingLock, func(tx *sqlx.Tx) error {
		var err error
		if b, err = liveBooking(ctx, tx, id); err != nil {
			return err
		}
		t := now.UTC()
		b.CancelledAt, b.Sequence, b.UpdatedAt = &t, b.Sequence+1, t
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE bookings SET cancelled_at = ?, sequence = ?, updated_at = ? WHERE id = ?`), t, b.Sequence, t, id); err != nil {
			return err
		}
		return s.bookingChanged(ctx, tx, b, BookingCancelled, by, now, then)
	})
	if err != nil {
		return Booking{}, fmt.Errorf("cancel visit %s: %w", id, err)
	}
	return b, nil
}

// LeadBooking is the lead's live booking (ErrNotFound: none).
func (s *Store) LeadBooking(ctx context.Context, leadID string) (Booking, error) {
	var b Booking
	err := s.db.GetContext(ctx, &b, s.q(`SELECT `+bookingColumns+` FROM bookings WHERE lead_id = ? AND cancelled_at IS NULL`), leadID)
	if err := notFound(err); err != nil {
		return b, fmt.Errorf("booking of lead %s: %w", leadID, err)
	}
	return b, nil
}

// LiveBookings are the live bookings that end after from and start
// before to, earliest first (what the open slots are counted against).
func (s *Store) LiveBookings(ctx context.Context, from, to time.Time) ([]Booking, error) {
	out := []Booking{}
	err := s.db.SelectContext(ctx, &out, s.q(`SELECT `+bookingColumns+` FROM bookings
		WHERE cancelled_at IS NULL AND ends_at > ? AND starts_at < ? ORDER BY starts_at, id`), from.UTC(), to.UTC())
	if err != nil {
		return nil, fmt.Errorf("bookings: %w", err)
	}
	return out, nil
}

// Visits are the live bookings starting in [from, to) with their leads,
// earliest first (the dashboard's today and tomorrow).
func (s *Store) Visits(ctx context.Context, from, to time.Time) ([]Visit, error) {
	out := []Visit{}
	err := s.db.SelectContext(ctx, &out, s.q(`SELECT b.id, b.lead_id, b.starts_at, b.ends_at, b.sequence, b.created_at, b.updated_at, b.cancelled_at,
		l.first_name, l.city, l.damage_type
		FROM bookings b JOIN avatar_leads l ON l.id = b.lead_id
		WHERE b.cancelled_at IS NULL AND b.starts_at >= ? AND b.starts_at < ? ORDER BY b.starts_at, b.id`), from.UTC(), to.UTC())
	if err != nil {
		return nil, fmt.Errorf("visits: %w", err)
	}
	return out, nil
}

// VisitByID is a live booking by id (ErrNotFound: none).
func (s *Store) VisitByID(ctx context.Context, id string) (Booking, error) {
	var b Booking
	err := s.db.GetContext(ctx, &b, s.q(`SELECT `+bookingColumns+` FROM bookings WHERE id = ? AND cancelled_at IS NULL`), id)
	if err := notFound(err); err != nil {
		return b, fmt.Errorf("visit %s: %w", id, err)
	}
	return b, nil
}
