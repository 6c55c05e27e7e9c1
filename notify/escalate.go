package notify

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Escalation: an emergency lead still 'new' after
// LEAD_ESCALATE_AFTER notifies every admin again, by push (each admin's
// devices) and email (each enabled admin account's address). The store
// marks each lead escalated once, with its notifications, in one
// transaction (db.Store.EscalateLeads), so it is safe for any number of
// instances to run it; the jobs runner runs it on one at a time.

// DefaultEscalateAfter is LEAD_ESCALATE_AFTER's default.
const DefaultEscalateAfter = 10 * time.Minute

// escalateBatch is how many leads one transaction escalates.
const escalateBatch = 50

// EventEscalated is the event of an escalation's notifications.
const EventEscalated = "lead.escalated"

// Escalate escalates every emergency lead that is due and returns how
// many it escalated. Each one's notifications are outbox rows, written
// with the mark, and the sender is woken.
func (n *Notifier) Escalate(ctx context.Context) (int, error) {
	if n.store == nil {
		return 0, nil
	}
	after := n.cfg.EscalateAfter
	if after <= 0 {
		after = DefaultEscalateAfter
	}
	// Who is told: read before the transaction, which only writes.
	var devices []db.PushRecipient
	if n.cfg.Push != nil {
		all, err := n.store.PushRecipients(ctx)
		if err != nil {
			return 0, fmt.Errorf("escalate: %w", err)
		}
		for _, d := range all {
			if d.Role == "admin" {
				devices = append(devices, d)
			}
		}
	}
	var emails []string
	if n.cfg.SMTP != nil {
		users, err := n.store.ListUsers(ctx)
		if err != nil {
			return 0, fmt.Errorf("escalate: %w", err)
		}
		for _, u := range users {
			if u.DisabledAt == nil && slices.Contains(u.Roles, "admin") && !slices.Contains(emails, u.Email) {
				emails = append(emails, u.Email)
			}
		}
	}
	total := 0
	for ctx.Err() == nil {
		now := n.now()
		ls, err := n.store.EscalateLeads(ctx, now.Add(-after), now, escalateBatch, func(l db.Lead) ([]db.OutboxRow, error) {
			ev := NewEvent(l, n.cfg.BaseURL)
			ev.Event, ev.StillNewMinutes = EventEscalated, int(after/time.Minute)
			payload, err := marshalEvent(ev)
			if err != nil {
				return nil, err
			}
			var rows []db.OutboxRow
			add := func(kind, target string) {
				rows = append(rows, db.OutboxRow{Kind: kind, Target: target, Payload: payload, NextAttemptAt: now, CreatedAt: now})
			}
			for _, d := range devices {
				add(db.OutboxPush, d.ID)
			}
			if n.cfg.SMTP != nil {
				for _, e := range emails {
					add(db.OutboxEmail, e)
				}
				if len(emails) == 0 && len(n.cfg.To) > 0 {
					// No admin account has an address: the owner's inbox.
					add(db.OutboxEmail, "")
				}
			}
			return rows, nil
		})
		if err != nil {
			return total, err
		}
		for _, l := range ls {
			n.log.Warn("emergency lead still new: escalated to every admin", "lead", l.ID, "after", after.String(),
				"devices", len(devices), "emails", len(emails))
		}
		total += len(ls)
		if len(ls) < escalateBatch {
			break
		}
	}
	if total > 0 {
		n.Wake()
	}
	return total, nil
}
