package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
)

// Account sign-in and the Users and Audit Log screens (issue 8), as
// docs/leads-api.md specifies. Account tokens are bearer tokens like the
// PIN's, stored hashed in admin_sessions with the user's id; the PIN-gated
// tools refuse them and these endpoints refuse PIN tokens.

// Login limits (ADR 026). A browser that never signed in to the account
// is counted per client IP (the admin gate's ADMIN_MAX_ATTEMPTS per
// ADMIN_LOCKOUT) and per account (LoginAttemptsPerAccount in the same
// window), so a distributed guess at one account is bounded too. A
// browser holding a device token for the account (it signed in before)
// is counted per device only (LoginAttemptsPerDevice): strangers guessing
// at the owner's email cannot lock the owner out of it.
const (
	LoginAttemptsPerAccount = 10
	LoginAttemptsPerDevice  = 10
)

// deviceCookie carries the device token. It is sent only to the sign-in
// endpoint, never readable by scripts, never cross-site.
const deviceCookie = "admin_device"

// deviceKeySetting is the settings row holding the key device tokens are
// signed with, made once and shared by every instance.
const deviceKeySetting = "device_token_key"

// Messages of the account API.
const (
	msgInvalidLogin    = "Invalid email or password"
	msgLoginRequired   = "Please log in to access lead data"
	msgStaffRequired   = "Staff privileges required to view leads"
	msgAdminOnly       = "Only admins can manage accounts and read the audit log."
	msgAccountsBusy    = "Account data could not be loaded. Try again in a minute."
	msgLastAdmin       = "The last admin cannot be disabled or demoted."
	msgDuplicateEmail  = "An account with this email already exists."
	userKey            = "account_user"
	maxLoginBodyEmail  = 254
	auditActorUnknown  = "(unknown)"
	accountPageMaxSize = 200
)

// accountAPI holds the sign-in limits; it is built once by accountsAPI.
type accountAPI struct {
	s                                *Server
	ipLimit, emailLimit, deviceLimit guard.Attempts

	keyMu     sync.Mutex
	deviceKey []byte
}

// accountsAPI registers the account and leads endpoints. They sit beside
// the PIN-gated group, so the PIN group's catch-all does not shadow them.
func (s *Server) accountsAPI(e *echo.Echo) {
	a := &accountAPI{
		s:           s,
		ipLimit:     s.newAttempts("login-ip", s.cfg.Admin.MaxAttempts, s.cfg.Admin.Lockout),
		emailLimit:  s.newAttempts("login-account", LoginAttemptsPerAccount, s.cfg.Admin.Lockout),
		deviceLimit: s.newAttempts("login-device", LoginAttemptsPerDevice, s.cfg.Admin.Lockout),
	}
	e.POST("/api/admin/login", a.login)
	signedIn := a.require("")
	admin := a.require("admin")
	e.GET("/api/admin/me", a.me, signedIn)
	e.GET("/api/admin/users", a.listUsers, admin)
	e.POST("/api/admin/users", a.createUser, admin)
	e.PATCH("/api/admin/users/:id", a.updateUser, admin)
	e.GET("/api/admin/audit", a.listAudit, admin)
	s.leadsAPI(e, signedIn, a)
}

// roleOf is spec 6's resolution: admin wins, then staff, else none.
func roleOf(roles []string) string {
	has := func(r string) bool {
		for _, x := range roles {
			if x == r {
				return true
			}
		}
		return false
	}
	switch {
	case has("admin"):
		return "admin"
	case has("staff"):
		return "staff"
	}
	return ""
}

// require answers 401 without a live account session (a PIN token is not
// one), and 403 when the account's role is not enough: need "" admits
// admin and staff, "admin" admins only. The account is read on every
// request, so disabling it or changing its role takes effect at once.
func (a *accountAPI) require(need string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			token := bearer(c)
			if token == "" {
				return &StatusError{Status: http.StatusUnauthorized, Message: msgLoginRequired}
			}
			se, err := a.s.store.TouchSession(ctx, hashToken(token), time.Now().UTC(), a.s.cfg.Admin.TokenTTL)
			if errors.Is(err, db.ErrNotFound) || (err == nil && se.UserID == "") {
				return &StatusError{Status: http.StatusUnauthorized, Message: msgLoginRequired}
			}
			if err != nil {
				return &StatusError{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
			}
			u, err := a.s.store.UserByID(ctx, se.UserID)
			if errors.Is(err, db.ErrNotFound) || (err == nil && u.DisabledAt != nil) {
				a.s.store.RevokeSession(ctx, hashToken(token))
				return &StatusError{Status: http.StatusUnauthorized, Message: msgLoginRequired}
			}
			if err != nil {
				return &StatusError{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
			}
			c.Set(sessionKey, se)
			c.Set(userKey, u)
			role := roleOf(u.Roles)
			// /me answers every signed-in account: the screen shows
			// spec 6's 'Access Denied' for one without a role.
			if c.Path() != "/api/admin/me" {
				if role == "" {
					return &StatusError{Status: http.StatusForbidden, Title: "Access Denied", Message: msgStaffRequired}
				}
				if need == "admin" && role != "admin" {
					return &StatusError{Status: http.StatusForbidden, Title: "Access Denied", Message: msgAdminOnly}
				}
			}
			return next(c)
		}
	}
}

