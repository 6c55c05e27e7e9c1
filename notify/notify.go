// Package notify tells the owner and the crew about every new lead: an
// email through SMTP, optionally a signed JSON webhook for a CRM, a Web
// Push to every subscribed phone (push.go), a text through Twilio
// (sms.go); it sends the homeowner an acknowledgement (ack.go) and
// escalates emergencies nobody has answered (escalate.go).
//
// Delivery goes through an outbox. The rows announcing a lead are written
// in the lead's own transaction (SaveLead), so the visitor's submission
// never waits for a mail server and a stored lead is never left
// unannounced. A sender in the server process (Run) claims due rows,
// delivers them and retries failures with exponential backoff and jitter
// until they are delivered. Answers that retrying cannot fix (an SMTP 5xx,
// a webhook 4xx other than 408 and 429) give a row up after
// PermanentAttempts tries; it then shows as failed on the admin dashboard.
// Delivery is at least once: a sender that dies between the server's
// acceptance and recording it sends that row again.
package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/mail"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
	"github.com/atlanta-restoration/site/leads"
)

// Config says where notifications go. A nil SMTP, Webhook, Push, SMS or
// Ack turns that channel off.
type Config struct {
	// BaseURL is the site's address, for the link to the leads manager.
	BaseURL string
	SMTP    *SMTP
	From    *mail.Address
	To      []string
	Webhook *Webhook
	// Push sends each new lead to every subscribed device (LoadPush).
	Push *Push
	// SMS texts each new lead to the owner's numbers (NewTwilio).
	SMS *Twilio
	// Ack sends the homeowner an acknowledgement; it needs SMTP (NewAck).
	Ack *Ack
	// Review asks every completed lead's homeowner for a review
	// (review.go); nil: requests wait, unsent.
	Review *Review
	// EscalateAfter is how long an emergency may stay new before
	// Escalate notifies every admin again (0: DefaultEscalateAfter).
	EscalateAfter time.Duration
	// Location is the time zone of times in emails (nil: America/New_York,
	// or UTC where the zone database is missing).
	Location *time.Location
}

