package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
)

// pinHashKey is the settings key of a generated PIN's hash.
const pinHashKey = "admin_pin_hash"

// pinInUseKey records the hash of the PIN the last boot used, so a boot
// with a different PIN can tell that it changed and end every session the
// old PIN opened.
const pinInUseKey = "admin_pin_in_use"

// setupPIN decides the admin PIN hash: ADMIN_PIN when configured (hashed
// here, never stored in clear), else a hash saved by an earlier boot, else
// a new random PIN whose hash is saved and which is printed once. When the
// PIN differs from the one the previous boot used, every PIN session is
// revoked.
//
// The in-use record is read once, before a hash is chosen: instances
// booting together on a fresh database each hash ADMIN_PIN with their own
// salt, and a second read would see the other's hash and take it for a
// PIN change.
func (s *Server) setupPIN(ctx context.Context) error {
	if s.store == nil {
		return s.choosePIN(ctx)
	}
	prev, err := s.store.GetSetting(ctx, pinInUseKey)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return err
	}
	found := err == nil
	if found && s.cfg.Admin.PIN != "" && bcrypt.CompareHashAndPassword([]byte(prev), []byte(s.cfg.Admin.PIN)) == nil {
		s.pinHash = []byte(prev) // the same PIN as before
		return nil
	}
	if err := s.choosePIN(ctx); err != nil {
		return err
	}
	if found && prev == string(s.pinHash) { // the same generated PIN
		return nil
	}
	if found { // a PIN was in use before, and it is not this one
		n, err := s.store.RevokeUserSessions(ctx, "")
		if err != nil {
			return err
		}
		s.log.Warn("admin: the PIN changed; ended every session the old PIN opened", "revoked", n)
	}
	return s.store.SetSettings(ctx, map[string]string{pinInUseKey: string(s.pinHash)}, time.Now().UTC())
}

// choosePIN hashes ADMIN_PIN, or loads (or generates once) a generated
// PIN's hash.
func (s *Server) choosePIN(ctx context.Context) error {
	if s.cfg.Admin.PIN != "" {
		h, err := bcrypt.GenerateFromPassword([]byte(s.cfg.Admin.PIN), bcrypt.DefaultCost)
		if err != nil {
			return err
		}
		s.pinHash = h
		return nil
	}
	if s.store == nil {
		return errors.New("admin: no ADMIN_PIN and no database to keep a generated one")
	}
	if h, err := s.store.GetSetting(ctx, pinHashKey); err == nil {
		s.pinHash = []byte(h)
		return nil
	} else if !errors.Is(err, db.ErrNotFound) {
		return err
	}
	n, err := rand.Int(rand.Reader, big.NewInt(100_000_000))
	if err != nil {
		return err
	}
	pin := fmt.Sprintf("%08d", n.Int64())
	h, err := bcrypt.GenerateFromPassword([]byte(pin), bcrypt.DefaultCost)
	if err != nil {
		return err
	}
	stored, err := s.store.SetSettingIfAbsent(ctx, pinHashKey, string(h), time.Now().UTC())
	if err != nil {
		return err
	}
	if !stored { // another instance generated one first
		return s.choosePIN(ctx)
	}
	s.pinHash = h
	s.log.Warn("ADMIN_PIN is not set: generated an admin PIN. It is shown only this once; set ADMIN_PIN to choose your own.", "admin_pin", pin)
	return nil
}

func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// newToken returns a random 256-bit bearer token and its stored hash.
func newToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token), nil
}

// newSessionID is a session's public id: listed on the Security screen
// and used to revoke it, unrelated to the token.
func newSessionID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// SessionHardMax is the longest any admin or account session lives,
// however active it is.
const SessionHardMax = 12 * time.Hour

// Account sign-in (issue 8) follows docs/leads-api.md, the agreed API
// contract.
//
// checkSecret is the one rule for every PIN or password check: an attempt
// is reserved from each limiter before the hash comparison runs (so a
// parallel burst cannot get more than the limit checked), the comparison
// runs inside the server-wide hash gate, and only a success gives the
// attempts back. It returns a 429 StatusError when any key is out of
// attempts, a 503 when the gate is saturated, and whether compare matched.
func (s *Server) checkSecret(ctx context.Context, c echo.Context, what string, keys []limitKey, compare func() bool) (bool, error) {
	now := time.Now().UTC()
	var held []guard.Canceler
	release := func() {
		for _, r := range held {
			r.Cancel()
		}
	}
	for _, k := range keys {
		r, ok, retry, err := k.limiter.ReserveAttempt(ctx, k.key, now)
		if err != nil {
			// Fail closed: without a count there is no check.
			release()
			return false, &StatusError{Status: http.StatusServiceUnavailable, Message: "Sign-in is unavailable right now. Try again in a minute.", Err: err}
		}
		if !ok {
			release()
			c.Response().Header().Set("Retry-After", strconv.Itoa(int(retry.Seconds())+1))
			return false, &StatusError{Status: http.StatusTooManyRequests, Message: fmt.Sprintf("Too many incorrect %s. Try again in %s.", what, roundUp(retry))}
		}
		held = append(held, r)
	}
	var match bool
	if err := s.hashGate.Do(ctx, func() { match = compare() }); err != nil {
		release() // nothing was checked: the attempt does not count
		c.Response().Header().Set("Retry-After", "5")
		return false, &StatusError{Status: http.StatusServiceUnavailable, Message: "The server is busy checking other sign-ins. Try again in a few seconds.", Err: err}
	}
	if match {
		// Only the success's own attempt is given back. The failures stay
		// counted until they age out: resetting them here would let a
		// burst that contains the right secret get more wrong ones checked.
		release()
	}
	return match, nil
}

