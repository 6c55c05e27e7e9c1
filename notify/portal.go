package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/phone"
	"github.com/atlanta-restoration/site/portal"
)

// Told, not asked (ADR 065): when the owner changes a lead's status or
// records a step of the work, and when an inspection is booked, moved or
// cancelled, the homeowner gets a short message by email and, when SMS
// is configured, by text, each with a fresh link to their job's page
// (only its hash is stored) and an opt-out. The rows are written in the
// change's own transaction (TellHomeowner), so a change is never left
// untold; the acknowledgement carries the first link.

// StopSuffix ends a job page's link to make it the opt-out link.
const StopSuffix = "/stop"

// portalPayload is a portal row's payload: what happened, in words.
// No token: a link is made when the message goes.
type portalPayload struct {
	What string `json:"what"`
}

// StatusWhat is what the homeowner is told when a lead's status becomes
// status ("" : nothing to tell, as for a lead set back to new).
func StatusWhat(status string) string {
	switch status {
	case "contacted":
		return "We have been in touch with you about your request."
	case "scheduled":
		return "Your visit is scheduled."
	case "completed":
		return "Our work at your property is complete."
	case "cancelled":
		return "Your request is closed. If you still need help, call us."
	}
	return ""
}

// ProgressWhat is what the homeowner is told of a step of the work.
func ProgressWhat(step string) string {
	switch step {
	case db.ProgressOnTheWay:
		return "Our crew is on the way to you."
	case db.ProgressWorkStarted:
		return "Work at your property has started."
	case db.ProgressDryingStarted:
		return "Drying equipment is in place and drying has started."
	}
	return ""
}

// portalChannels says whether messages to homeowners can go by email
// and by text.
func (n *Notifier) portalChannels() (email, sms bool) {
	return n.cfg.SMTP != nil, n.cfg.SMS != nil
}

// TellHomeowner writes, in tx, the messages telling lead leadID's
// homeowner what happened (plain words, one or two sentences): an email
// to a valid address when SMTP is configured and a text to an E.164
// phone when SMS is, unless that contact opted out. key names the
// message (a lead's messages have distinct keys; the same key twice is
// one message). Nothing to send is no error.
func (n *Notifier) TellHomeowner(ctx context.Context, tx *sqlx.Tx, leadID, key, what string) error {
	what = strings.TrimSpace(oneLine(what))
	if what == "" || key == "" {
		return errors.New("tell homeowner: a message needs a key and words")
	}
	email, sms := n.portalChannels()
	if !email && !sms {
		return nil
	}
	to, tel, err := db.HomeownerContacts(ctx, tx, leadID)
	if err != nil {
		return err
	}
	payload, _ := json.Marshal(portalPayload{What: what})
	var rows []db.OutboxRow
	if email && leads.ValidEmail(to) {
		rows = append(rows, db.OutboxRow{Kind: db.OutboxPortal, Target: key, Payload: string(payload)})
	}
	if sms && strings.HasPrefix(tel, "+") {
		rows = append(rows, db.OutboxRow{Kind: db.OutboxPortalSMS, Target: key, Payload: string(payload)})
	}
	if len(rows) == 0 {
		return nil
	}
	if err := db.QueuePortalMessages(ctx, tx, leadID, rows, n.now()); err != nil {
		return err
	}
	n.Wake()
	return nil
}

// StatusChanged tells the homeowner of a status change (the store's
// OnStatusChangeTx hook): in the change's own transaction.
func (n *Notifier) StatusChanged(ctx context.Context, tx *sqlx.Tx, e db.LeadEvent) error {
	what := StatusWhat(e.To)
	if what == "" {
		return nil
	}
	return n.TellHomeowner(ctx, tx, e.LeadID, "status-"+e.ID, what)
}

// ProgressRecorded tells the homeowner of a step of the work (the tell
// of db.Store.RecordProgress).
func (n *Notifier) ProgressRecorded(ctx context.Context, tx *sqlx.Tx, e db.LeadEvent) error {
	what := ProgressWhat(e.To)
	if what == "" {
		return nil
	}
	return n.TellHomeowner(ctx, tx, e.LeadID, "progress-"+e.ID, what)
}

// HomeLink issues a fresh homeowner link to lead leadID and returns its
// address (BASE_URL + /my/ + token): the hash is stored first, so a link
// that went out always works.
func (n *Notifier) HomeLink(ctx context.Context, leadID string) (string, error) {
	token, hash := portal.NewToken()
	if _, err := n.store.IssueLeadLink(ctx, leadID, db.LinkHomeowner, hash, nil, db.SystemActor, n.now()); err != nil {
		return "", err
	}
	return strings.TrimRight(n.cfg.BaseURL, "/") + portal.HomePath + token, nil
}

// PortalMessage is what ComposePortal needs.
type PortalMessage struct {
	From      *mail.Address
	To        string
	ReplyTo   string
	Business  string
	FirstName string
	What      string
	Phone     string
	// HomeLink is the job's page; its StopSuffix is the opt-out.
	HomeLink  string
	MessageID string
	Now       time.Time
}

