package notifytest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Twilio is a fake of Twilio's Messages REST API
// (POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded,
// HTTP basic authentication with the account SID and auth token). It
// records the messages it accepts and can answer errors first.
type Twilio struct {
	URL   string // http://127.0.0.1:port: TWILIO_API_BASE
	SID   string
	Token string
	srv   *httptest.Server

	mu       sync.Mutex
	messages []SMS
	answers  []TwilioAnswer
	requests int
	badAuth  int
}

// SMS is one message Twilio accepted.
type SMS struct {
	To, From, MessagingServiceSid, Body string
}

// TwilioAnswer is an error answer, as Twilio writes them.
type TwilioAnswer struct {
	Status int
	// Code is Twilio's error code (20429: too many requests; 21211: the
	// To number is not valid).
	Code    int
	Message string
	// RetryAfter is sent as the Retry-After header when set.
	RetryAfter string
}

// NewTwilio starts the fake for one account; it stops when the test
// ends.
func NewTwilio(t testing.TB, sid, token string) *Twilio {
	t.Helper()
	f := &Twilio{SID: sid, Token: token}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	f.URL = f.srv.URL
	t.Cleanup(f.srv.Close)
	return f
}

// Close stops the fake: its address then refuses connections.
func (f *Twilio) Close() { f.srv.Close() }

// Answer queues error answers for the next authenticated requests.
func (f *Twilio) Answer(a ...TwilioAnswer) {
	f.mu.Lock()
	f.answers = append(f.answers, a...)
	f.mu.Unlock()
}

// Messages returns the messages accepted so far.
func (f *Twilio) Messages() []SMS {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]SMS(nil), f.messages...)
}

// WaitMessages waits until n messages were accepted, or timeout.
func (f *Twilio) WaitMessages(n int, timeout time.Duration) []SMS {
	end := time.Now().Add(timeout)
	for {
		m := f.Messages()
		if len(m) >= n || time.Now().After(end) {
			return m
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Requests counts every request, and those that failed authentication.
func (f *Twilio) Requests() (all, badAuth int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests, f.badAuth
}

func (f *Twilio) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	fail := func(a TwilioAnswer) {
		if a.RetryAfter != "" {
			w.Header().Set("Retry-After", a.RetryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.Status)
		json.NewEncoder(w).Encode(map[string]any{"code": a.Code, "message": a.Message,
			"more_info": fmt.Sprintf("https://www.twilio.com/docs/errors/%d", a.Code), "status": a.Status})
	}
	if r.Method != http.MethodPost || r.URL.Path != "/2010-04-01/Accounts/"+f.SID+"/Messages.json" {
		fail(TwilioAnswer{Status: http.StatusNotFound, Code: 20404, Message: "The requested resource was not found"})
		return
	}
	user, pass, ok := r.BasicAuth()
	if !ok || user != f.SID || pass != f.Token {
		f.badAuth++
		fail(TwilioAnswer{Status: http.StatusUnauthorized, Code: 20003, Message: "Authenticate"})
		return
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") || r.ParseForm() != nil {
		fail(TwilioAnswer{Status: http.StatusBadRequest, Code: 21100, Message: "Bad request"})
		return
	}
	m := SMS{To: r.PostForm.Get("To"), From: r.PostForm.Get("From"), MessagingServiceSid: r.PostForm.Get("MessagingServiceSid"), Body: r.PostForm.Get("Body")}
	if m.To == "" || m.Body == "" || (m.From == "") == (m.MessagingServiceSid == "") {
		fail(TwilioAnswer{Status: http.StatusBadRequest, Code: 21604, Message: "A 'To', a 'Body' and one of 'From' or 'MessagingServiceSid' are required."})
		return
	}
	if len(f.answers) > 0 {
		a := f.answers[0]
		f.answers = f.answers[1:]
		fail(a)
		return
	}
	f.messages = append(f.messages, m)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(map[string]any{"sid": fmt.Sprintf("SM%032x", len(f.messages)), "status": "queued", "to": m.To, "body": m.Body})
}
