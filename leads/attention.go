package leads

import (
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/phone"
)

// AttentionLimit is how many unanswered leads the dashboard lists; the
// count says how many there are in all.
const AttentionLimit = 20

// Waiting is one lead nobody has answered yet, as the dashboard lists it:
// the masked row (MaskFor) and how long it has waited, by the server's
// clock.
type Waiting struct {
	Masked
	WaitingSeconds float64 `json:"waitingSeconds"`
}

// Today is the window of "today" at now: from midnight in the business's
// time zone (Zone) to now.
func Today(now time.Time) (from, to time.Time) {
	l := now.In(Zone)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, Zone), now
}

// WaitingFor lists ls for the account viewerID, each with its wait at
// now. A clock that stepped back never makes a wait negative.
func WaitingFor(ls []db.Lead, viewerID string, now time.Time) []Waiting {
	out := make([]Waiting, len(ls))
	for i, l := range ls {
		out[i] = Waiting{Masked: MaskFor(l, viewerID), WaitingSeconds: max(now.Sub(l.CreatedAt), 0).Seconds()}
	}
	return out
}

// Contact is a lead's full phone and email as an admin's Call or Text
// tap reveals them (one audited reveal each), with the links the browser
// opens. A link is "" when the value could not be made a safe one.
type Contact struct {
	ID           string `json:"id"`
	Phone        string `json:"phone"`
	PhoneDisplay string `json:"phoneDisplay"`
	PhoneHref    string `json:"phoneHref"`
	SMSHref      string `json:"smsHref"`
	Email        string `json:"email"`
	EmailHref    string `json:"emailHref"`
}

// ContactOf is a lead's Contact.
func ContactOf(l db.Lead) Contact {
	c := Contact{ID: l.ID, Phone: l.Phone, PhoneDisplay: phone.Display(l.Phone), PhoneHref: phone.Href(l.Phone), Email: l.Email, EmailHref: EmailHref(l.Email)}
	if rest, ok := strings.CutPrefix(c.PhoneHref, "tel:"); ok {
		c.SMSHref = "sms:" + rest
	}
	return c
}
