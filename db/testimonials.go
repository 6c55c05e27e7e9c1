package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Testimonial states: a homeowner's words wait for the owner (pending),
// who shows them (approved) or not (hidden).
const (
	TestimonialPending  = "pending"
	TestimonialApproved = "approved"
	TestimonialHidden   = "hidden"
)

// Testimonial is a row of testimonials: what a homeowner left on the
// feedback page of one review request.
type Testimonial struct {
	ID        string `db:"id"`
	RequestID string `db:"request_id"`
	LeadID    string `db:"lead_id"`
	FirstName string `db:"first_name"`
	City      string `db:"city"`
	Body      string `db:"body"`
	// Consent: the homeowner agreed to its publication under first name
	// and city. Without it, it is never shown, approved or not.
	Consent   bool      `db:"consent"`
	State     string    `db:"state"`
	CreatedAt time.Time `db:"created_at"`
	UpdatedAt time.Time `db:"updated_at"`
}

const testimonialColumns = `id, request_id, lead_id, first_name, city, body, consent, state, created_at, updated_at`

// SaveTestimonial stores the homeowner's testimonial of a request: the
// first one inserts, any later one replaces its words and consent and
// sends it back to the owner (pending). One row per request, however
// many times and from however many tabs it is sent.
func (s *Store) SaveTestimonial(ctx context.Context, t Testimonial, now time.Time) (Testimonial, error) {
	t.ID, t.State, t.CreatedAt, t.UpdatedAt = newRowID(), TestimonialPending, now.UTC(), now.UTC()
	var out Testimonial
	err := s.Transact(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO testimonials (`+testimonialColumns+`)
			VALUES (:id, :request_id, :lead_id, :first_name, :city, :body, :consent, :state, :created_at, :updated_at)
			ON CONFLICT (request_id) DO UPDATE SET body = excluded.body, consent = excluded.consent, state = excluded.state,
				updated_at = excluded.updated_at`, t); err != nil {
			return err
		}
		return tx.GetContext(ctx, &out, tx.Rebind(`SELECT `+testimonialColumns+` FROM testimonials WHERE request_id = ?`), t.RequestID)
	})
	if err != nil {
		return Testimonial{}, fmt.Errorf("save testimonial: %w", err)
	}
	return out, nil
}

// TestimonialOfRequest returns a request's testimonial (ErrNotFound: none).
func (s *Store) TestimonialOfRequest(ctx context.Context, requestID string) (Testimonial, error) {
	var t Testimonial
	err := s.db.GetContext(ctx, &t, s.q(`SELECT `+testimonialColumns+` FROM testimonials WHERE request_id = ?`), requestID)
	return t, notFound(err)
}

// TestimonialOfLead returns the testimonial a lead's homeowner left
// (ErrNotFound: none).
func (s *Store) TestimonialOfLead(ctx context.Context, leadID string) (Testimonial, error) {
	var t Testimonial
	err := s.db.GetContext(ctx, &t, s.q(`SELECT `+testimonialColumns+` FROM testimonials WHERE lead_id = ?`), leadID)
	return t, notFound(err)
}

// Testimonials lists testimonials in a state ("": every one), newest first.
func (s *Store) Testimonials(ctx context.Context, state string) ([]Testimonial, error) {
	out := []Testimonial{}
	q := `SELECT ` + testimonialColumns + ` FROM testimonials`
	var args []any
	if state != "" {
		q += ` WHERE state = ?`
		args = append(args, state)
	}
	if err := s.db.SelectContext(ctx, &out, s.q(q+` ORDER BY updated_at DESC, id`), args...); err != nil {
		return nil, fmt.Errorf("testimonials: %w", err)
	}
	return out, nil
}

// PublicTestimonials are the approved testimonials given with consent,
// newest first (by when they were first sent, so approving or fixing a
// typo does not reorder them): what the public pages may show.
func (s *Store) PublicTestimonials(ctx context.Context) ([]Testimonial, error) {
	out := []Testimonial{}
	if err := s.db.SelectContext(ctx, &out, s.q(`SELECT `+testimonialColumns+` FROM testimonials WHERE state = ? AND consent = ?
		ORDER BY created_at DESC, id`), TestimonialApproved, true); err != nil {
		return nil, fmt.Errorf("public testimonials: %w", err)
	}
	return out, nil
}

// ModerateTestimonial sets a testimonial's state and, when body is not
// nil, its words (the owner's typo fix). ErrNotFound when there is none.
func (s *Store) ModerateTestimonial(ctx context.Context, id, state string, body *string, now time.Time) (Testimonial, error) {
	switch state {
	case TestimonialPending, TestimonialApproved, TestimonialHidden:
	default:
		return Testimonial{}, fmt.Errorf("testimonial %s: state %q", id, state)
	}
	var out []Testimonial
	q, args := `UPDATE testimonials SET state = ?, updated_at = ?`, []any{state, now.UTC()}
	if body != nil {
		q += `, body = ?`
		args = append(args, *body)
	}
	args = append(args, id)
	if err := s.db.SelectContext(ctx, &out, s.q(q+` WHERE id = ? RETURNING `+testimonialColumns), args...); err != nil {
		return Testimonial{}, fmt.Errorf("testimonial %s: %w", id, err)
	}
	if len(out) == 0 {
		return Testimonial{}, fmt.Errorf("testimonial %s: %w", id, ErrNotFound)
	}
	return out[0], nil
}
