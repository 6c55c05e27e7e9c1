// Package notify tells the owner about every new lead: an email through
// SMTP and, optionally, a signed JSON webhook for a CRM.
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
	"time"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
)

// Config says where notifications go. A nil SMTP or Webhook turns that
// channel off.
type Config struct {
	// BaseURL is the site's address, for the link to the leads manager.
	BaseURL string
	SMTP    *SMTP
	From    *mail.Address
	To      []string
	Webhook *Webhook
	// Location is the time zone of times in emails (nil: America/New_York,
	// or UTC where the zone database is missing).
	Location *time.Location
}

// FromConfig builds the channels from the validated configuration. The
// sender defaults to SMTP_URL's user when that is an email address (most
// providers only relay for the signed-in sender), else noreply@ the
// BASE_URL host, named after the business.
func FromConfig(cfg *config.Config) (Config, error) {
	c := Config{BaseURL: cfg.BaseURL, To: cfg.Notify.To}
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
	return &Notifier{store: store, cfg: cfg, log: log, wake: make(chan struct{}, 1), loc: loc,
		now: func() time.Time { return time.Now().UTC() }, backoff: DefaultBackoff, poll: Poll}
}

// SetBackoff changes the retry spacing and the longest sleep (tests).
func (n *Notifier) SetBackoff(b Backoff, poll time.Duration) { n.backoff, n.poll = b, poll }

// Configured says which channels are on.
func (n *Notifier) Configured() (email, webhook bool) {
	return n.cfg.SMTP != nil && len(n.cfg.To) > 0, n.cfg.Webhook != nil
}

// SaveLead stores l with one outbox row per configured channel, in one
// transaction, and wakes the sender. Saving a lead whose id is stored
// already changes nothing (a spool replay), and reports no error.
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
	inserted, err := n.store.CreateLeadWithOutbox(ctx, l, rows)
	if err != nil {
		return err
	}
	if inserted && len(rows) > 0 {
		n.Wake()
	}
	return nil
}

// Rows are the outbox rows announcing l on the configured channels.
func (n *Notifier) Rows(l db.Lead) ([]db.OutboxRow, error) {
	email, webhook := n.Configured()
	if !email && !webhook {
		return nil, nil
	}
	payload, err := marshalEvent(NewEvent(l, n.cfg.BaseURL))
	if err != nil {
		return nil, fmt.Errorf("lead %s event: %w", l.ID, err)
	}
	now := n.now()
	var rows []db.OutboxRow
	add := func(kind string) {
		rows = append(rows, db.OutboxRow{Kind: kind, LeadID: l.ID, Payload: payload, NextAttemptAt: now, CreatedAt: now})
	}
	if email {
		add(db.OutboxEmail)
	}
	if webhook {
		add(db.OutboxWebhook)
	}
	return rows, nil
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
	lastPrune := time.Time{}
	for {
		if _, err := n.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			n.log.Warn("lead notifications: cannot read the outbox", "err", err)
		}
		if now := n.now(); now.Sub(lastPrune) > 24*time.Hour {
			if err := n.store.PruneOutbox(ctx, now.Add(-db.OutboxRetention)); err == nil {
				lastPrune = now
			}
		}
		wait := n.poll
		if next, ok, err := n.store.NextOutboxAttempt(ctx); err == nil && ok {
			wait = min(wait, max(next.Sub(n.now()), 10*time.Millisecond))
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
	if errors.Is(err, errNotConfigured) || (permanent(r.Kind, err) && r.Attempts >= PermanentAttempts) {
		log.Error("lead notification failed: giving up", "err", err)
		if ferr := n.store.OutboxFailed(ctx, r.ID, msg, now); ferr != nil {
			log.Warn("lead notification: cannot record the failure", "err", ferr)
		}
		return false
	}
	wait := n.backoff.Next(r.Attempts)
	log.Warn("lead notification failed: will retry", "err", err, "retry_in", wait.Round(time.Second).String())
	if rerr := n.store.OutboxRetry(ctx, r.ID, msg, now.Add(wait)); rerr != nil {
		log.Warn("lead notification: cannot record the failure", "err", rerr)
	}
	return false
}

var errNotConfigured = errors.New("this channel is no longer configured")

func permanent(kind string, err error) bool {
	if kind == db.OutboxWebhook {
		return webhookPermanent(err)
	}
	return smtpPermanent(err)
}

func (n *Notifier) send(ctx context.Context, r db.OutboxRow) error {
	email, webhook := n.Configured()
	switch {
	case r.Kind == db.OutboxEmail && email:
		var ev Event
		if err := json.Unmarshal([]byte(r.Payload), &ev); err != nil {
			// %v: our own payload, not an answer from outside.
			return fmt.Errorf("outbox payload unreadable: %v", err)
		}
		m := ComposeEmail(ev, n.cfg.From, n.cfg.To, r.ID, n.now(), n.loc)
		return n.cfg.SMTP.Send(ctx, m.From, m.To, m.Body)
	case r.Kind == db.OutboxWebhook && webhook:
		return n.cfg.Webhook.Post(ctx, r.ID, []byte(r.Payload))
	}
	return errNotConfigured
}

// Status is what the admin dashboard shows about notifications.
type Status struct {
	Email   bool `json:"email"`
	Webhook bool `json:"webhook"`
	db.OutboxStats
	Recent []db.OutboxRow `json:"recent"`
}

// Status reads the outbox: counts, the newest error, the latest delivery
// and the newest rows (without payloads).
func (n *Notifier) Status(ctx context.Context, recent int) (Status, error) {
	var st Status
	st.Email, st.Webhook = n.Configured()
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
