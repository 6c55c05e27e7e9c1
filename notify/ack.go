package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/phone"
)

// The homeowner's acknowledgement: when the visitor left a
// valid email, the outbox sends them, once, a plain-text email saying
// what happens next, with the 24/7 phone as a tel: link.

// AckSetting is the settings key that switches the acknowledgement:
// "false" turns it off; any other value, or none, leaves it on.
const AckSetting = "lead_ack"

// ResponseClaim is the response-time claim the visitor has just read on
// the estimate form's thank-you message, with the response times the
// owner set (content words, group "times"; spec 1 and 9's defaults:
// emergency contact within 60 minutes, general inquiries within 2
// hours). The acknowledgement repeats it word for word; a test keeps it
// the thank-you message's first sentence.
func ResponseClaim(emergency, general string) string {
	return "Our team will contact you within " + emergency + " for emergencies and within " + general + " for general inquiries."
}

// AckResponseClaim is the claim with the default times.
var AckResponseClaim = ResponseClaim("60 minutes", "2 hours")

// Ack configures the acknowledgement. It needs the SMTP channel.
type Ack struct {
	// BusinessName signs the email.
	BusinessName string
	// ReplyTo is the business email (BUSINESS_EMAIL): a reply reaches a
	// person, not the sending mailbox. "" sets no Reply-To.
	ReplyTo string
	// Phone is the 24/7 emergency phone (System Settings' when the
	// wiring plugs it in; nil: DefaultPhone).
	Phone        func(ctx context.Context) string
	DefaultPhone string
	// Enabled reads the switch when a lead is saved (System Settings'
	// when the wiring plugs it in); nil reads AckSetting from the store,
	// on by default.
	Enabled func(ctx context.Context) (bool, error)
	// Times reads the emergency and general response times the site
	// shows now (the live content's words); nil, or an error, gives the
	// defaults of AckResponseClaim.
	Times func(ctx context.Context) (emergency, general string, err error)
}

// claim is the response-time claim as the site states it now.
func (a *Ack) claim(ctx context.Context) string {
	if a == nil || a.Times == nil {
		return AckResponseClaim
	}
	e, g, err := a.Times(ctx)
	if err != nil || strings.TrimSpace(e) == "" || strings.TrimSpace(g) == "" {
		return AckResponseClaim
	}
	return ResponseClaim(oneLine(e), oneLine(g))
}

// NewAck returns the acknowledgement's configuration from the validated
// configuration: the business's name, email and phone.
func NewAck(cfg *config.Config) *Ack {
	return &Ack{BusinessName: cfg.Business.Name, ReplyTo: cfg.Business.Email, DefaultPhone: cfg.Business.Phone}
}

// ackEnabled reads the switch.
func (n *Notifier) ackEnabled(ctx context.Context) (bool, error) {
	if n.cfg.Ack.Enabled != nil {
		return n.cfg.Ack.Enabled(ctx)
	}
	v, err := n.store.GetSetting(ctx, AckSetting)
	if errors.Is(err, db.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return v != "false", nil
}

func (a *Ack) phone(ctx context.Context) string {
	if a.Phone != nil {
		if p := a.Phone(ctx); p != "" {
			return p
		}
	}
	return a.DefaultPhone
}

// AckMessage is what ComposeAck needs besides the lead.
type AckMessage struct {
	From     *mail.Address
	To       string
	ReplyTo  string
	Business string
	Phone    string
	// SiteURL is the site's address (BASE_URL).
	SiteURL string
	// MessageID makes the Message-ID, stable across retries.
	MessageID string
	Now       time.Time
	// Claim is the response-time claim ("" : AckResponseClaim).
	Claim string
	// HomeLink is the homeowner's job page ("": none, left out).
	HomeLink string
}

// ComposeAck builds the acknowledgement of ev. It is text/plain (a
// short, personal note reads as one, and spam filters trust it more).
// It repeats nothing the visitor typed but the fact of an emergency: an
// estimate form that mails any address it is given must not carry a
// stranger's words to it.
func ComposeAck(ev Event, m AckMessage) Email {
	l := ev.Lead
	business := oneLine(m.Business)
	subject := "We received your request"
	if business != "" {
		subject += " - " + business
	}
	claim := m.Claim
	if claim == "" {
		claim = AckResponseClaim
	}
	return homeownerEmail(homeownerMail{From: m.From, To: m.To, ReplyTo: m.ReplyTo, Business: business, Subject: subject,
		ID: "ack-" + m.MessageID, Now: m.Now}, nil, ackText(l, business, m.Phone, m.SiteURL, claim, m.HomeLink))
}

// homeownerMail is what a plain text message to a homeowner (the
// acknowledgement, the review request) says of itself.
type homeownerMail struct {
	From                           *mail.Address
	To, ReplyTo, Business, Subject string
	// ID is the Message-ID's local part, its kind first ("ack-...").
	ID  string
	Now time.Time
}

// homeownerEmail writes such a message: the headers every one has, then
// extra (name and value pairs, in order), then the text, quoted-printable.
// Every value is cleaned of line breaks; the business replies.
func homeownerEmail(m homeownerMail, extra [][2]string, text string) Email {
	var h bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&h, "%s: %s\r\n", k, v) }
	domain := "localhost"
	if i := strings.LastIndex(m.From.Address, "@"); i >= 0 {
		domain = m.From.Address[i+1:]
	}
	header("From", (&mail.Address{Name: headerValue(m.From.Name), Address: headerValue(m.From.Address)}).String())
	header("To", (&mail.Address{Address: headerValue(m.To)}).String())
	if a, err := mail.ParseAddress(headerValue(m.ReplyTo)); err == nil && m.ReplyTo != "" {
		header("Reply-To", (&mail.Address{Name: m.Business, Address: a.Address}).String())
	}
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", m.Now.Format(time.RFC1123Z))
	header("Message-ID", "<"+headerValue(m.ID)+"@"+headerValue(domain)+">")
	// RFC 3834: sent by a machine, so autoresponders do not answer it.
	header("Auto-Submitted", "auto-generated")
	for _, kv := range extra {
		header(kv[0], headerValue(kv[1]))
	}
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=UTF-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	h.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&h)
	qp.Write([]byte(text))
	qp.Close()
	return Email{From: m.From.Address, To: []string{m.To}, Subject: m.Subject, Body: h.Bytes()}
}

