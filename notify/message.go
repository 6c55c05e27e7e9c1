package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Event is what a lead notification carries: the outbox payload, and the
// webhook's body byte for byte.
type Event struct {
	Event string `json:"event"` // "lead.created"
	// ID is the lead's id: a receiver that gets an event twice (delivery
	// is at least once) can tell.
	ID string `json:"id"`
	// AdminURL is the leads manager.
	AdminURL string `json:"adminUrl"`
	// Lead is the stored lead, with avatar_leads' column names.
	Lead db.Lead `json:"lead"`
}

// NewEvent is the event announcing l.
func NewEvent(l db.Lead, baseURL string) Event {
	return Event{Event: "lead.created", ID: l.ID, AdminURL: strings.TrimRight(baseURL, "/") + "/admin/leads", Lead: l}
}

// Email is one composed message.
type Email struct {
	From    string   // envelope and header sender (bare address)
	To      []string // bare addresses
	Subject string
	Body    []byte // the whole message, headers included, CRLF line ends
}

// headerValue makes a string safe for a header: CR, LF and every other
// control character become spaces, so no input can start a header of its
// own (header injection).
func headerValue(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return strings.Join(strings.Fields(s), " ")
}

// Subject is the email's subject line for a lead, before encoding. An
// emergency's starts with EMERGENCY, so it stands out in the inbox.
func Subject(l db.Lead) string {
	name := headerValue(strings.TrimSpace(l.FirstName + " " + l.LastName))
	what := headerValue(l.DamageType)
	if c := headerValue(l.City); c != "" {
		what += ", " + c
	}
	if l.IsEmergency {
		return fmt.Sprintf("EMERGENCY: new lead from %s (%s)", name, what)
	}
	return fmt.Sprintf("New lead from %s (%s)", name, what)
}

// ComposeEmail builds the owner's email for an event. messageID makes the
// Message-ID (stable across retries, so a duplicate can be recognised);
// loc is the time zone of the times shown.
func ComposeEmail(ev Event, from *mail.Address, to []string, messageID string, now time.Time, loc *time.Location) Email {
	l := ev.Lead
	var h bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&h, "%s: %s\r\n", k, v) }
	addrs := make([]string, len(to))
	for i, a := range to {
		addrs[i] = (&mail.Address{Address: headerValue(a)}).String()
	}
	domain := "localhost"
	if i := strings.LastIndex(from.Address, "@"); i >= 0 {
		domain = from.Address[i+1:]
	}
	subject := Subject(l)
	header("From", (&mail.Address{Name: headerValue(from.Name), Address: headerValue(from.Address)}).String())
	header("To", strings.Join(addrs, ", "))
	if l.Email != "" {
		if a, err := mail.ParseAddress(headerValue(l.Email)); err == nil {
			header("Reply-To", (&mail.Address{Name: headerValue(l.FirstName + " " + l.LastName), Address: a.Address}).String())
		}
	}
	header("Subject", mime.QEncoding.Encode("utf-8", subject))
	header("Date", now.In(loc).Format(time.RFC1123Z))
	header("Message-ID", "<"+headerValue(messageID)+"@"+headerValue(domain)+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=UTF-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	if l.IsEmergency {
		header("X-Priority", "1 (Highest)")
		header("Importance", "high")
	}
	h.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&h)
	qp.Write([]byte(emailText(ev, now, loc)))
	qp.Close()
	return Email{From: from.Address, To: to, Subject: subject, Body: h.Bytes()}
}

// emailText is the body: everything the owner needs to call back, and
// the link to the leads manager.
func emailText(ev Event, now time.Time, loc *time.Location) string {
	l := ev.Lead
	var b strings.Builder
	line := func(label, v string) {
		if v = strings.TrimSpace(v); v != "" {
			fmt.Fprintf(&b, "%-11s %s\r\n", label+":", oneLine(v))
		}
	}
	if l.IsEmergency {
		b.WriteString("EMERGENCY: the customer says this is an emergency. Call them back now.\r\n\r\n")
	}
	b.WriteString("A new estimate request came in through the website.\r\n\r\n")
	line("Name", l.FirstName+" "+l.LastName)
	line("Phone", l.Phone)
	line("Email", l.Email)
	addr := l.StreetAddress
	if l.City != "" {
		addr = strings.TrimLeft(addr+", "+l.City, ", ")
	}
	if l.ZipCode != "" {
		addr += " " + l.ZipCode
	}
	line("Address", addr)
	line("Damage", l.DamageType)
	emergency := "no"
	if l.IsEmergency {
		emergency = "YES"
	}
	line("Emergency", emergency)
	line("Insurance", l.InsuranceCarrier)
	line("Claim", l.ClaimNumber)
	received := l.CreatedAt
	if received.IsZero() {
		received = now
	}
	line("Received", received.In(loc).Format("Mon Jan 2, 2006 3:04 PM MST"))
	if n := strings.TrimSpace(l.Notes); n != "" {
		b.WriteString("\r\nNotes:\r\n")
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(n, "\r\n", "\n"), "\n", "\r\n"))
		b.WriteString("\r\n")
	}
	fmt.Fprintf(&b, "\r\nOpen the leads manager: %s\r\nLead id: %s\r\n", ev.AdminURL, l.ID)
	return b.String()
}

func oneLine(s string) string { return headerValue(s) }

// marshalEvent is the payload stored in the outbox.
func marshalEvent(ev Event) (string, error) {
	b, err := json.Marshal(ev)
	return string(b), err
}
