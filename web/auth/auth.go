// Package auth is the admin's one session model (ADR 030).
//
// There are two ways in: the PIN gate of spec 2.4, whose session is a
// bearer token kept in the browser's memory (a reload locks again), and
// an account (email, password, then a second factor), whose session is
// an HttpOnly, SameSite=Strict cookie that survives a reload. Both are
// rows of admin_sessions with their principal (the PIN, or an account)
// and a stage. One middleware, Require, checks a capability against the
// session's role; a cookie session's state-changing requests must also
// pass the CSRF check.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
)

// Principal is who a request is: its session, and for an account the
// account as it is now (read on every request, so a disable or a role
// change takes effect at once).
type Principal struct {
	Session db.Session
	User    *db.User
	Role    string
}

// IsPIN reports a PIN session.
func (p Principal) IsPIN() bool { return p.User == nil }

// Can reports whether the principal's role has c.
func (p Principal) Can(c accounts.Capability) bool { return accounts.Can(p.Role, c) }

// Account is the principal's account, or the zero User for the PIN.
func (p Principal) Account() db.User {
	if p.User == nil {
		return db.User{}
	}
	return *p.User
}

// Store is what sign-in and sessions need from the database (db.Store).
type Store interface {
	CreateSession(ctx context.Context, se db.Session) error
	TouchSession(ctx context.Context, tokenHash string, now time.Time, ttl time.Duration) (db.Session, error)
	SetSessionStage(ctx context.Context, tokenHash, from, to string) (bool, error)
	RevokeSession(ctx context.Context, tokenHash string) (bool, error)
	RevokeSessionByID(ctx context.Context, id string) error
	RevokeUserSessions(ctx context.Context, userID string) (int64, error)
	ListSessions(ctx context.Context, now time.Time) ([]db.Session, error)
	SessionsPage(ctx context.Context, now time.Time, q db.SessionQuery) ([]db.SessionView, int, error)
	DeleteExpiredSessions(ctx context.Context, now time.Time) error
	UserByEmail(ctx context.Context, email string) (db.User, error)
	UserByID(ctx context.Context, id string) (db.User, error)
	RecordLogin(ctx context.Context, id string, now time.Time) error
	AddAudit(ctx context.Context, e db.AuditEntry) error
	StartTOTP(ctx context.Context, userID, secret string) error
	ConfirmTOTP(ctx context.Context, userID, secret string, step int64, hashes []string, now time.Time) error
	UseTOTPStep(ctx context.Context, userID string, step int64) (bool, error)
	UseRecoveryCode(ctx context.Context, userID, hash string, now time.Time) (bool, error)
	RecoveryCodesLeft(ctx context.Context, userID string) (int, error)
	RenewRecoveryCodes(ctx context.Context, userID string, hashes []string) error
	GetSetting(ctx context.Context, key string) (string, error)
	Settings(ctx context.Context) (map[string]string, error)
	SetSettings(ctx context.Context, kv map[string]string, now time.Time) error
	SetSettingIfAbsent(ctx context.Context, key, value string, now time.Time) (bool, error)
}

// Config is the sign-in's part of the configuration.
type Config struct {
	// TokenTTL is how long a session lives without use (ADMIN_TOKEN_TTL).
	TokenTTL time.Duration
	// Lockout is the window of every sign-in limit (ADMIN_LOCKOUT).
	Lockout time.Duration
	// SecureCookies: the site is served over https (BASE_URL), so the
	// session cookie is Secure and __Host- prefixed.
	SecureCookies bool
	// Issuer names the site in authenticator apps.
	Issuer string
	// PIN is ADMIN_PIN ("" generates one at first boot).
	PIN string
}

// Limits are the race-safe counters of every secret check (guard): the
// server builds them, shared across instances on PostgreSQL.
type Limits struct {
	PIN          guard.Attempts // wrong PINs per client IP
	LoginIP      guard.Attempts // failed sign-ins per client IP
	LoginAccount guard.Attempts // per account, for unknown browsers (ADR 026)
	LoginDevice  guard.Attempts // per browser that signed in before
	CodeSession  guard.Attempts // wrong second-factor codes per session
	CodeAccount  guard.Attempts // wrong second-factor codes per account
}

// HardMax is the longest any session lives, however active it is.
const HardMax = 12 * time.Hour

// Per-limit sizes that are not configuration.
const (
	LoginAttemptsPerAccount = 10
	LoginAttemptsPerDevice  = 10
	CodeAttemptsPerSession  = 5
	CodeAttemptsPerAccount  = 10
)

// Service signs people in and checks every admin request.
type Service struct {
	store  Store
	cfg    Config
	log    *slog.Logger
	limits Limits
	gate   *guard.HashGate

	pinHash []byte

	keyMu     sync.Mutex
	deviceKey []byte

	// clock is time.Now, or a test's clock (second-factor codes follow it).
	clock func() time.Time

	// counts are the wrong secrets and the refusals by a limit, per kind
	// of secret (Counts, for /metrics).
	counts signInCounts
}

