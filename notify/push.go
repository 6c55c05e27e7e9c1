package notify

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/phone"
)

// Web Push (RFC 8030) to the owner's and staff's phones, with the
// payload encrypted for each device (RFC 8291, aes128gcm) and every
// request signed with the site's VAPID key (RFC 8292), through
// SherClockHolmes/webpush-go. No third-party account: the browser's own
// push service (Google's, Mozilla's, Apple's, Microsoft's) carries it.

// VAPIDSetting is the settings row holding the VAPID key pair: generated
// once, by whichever instance boots first, and shared by all, since
// every subscription is bound to the public key it was made with.
const VAPIDSetting = "vapid_keys"

// VAPIDKeys is the site's VAPID key pair, P-256, base64url without
// padding: Public is the 65-byte uncompressed point the browser's
// pushManager.subscribe takes as applicationServerKey; Private the
// 32-byte scalar.
type VAPIDKeys struct {
	Public  string `json:"public"`
	Private string `json:"private"`
}

// GenerateVAPIDKeys makes a new key pair.
func GenerateVAPIDKeys() (VAPIDKeys, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return VAPIDKeys{}, err
	}
	enc := base64.RawURLEncoding
	return VAPIDKeys{Public: enc.EncodeToString(k.PublicKey().Bytes()), Private: enc.EncodeToString(k.Bytes())}, nil
}

// Check reports whether the pair is whole: a private key on P-256 whose
// public key is Public.
func (k VAPIDKeys) Check() error {
	priv, err := base64.RawURLEncoding.DecodeString(k.Private)
	if err != nil {
		return errors.New("VAPID private key is not base64url")
	}
	key, err := ecdh.P256().NewPrivateKey(priv)
	if err != nil {
		return errors.New("VAPID private key is not a P-256 key")
	}
	if base64.RawURLEncoding.EncodeToString(key.PublicKey().Bytes()) != k.Public {
		return errors.New("VAPID public key does not belong to the private key")
	}
	return nil
}

// LoadVAPIDKeys returns the site's VAPID keys, generating and storing
// them the first time. Instances booting together agree: the first to
// store wins (SetSettingIfAbsent) and the others read its pair. A stored
// pair that is damaged is an error, not replaced: new keys would orphan
// every subscription.
func LoadVAPIDKeys(ctx context.Context, store *db.Store, now time.Time) (VAPIDKeys, error) {
	var k VAPIDKeys
	raw, err := store.GetSetting(ctx, VAPIDSetting)
	if errors.Is(err, db.ErrNotFound) {
		fresh, gerr := GenerateVAPIDKeys()
		if gerr != nil {
			return k, fmt.Errorf("VAPID keys: %w", gerr)
		}
		b, _ := json.Marshal(fresh)
		if _, serr := store.SetSettingIfAbsent(ctx, VAPIDSetting, string(b), now); serr != nil {
			return k, fmt.Errorf("VAPID keys: %w", serr)
		}
		// Ours, or the pair another instance stored first.
		raw, err = store.GetSetting(ctx, VAPIDSetting)
	}
	if err != nil {
		return k, fmt.Errorf("VAPID keys: %w", err)
	}
	if err := json.Unmarshal([]byte(raw), &k); err != nil {
		return k, fmt.Errorf("VAPID keys: stored pair unreadable: %v", err)
	}
	if err := k.Check(); err != nil {
		return k, fmt.Errorf("VAPID keys: %w", err)
	}
	return k, nil
}

// Push sends Web Push notifications signed with the site's VAPID keys.
type Push struct {
	Keys VAPIDKeys
	// Subject is VAPID_SUBJECT: the contact push services see.
	Subject string
	// TTL is how long a push service keeps a notification for a device
	// that is offline.
	TTL time.Duration
	// Client sends the requests; it follows no redirect.
	Client *http.Client
	// AllowHost says which push services may be sent to (nil:
	// KnownPushService). An endpoint is an address a signed-in person
	// handed in, so it is held to the browsers' push services: the
	// server never posts to an address of someone's choosing.
	AllowHost func(host string) bool
}

// Timing of a push.
const (
	// PushTTL: a notification older than a day is no news.
	PushTTL = 24 * time.Hour
	// PushTimeout bounds one request.
	PushTimeout = 10 * time.Second
)

