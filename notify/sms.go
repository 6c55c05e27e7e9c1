package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/failure"
	"github.com/atlanta-restoration/site/phone"
)

// Twilio texts new leads through Twilio's Messages REST API
// (SMS_PROVIDER=twilio): a form-encoded POST per message, with HTTP
// basic authentication (account SID, auth token).
type Twilio struct {
	AccountSID string
	AuthToken  string
	// From is the sending number (E.164) or a Messaging Service SID (MG...).
	From string
	// APIBase is https://api.twilio.com (tests point it at a fake).
	APIBase string
	// To are the owner's numbers (E.164).
	To     []string
	Client *http.Client
}

// SMSTimeout bounds one request to Twilio.
const SMSTimeout = 10 * time.Second

// NewTwilio returns a client for the validated SMS configuration, or nil
// when SMS is off.
func NewTwilio(c config.SMS) *Twilio {
	if c.Provider != "twilio" {
		return nil
	}
	return &Twilio{AccountSID: c.AccountSID, AuthToken: c.AuthToken, From: c.From, APIBase: strings.TrimRight(c.APIBase, "/"), To: c.To,
		Client: &http.Client{Timeout: SMSTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// TwilioError is an answer of Twilio's other than 2xx. Code is Twilio's
// error code (21211: not a valid To number; 20429: too many requests);
// its message stays out, since it may quote the numbers.
type TwilioError struct {
	Status  int
	Code    int
	RetryIn time.Duration
}

func (e *TwilioError) Error() string {
	if e.Code != 0 {
		return fmt.Sprintf("Twilio answered %d %s (error %d)", e.Status, http.StatusText(e.Status), e.Code)
	}
	return fmt.Sprintf("Twilio answered %d %s", e.Status, http.StatusText(e.Status))
}

// HTTPStatus makes the admin's text "SMS: HTTP 429 from Twilio".
func (e *TwilioError) HTTPStatus() int { return e.Status }

// RetryAfter is how long Twilio asked to wait (0: not said).
func (e *TwilioError) RetryAfter() time.Duration { return e.RetryIn }

// Send texts body to one number. Errors carry neither the auth token
// (it only ever travels in the Authorization header) nor the request's
// address, nor Twilio's message text.
func (t *Twilio) Send(ctx context.Context, to, body string) error {
	form := url.Values{"To": {to}, "Body": {body}}
	if strings.HasPrefix(t.From, "MG") {
		form.Set("MessagingServiceSid", t.From)
	} else {
		form.Set("From", t.From)
	}
	endpoint := t.APIBase + "/2010-04-01/Accounts/" + url.PathEscape(t.AccountSID) + "/Messages.json"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return failure.At(failure.SMS, errors.New("bad TWILIO_API_BASE"))
	}
	req.SetBasicAuth(t.AccountSID, t.AuthToken)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "restoration-site-lead-sms/1")
	client := t.Client
	if client == nil {
		client = &http.Client{Timeout: SMSTimeout}
	}
	res, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return failure.At(failure.SMS, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if res.StatusCode >= 200 && res.StatusCode <= 299 {
		return nil
	}
	var answer struct {
		Code int `json:"code"`
	}
	json.Unmarshal(raw, &answer)
	return failure.At(failure.SMS, &TwilioError{Status: res.StatusCode, Code: answer.Code, RetryIn: retryAfter(res.Header.Get("Retry-After"))})
}

// SMSText is the text announcing ev: short, since every 160 characters
// is a message billed, and with what the person on call needs to call
// back at once. The numbers are the owner's, so the phone is shown
// whole, as in the owner's email.
func SMSText(ev Event, baseURL string) string {
	l := ev.Lead
	head := "New lead"
	switch {
	case ev.StillNewMinutes > 0:
		head = fmt.Sprintf("EMERGENCY still new after %d min", ev.StillNewMinutes)
	case l.IsEmergency:
		head = "EMERGENCY lead"
	}
	var parts []string
	for _, p := range []string{cut(oneLine(l.FirstName+" "+l.LastName), 40), cut(oneLine(l.DamageType), 30), cut(oneLine(l.City), 30)} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	text := head + ": " + strings.Join(parts, ", ") + "."
	if p := phone.Display(l.Phone); p != "" {
		text += " Call " + cut(oneLine(p), 30) + "."
	}
	return text + " " + strings.TrimRight(baseURL, "/") + LeadURL(l.ID)
}