// ackText is the body: thanks, what happens next, the phone.
func ackText(l db.Lead, business, tel, siteURL, claim, home string) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\r\n") }
	line("Hello,")
	line("")
	who := "us"
	if business != "" {
		who = business
	}
	if l.IsEmergency {
		line(fmt.Sprintf("Thank you for contacting %s. We received your request and you told us it is an emergency.", who))
	} else {
		line(fmt.Sprintf("Thank you for contacting %s. We received your request for a free estimate.", who))
	}
	line("")
	line("What happens next:")
	line("")
	line("- " + claim)
	line("- We will call you at the number you gave us, talk through the damage and, if you wish, book a visit.")
	line("- If you have insurance, keep your policy number at hand: we bill insurers directly.")
	line("")
	if p := phone.Display(tel); p != "" {
		line("Is water still coming in, or is the damage getting worse? Do not wait for us: call our 24/7 emergency line now.")
		if href := phone.Href(tel); href != "" {
			line(p + " <" + href + ">")
		} else {
			line(p)
		}
		line("")
	}
	if home != "" {
		line("Follow your request on its own page: what happens next, who is coming, and what to do now. Keep this link private:")
		line(home)
		line("")
	}
	line("Your request number: " + oneLine(l.ID))
	line("")
	line(business)
	if u, err := url.Parse(siteURL); err == nil && u.Host != "" {
		line(siteURL)
	}
	line("")
	if home != "" {
		line("You receive this email because this address was entered in the estimate form on our website. We will send a short update when your job moves on. If that was not you, or you want no updates, stop them here: " + home + StopSuffix)
	} else {
		line("You receive this email because this address was entered in the estimate form on our website. If that was not you, please ignore it: we will not email you again about this request.")
	}
	return b.String()
}

// sendAck delivers an acknowledgement row, to the address the row names
// and only if it passes leads.ValidEmail.
func (n *Notifier) sendAck(ctx context.Context, r db.OutboxRow, ev Event) error {
	if !leads.ValidEmail(r.Target) {
		return giveUp(failure.At(failure.Ack, errors.New("the visitor's address is not valid: not sent")))
	}
	// A fresh link to the job's page, its hash stored before it goes.
	home, err := n.HomeLink(ctx, r.LeadID)
	if err != nil {
		return err
	}
	m := ComposeAck(ev, AckMessage{From: n.cfg.From, To: r.Target, ReplyTo: n.cfg.Ack.ReplyTo, Business: n.cfg.Ack.BusinessName,
		Phone: n.cfg.Ack.phone(ctx), SiteURL: n.cfg.BaseURL, MessageID: r.ID, Now: n.now().In(n.loc), Claim: n.cfg.Ack.claim(ctx), HomeLink: home})
	if err := n.cfg.SMTP.Send(ctx, m.From, m.To, m.Body); err != nil {
		return failure.At(failure.Ack, err)
	}
	return nil
}
