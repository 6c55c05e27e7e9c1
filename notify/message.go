package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/phone"
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
	// PhoneDisplay is the lead's phone for people, "(678) 555-0199", or
	// as typed when it is not a North American number.
	PhoneDisplay string `json:"phoneDisplay"`
	// PhoneHref is its tel: link, "tel:+16785550199"; absent when the
	// number could not be normalised.
	PhoneHref string `json:"phoneHref,omitempty"`
	// Lead is the stored lead, with avatar_leads' column names: phone in
	// E.164 when it could be normalised, phone_typed as typed.
	Lead db.Lead `json:"lead"`
	// StillNewMinutes is set on an escalation ("lead.escalated"): how
	// long the emergency has been new.
	StillNewMinutes int `json:"stillNewMinutes,omitempty"`
}

// NewEvent is the event announcing l, with l's phone in its stored form.
func NewEvent(l db.Lead, baseURL string) Event {
	l = l.Normalized()
	return Event{Event: "lead.created", ID: l.ID, AdminURL: strings.TrimRight(baseURL, "/") + "/admin/leads?lead=" + url.QueryEscape(l.ID),
		PhoneDisplay: phone.Display(l.Phone), PhoneHref: phone.Href(l.Phone), Lead: l}
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
	if ev.StillNewMinutes > 0 {
		subject = fmt.Sprintf("EMERGENCY still new after %d min: %s", ev.StillNewMinutes, strings.TrimPrefix(subject, "EMERGENCY: "))
	}
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
	var parts bytes.Buffer
	mp := multipart.NewWriter(&parts)
	header("Content-Type", mime.FormatMediaType("multipart/alternative", map[string]string{"boundary": mp.Boundary()}))
	if l.IsEmergency {
		header("X-Priority", "1 (Highest)")
		header("Importance", "high")
	}
	h.WriteString("\r\n")
	// Plain text first, HTML last: a client shows the last part it can.
	// The HTML part makes the phone a tel: link and the email a mailto:
	// link, one tap on the owner's phone.
	part := func(contentType, body string) {
		w, _ := mp.CreatePart(textproto.MIMEHeader{"Content-Type": {contentType}, "Content-Transfer-Encoding": {"quoted-printable"}})
		qp := quotedprintable.NewWriter(w)
		qp.Write([]byte(body))
		qp.Close()
	}
	part("text/plain; charset=UTF-8", emailText(ev, now, loc))
	part("text/html; charset=UTF-8", emailHTML(ev, now, loc))
	mp.Close()
	h.Write(parts.Bytes())
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
	if ev.StillNewMinutes > 0 {
		fmt.Fprintf(&b, "ESCALATED: this emergency has been new for %d minutes and nobody has changed its status.\r\n", ev.StillNewMinutes)
	}
	if l.IsEmergency {
		b.WriteString("EMERGENCY: the customer says this is an emergency. Call them back now.\r\n\r\n")
	}
	b.WriteString("A new estimate request came in through the website.\r\n\r\n")
	for _, f := range emailFields(ev, now, loc) {
		v := f.Value
		if f.Label == "Phone" && f.Href != "" {
			// Written out too, for clients that link only what is a URL.
			v += " <" + string(f.Href) + ">"
		}
		line(f.Label, v)
	}
	if n := strings.TrimSpace(l.Notes); n != "" {
		b.WriteString("\r\nNotes:\r\n")
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(n, "\r\n", "\n"), "\n", "\r\n"))
		b.WriteString("\r\n")
	}
	fmt.Fprintf(&b, "\r\nOpen the leads manager: %s\r\nLead id: %s\r\n", ev.AdminURL, l.ID)
	return b.String()
}

func oneLine(s string) string { return headerValue(s) }

// emailField is one labelled line of the email; Href makes it a link in
// the HTML part.
type emailField struct {
	Label, Value string
	Href         template.URL
}