// FromConfig builds the channels the configuration alone describes:
// email, webhook and SMS, and the escalation's delay. The sender
// defaults to SMTP_URL's user when that is an email address (most
// providers only relay for the signed-in sender), else noreply@ the
// BASE_URL host, named after the business.
//
// Push needs the database (its VAPID keys) and the acknowledgement a
// switch System Settings may own, so the wiring adds them:
//
//	nc.Push, err = notify.LoadPush(ctx, store, cfg.Notify.VAPIDSubject)
//	nc.Ack = notify.NewAck(cfg) // then nc.Ack.Enabled, nc.Ack.Phone from settings
func FromConfig(cfg *config.Config) (Config, error) {
	c := Config{BaseURL: cfg.BaseURL, To: cfg.Notify.To, SMS: NewTwilio(cfg.Notify.SMS), EscalateAfter: cfg.Notify.EscalateAfter}
	host := "localhost"
	if u, err := url.Parse(cfg.BaseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	if cfg.Notify.SMTPURL != "" {
		s, err := ParseSMTPURL(cfg.Notify.SMTPURL)
		if err != nil {
			return c, err
		}
		s.HelloName = host
		c.SMTP = s
		from := &mail.Address{Name: cfg.Business.Name + " website", Address: "noreply@" + host}
		if a, err := mail.ParseAddress(s.User); err == nil && a.Address == s.User {
			from.Address = s.User
		}
		if cfg.Notify.SMTPFrom != "" {
			a, err := mail.ParseAddress(cfg.Notify.SMTPFrom)
			if err != nil {
				return c, fmt.Errorf("SMTP_FROM: %w", err)
			}
			from = a
		}
		c.From = from
	}
	if cfg.Notify.WebhookURL != "" {
		c.Webhook = NewWebhook(cfg.Notify.WebhookURL, cfg.Notify.WebhookSecret)
	}
	return c, nil
}

// Backoff spaces out the attempts of one row: after attempt n it waits
// between half and all of Base·2^(n-1), capped at Max ("equal jitter").
// Each range starts where the one before ends, so waits grow until they
// reach the cap, and rows that failed together do not retry together.
type Backoff struct {
	Base, Max time.Duration
}

// DefaultBackoff retries after about 30 s, 1 min, 2 min... and at most
// hourly.
var DefaultBackoff = Backoff{Base: 30 * time.Second, Max: time.Hour}

// Next is the wait after the attempt-th failed attempt (1 for the first).
func (b Backoff) Next(attempt int) time.Duration {
	d := b.Base
	for i := 1; i < attempt && d < b.Max; i++ {
		d *= 2
	}
	if d > b.Max {
		d = b.Max
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// Defaults of the sender.
const (
	// PermanentAttempts is how many times a row whose channel refuses it
	// for good (an SMTP 5xx, a webhook 4xx) is tried before it is given up.
	PermanentAttempts = 3
	// Lease is how long a claimed row stays reserved for the sender that
	// claimed it: longer than any one delivery may take.
	Lease = 2 * time.Minute
	// Poll is the longest the sender sleeps: rows written by another
	// instance, or due after a database outage, are picked up by then.
	Poll = time.Minute
)

// Notifier saves leads with their notifications and delivers them.
type Notifier struct {
	store   *db.Store
	cfg     Config
	log     *slog.Logger
	wake    chan struct{}
	loc     *time.Location
	now     func() time.Time
	backoff Backoff
	poll    time.Duration
	// deliveries count each channel's attempts by outcome (Deliveries).
	deliveries map[string]*[3]atomic.Uint64
}

// Channels' delivery outcomes, as Deliveries counts them: sent, failed
// and to be retried, failed and given up.
const (
	DeliverySent    = "sent"
	DeliveryRetry   = "retry"
	DeliveryGivenUp = "given_up"
)

// DeliveryOutcomes lists the outcomes in Deliveries' order.
var DeliveryOutcomes = [3]string{DeliverySent, DeliveryRetry, DeliveryGivenUp}

// Deliveries are this process's delivery attempts per channel (email,
// webhook, push, sms, ack) and outcome (DeliveryOutcomes' order), for
// /metrics. They carry no lead and no recipient.
func (n *Notifier) Deliveries() map[string][3]uint64 {
	out := make(map[string][3]uint64, len(n.deliveries))
	for k, c := range n.deliveries {
		out[k] = [3]uint64{c[0].Load(), c[1].Load(), c[2].Load()}
	}
	return out
}

// counted records one attempt's outcome (an index of DeliveryOutcomes).
func (n *Notifier) counted(kind string, outcome int) {
	if c := n.deliveries[kind]; c != nil {
		c[outcome].Add(1)
	}
}

// New returns a notifier on store (nil: every save fails, nothing is sent).
func New(store *db.Store, cfg Config, log *slog.Logger) *Notifier {
	loc := cfg.Location
	if loc == nil {
		var err error
		if loc, err = time.LoadLocation("America/New_York"); err != nil {
			loc = time.UTC
		}
	}
	if cfg.SMTP != nil && cfg.From == nil {
		cfg.From = &mail.Address{Address: "noreply@localhost"}
	}
	deliveries := map[string]*[3]atomic.Uint64{}
	for _, k := range []string{db.OutboxEmail, db.OutboxWebhook, db.OutboxPush, db.OutboxSMS, db.OutboxAck, db.OutboxReview, db.OutboxReviewSMS, db.OutboxPortal, db.OutboxPortalSMS} {
		deliveries[k] = new([3]atomic.Uint64)
	}
	return &Notifier{store: store, cfg: cfg, log: log, wake: make(chan struct{}, 1), loc: loc,
		now: func() time.Time { return time.Now().UTC() }, backoff: DefaultBackoff, poll: Poll, deliveries: deliveries}
}

// SetBackoff changes the retry spacing and the longest sleep (tests).
func (n *Notifier) SetBackoff(b Backoff, poll time.Duration) { n.backoff, n.poll = b, poll }

// Configured says which of the first two channels are on.
func (n *Notifier) Configured() (email, webhook bool) {
	return n.cfg.SMTP != nil && len(n.cfg.To) > 0, n.cfg.Webhook != nil
}

// Channels says which channels are on.
type Channels struct {
	Email   bool `json:"email"`
	Webhook bool `json:"webhook"`
	Push    bool `json:"push"`
	SMS     bool `json:"sms"`
	// Ack is the homeowner's acknowledgement (its switch aside).
	Ack bool `json:"ack"`
}

// Channels says which channels are on.
func (n *Notifier) Channels() Channels {
	email, webhook := n.Configured()
	return Channels{Email: email, Webhook: webhook, Push: n.cfg.Push != nil, SMS: n.cfg.SMS != nil && len(n.cfg.SMS.To) > 0,
		Ack: n.cfg.Ack != nil && n.cfg.SMTP != nil}
}

// SaveLead stores l with its outbox rows, in one transaction, and wakes
// the sender: one row per configured channel and recipient (Rows), one
// per device subscribed to push, and the homeowner's acknowledgement
// when it is on and the lead left a valid email. Saving a lead whose id
// is stored already changes nothing (a spool replay), and reports no
// error.
func (n *Notifier) SaveLead(ctx context.Context, l db.Lead) error {
	if n.store == nil {
		return errors.New("no database")
	}
	// The announcement shows the lead as it is stored.
	l = l.Normalized()
	rows, err := n.Rows(l)
	if err != nil {
		return err
	}
	more, err := n.storedRows(ctx, l)
	if err != nil {
		return err
	}
	rows = append(rows, more...)
	inserted, err := n.store.CreateLeadWithOutbox(ctx, l, rows)
	if err != nil {
		return err
	}
	if inserted && len(rows) > 0 {
		n.Wake()
	}
	return nil
}

// Rows are the outbox rows announcing l on the channels the
// configuration alone decides: email, webhook, and a text per number.
func (n *Notifier) Rows(l db.Lead) ([]db.OutboxRow, error) {
	ch := n.Channels()
	if !ch.Email && !ch.Webhook && !ch.SMS {
		return nil, nil
	}
	b, err := n.rowsOf(l)
	if err != nil {
		return nil, err
	}
	if ch.Email {
		b.add(db.OutboxEmail, "")
	}
	if ch.Webhook {
		b.add(db.OutboxWebhook, "")
	}
	if ch.SMS {
		for _, to := range n.cfg.SMS.To {
			b.add(db.OutboxSMS, to)
		}
	}
	return b.rows, nil
}

// storedRows are the rows that depend on what the database holds: one
// push per device whose account may see leads now (each device is its
// own row, so its retries, and a push service's 410, concern it alone),
// and, when the acknowledgement's switch is on, the acknowledgement to
// an email that passes leads.ValidEmail and, when SMS is configured, its
// text to an E.164 phone (a message to the homeowner, ADR 065).
func (n *Notifier) storedRows(ctx context.Context, l db.Lead) ([]db.OutboxRow, error) {
	ch := n.Channels()
	wantAck := ch.Ack && leads.ValidEmail(l.Email)
	wantText := ch.Ack && n.cfg.SMS != nil && strings.HasPrefix(l.Phone, "+")
	if !ch.Push && !wantAck && !wantText {
		return nil, nil
	}
	b, err := n.rowsOf(l)
	if err != nil {
		return nil, err
	}
	if ch.Push {
		devices, err := n.store.PushRecipients(ctx)
		if err != nil {
			return nil, fmt.Errorf("lead %s: %w", l.ID, err)
		}
		for _, d := range devices {
			b.add(db.OutboxPush, d.ID)
		}
	}
	if !wantAck && !wantText {
		return b.rows, nil
	}
	on, err := n.ackEnabled(ctx)
	if err != nil {
		return nil, fmt.Errorf("lead %s: acknowledgement switch: %w", l.ID, err)
	}
	if on && wantAck {
		b.add(db.OutboxAck, l.Email)
	}
	if on && wantText {
		payload, _ := json.Marshal(portalPayload{What: "We received your request."})
		now := n.now()
		b.rows = append(b.rows, db.OutboxRow{LeadID: l.ID, Kind: db.OutboxPortalSMS, Event: db.OutboxPortalEvent, Target: "received",
			Payload: string(payload), NextAttemptAt: now, CreatedAt: now})
	}
	return b.rows, nil
}

// leadRows builds a lead's outbox rows, each carrying the lead's event as
// it is now.
type leadRows struct {
	base db.OutboxRow
	rows []db.OutboxRow
}

// add appends one row of a kind for a target.
func (b *leadRows) add(kind, target string) {
	r := b.base
	r.Kind, r.Target = kind, target
	b.rows = append(b.rows, r)
}

func (n *Notifier) rowsOf(l db.Lead) (*leadRows, error) {
	payload, err := marshalEvent(NewEvent(l, n.cfg.BaseURL))
	if err != nil {
		return nil, fmt.Errorf("lead %s event: %w", l.ID, err)
	}
	now := n.now()
	return &leadRows{base: db.OutboxRow{LeadID: l.ID, Payload: payload, NextAttemptAt: now, CreatedAt: now}}, nil
}

// Wake makes the sender look for due rows now.
func (n *Notifier) Wake() {
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// Run is the sender: it delivers due rows whenever it is woken, when the
// next retry is due and at least every Poll, until ctx ends. A delivery
// under way when ctx ends is finished (within its own timeout), not cut.
func (n *Notifier) Run(ctx context.Context) {
	if n.store == nil {
		return
	}
	// Sent and given-up rows are deleted by the retention job
	// (RETAIN_OUTBOX_DAYS), on one instance.
	// A lead completed here may be due for its review request at once.
	defer n.store.OnLeadChange(func(c db.LeadChange) {
		if c.Kind == db.LeadStatus {
			n.Wake()
		}
	})()
	for {
		if _, err := n.QueueReviews(ctx); err != nil && ctx.Err() == nil {
			n.log.Warn("review requests: cannot read them", "err", err)
		}
		if _, err := n.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			n.log.Warn("lead notifications: cannot read the outbox", "err", err)
		}
		wait := n.poll
		if next, ok, err := n.store.NextOutboxAttempt(ctx); err == nil && ok {
			wait = min(wait, max(next.Sub(n.now()), 10*time.Millisecond))
		}
		if n.cfg.Review != nil {
			if next, ok, err := n.store.NextReviewDue(ctx); err == nil && ok {
				wait = min(wait, max(next.Sub(n.now()), 10*time.Millisecond))
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-n.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// DeliverDue delivers every row due now, batch by batch, and returns how
// many were delivered. It stops between rows when ctx ends.
func (n *Notifier) DeliverDue(ctx context.Context) (int, error) {
	delivered := 0
	for ctx.Err() == nil {
		rows, err := n.store.ClaimOutbox(ctx, n.now(), Lease, 10)
		if err != nil {
			return delivered, err
		}
		if len(rows) == 0 {
			return delivered, nil
		}
		for _, r := range rows {
			// A delivery under way is finished even during shutdown; it
			// has its own timeout.
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), Lease/2)
			if n.deliver(dctx, r) {
				delivered++
			}
			cancel()
		}
	}
	return delivered, nil
}

// deliver sends one claimed row and records the outcome.
func (n *Notifier) deliver(ctx context.Context, r db.OutboxRow) bool {
	err := n.send(ctx, r)
	now := n.now()
	log := n.log.With(slog.Group("notification", "kind", r.Kind, "lead", r.LeadID, "attempt", r.Attempts))
	if err == nil {
		n.counted(r.Kind, 0)
		if derr := n.store.OutboxDelivered(ctx, r.ID, now); derr != nil {
			// Sent but not recorded: the lease runs out and it is sent
			// again (at least once).
			log.Warn("lead notification sent but not recorded", "err", derr)
		} else {
			log.Info("lead notification delivered")
		}
		return true
	}
	// The row, which the dashboard shows, gets the kind of failure; the
	// log keeps the detail.
	msg := failure.Text(err)
	if errors.Is(err, errNotConfigured) || isGiveUp(err) || (permanent(r.Kind, err) && r.Attempts >= PermanentAttempts) {
		if isGiveUp(err) {
			// A device gone, an address refused: the row's own end, not
			// an outage.
			log.Warn("lead notification not sent: giving up", "err", err)
		} else {
			log.Error("lead notification failed: giving up", "err", err)
		}
		n.counted(r.Kind, 2)
		if ferr := n.store.OutboxFailed(ctx, r.ID, msg, now); ferr != nil {
			log.Warn("lead notification: cannot record the failure", "err", ferr)
		}
		return false
	}
	wait := n.backoff.Next(r.Attempts)
	var ra interface{ RetryAfter() time.Duration }
	if errors.As(err, &ra) && ra.RetryAfter() > wait {
		// The service said how long to wait (a 429's Retry-After).
		wait = min(ra.RetryAfter(), max(n.backoff.Max, wait))
	}
	n.counted(r.Kind, 1)
	log.Warn("lead notification failed: will retry", "err", err, "retry_in", wait.Round(time.Second).String())
	if rerr := n.store.OutboxRetry(ctx, r.ID, msg, now.Add(wait)); rerr != nil {
		log.Warn("lead notification: cannot record the failure", "err", rerr)
	}
	return false
}

var errNotConfigured = errors.New("this channel is no longer configured")

// giveUpError marks a failure that no retry can mend (the device is
// gone, the address is not valid): the row is given up at once.
type giveUpError struct{ err error }

func (e *giveUpError) Error() string { return e.err.Error() }
func (e *giveUpError) Unwrap() error { return e.err }

func giveUp(err error) error { return &giveUpError{err} }

func isGiveUp(err error) bool {
	var g *giveUpError
	return errors.As(err, &g)
}

func permanent(kind string, err error) bool {
	switch kind {
	case db.OutboxWebhook, db.OutboxPush, db.OutboxSMS, db.OutboxReviewSMS, db.OutboxPortalSMS:
		return httpPermanent(err)
	}
	return smtpPermanent(err)
}

func (n *Notifier) send(ctx context.Context, r db.OutboxRow) error {
	ch := n.Channels()
	if r.Kind == db.OutboxReview || r.Kind == db.OutboxReviewSMS {
		if email, sms := n.reviewChannels(); (r.Kind == db.OutboxReview && !email) || (r.Kind == db.OutboxReviewSMS && !sms) {
			return errNotConfigured
		}
		return n.sendReview(ctx, r)
	}
	if r.Kind == db.OutboxPortal || r.Kind == db.OutboxPortalSMS {
		if email, sms := n.portalChannels(); (r.Kind == db.OutboxPortal && !email) || (r.Kind == db.OutboxPortalSMS && !sms) {
			return errNotConfigured
		}
		return n.sendPortal(ctx, r)
	}
	var ev Event
	if r.Kind != db.OutboxWebhook {
		if err := json.Unmarshal([]byte(r.Payload), &ev); err != nil {
			// %v: our own payload, not an answer from outside.
			return fmt.Errorf("outbox payload unreadable: %v", err)
		}
	}
	switch {
	case r.Kind == db.OutboxEmail && r.Target != "" && n.cfg.SMTP != nil:
		// An escalation, to one admin's address.
		m := ComposeEmail(ev, n.cfg.From, []string{r.Target}, r.ID, n.now(), n.loc)
		return n.cfg.SMTP.Send(ctx, m.From, m.To, m.Body)
	case r.Kind == db.OutboxEmail && ch.Email:
		m := ComposeEmail(ev, n.cfg.From, n.cfg.To, r.ID, n.now(), n.loc)
		return n.cfg.SMTP.Send(ctx, m.From, m.To, m.Body)
	case r.Kind == db.OutboxWebhook && ch.Webhook:
		return n.cfg.Webhook.Post(ctx, r.ID, []byte(r.Payload))
	case r.Kind == db.OutboxPush && ch.Push:
		return n.sendPush(ctx, r, ev)
	case r.Kind == db.OutboxSMS && n.cfg.SMS != nil:
		return n.cfg.SMS.Send(ctx, r.Target, SMSText(ev, n.cfg.BaseURL))
	case r.Kind == db.OutboxAck && ch.Ack:
		return n.sendAck(ctx, r, ev)
	}
	return errNotConfigured
}

// Status is what the admin dashboard shows about notifications.
type Status struct {
	Email   bool `json:"email"`
	Webhook bool `json:"webhook"`
	Push    bool `json:"push"`
	SMS     bool `json:"sms"`
	Ack     bool `json:"ack"`
	db.OutboxStats
	Recent []db.OutboxRow `json:"recent"`
}

// Status reads the outbox: counts, the newest error, the latest delivery
// and the newest rows (without payloads).
func (n *Notifier) Status(ctx context.Context, recent int) (Status, error) {
	var st Status
	ch := n.Channels()
	st.Email, st.Webhook, st.Push, st.SMS, st.Ack = ch.Email, ch.Webhook, ch.Push, ch.SMS, ch.Ack
	st.Recent = []db.OutboxRow{}
	if n.store == nil {
		return st, nil
	}
	var err error
	if st.OutboxStats, err = n.store.OutboxStatus(ctx); err != nil {
		return st, err
	}
	if st.Recent, err = n.store.RecentOutbox(ctx, recent); err != nil {
		return st, err
	}
	return st, nil
}
