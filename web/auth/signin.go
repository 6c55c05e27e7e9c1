package auth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Messages of sign-in.
const (
	MsgInvalidLogin = "Invalid email or password"
	msgIncorrectPIN = "Incorrect PIN entered."
	msgLoginBody    = "Send the email and password as JSON: {\"email\": \"...\", \"password\": \"...\"}."
	msgPINBody      = "Send the PIN as JSON: {\"pin\": \"...\"}."
	msgNoSessionNow = "Could not start a session. Try again."
	msgSignInDown   = "Sign-in is unavailable right now. Try again in a minute."
)

// Session is a session as the admin app reads it (GET /api/admin/session
// and every sign-in answer).
type Session struct {
	Kind         string                `json:"kind"`  // "pin" or "account"
	Role         string                `json:"role"`  // "pin", "admin", "staff", or "" (an account without a role)
	Stage        string                `json:"stage"` // "full", "totp" or "enrol"
	Name         string                `json:"name"`
	Email        string                `json:"email"`
	Capabilities []accounts.Capability `json:"capabilities"`
	TwoFactor    bool                  `json:"twoFactor"`
	ExpiresAt    time.Time             `json:"expiresAt"`
}

// UnlockResult is POST /api/admin/unlock's answer: the PIN session's
// bearer token, kept in the browser's memory only.
type UnlockResult struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// LoginResult is POST /api/admin/login's answer (and the second factor's).
type LoginResult struct {
	Stage   string  `json:"stage"`
	Session Session `json:"session"`
	// RecoveryCodesLeft is sent after a sign-in with a code.
	RecoveryCodesLeft *int `json:"recoveryCodesLeft,omitempty"`
	// RecoveryCodes are sent once, when an enrolment is confirmed.
	RecoveryCodes []string `json:"recoveryCodes,omitempty"`
}

func (a *Service) view(p Principal) Session {
	s := Session{Kind: "pin", Role: p.Role, Stage: p.Session.Stage, ExpiresAt: p.Session.ExpiresAt, Capabilities: accounts.Capabilities(p.Role)}
	if s.Capabilities == nil {
		s.Capabilities = []accounts.Capability{}
	}
	if p.User != nil {
		s.Kind, s.Name, s.Email, s.TwoFactor = "account", p.User.Name, p.User.Email, p.User.TOTPSecret != ""
	}
	if s.Stage != db.StageFull {
		s.Capabilities = []accounts.Capability{}
	}
	return s
}

// Unlock checks the PIN: at most the limit of wrong PINs per client IP
// are ever compared within ADMIN_LOCKOUT, whatever the concurrency; past
// that the answer is 429 with the time to wait, even for the right PIN.
// bcrypt's comparison is constant-time.
func (a *Service) Unlock(c echo.Context) error {
	ip := c.RealIP()
	var in struct {
		PIN string `json:"pin"`
	}
	if err := c.Bind(&in); err != nil || len(in.PIN) > 64 {
		return httperr.New(http.StatusBadRequest, msgPINBody)
	}
	ctx := c.Request().Context()
	ok, err := a.checkSecret(ctx, c, "PINs", []limitKey{{a.limits.PIN, guard.ClientKey(ip)}}, true, func() bool {
		return bcrypt.CompareHashAndPassword(a.pinHash, []byte(in.PIN)) == nil
	})
	if err != nil {
		return err
	}
	if !ok {
		a.log.Warn("admin: incorrect PIN", "ip", ip)
		return httperr.New(http.StatusUnauthorized, msgIncorrectPIN)
	}
	token, se, err := a.startSession(ctx, ip, "", db.StageFull)
	if err != nil {
		return err
	}
	a.log.Info("admin: unlocked", "ip", ip)
	return c.JSON(http.StatusOK, UnlockResult{Token: token, ExpiresAt: se.ExpiresAt})
}

// startSession stores a new session and returns its token.
func (a *Service) startSession(ctx context.Context, ip, userID, stage string) (string, db.Session, error) {
	token, hash, err := newToken()
	if err != nil {
		return "", db.Session{}, err
	}
	now := time.Now().UTC()
	se := db.Session{ID: newSessionID(), TokenHash: hash, UserID: userID, IP: ip, CreatedAt: now, LastSeenAt: now, HardExpiresAt: now.Add(HardMax), Stage: stage}
	se.ExpiresAt = now.Add(a.cfg.TokenTTL)
	if se.ExpiresAt.After(se.HardExpiresAt) {
		se.ExpiresAt = se.HardExpiresAt
	}
	if err := a.store.CreateSession(ctx, se); err != nil {
		return "", db.Session{}, httperr.Unavailable(msgNoSessionNow, err)
	}
	a.store.DeleteExpiredSessions(ctx, now)
	return token, se, nil
}

