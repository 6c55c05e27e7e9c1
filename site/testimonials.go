package site

import (
	"context"
	"strings"

	"github.com/atlanta-restoration/site/db"
)

// Testimonials are the homeowners' words the owner approved, each given
// with consent to publication under first name and city (db.Store).
// They show as text only: never as Review or AggregateRating structured
// data, which Google treats as self-serving from a company's own site
// (ADR 063).
type Testimonials interface {
	PublicTestimonials(ctx context.Context) ([]db.Testimonial, error)
}

// Quote is one testimonial as a page shows it.
type Quote struct {
	ID        string `json:"id"`
	Text      string `json:"text"`
	FirstName string `json:"firstName"`
	City      string `json:"city"`
}

// MaxCityQuotes is how many testimonials a city page shows, newest first.
const MaxCityQuotes = 3

// cityQuotes are the public testimonials of a city (matched on its name,
// as the lead's city was typed), newest first; never nil.
func (s *Site) cityQuotes(ctx context.Context, city string) []Quote {
	out := []Quote{}
	if s.testimonials == nil {
		return out
	}
	ts, err := s.testimonials.PublicTestimonials(ctx)
	if err != nil {
		s.log.Warn("testimonials unavailable", "err", err)
		return out
	}
	for _, t := range ts {
		if len(out) < MaxCityQuotes && t.Consent && t.State == db.TestimonialApproved && strings.EqualFold(strings.TrimSpace(t.City), strings.TrimSpace(city)) {
			out = append(out, Quote{ID: t.ID, Text: t.Body, FirstName: t.FirstName, City: city})
		}
	}
	return out
}

// leadQuotes is the public testimonial a lead's homeowner gave, for the
// page of the job that came from that lead; never nil.
func (s *Site) leadQuotes(ctx context.Context, leadID, city string) []Quote {
	out := []Quote{}
	if s.testimonials == nil || leadID == "" {
		return out
	}
	ts, err := s.testimonials.PublicTestimonials(ctx)
	if err != nil {
		s.log.Warn("testimonials unavailable", "err", err)
		return out
	}
	for _, t := range ts {
		if t.LeadID == leadID && t.Consent && t.State == db.TestimonialApproved {
			out = append(out, Quote{ID: t.ID, Text: t.Body, FirstName: t.FirstName, City: city})
		}
	}
	return out
}
