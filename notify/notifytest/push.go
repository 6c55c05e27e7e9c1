package notifytest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// PushService is a fake Web Push service (RFC 8030) that checks what a
// real one checks and reads what a real browser reads: every request's
// VAPID authorization (RFC 8292: an ES256 JWT signed with the key the
// subscription was made for, aud the service's origin, exp in the
// future and at most a day away, sub the expected contact), and the
// payload, which it decrypts as the subscribed browser would (RFC 8291,
// aes128gcm of RFC 8188) with the device's private key and auth secret.
// The code under test is the real client's; this only plays the far end.
type PushService struct {
	URL string // https://127.0.0.1:port
	srv *httptest.Server

	vapidKey *ecdsa.PublicKey
	vapidB64 string
	subject  string

	mu         sync.Mutex
	devices    map[string]*PushDevice
	deliveries []PushDelivery
	rejections []string
	down       bool
	answers    []int
	requests   int
}

// PushOptions are what the service expects of every request.
type PushOptions struct {
	// VAPIDPublicKey is the application server key (base64url) the
	// subscriptions are made for; a request signed by another is refused
	// with 403, as FCM refuses it.
	VAPIDPublicKey string
	// Subject is the VAPID "sub" expected (VAPID_SUBJECT).
	Subject string
}

// PushDevice is a subscribed browser: what pushManager.subscribe hands
// the site (Endpoint, P256dh, Auth), and the keys only the browser has.
type PushDevice struct {
	ID       string
	Endpoint string
	P256dh   string // base64url, the public key
	Auth     string // base64url, the 16-byte auth secret
	priv     *ecdh.PrivateKey
	secret   []byte
	gone     bool
}

// PushDelivery is one push the service accepted, decrypted.
type PushDelivery struct {
	Device  string
	Payload []byte // the plaintext the browser's service worker gets
	Urgency string
	TTL     int
	// Audience, Subject and Expires are the VAPID JWT's claims.
	Audience string
	Subject  string
	Expires  time.Time
	// BodyLen is the encrypted body's length on the wire.
	BodyLen int
	At      time.Time
}

// NewPushService starts a fake push service over TLS (as every real one
// is); Client trusts it. It stops when the test ends.
func NewPushService(t testing.TB, opts PushOptions) *PushService {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(opts.VAPIDPublicKey)
	if err != nil {
		t.Fatalf("VAPID public key: %v", err)
	}
	key, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		t.Fatalf("VAPID public key: %v", err)
	}
	s := &PushService{vapidKey: key, vapidB64: opts.VAPIDPublicKey, subject: opts.Subject, devices: map[string]*PushDevice{}}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Client is an HTTP client that trusts the service's certificate.
func (s *PushService) Client() *http.Client { return s.srv.Client() }

// NewDevice subscribes a new browser and returns its subscription.
func (s *PushService) NewDevice(t testing.TB) PushDevice {
	t.Helper()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	secret := make([]byte, 16)
	rand.Read(secret)
	id := make([]byte, 8)
	rand.Read(id)
	d := &PushDevice{ID: hex.EncodeToString(id), priv: priv, secret: secret,
		P256dh: base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes()), Auth: base64.RawURLEncoding.EncodeToString(secret)}
	d.Endpoint = s.URL + "/push/" + d.ID
	s.mu.Lock()
	s.devices[d.ID] = d
	s.mu.Unlock()
	return *d
}

// Expire makes the device's subscription gone: the service answers 410.
func (s *PushService) Expire(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.devices[id]; d != nil {
		d.gone = true
	}
}

// SetDown makes the service drop every connection without an answer
// (down), or serve again.
func (s *PushService) SetDown(down bool) {
	s.mu.Lock()
	s.down = down
	s.mu.Unlock()
}

// AnswerNext answers the next requests that pass every check with these
// statuses, in order (503, 429...), before accepting again.
func (s *PushService) AnswerNext(codes ...int) {
	s.mu.Lock()
	s.answers = append(s.answers, codes...)
	s.mu.Unlock()
}

// Deliveries returns the pushes accepted so far.
func (s *PushService) Deliveries() []PushDelivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]PushDelivery(nil), s.deliveries...)
}