func currentUser(c echo.Context) db.User {
	u, _ := c.Get(userKey).(db.User)
	return u
}

// audit writes an audit row for the current request. A failure is
// logged, not shown: the action itself has happened.
func (s *Server) audit(c echo.Context, u db.User, action, leadID, detail string) {
	actor := u.Email
	if actor == "" {
		actor = auditActorUnknown
	}
	e := db.AuditEntry{At: time.Now().UTC(), UserID: u.ID, Actor: actor, Action: action, LeadID: leadID, Detail: detail, IP: c.RealIP()}
	if err := s.store.AddAudit(context.WithoutCancel(c.Request().Context()), e); err != nil {
		s.log.Error("audit log not written", "action", action, "err", err)
	}
}

// login exchanges an email and a password for an account token. Unknown
// email, wrong password, disabled account and an account without a role
// all get the same 401 after the same work (a hash comparison), so the
// answer tells an attacker nothing. The check goes through checkSecret:
// per IP and per account, reserved before the comparison.
func (a *accountAPI) login(c echo.Context) error {
	s := a.s
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := c.Bind(&in); err != nil || len(in.Email) > maxLoginBodyEmail || len(in.Password) > accounts.MaxPasswordLength*4 {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the email and password as JSON: {\"email\": \"...\", \"password\": \"...\"}."}
	}
	ctx := c.Request().Context()
	email := strings.ToLower(strings.TrimSpace(in.Email))
	if email == "" || in.Password == "" {
		return &StatusError{Status: http.StatusUnauthorized, Message: msgInvalidLogin}
	}
	ip := c.RealIP()
	u, err := s.store.UserByEmail(ctx, email)
	found := err == nil
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Sign-in is unavailable right now. Try again in a minute.", Err: err}
	}
	keys, trusted := a.loginKeys(c, ip, email, u, found)
	ok, err := s.checkSecret(ctx, c, "sign-ins", keys, func() bool {
		if !found {
			return accounts.VerifyNobody(in.Password)
		}
		match := accounts.VerifyPassword(u.PasswordHash, in.Password)
		return match && u.DisabledAt == nil && roleOf(u.Roles) != ""
	})
	if err != nil {
		return err
	}
	if !ok {
		s.log.Warn("admin: failed sign-in", "ip", ip, "known_account", found)
		failed := db.User{Email: email}
		if found {
			failed.ID = u.ID
		}
		s.audit(c, failed, db.AuditLoginFailed, "", "")
		return &StatusError{Status: http.StatusUnauthorized, Message: msgInvalidLogin}
	}
	token, hash, err := newToken()
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	se := db.Session{ID: newSessionID(), TokenHash: hash, UserID: u.ID, IP: ip, CreatedAt: now, HardExpiresAt: now.Add(SessionHardMax)}
	se.ExpiresAt = minTime(now.Add(s.cfg.Admin.TokenTTL), se.HardExpiresAt)
	if err := s.store.CreateSession(ctx, se); err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Could not start a session. Try again.", Err: err}
	}
	if err := s.store.RecordLogin(ctx, u.ID, now); err != nil {
		s.log.Error("last sign-in not recorded", "user", u.ID, "err", err)
	}
	if !trusted {
		a.trustDevice(c, u)
	}
	s.audit(c, u, db.AuditLogin, "", "")
	s.log.Info("admin: account signed in", "user", u.ID, "ip", ip, "known_device", trusted)
	return c.JSON(http.StatusOK, map[string]any{"token": token, "role": roleOf(u.Roles), "name": u.Name, "email": u.Email,
		"expiresAt": se.ExpiresAt.Format(time.RFC3339)})
}

// accountKey names an account's shared sign-in counter: the email and
// the account's login epoch, which a password reset or an unlock bumps,
// so the old failures stop counting everywhere at once (ADR 026). An
// unknown email is counted under the email alone, as if it existed.
func accountKey(email string, u db.User, found bool) string {
	if !found {
		return email
	}
	return email + "#" + strconv.FormatInt(u.LoginEpoch, 10)
}