// ComposePortal builds a message to the homeowner about their job:
// plain text, with List-Unsubscribe (RFC 2369) and one-click (RFC 8058).
func ComposePortal(m PortalMessage) Email {
	business := oneLine(m.Business)
	subject := "An update on your job"
	if business != "" {
		subject += " - " + business
	}
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\r\n") }
	if name := oneLine(m.FirstName); name != "" && len(name) <= 40 {
		line("Hello " + name + ",")
	} else {
		line("Hello,")
	}
	line("")
	line(oneLine(m.What))
	line("")
	line("See where your job stands, who is coming and what to do now:")
	line(m.HomeLink)
	line("")
	if p := phone.Display(m.Phone); p != "" {
		line("Questions? Call us: " + p)
		line("")
	}
	line(business)
	line("")
	line("To stop these updates by email and text: " + m.HomeLink + StopSuffix)
	return homeownerEmail(homeownerMail{From: m.From, To: m.To, ReplyTo: m.ReplyTo, Business: business, Subject: subject, ID: "portal-" + m.MessageID, Now: m.Now},
		[][2]string{{"List-Unsubscribe", "<" + m.HomeLink + StopSuffix + ">"}, {"List-Unsubscribe-Post", "List-Unsubscribe=One-Click"}}, b.String())
}

// PortalSMSText is a message to the homeowner by text.
func PortalSMSText(business, what, link string) string {
	s := oneLine(what) + " Your job's page: " + link + " Stop updates: " + link + StopSuffix
	if b := oneLine(business); b != "" {
		s = b + ": " + s
	}
	return s
}

// sendPortal sends one portal row to the lead's contact as it is now,
// unless it opted out, with a fresh link.
func (n *Notifier) sendPortal(ctx context.Context, r db.OutboxRow) error {
	var p portalPayload
	if err := json.Unmarshal([]byte(r.Payload), &p); err != nil || p.What == "" {
		return giveUp(failure.At(failure.Update, errors.New("message to the homeowner unreadable")))
	}
	l, err := n.store.GetLead(ctx, r.LeadID)
	if err != nil {
		return err
	}
	to := l.Email
	if r.Kind == db.OutboxPortalSMS {
		to = l.Phone
	}
	if out, err := n.store.OptedOut(ctx, to); err != nil {
		return err
	} else if out {
		return giveUp(errors.New("opted out of messages: not sent"))
	}
	business, replyTo, tel := "", "", ""
	if a := n.cfg.Ack; a != nil {
		business, replyTo, tel = a.BusinessName, a.ReplyTo, a.phone(ctx)
	}
	if r.Kind == db.OutboxPortalSMS {
		if !strings.HasPrefix(to, "+") {
			return giveUp(errors.New("the homeowner's phone cannot take texts: not sent"))
		}
		link, err := n.HomeLink(ctx, r.LeadID)
		if err != nil {
			return err
		}
		return n.cfg.SMS.Send(ctx, to, PortalSMSText(business, p.What, link))
	}
	if !leads.ValidEmail(to) {
		return giveUp(failure.At(failure.Update, errors.New("the homeowner's address is not valid: not sent")))
	}
	link, err := n.HomeLink(ctx, r.LeadID)
	if err != nil {
		return err
	}
	m := ComposePortal(PortalMessage{From: n.cfg.From, To: to, ReplyTo: replyTo, Business: business, FirstName: l.FirstName, What: p.What,
		Phone: tel, HomeLink: link, MessageID: r.ID, Now: n.now().In(n.loc)})
	if err := n.cfg.SMTP.Send(ctx, m.From, m.To, m.Body); err != nil {
		return failure.At(failure.Update, err)
	}
	return nil
}

// BookingWhat is what the homeowner is told of an inspection visit that
// was booked, moved or cancelled (db.BookingChange's what), its window
// in the company's time zone.
func BookingWhat(b db.Booking, what string, loc *time.Location) string {
	start, end := b.Start.In(loc), b.End.In(loc)
	window := start.Format("Monday, January 2, 3:04 PM") + " to " + end.Format("3:04 PM")
	switch what {
	case db.BookingBooked:
		return "Your inspection visit is booked for " + window + "."
	case db.BookingMoved:
		return "Your inspection visit has moved to " + window + "."
	case db.BookingCancelled:
		return "Your inspection visit of " + window + " is cancelled. You can book another time on your job's page, or call us."
	}
	return ""
}

// BookingChanged tells the homeowner of a booking change (the booking
// room's Tell, inside the change's transaction). Each move is a message
// of its own (the booking's sequence is in the key).
func (n *Notifier) BookingChanged(ctx context.Context, tx *sqlx.Tx, b db.Booking, what string) error {
	text := BookingWhat(b, what, n.loc)
	if text == "" {
		return nil
	}
	return n.TellHomeowner(ctx, tx, b.LeadID, fmt.Sprintf("booking-%s-%d-%s", b.ID, b.Sequence, what), text)
}