// limitKey names one limit a secret check counts against.
type limitKey struct {
	limiter guard.Attempts
	key     string
}

// newAttempts returns the limiter for one kind of attempt: shared through
// the database on PostgreSQL (several instances count together), in
// memory on SQLite (one process). The shared one never fails open: while
// the database cannot be read it counts in this process (guard.Fallback).
func (s *Server) newAttempts(scope string, max int, window time.Duration) guard.Attempts {
	if s.store != nil && s.store.Dialect() == "postgres" {
		return guard.NewFallback(s.store, scope, max, window, func(scope string, err error) {
			s.log.Warn("rate limit counted in this process: the database cannot be read", "limit", scope, "err", err)
		})
	}
	return guard.NewLimiter(max, window)
}

// unlock checks the PIN through checkSecret: at most ADMIN_MAX_ATTEMPTS
// wrong PINs per client IP are ever compared within ADMIN_LOCKOUT,
// whatever the concurrency; past that the answer is 429 with the time to
// wait, even for the right PIN. bcrypt's comparison is constant-time.
func (s *Server) unlock(c echo.Context) error {
	ip := c.RealIP()
	var in struct {
		PIN string `json:"pin"`
	}
	if err := c.Bind(&in); err != nil || len(in.PIN) > 64 {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the PIN as JSON: {\"pin\": \"...\"}."}
	}
	ctx := c.Request().Context()
	ok, err := s.checkSecret(ctx, c, "PINs", []limitKey{{s.pinLimit, ip}}, func() bool {
		return bcrypt.CompareHashAndPassword(s.pinHash, []byte(in.PIN)) == nil
	})
	if err != nil {
		return err
	}
	if !ok {
		s.log.Warn("admin: incorrect PIN", "ip", ip)
		return &StatusError{Status: http.StatusUnauthorized, Message: "Incorrect PIN entered."}
	}
	token, hash, err := newToken()
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	se := db.Session{ID: newSessionID(), TokenHash: hash, IP: ip, CreatedAt: now, HardExpiresAt: now.Add(SessionHardMax)}
	se.ExpiresAt = minTime(now.Add(s.cfg.Admin.TokenTTL), se.HardExpiresAt)
	if err := s.store.CreateSession(ctx, se); err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Could not start an admin session.", Err: err}
	}
	s.store.DeleteExpiredSessions(ctx, now)
	s.log.Info("admin: unlocked", "ip", ip)
	return c.JSON(http.StatusOK, map[string]any{"token": token, "expiresAt": se.ExpiresAt.Format(time.RFC3339)})
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// bearer returns the request's bearer token, or "".
func bearer(c echo.Context) string {
	token, ok := strings.CutPrefix(c.Request().Header.Get("Authorization"), "Bearer ")
	if !ok {
		return ""
	}
	return strings.TrimSpace(token)
}

// sessionKey is where requireAdmin leaves the request's session.
const sessionKey = "admin_session"

// requireAdmin answers 401 unless the request carries a live PIN session
// token. Each use slides the session's expiry (ADMIN_TOKEN_TTL of
// inactivity, never past SessionHardMax). Account tokens are not PIN
// sessions and do not open the PIN-gated tools.
func (s *Server) requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		token := bearer(c)
		if token == "" {
			return &StatusError{Status: http.StatusUnauthorized, Message: "Admin session required."}
		}
		se, err := s.store.TouchSession(c.Request().Context(), hashToken(token), time.Now().UTC(), s.cfg.Admin.TokenTTL)
		if errors.Is(err, db.ErrNotFound) || (err == nil && se.UserID != "") {
			return &StatusError{Status: http.StatusUnauthorized, Message: "Admin session expired. Enter your PIN again."}
		}
		if err != nil {
			return &StatusError{Status: http.StatusServiceUnavailable, Message: "Could not check the admin session.", Err: err}
		}
		c.Set(sessionKey, se)
		return next(c)
	}
}

// logout revokes the presented token, a PIN or an account session. It
// needs no live session: revoking an unknown or expired token is a no-op,
// and the answer is the same, so it reveals nothing.
func (s *Server) logout(c echo.Context) error {
	if token := bearer(c); token != "" {
		if _, err := s.store.RevokeSession(c.Request().Context(), hashToken(token)); err != nil {
			return &StatusError{Status: http.StatusServiceUnavailable, Message: "Could not end the session. Try again.", Err: err}
		}
	}
	return c.NoContent(http.StatusNoContent)
}

// SessionInfo is a live session as the Security screen lists it.
type SessionInfo struct {
	db.Session
	Kind    string `json:"kind"` // "pin" or "account"
	Current bool   `json:"current"`
}

// listSessions lists every live admin and account session, newest first,
// marking the caller's own.
func (s *Server) listSessions(c echo.Context) error {
	list, err := s.store.ListSessions(c.Request().Context(), time.Now().UTC())
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Could not read the sessions.", Err: err}
	}
	me, _ := c.Get(sessionKey).(db.Session)
	out := make([]SessionInfo, 0, len(list))
	for _, se := range list {
		kind := "pin"
		if se.UserID != "" {
			kind = "account"
		}
		out = append(out, SessionInfo{Session: se, Kind: kind, Current: se.ID == me.ID})
	}
	return c.JSON(http.StatusOK, map[string]any{"sessions": out})
}

// revokeSession ends any session by its public id.
func (s *Server) revokeSession(c echo.Context) error {
	id := c.Param("id")
	if err := s.store.RevokeSessionByID(c.Request().Context(), id); errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusNotFound, Message: "That session has already ended."}
	} else if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Could not end the session. Try again.", Err: err}
	}
	s.log.Info("admin: session revoked", "session", id, "by", c.RealIP())
	return c.NoContent(http.StatusNoContent)
}