// loginKeys chooses the counters a sign-in is checked against: the
// device's own when the browser holds a valid device token for this
// account, else the client IP's and the account's.
func (a *accountAPI) loginKeys(c echo.Context, ip, email string, u db.User, found bool) ([]limitKey, bool) {
	if found {
		if ck, err := c.Cookie(deviceCookie); err == nil {
			if key := a.key(c.Request().Context()); key != nil {
				if nonce, ok := accounts.VerifyDeviceToken(key, ck.Value, u.ID); ok {
					return []limitKey{{a.deviceLimit, u.ID + "|" + nonce}}, true
				}
			}
		}
	}
	return []limitKey{{a.ipLimit, ip}, {a.emailLimit, accountKey(email, u, found)}}, false
}

// trustDevice gives the browser that just signed in a device token for
// the account (a year, HttpOnly, SameSite=Strict, sent only to the
// sign-in endpoint, Secure behind https).
func (a *accountAPI) trustDevice(c echo.Context, u db.User) {
	key := a.key(c.Request().Context())
	if key == nil {
		return
	}
	c.SetCookie(&http.Cookie{
		Name: deviceCookie, Value: accounts.NewDeviceToken(key, u.ID), Path: "/api/admin/login",
		MaxAge: 365 * 24 * 3600, HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: strings.HasPrefix(a.s.cfg.BaseURL, "https://"),
	})
}

// key returns the device-token key, made at first use and shared by
// every instance through the settings table; nil while the database
// cannot be read (the sign-in then counts as from an unknown browser).
func (a *accountAPI) key(ctx context.Context) []byte {
	a.keyMu.Lock()
	defer a.keyMu.Unlock()
	if a.deviceKey != nil {
		return a.deviceKey
	}
	b := make([]byte, 32)
	rand.Read(b)
	if _, err := a.s.store.SetSettingIfAbsent(ctx, deviceKeySetting, hex.EncodeToString(b), time.Now().UTC()); err != nil {
		return nil
	}
	st, err := a.s.store.Settings(ctx)
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

func (a *accountAPI) me(c echo.Context) error {
	u := currentUser(c)
	return c.JSON(http.StatusOK, map[string]any{"id": u.ID, "email": u.Email, "name": u.Name, "roles": u.Roles, "role": roleOf(u.Roles)})
}

// userRow is one account on the Users screen, with whether strangers'
// failed sign-ins have locked it for browsers that never signed in to it.
type userRow struct {
	db.User
	SignInLocked bool       `json:"signInLocked"`
	LockedUntil  *time.Time `json:"lockedUntil"`
}

func (a *accountAPI) listUsers(c echo.Context) error {
	ctx := c.Request().Context()
	us, err := a.s.store.ListUsers(ctx)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
	}
	now := time.Now().UTC()
	rows := make([]userRow, 0, len(us))
	for _, u := range us {
		r := userRow{User: u}
		if locked, retry, err := a.emailLimit.Check(ctx, accountKey(u.Email, u, true), now); err == nil && locked {
			until := now.Add(retry).Truncate(time.Second)
			r.SignInLocked, r.LockedUntil = true, &until
		}
		rows = append(rows, r)
	}
	return c.JSON(http.StatusOK, map[string]any{"users": rows})
}

// hashNewPassword checks a password against the rules and hashes it
// inside the hash gate (argon2id is deliberately expensive).
func (s *Server) hashNewPassword(ctx context.Context, pw, email, name string) (string, error) {
	if err := accounts.CheckPassword(pw, email, name); err != nil {
		return "", &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
	}
	var hash string
	var herr error
	if err := s.hashGate.Do(ctx, func() { hash, herr = accounts.HashPassword(pw) }); err != nil {
		return "", &StatusError{Status: http.StatusServiceUnavailable, Message: "The server is busy. Try again in a few seconds.", Err: err}
	}
	return hash, herr
}