// Login exchanges an email and a password for an account session in a
// cookie. Unknown email, wrong password, disabled account and an account
// without a role all get the same 401 after the same work (a hash
// comparison), so the answer tells an attacker nothing. The session
// starts at stage "totp" when the account has an authenticator, "enrol"
// for an admin without one (the second factor is required of admins),
// else "full".
func (a *Service) Login(c echo.Context) error {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := c.Bind(&in); err != nil || len(in.Email) > 254 || len(in.Password) > accounts.MaxPasswordLength*4 {
		return httperr.New(http.StatusBadRequest, msgLoginBody)
	}
	ctx := c.Request().Context()
	email := strings.ToLower(strings.TrimSpace(in.Email))
	if email == "" || in.Password == "" {
		return httperr.New(http.StatusUnauthorized, MsgInvalidLogin)
	}
	ip := c.RealIP()
	u, err := a.store.UserByEmail(ctx, email)
	found := err == nil
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable(msgSignInDown, err)
	}
	keys, trusted := a.loginKeys(c, ip, email, u, found)
	ok, err := a.checkSecret(ctx, c, "sign-ins", keys, true, func() bool {
		if !found {
			return accounts.VerifyNobody(in.Password)
		}
		match := accounts.VerifyPassword(u.PasswordHash, in.Password)
		return match && u.DisabledAt == nil && accounts.RoleOf(u.Roles) != ""
	})
	if err != nil {
		return err
	}
	if !ok {
		a.log.Warn("admin: failed sign-in", "ip", ip, "known_account", found)
		failed := db.User{Email: email}
		if found {
			failed.ID = u.ID
		}
		a.audit(c, failed, db.AuditLoginFailed, "")
		return httperr.New(http.StatusUnauthorized, MsgInvalidLogin)
	}
	stage := db.StageFull
	switch {
	case u.TOTPSecret != "":
		stage = db.StageTOTP
	case accounts.RoleOf(u.Roles) == accounts.RoleAdmin:
		stage = db.StageEnrol
	}
	token, se, err := a.startSession(ctx, ip, u.ID, stage)
	if err != nil {
		return err
	}
	a.setCookie(c, token, se.HardExpiresAt)
	if stage == db.StageFull {
		a.signedIn(c, u, "")
	}
	a.log.Info("admin: password accepted", "user", u.ID, "ip", ip, "known_device", trusted, "stage", stage)
	return c.JSON(http.StatusOK, LoginResult{Stage: stage, Session: a.view(Principal{Session: se, User: &u, Role: accounts.RoleOf(u.Roles)})})
}

// signedIn records a finished sign-in and trusts the browser for the
// account's next sign-ins (ADR 026): only a sign-in that passed every
// factor earns a device token.
func (a *Service) signedIn(c echo.Context, u db.User, detail string) {
	a.trustDevice(c, u)
	if err := a.store.RecordLogin(c.Request().Context(), u.ID, time.Now().UTC()); err != nil {
		a.log.Error("last sign-in not recorded", "user", u.ID, "err", err)
	}
	a.audit(c, u, db.AuditLogin, detail)
}

// DeviceCookie carries the device token (ADR 026). It is sent only to
// the sign-in endpoint, never readable by scripts, never cross-site.
const DeviceCookie = "admin_device"

// deviceKeySetting is the settings row holding the key device tokens are
// signed with, made once and shared by every instance.
const deviceKeySetting = "device_token_key"

// accountKey names an account's shared sign-in counter: the email and
// the account's login epoch, which a password reset or an unlock bumps,
// so the old failures stop counting everywhere at once (ADR 026). An
// unknown email is counted under the email alone, as if it existed.
func AccountKey(email string, u db.User, found bool) string {
	if !found {
		return email
	}
	return email + "#" + strconv.FormatInt(u.LoginEpoch, 10)
}

// loginKeys chooses the counters a sign-in is checked against: the
// device's own when the browser holds a valid device token for this
// account, else the client IP's and the account's.
func (a *Service) loginKeys(c echo.Context, ip, email string, u db.User, found bool) ([]limitKey, bool) {
	if found {
		if ck, err := c.Cookie(DeviceCookie); err == nil {
			if key := a.key(c.Request().Context()); key != nil {
				if nonce, ok := accounts.VerifyDeviceToken(key, ck.Value, u.ID); ok {
					return []limitKey{{a.limits.LoginDevice, u.ID + "|" + nonce}}, true
				}
			}
		}
	}
	return []limitKey{{a.limits.LoginIP, guard.ClientKey(ip)}, {a.limits.LoginAccount, AccountKey(email, u, found)}}, false
}

// AccountLocked reports whether strangers' failed sign-ins have used up
// the account's limit for browsers that never signed in to it, and until
// when (the Users screen shows it).
func (a *Service) AccountLocked(ctx context.Context, u db.User, now time.Time) (bool, time.Time) {
	locked, retry, err := a.limits.LoginAccount.Check(ctx, AccountKey(u.Email, u, true), now)
	if err != nil || !locked {
		return false, time.Time{}
	}
	return true, now.Add(retry).Truncate(time.Second)
}

// trustDevice gives the browser that just signed in a device token for
// the account (a year, HttpOnly, SameSite=Strict, sent only to the
// sign-in endpoint, Secure behind https).
func (a *Service) trustDevice(c echo.Context, u db.User) {
	key := a.key(c.Request().Context())
	if key == nil {
		return
	}
	c.SetCookie(&http.Cookie{
		Name: DeviceCookie, Value: accounts.NewDeviceToken(key, u.ID), Path: "/api/admin/login",
		MaxAge: 365 * 24 * 3600, HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: a.cfg.SecureCookies,
	})
}

// key returns the device-token key, made at first use and shared by
// every instance through the settings table; nil while the database
// cannot be read (the sign-in then counts as from an unknown browser).
func (a *Service) key(ctx context.Context) []byte {
	a.keyMu.Lock()
	defer a.keyMu.Unlock()
	if a.deviceKey != nil {
		return a.deviceKey
	}
	b := make([]byte, 32)
	rand.Read(b)
	if _, err := a.store.SetSettingIfAbsent(ctx, deviceKeySetting, hex.EncodeToString(b), time.Now().UTC()); err != nil {
		return nil
	}
	st, err := a.store.Settings(ctx)
	if err != nil {
		return nil
	}
	k, err := hex.DecodeString(st[deviceKeySetting])
	if err != nil || len(k) != 32 {
		return nil
	}
	a.deviceKey = k
	return k
}
