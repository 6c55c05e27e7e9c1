package leads

import (
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Event is one line of a lead's timeline as the admin reads it: created,
// notified, a status change, a note, an assignment or an escalation
// (db.EventCreated, ...).
type Event struct {
	ID     string    `json:"id"`
	LeadID string    `json:"leadId"`
	At     time.Time `json:"at"`
	Kind   string    `json:"kind"`
	// UserID is the person who did it ("" for the server); Actor is how
	// they are shown.
	UserID string `json:"userId"`
	Actor  string `json:"actor"`
	// Channel is the notification's channel (notified): email, webhook,
	// push, sms or ack.
	Channel string `json:"channel,omitempty"`
	// From and To are the status before and after (a status change), the
	// account ids before and after (an assignment; "" is nobody), or, for
	// a notification, To is "escalated" when it announced an escalation.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Body is a note's text, or the name of the account a lead was
	// assigned to.
	Body string `json:"body,omitempty"`
}

// EventOf is the stored event e as the admin reads it.
func EventOf(e db.LeadEvent) Event {
	return Event{ID: e.ID, LeadID: e.LeadID, At: e.At, Kind: e.Kind, UserID: e.UserID, Actor: e.Actor, Channel: e.Channel, From: e.From, To: e.To, Body: e.Body}
}

// Timeline is the stored events as the admin reads them, in their order
// (never nil: an empty timeline is sent as []).
func Timeline(es []db.LeadEvent) []Event {
	out := make([]Event, len(es))
	for i, e := range es {
		out[i] = EventOf(e)
	}
	return out
}