func (a *accountAPI) createUser(c echo.Context) error {
	s := a.s
	var in struct {
		Email, Name, Password, Role string
	}
	if err := c.Bind(&in); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the account as JSON: email, name, password and role."}
	}
	email, err := accounts.NormalizeEmail(in.Email)
	if err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
	}
	in.Name = strings.TrimSpace(in.Name)
	if err := accounts.CheckName(in.Name); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
	}
	if err := accounts.CheckRole(in.Role); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
	}
	ctx := c.Request().Context()
	hash, err := s.hashNewPassword(ctx, in.Password, email, in.Name)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	u := db.User{ID: uuid.NewString(), Email: email, Name: in.Name, PasswordHash: hash, CreatedAt: now, UpdatedAt: now, Roles: []string{in.Role}}
	if err := s.store.CreateUser(ctx, u); errors.Is(err, db.ErrDuplicate) {
		return &StatusError{Status: http.StatusConflict, Message: msgDuplicateEmail}
	} else if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The account could not be saved. Try again.", Err: err}
	}
	s.audit(c, currentUser(c), db.AuditUserCreated, "", fmt.Sprintf("%s (%s)", email, in.Role))
	return c.JSON(http.StatusCreated, map[string]any{"user": u})
}

func (a *accountAPI) updateUser(c echo.Context) error {
	s := a.s
	ctx := c.Request().Context()
	var in struct {
		Name     *string `json:"name"`
		Role     *string `json:"role"`
		Disabled *bool   `json:"disabled"`
		Password *string `json:"password"`
		Unlock   bool    `json:"unlock"`
	}
	if err := c.Bind(&in); err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the change as JSON: name, role, disabled, password or unlock."}
	}
	target, err := s.store.UserByID(ctx, c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusNotFound, Message: "No such account."}
	} else if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
	}
	ch := db.UserChange{Disabled: in.Disabled, Unlock: in.Unlock}
	var what []string
	if in.Unlock {
		what = append(what, "sign-in unlocked")
	}
	if in.Name != nil {
		n := strings.TrimSpace(*in.Name)
		if err := accounts.CheckName(n); err != nil {
			return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
		}
		ch.Name = &n
		what = append(what, "name")
	}
	if in.Role != nil {
		if err := accounts.CheckRole(*in.Role); err != nil {
			return &StatusError{Status: http.StatusBadRequest, Message: err.Error()}
		}
		ch.Role = in.Role
		what = append(what, "role="+*in.Role)
	}
	if in.Disabled != nil {
		what = append(what, "disabled="+strconv.FormatBool(*in.Disabled))
	}
	if in.Password != nil {
		name := target.Name
		if ch.Name != nil {
			name = *ch.Name
		}
		hash, err := s.hashNewPassword(ctx, *in.Password, target.Email, name)
		if err != nil {
			return err
		}
		ch.PasswordHash = &hash
		what = append(what, "password reset")
	}
	if len(what) == 0 {
		return &StatusError{Status: http.StatusBadRequest, Message: "Nothing to change."}
	}
	u, err := s.store.ChangeUser(ctx, target.ID, ch, time.Now().UTC())
	if errors.Is(err, db.ErrLastAdmin) {
		return &StatusError{Status: http.StatusConflict, Message: msgLastAdmin}
	} else if errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusNotFound, Message: "No such account."}
	} else if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The change could not be saved. Try again.", Err: err}
	}
	s.audit(c, currentUser(c), db.AuditUserUpdated, "", target.Email+": "+strings.Join(what, ", "))
	return c.JSON(http.StatusOK, map[string]any{"user": u})
}

// pageParams reads page and per_page (defaults 1 and 50, at most 200).
func pageParams(c echo.Context) (page, per int, err error) {
	page, per = 1, 50
	if v := c.QueryParam("page"); v != "" {
		if page, err = strconv.Atoi(v); err != nil || page < 1 || page > 1_000_000 {
			return 0, 0, &StatusError{Status: http.StatusBadRequest, Message: "Page must be a positive number."}
		}
	}
	if v := c.QueryParam("per_page"); v != "" {
		if per, err = strconv.Atoi(v); err != nil || per < 1 {
			return 0, 0, &StatusError{Status: http.StatusBadRequest, Message: "Per page must be a positive number."}
		}
		per = min(per, accountPageMaxSize)
	}
	return page, per, nil
}

func (a *accountAPI) listAudit(c echo.Context) error {
	page, per, err := pageParams(c)
	if err != nil {
		return err
	}
	entries, total, err := a.s.store.ListAudit(c.Request().Context(), per, (page-1)*per)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The audit log could not be loaded.", Err: err}
	}
	return c.JSON(http.StatusOK, map[string]any{"entries": entries, "total": total, "page": page, "perPage": per})
}

// noteFirstAdmin says at boot how to create the first admin account when
// there is none: the leads manager is closed until there is one.
func (s *Server) noteFirstAdmin(ctx context.Context) {
	if s.store == nil {
		return
	}
	if n, err := s.store.CountAdmins(ctx); err == nil && n == 0 {
		s.log.Info("no admin account yet: the Secure Leads Manager needs one. Create it with: site user add --email you@example.com --role admin")
	}
}