// emailFields are the lead's details, in the order both parts show them;
// empty ones are left out. The phone is formatted from its stored form
// (a lead announced before normalisation, still in the outbox, formats
// the same).
func emailFields(ev Event, now time.Time, loc *time.Location) []emailField {
	l := ev.Lead
	var out []emailField
	add := func(label, v string, href string) {
		if v = oneLine(strings.TrimSpace(v)); v != "" {
			// Both links are built here from checked parts: phone.Href from
			// ten digits, leads.EmailHref from one valid address.
			out = append(out, emailField{Label: label, Value: v, Href: template.URL(href)})
		}
	}
	add("Name", l.FirstName+" "+l.LastName, "")
	add("Phone", phone.Display(l.Phone), phone.Href(l.Phone))
	add("Email", l.Email, leads.EmailHref(l.Email))
	addr := l.StreetAddress
	if l.City != "" {
		addr = strings.TrimLeft(addr+", "+l.City, ", ")
	}
	if l.ZipCode != "" {
		addr += " " + l.ZipCode
	}
	add("Address", addr, "")
	add("Damage", l.DamageType, "")
	emergency := "no"
	if l.IsEmergency {
		emergency = "YES"
	}
	add("Emergency", emergency, "")
	add("Insurance", l.InsuranceCarrier, "")
	add("Claim", l.ClaimNumber, "")
	received := l.CreatedAt
	if received.IsZero() {
		received = now
	}
	add("Received", received.In(loc).Format("Mon Jan 2, 2006 3:04 PM MST"), "")
	return out
}

// emailPage is the HTML part: the same content as the text, with links.
// html/template escapes every value; inline styles because mail clients
// drop style sheets.
var emailPage = template.Must(template.New("email").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111827;background:#ffffff">
{{if .StillNew}}<p style="margin:0 0 8px;font-weight:bold;color:#b91c1c">ESCALATED: this emergency has been new for {{.StillNew}} minutes and nobody has changed its status.</p>
{{end}}{{if .Emergency}}<p style="margin:0 0 16px;padding:12px 14px;background:#b91c1c;color:#ffffff;font-weight:bold;border-radius:6px">EMERGENCY: the customer says this is an emergency. Call them back now.</p>
{{end}}<p style="margin:0 0 12px">A new estimate request came in through the website.</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
{{range .Fields}}<tr><th scope="row" align="left" valign="top" style="padding:4px 16px 4px 0;color:#4b5563;font-weight:bold;white-space:nowrap">{{.Label}}</th><td style="padding:4px 0">{{if .Href}}<a href="{{.Href}}" style="color:#1d4ed8;font-weight:bold">{{.Value}}</a>{{else}}{{.Value}}{{end}}</td></tr>
{{end}}</table>
{{if .Notes}}<p style="margin:16px 0 4px;font-weight:bold">Notes:</p>
<p style="margin:0;white-space:pre-wrap">{{.Notes}}</p>
{{end}}<p style="margin:16px 0 0"><a href="{{.AdminURL}}" style="color:#1d4ed8">Open the leads manager</a><br><span style="color:#4b5563">Lead id: {{.ID}}</span></p>
</body></html>
`))

// emailHTML renders the HTML part.
func emailHTML(ev Event, now time.Time, loc *time.Location) string {
	l := ev.Lead
	var b strings.Builder
	err := emailPage.Execute(&b, map[string]any{
		"Subject": Subject(l), "Emergency": l.IsEmergency, "StillNew": ev.StillNewMinutes, "Fields": emailFields(ev, now, loc),
		"Notes": strings.TrimSpace(strings.ReplaceAll(l.Notes, "\r\n", "\n")), "AdminURL": ev.AdminURL, "ID": l.ID,
	})
	if err != nil {
		// The template is fixed and its values are strings: it cannot
		// fail at run time. Should it, the text part still says it all.
		return ""
	}
	return strings.ReplaceAll(b.String(), "\n", "\r\n")
}

// marshalEvent is the payload stored in the outbox.
func marshalEvent(ev Event) (string, error) {
	b, err := json.Marshal(ev)
	return string(b), err
}
