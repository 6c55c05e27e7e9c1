package leads

import (
	"errors"
	"net/mail"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/phone"
)

// Privacy requests: a person asks for what the business holds
// about them, or for it to be erased. Both are admins' and audited
// (web/leads); the audit row never holds the person's contact
// data, so an erasure leaves none behind.

// PersonExport is everything held about one person: every lead with the
// email or phone they gave, each with its timeline (notes, status
// changes, assignments, notifications sent).
type PersonExport struct {
	// Email and Phone are what was searched for.
	Email      string         `json:"email"`
	Phone      string         `json:"phone"`
	ExportedAt time.Time      `json:"exportedAt"`
	Leads      []PersonRecord `json:"leads"`
	// ReviewOptOut: the email or phone asked never to be asked for a
	// review again (kept when their leads are deleted, ADR 063).
	ReviewOptOut bool `json:"reviewOptOut"`
}

// PersonRecord is one lead, in full, with its timeline.
type PersonRecord struct {
	Full
	Timeline []Event `json:"timeline"`
	// Testimonial is what they wrote on the lead's feedback page (nil:
	// nothing).
	Testimonial *PersonTestimonial `json:"testimonial"`
	// Jobs are the finished jobs that came from the lead, with the name
	// the owner recorded for the homeowner and whether they agreed to
	// show it.
	Jobs []PersonJob `json:"jobs"`
}

// PersonJob is a job as a privacy export shows it.
type PersonJob struct {
	Title        string `json:"title"`
	Month        string `json:"month"`
	CustomerName string `json:"customerName"`
	NameConsent  bool   `json:"nameConsent"`
	OnTheSite    bool   `json:"onTheSite"`
}

// PersonTestimonial is a testimonial as a privacy export shows it.
type PersonTestimonial struct {
	Text    string    `json:"text"`
	Consent bool      `json:"consent"`
	State   string    `json:"state"`
	SentAt  time.Time `json:"sentAt"`
}

// MsgPersonQuery is the answer to a privacy search without a usable email
// or phone.
const MsgPersonQuery = "Give the person's email address (email=) or phone number (phone=), or both."

// ErrPersonQuery is returned by ParsePerson for a search that names
// nobody.
var ErrPersonQuery = errors.New(MsgPersonQuery)

// ParsePerson checks a privacy search: a valid email, a phone with at
// least 7 digits, or both. A search must name someone: an empty or
// partial one would export other people's data.
func ParsePerson(email, tel string) (string, string, error) {
	email, tel = strings.TrimSpace(email), strings.TrimSpace(tel)
	if email != "" {
		a, err := mail.ParseAddress(email)
		if err != nil || a.Address != email || len(email) > 254 {
			return "", "", ErrPersonQuery
		}
	}
	if tel != "" {
		digits := 0
		for _, r := range tel {
			if r >= '0' && r <= '9' {
				digits++
			}
		}
		if digits < 7 || len(tel) > 40 {
			return "", "", ErrPersonQuery
		}
		if e164, ok := phone.Normalize(tel); ok {
			tel = e164
		}
	}
	if email == "" && tel == "" {
		return "", "", ErrPersonQuery
	}
	return email, tel, nil
}