// WaitDeliveries waits until n pushes were accepted, or timeout.
func (s *PushService) WaitDeliveries(n int, timeout time.Duration) []PushDelivery {
	end := time.Now().Add(timeout)
	for {
		d := s.Deliveries()
		if len(d) >= n || time.Now().After(end) {
			return d
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Rejections are the reasons requests were refused (a bad signature, a
// payload that would not decrypt...): a test that expects none fails on
// any.
func (s *PushService) Rejections() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.rejections...)
}

// Requests counts every request that reached the service.
func (s *PushService) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

func (s *PushService) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	down := s.down
	s.mu.Unlock()
	if down {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	reject := func(code int, format string, args ...any) {
		s.mu.Lock()
		s.rejections = append(s.rejections, fmt.Sprintf(format, args...))
		s.mu.Unlock()
		http.Error(w, http.StatusText(code), code)
	}
	id, ok := strings.CutPrefix(r.URL.Path, "/push/")
	s.mu.Lock()
	dev := s.devices[id]
	s.mu.Unlock()
	if r.Method != http.MethodPost || !ok || dev == nil {
		reject(http.StatusNotFound, "%s %s: no such subscription", r.Method, r.URL.Path)
		return
	}
	ttl, err := strconv.Atoi(r.Header.Get("TTL"))
	if err != nil || ttl < 0 {
		reject(http.StatusBadRequest, "TTL %q", r.Header.Get("TTL"))
		return
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		reject(http.StatusUnsupportedMediaType, "Content-Encoding %q", ce)
		return
	}
	claims, err := s.checkVAPID(r.Header.Get("Authorization"), time.Now())
	if err != nil {
		reject(http.StatusForbidden, "VAPID: %v", err)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		reject(http.StatusBadRequest, "body: %v", err)
		return
	}
	// RFC 8030 7.2: a push service need not take more than 4096 octets.
	if len(body) > 4096 {
		reject(http.StatusRequestEntityTooLarge, "body of %d octets", len(body))
		return
	}
	plain, err := Decrypt(body, dev.priv, dev.secret)
	if err != nil {
		reject(http.StatusBadRequest, "decrypt: %v", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if dev.gone {
		w.WriteHeader(http.StatusGone)
		return
	}
	if len(s.answers) > 0 {
		code := s.answers[0]
		s.answers = s.answers[1:]
		if code == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "120")
		}
		w.WriteHeader(code)
		return
	}
	s.deliveries = append(s.deliveries, PushDelivery{Device: dev.ID, Payload: plain, Urgency: r.Header.Get("Urgency"), TTL: ttl,
		Audience: claims.Aud, Subject: claims.Sub, Expires: time.Unix(claims.Exp, 0), BodyLen: len(body), At: time.Now()})
	w.Header().Set("Location", s.URL+"/message/"+strconv.Itoa(len(s.deliveries)))
	w.WriteHeader(http.StatusCreated)
}

type vapidClaims struct {
	Aud string `json:"aud"`
	Exp int64  `json:"exp"`
	Sub string `json:"sub"`
}

// checkVAPID verifies "vapid t=<JWT>, k=<key>" (RFC 8292 3).
func (s *PushService) checkVAPID(header string, now time.Time) (vapidClaims, error) {
	var c vapidClaims
	rest, ok := strings.CutPrefix(header, "vapid ")
	if !ok {
		return c, fmt.Errorf("scheme of %q is not vapid", header)
	}
	params := map[string]string{}
	for _, p := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		params[k] = v
	}
	if params["k"] != s.vapidB64 {
		return c, errors.New("k is not the key the subscription was made for")
	}
	parts := strings.Split(params["t"], ".")
	if len(parts) != 3 {
		return c, errors.New("t is not a JWT")
	}
	var head struct {
		Alg string `json:"alg"`
	}
	if err := decodeJSON(parts[0], &head); err != nil || head.Alg != "ES256" {
		return c, fmt.Errorf("JWT header: alg %q, %v", head.Alg, err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return c, errors.New("JWT signature is not 64 octets of base64url")
	}
	h := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(s.vapidKey, h[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return c, errors.New("JWT signature does not verify with the VAPID public key")
	}
	if err := decodeJSON(parts[1], &c); err != nil {
		return c, fmt.Errorf("JWT claims: %v", err)
	}
	if c.Aud != s.URL {
		return c, fmt.Errorf("aud %q, want the push service's origin %q", c.Aud, s.URL)
	}
	if exp := time.Unix(c.Exp, 0); !exp.After(now) || exp.After(now.Add(24*time.Hour)) {
		return c, fmt.Errorf("exp %v is not in the coming 24 hours", exp)
	}
	if c.Sub != s.subject {
		return c, fmt.Errorf("sub %q, want %q", c.Sub, s.subject)
	}
	return c, nil
}

func decodeJSON(seg string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Decrypt reads a Web Push message as the subscribed browser does (RFC
// 8291 with RFC 8188's aes128gcm), from the device's private key and
// auth secret. It insists on what RFC 8291 asks of a sender: one record,
// the sender's public key as the key id.
func Decrypt(body []byte, ua *ecdh.PrivateKey, authSecret []byte) ([]byte, error) {
	// Header: salt (16) | rs (4) | idlen (1) | keyid (idlen).
	if len(body) < 21 {
		return nil, errors.New("shorter than the aes128gcm header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("key id of %d octets, want the sender's 65-octet public key", idlen)
	}
	if rs < 18 {
		return nil, fmt.Errorf("record size %d", rs)
	}
	asPub, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, fmt.Errorf("sender key: %v", err)
	}
	records := body[21+idlen:]
	if len(records) == 0 || len(records) > int(rs) {
		return nil, fmt.Errorf("%d octets of records with rs %d: not one record", len(records), rs)
	}
	shared, err := ua.ECDH(asPub)
	if err != nil {
		return nil, err
	}
	mac := func(key []byte, parts ...[]byte) []byte {
		m := hmac.New(sha256.New, key)
		for _, p := range parts {
			m.Write(p)
		}
		return m.Sum(nil)
	}
	// RFC 8291 3.4: the input keying material from the ECDH secret and
	// the auth secret, bound to both public keys.
	prkKey := mac(authSecret, shared)
	keyInfo := append(append([]byte("WebPush: info\x00"), ua.PublicKey().Bytes()...), asPub.Bytes()...)
	ikm := mac(prkKey, keyInfo, []byte{1})
	// RFC 8188 2.2 and 2.3: content encryption key and nonce.
	prk := mac(salt, ikm)
	cek := mac(prk, []byte("Content-Encoding: aes128gcm\x00"), []byte{1})[:16]
	nonce := mac(prk, []byte("Content-Encoding: nonce\x00"), []byte{1})[:12]
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	// One record, sequence number 0: the nonce as derived.
	plain, err := gcm.Open(nil, nonce, records, nil)
	if err != nil {
		return nil, fmt.Errorf("AEAD: %v", err)
	}
	// Padding: zeros after a delimiter, 2 for the last record.
	end := len(plain) - 1
	for end >= 0 && plain[end] == 0 {
		end--
	}
	if end < 0 || plain[end] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:end], nil
}