// SecretKinds are the secrets sign-in checks: the PIN, an account's
// password, a second-factor or recovery code.
var SecretKinds = []string{"pin", "password", "code"}

// signInCounts holds one counter per secret kind (SecretKinds' order).
type signInCounts struct {
	failures, lockouts [3]atomic.Uint64
}

// SignInCounts are the sign-in figures /metrics shows, per secret kind
// (SecretKinds): wrong secrets, and attempts refused because a limit was
// reached (429).
type SignInCounts struct {
	Failures, Lockouts map[string]uint64
}

// Counts reads the sign-in figures since the server started. They carry
// no account, address or secret.
func (a *Service) Counts() SignInCounts {
	out := SignInCounts{Failures: map[string]uint64{}, Lockouts: map[string]uint64{}}
	for i, k := range SecretKinds {
		out.Failures[k] = a.counts.failures[i].Load()
		out.Lockouts[k] = a.counts.lockouts[i].Load()
	}
	return out
}

// secretIndex is the counter of what checkSecret calls the secret.
func secretIndex(what string) int {
	switch what {
	case "PINs":
		return 0
	case "sign-ins":
		return 1
	}
	return 2
}

// SetLogger replaces the logger (a test captures what sign-in logs).
func (a *Service) SetLogger(l *slog.Logger) { a.log = l }

// SetClock makes the second factor read time from now (tests step it by
// 30 seconds, as codes are single use per step).
func (a *Service) SetClock(now func() time.Time) { a.clock = now }

func (a *Service) now() time.Time {
	if a.clock != nil {
		return a.clock().UTC()
	}
	return time.Now().UTC()
}

// New returns the sign-in service. Call SetupPIN before serving.
func New(store Store, cfg Config, limits Limits, gate *guard.HashGate, log *slog.Logger) *Service {
	return &Service{store: store, cfg: cfg, limits: limits, gate: gate, log: log}
}

// principalKey is where Require leaves the request's principal.
const principalKey = "auth.principal"

// From returns the request's principal (set by Require).
func From(c echo.Context) Principal {
	p, _ := c.Get(principalKey).(Principal)
	return p
}

// As leaves p as the request's principal, as Require does once the
// session is checked. A room's tests call its handlers through it as the
// caller they choose; the guards themselves are tested in server/.
func As(c echo.Context, p Principal) { c.Set(principalKey, p) }

// CookieName is the account session cookie's name: __Host- prefixed
// behind https (host-only, Secure, Path=/ enforced by the browser).
func (a *Service) CookieName() string {
	if a.cfg.SecureCookies {
		return "__Host-admin_session"
	}
	return "admin_session"
}

// credential is how a request presents its session.
type credential struct {
	token  string
	cookie bool
}

// credentialOf reads the bearer token, else the session cookie.
func (a *Service) credentialOf(c echo.Context) (credential, bool) {
	if t, ok := strings.CutPrefix(c.Request().Header.Get("Authorization"), "Bearer "); ok && strings.TrimSpace(t) != "" {
		return credential{token: strings.TrimSpace(t)}, true
	}
	if ck, err := c.Cookie(a.CookieName()); err == nil && ck.Value != "" {
		return credential{token: ck.Value, cookie: true}, true
	}
	return credential{}, false
}

// crossSite reports a state-changing request that must not be trusted
// with a cookie: without the header the admin app always sends (a form
// or a simple cross-site request cannot set it), or that the browser
// says came from another site.
func crossSite(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	if r.Header.Get("X-Requested-With") != "fetch" {
		return true
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return false
	}
	return true
}

// setCookie sets (or with token "" clears) the account session cookie.
func (a *Service) setCookie(c echo.Context, token string, expires time.Time) {
	ck := &http.Cookie{Name: a.CookieName(), Value: token, Path: "/", HttpOnly: true, Secure: a.cfg.SecureCookies, SameSite: http.SameSiteStrictMode}
	if token == "" {
		ck.MaxAge = -1
	} else {
		ck.Expires = expires
	}
	c.SetCookie(ck)
}

// hashToken is how tokens are stored.
func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// newToken returns a random 256-bit token and its stored hash.
func newToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token), nil
}

// newSessionID is a session's public id: listed and used to end it,
// unrelated to the token.
func newSessionID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// audit writes an audit row; a failure is logged, not shown (the action
// itself has happened).
func (a *Service) audit(c echo.Context, u db.User, action, detail string) {
	actor := u.Email
	if actor == "" {
		actor = "(unknown)"
	}
	e := db.AuditEntry{At: time.Now().UTC(), UserID: u.ID, Actor: actor, Action: action, Detail: detail, IP: c.RealIP()}
	if err := a.store.AddAudit(context.WithoutCancel(c.Request().Context()), e); err != nil {
		a.log.Error("audit log not written", "action", action, "err", err)
	}
}
