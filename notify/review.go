package notify

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
	"github.com/atlanta-restoration/site/leads"
)

// The review request (issue 33, ADR 063): every homeowner whose lead
// became completed is asked once, after the owner's delay, by email and,
// when SMS is configured, by text, with the same words for everyone: a
// link to the company's Google review page (when there is one) and a
// link to the private feedback page, plus a one-click opt-out. No
// sentiment gate: nobody is asked how it went before being shown where
// to review.

// Review configures the review request. It needs SMTP for the email and
// SMS for the text.
type Review struct {
	BusinessName string
	// ReplyTo is the business email ("" sets no Reply-To).
	ReplyTo string
	// PlaceID is the configured Google place id (GOOGLE_PLACE_ID).
	PlaceID string
	// Link reads the review link the owner pasted (used when PlaceID is
	// ""); nil reads db.ReviewLinkSetting from the store.
	Link func(ctx context.Context) string
}

// FeedbackPath is where a feedback link points: FeedbackPath + token.
const FeedbackPath = "/feedback/"

// OptOutSuffix ends a feedback link to make it the opt-out link.
const OptOutSuffix = "/stop"

// ReviewTokenTTL is how long a feedback link works after it was sent.
const ReviewTokenTTL = 180 * 24 * time.Hour

// NewReviewToken returns a random 256-bit token and the hash stored for it.
func NewReviewToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, ReviewTokenHash(token), nil
}

// ReviewTokenHash is how a feedback token is stored and looked up.
func ReviewTokenHash(token string) string {
	sum := sha256.Sum256([]byte("review|" + token))
	return hex.EncodeToString(sum[:])
}

// GoogleReviewLink is the Google review page of a place id, or "".
func GoogleReviewLink(placeID string) string {
	placeID = strings.TrimSpace(placeID)
	if placeID == "" {
		return ""
	}
	return "https://search.google.com/local/writereview?placeid=" + url.QueryEscape(placeID)
}

// ValidReviewLink reports whether the owner's pasted link may go in a
// message: an https address of at most 500 characters, with a host and
// nothing that breaks a line.
func ValidReviewLink(s string) bool {
	u, err := url.Parse(s)
	return err == nil && len(s) <= 500 && u.Scheme == "https" && u.Host != "" && u.User == nil && !strings.ContainsAny(s, " \t\r\n<>\"")
}

// ReviewLink is the link to where the company is reviewed: the Google
// review page of the place id, else the owner's valid link, else "".
func ReviewLink(ctx context.Context, placeID string, owner func(context.Context) string) string {
	if l := GoogleReviewLink(placeID); l != "" {
		return l
	}
	if owner == nil {
		return ""
	}
	if l := strings.TrimSpace(owner(ctx)); ValidReviewLink(l) {
		return l
	}
	return ""
}

func (n *Notifier) reviewLink(ctx context.Context) string {
	r := n.cfg.Review
	owner := r.Link
	if owner == nil {
		owner = func(ctx context.Context) string {
			v, _ := n.store.GetSetting(ctx, db.ReviewLinkSetting)
			return v
		}
	}
	return ReviewLink(ctx, r.PlaceID, owner)
}

// reviewPayload is a review row's payload: the request and the name the
// message greets. No token: a token exists only as its hash, made when
// the message goes.
type reviewPayload struct {
	RequestID string `json:"requestId"`
	FirstName string `json:"firstName"`
}

// ReviewChannels says whether review requests can go by email and by
// text.
func (n *Notifier) ReviewChannels() (email, sms bool) { return n.reviewChannels() }

// reviewChannels says which review messages can go now.
func (n *Notifier) reviewChannels() (email, sms bool) {
	if n.cfg.Review == nil {
		return false, false
	}
	return n.cfg.SMTP != nil, n.cfg.SMS != nil
}

// reviewRows are the rows of a due request: an email to a valid address
// and a text to a phone when SMS is configured. None: not askable.
func (n *Notifier) reviewRows(l db.ReviewLead) []db.OutboxRow {
	email, sms := n.reviewChannels()
	payload, _ := json.Marshal(reviewPayload{RequestID: l.RequestID, FirstName: l.FirstName})
	var out []db.OutboxRow
	if email && leads.ValidEmail(l.Email) {
		out = append(out, db.OutboxRow{Kind: db.OutboxReview, Target: l.Email, Payload: string(payload)})
	}
	if sms && strings.HasPrefix(l.Phone, "+") {
		out = append(out, db.OutboxRow{Kind: db.OutboxReviewSMS, Target: l.Phone, Payload: string(payload)})
	}
	return out
}

// QueueReviews turns the review requests due now into outbox rows (once
// across instances) and says how many requests it queued.
func (n *Notifier) QueueReviews(ctx context.Context) (int, error) {
	if n.store == nil || n.cfg.Review == nil {
		return 0, nil
	}
	total := 0
	for ctx.Err() == nil {
		q, err := n.store.ClaimReviewRequests(ctx, n.now(), 10, n.reviewRows)
		total += q
		if err != nil || q == 0 {
			return total, err
		}
	}
	return total, nil
}

// ReviewMessage is what ComposeReview needs.
type ReviewMessage struct {
	From      *mail.Address
	To        string
	ReplyTo   string
	Business  string
	FirstName string
	// ReviewLink is where to review the company ("": none, left out).
	ReviewLink string
	// FeedbackLink is the private feedback page; OptOutLink stops every
	// later request.
	FeedbackLink string
	OptOutLink   string
	MessageID    string
	Now          time.Time
}