// NewPush returns a sender signing with keys for subject.
func NewPush(keys VAPIDKeys, subject string) *Push {
	return &Push{Keys: keys, Subject: subject, TTL: PushTTL, Client: &http.Client{
		Timeout:       PushTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// LoadPush reads (or, the first time, makes) the VAPID keys and returns
// the sender: what the wiring hands to Config.Push.
func LoadPush(ctx context.Context, store *db.Store, subject string) (*Push, error) {
	k, err := LoadVAPIDKeys(ctx, store, time.Now().UTC())
	if err != nil {
		return nil, err
	}
	return NewPush(k, subject), nil
}

// PushChannel is the notifier's push sender, nil when push is off: what
// the subscribe endpoint checks subscriptions with and hands the browser
// the public key of.
func (n *Notifier) PushChannel() *Push { return n.cfg.Push }

// PublicKey is the applicationServerKey for pushManager.subscribe.
func (p *Push) PublicKey() string { return p.Keys.Public }

// pushServices are the hosts of the browsers' push services, and the
// domains whose subdomains are.
var pushServices = []string{"fcm.googleapis.com", "android.googleapis.com", "push.services.mozilla.com", "push.apple.com",
	"notify.windows.com"}

// KnownPushService reports whether host is a browser's push service:
// Chrome's and Edge-on-Android's (FCM), Firefox's (Mozilla autopush),
// Safari's (Apple) or Edge's on Windows (WNS).
func KnownPushService(host string) bool {
	host = strings.ToLower(host)
	for _, s := range pushServices {
		if host == s || strings.HasSuffix(host, "."+s) {
			return true
		}
	}
	return false
}

// Limits of a subscription as the browser hands it in.
const (
	maxEndpointLen = 2048
	maxLabelLen    = 80
)

// Messages of CheckSubscription, for the person subscribing.
var (
	ErrBadEndpoint = errors.New("This browser's push service is not one the site sends to.")
	ErrBadPushKeys = errors.New("This browser's push keys are not valid.")
)

// CheckSubscription checks what a browser's pushManager.subscribe
// returned before it is stored: an https endpoint at a push service,
// a P-256 public key (p256dh, 65 bytes) and a 16-byte auth secret,
// base64url as the Push API encodes them. It returns the subscription
// as it is stored, its label cleaned and cut.
func (p *Push) CheckSubscription(s db.PushSubscription) (db.PushSubscription, error) {
	if err := p.checkEndpoint(s.Endpoint); err != nil {
		return s, ErrBadEndpoint
	}
	key, err := decodeKey(s.P256dh)
	if err != nil || len(key) != 65 {
		return s, ErrBadPushKeys
	}
	if _, err := ecdh.P256().NewPublicKey(key); err != nil {
		return s, ErrBadPushKeys
	}
	if auth, err := decodeKey(s.Auth); err != nil || len(auth) != 16 {
		return s, ErrBadPushKeys
	}
	s.Label = oneLine(strings.ToValidUTF8(s.Label, ""))
	if utf8.RuneCountInString(s.Label) > maxLabelLen {
		s.Label = string([]rune(s.Label)[:maxLabelLen])
	}
	return s, nil
}

func (p *Push) checkEndpoint(endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil || len(endpoint) > maxEndpointLen || u.Scheme != "https" || u.Host == "" || u.User != nil {
		return errors.New("push endpoint is not an https address")
	}
	allow := p.AllowHost
	if allow == nil {
		allow = KnownPushService
	}
	if !allow(u.Hostname()) {
		return errors.New("push endpoint is not at a known push service")
	}
	return nil
}

// decodeKey reads a key as the Push API gives it: base64url, padded or
// not (some browsers pad).
func decodeKey(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// PushStatusError is a push service's answer other than 2xx.
type PushStatusError struct {
	Code int
	// RetryIn is the service's Retry-After, when it sent one.
	RetryIn time.Duration
}

func (e *PushStatusError) Error() string {
	return fmt.Sprintf("push service answered %d %s", e.Code, http.StatusText(e.Code))
}

// HTTPStatus makes the admin's text "push: HTTP 410 from the push service".
func (e *PushStatusError) HTTPStatus() int { return e.Code }

// StatusHint says what the answer did, on the dashboard.
func (e *PushStatusError) StatusHint() string {
	if e.Gone() {
		return "subscription expired, device removed"
	}
	return ""
}

// Gone reports the push service's word that the subscription no longer
// exists (404 Not Found or 410 Gone): the device is removed.
func (e *PushStatusError) Gone() bool {
	return e.Code == http.StatusNotFound || e.Code == http.StatusGone
}

// RetryAfter is how long the service asked to wait (0: not said).
func (e *PushStatusError) RetryAfter() time.Duration { return e.RetryIn }

// Urgency of a push (RFC 8030 5.3): an emergency wakes a phone that is
// saving its battery.
const (
	UrgencyHigh   = string(webpush.UrgencyHigh)
	UrgencyNormal = string(webpush.UrgencyNormal)
)

// Send encrypts payload for the device and posts it to its push service.
// A 404 or 410 is a *PushStatusError whose Gone is true. Errors never
// quote the endpoint, which is a secret capability.
func (p *Push) Send(ctx context.Context, sub db.PushSubscription, payload []byte, urgency string) error {
	if err := p.checkEndpoint(sub.Endpoint); err != nil {
		return failure.At(failure.Push, err)
	}
	subject := p.Subject
	if !strings.HasPrefix(subject, "https:") {
		// webpush-go writes "mailto:" before anything not https.
		subject = strings.TrimPrefix(subject, "mailto:")
	}
	ttl := p.TTL
	if ttl <= 0 {
		ttl = PushTTL
	}
	client := p.Client
	if client == nil {
		client = NewPush(p.Keys, p.Subject).Client
	}
	res, err := webpush.SendNotificationWithContext(ctx, payload, &webpush.Subscription{Endpoint: sub.Endpoint,
		Keys: webpush.Keys{P256dh: sub.P256dh, Auth: sub.Auth}}, &webpush.Options{
		HTTPClient: client, Subscriber: subject, TTL: int(ttl / time.Second), Urgency: webpush.Urgency(urgency),
		VAPIDPublicKey: p.Keys.Public, VAPIDPrivateKey: p.Keys.Private,
	})
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return failure.At(failure.Push, err)
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return failure.At(failure.Push, &PushStatusError{Code: res.StatusCode, RetryIn: retryAfter(res.Header.Get("Retry-After"))})
	}
	return nil
}

// retryAfter reads a Retry-After of seconds (at most a day).
func retryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return min(time.Duration(n)*time.Second, 24*time.Hour)
}

// PushMessage is the JSON a device's service worker receives and shows.
type PushMessage struct {
	// Title starts with EMERGENCY for an emergency.
	Title string `json:"title"`
	Body  string `json:"body"`
	// URL is the lead in the leads manager, relative to the site
	// (/admin/leads?lead=ID): a tap opens it, after sign-in if needed.
	URL    string `json:"url"`
	LeadID string `json:"lead"`
	// Tag lets a later notification of the same lead replace this one.
	Tag       string `json:"tag"`
	Emergency bool   `json:"emergency"`
	Escalated bool   `json:"escalated,omitempty"`
}

// LeadURL is the leads manager's address of a lead, relative to the site.
func LeadURL(id string) string { return "/admin/leads?lead=" + url.QueryEscape(id) }

// NewPushMessage is the notification of ev for an account of role: what
// the leads manager shows that role and no more. An admin reads the
// name and the phone; anyone else (staff) reads the name and the masked
// phone (leads.Mask), as in their list. Neither gets the email, the
// address, the insurance or the notes: a lock screen is no place for
// them.
func NewPushMessage(ev Event, role string) PushMessage {
	l := ev.Lead
	what := cut(oneLine(l.DamageType), 40)
	if c := cut(oneLine(l.City), 40); c != "" && what != "" {
		what += " in " + c
	} else if c != "" {
		what = c
	}
	m := PushMessage{URL: LeadURL(l.ID), LeadID: l.ID, Tag: "lead-" + l.ID, Emergency: l.IsEmergency, Escalated: ev.StillNewMinutes > 0}
	switch {
	case m.Escalated:
		m.Title = fmt.Sprintf("EMERGENCY still new after %d min: %s", ev.StillNewMinutes, what)
	case l.IsEmergency:
		m.Title = "EMERGENCY: new lead, " + what
	default:
		m.Title = "New lead: " + what
	}
	phoneText := phone.Display(l.Phone)
	if role != "admin" {
		v := leads.Mask(l)
		l.FirstName, l.LastName, phoneText = v.FirstName, v.LastName, v.PhoneMasked
	}
	m.Body = cut(oneLine(l.FirstName+" "+l.LastName), 60)
	if phoneText = cut(oneLine(phoneText), 30); phoneText != "" {
		m.Body = strings.TrimSpace(m.Body + " · " + phoneText)
	}
	return m
}

// cut keeps at most n runes of s.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n-1])) + "…"
}

// sendPush delivers a push row: the device and its account's role are
// read now, so a device removed since, or an account demoted or disabled
// since, gets what it may get now (or nothing).
func (n *Notifier) sendPush(ctx context.Context, r db.OutboxRow, ev Event) error {
	rec, err := n.store.PushRecipientByID(ctx, r.Target)
	if errors.Is(err, db.ErrNotFound) {
		return giveUp(failure.At(failure.Push, errors.New("device no longer subscribed")))
	}
	if err != nil {
		return err
	}
	if rec.Role == "" {
		return giveUp(failure.At(failure.Push, errors.New("the device's account may no longer see leads")))
	}
	if r.Event == db.OutboxEscalated && rec.Role != "admin" {
		return giveUp(failure.At(failure.Push, errors.New("escalations go to admins only")))
	}
	body, err := json.Marshal(NewPushMessage(ev, rec.Role))
	if err != nil {
		return err
	}
	urgency := UrgencyNormal
	if ev.Lead.IsEmergency {
		urgency = UrgencyHigh
	}
	err = n.cfg.Push.Send(ctx, rec.PushSubscription, body, urgency)
	var se *PushStatusError
	if errors.As(err, &se) && se.Gone() {
		if _, derr := n.store.DeletePushSubscriptionByEndpoint(ctx, rec.Endpoint); derr != nil {
			// The next lead's push finds it gone again and removes it.
			n.log.Warn("push subscription expired but not removed", "device", rec.ID, "err", derr)
		} else {
			n.log.Info("push subscription expired: device removed", "device", rec.ID, "user", rec.UserID)
		}
		return giveUp(err)
	}
	if err == nil {
		if serr := n.store.PushSent(ctx, rec.ID, n.now()); serr != nil {
			n.log.Warn("push sent but its time not recorded", "device", rec.ID, "err", serr)
		}
	}
	return err
}