// ComposeReview builds the review request email: plain text, the same
// words for every customer, a List-Unsubscribe header with the opt-out
// link (RFC 2369) and one-click unsubscribe (RFC 8058).
func ComposeReview(m ReviewMessage) Email {
	business := oneLine(m.Business)
	subject := "How did we do?"
	if business != "" {
		subject += " - " + business
	}
	return homeownerEmail(homeownerMail{From: m.From, To: m.To, ReplyTo: m.ReplyTo, Business: business, Subject: subject,
		ID: "review-" + m.MessageID, Now: m.Now},
		[][2]string{{"List-Unsubscribe", "<" + m.OptOutLink + ">"}, {"List-Unsubscribe-Post", "List-Unsubscribe=One-Click"}},
		reviewText(m, business))
}

func reviewText(m ReviewMessage, business string) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\r\n") }
	if name := oneLine(m.FirstName); name != "" && len(name) <= 40 {
		line("Hello " + name + ",")
	} else {
		line("Hello,")
	}
	line("")
	who := "us"
	if business != "" {
		who = business
	}
	line("Thank you for choosing " + who + ". Our work at your property is complete, and we would like to hear how it went, good or bad.")
	line("")
	if m.ReviewLink != "" {
		line("Review us on Google:")
		line(m.ReviewLink)
		line("")
	}
	line("Or tell us directly, and leave a few words for other homeowners if you like:")
	line(m.FeedbackLink)
	line("")
	line("Thank you,")
	line(business)
	line("")
	line("We ask each customer once. To never receive review requests from us again: " + m.OptOutLink)
	return b.String()
}

// ReviewSMSText is the review request's text.
func ReviewSMSText(business, reviewLink, feedbackLink, optOutLink string) string {
	who := "us"
	if b := oneLine(business); b != "" {
		who = b
	}
	s := "Thank you for choosing " + who + ". How did we do? "
	if reviewLink != "" {
		s += "Review us on Google: " + reviewLink + " or tell us: " + feedbackLink
	} else {
		s += "Tell us: " + feedbackLink
	}
	return s + " No more requests: " + optOutLink
}

// sendReview sends one review row: a fresh token for its links (its hash
// stored first, so a link that went out always works), then the email
// or the text.
func (n *Notifier) sendReview(ctx context.Context, r db.OutboxRow) error {
	var p reviewPayload
	if err := json.Unmarshal([]byte(r.Payload), &p); err != nil || p.RequestID == "" {
		return giveUp(failure.At(failure.Review, errors.New("review request unreadable")))
	}
	if out, err := n.store.OptedOut(ctx, r.Target); err != nil {
		return err
	} else if out {
		return giveUp(errors.New("opted out of review requests: not sent"))
	}
	token, hash, err := NewReviewToken()
	if err != nil {
		return err
	}
	if err := n.store.AddReviewToken(ctx, p.RequestID, hash, n.now()); err != nil {
		return err
	}
	base := strings.TrimRight(n.cfg.BaseURL, "/")
	feedback := base + FeedbackPath + token
	optOut := feedback + OptOutSuffix
	link := n.reviewLink(ctx)
	if r.Kind == db.OutboxReviewSMS {
		return n.cfg.SMS.Send(ctx, r.Target, ReviewSMSText(n.cfg.Review.BusinessName, link, feedback, optOut))
	}
	if !leads.ValidEmail(r.Target) {
		return giveUp(failure.At(failure.Review, errors.New("the homeowner's address is not valid: not sent")))
	}
	m := ComposeReview(ReviewMessage{From: n.cfg.From, To: r.Target, ReplyTo: n.cfg.Review.ReplyTo, Business: n.cfg.Review.BusinessName,
		FirstName: p.FirstName, ReviewLink: link, FeedbackLink: feedback, OptOutLink: optOut, MessageID: r.ID, Now: n.now().In(n.loc)})
	if err := n.cfg.SMTP.Send(ctx, m.From, m.To, m.Body); err != nil {
		return failure.At(failure.Review, err)
	}
	return nil
}

// MaxTestimonial bounds a testimonial, in characters.
const MaxTestimonial = 1000

// TestimonialTooLong is the feedback page's message for a testimonial
// over MaxTestimonial characters.
var TestimonialTooLong = fmt.Sprintf("Please keep your words under %d characters.", MaxTestimonial)

// TestimonialEmpty is the message for a post without words.
const TestimonialEmpty = "Please write a few words first."

// CleanTestimonial is a testimonial as it is stored: line breaks kept
// (at most two in a row), every other control character and invisible
// formatting character dropped, spaces trimmed. msg is the homeowner's
// message when it cannot be kept. The page shows it as text, never as
// HTML.
func CleanTestimonial(s string) (clean, msg string) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	var b strings.Builder
	newlines := 0
	for _, r := range s {
		switch {
		case r == '\n':
			newlines++
			if newlines <= 2 {
				b.WriteRune(r)
			}
			continue
		case r == '\t':
			r = ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0), r == 0xfeff, r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			continue
		}
		newlines = 0
		b.WriteRune(r)
	}
	clean = strings.TrimSpace(b.String())
	if n := len([]rune(clean)); n > MaxTestimonial {
		return clean, TestimonialTooLong
	}
	if clean == "" {
		return clean, TestimonialEmpty
	}
	return clean, ""
}

// PublicFirstName is the name a testimonial is shown under: the first
// word of the lead's first name, at most 30 characters.
func PublicFirstName(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	r := []rune(f[0])
	if len(r) > 30 {
		r = r[:30]
	}
	return string(r)
}

// ReviewDelayMessage is the owner's message for a delay out of range.
var ReviewDelayMessage = fmt.Sprintf("Enter a whole number of minutes from 0 to %d (two weeks).", db.MaxReviewDelayMinutes)

// ReviewLinkMessage is the owner's message for a link that cannot go in
// a message.
const ReviewLinkMessage = "Paste the full address of your review page, starting with https://, or leave it empty."
