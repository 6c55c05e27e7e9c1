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
)

// pinHashKey is the settings key of a generated PIN's hash.
const pinHashKey = "admin_pin_hash"

// setupPIN decides the admin PIN hash: ADMIN_PIN when configured (hashed
// here, never stored in clear), else a hash saved by an earlier boot, else
// a new random PIN whose hash is saved and which is printed once.
func (s *Server) setupPIN(ctx context.Context) error {
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
		return s.setupPIN(ctx)
	}
	s.pinHash = h
	s.log.Warn("ADMIN_PIN is not set: generated an admin PIN. It is shown only this once; set ADMIN_PIN to choose your own.", "admin_pin", pin)
	return nil
}

func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// unlock checks the PIN. Wrong PINs are counted per client IP; past the
// limit the answer is 429 with the time to wait. bcrypt's comparison does
// not return early on the first differing byte.
func (s *Server) unlock(c echo.Context) error {
	ip := c.RealIP()
	now := time.Now()
	if blocked, retry := s.pinLimit.Blocked(ip, now); blocked {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(retry.Seconds())+1))
		return &StatusError{Status: http.StatusTooManyRequests, Message: fmt.Sprintf("Too many incorrect PINs. Try again in %s.", roundUp(retry))}
	}
	var in struct {
		PIN string `json:"pin"`
	}
	if err := c.Bind(&in); err != nil || len(in.PIN) > 64 {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the PIN as JSON: {\"pin\": \"...\"}."}
	}
	if bcrypt.CompareHashAndPassword(s.pinHash, []byte(in.PIN)) != nil {
		s.pinLimit.Allow(ip, now)
		s.log.Warn("admin: incorrect PIN", "ip", ip)
		return &StatusError{Status: http.StatusUnauthorized, Message: "Incorrect PIN entered."}
	}
	s.pinLimit.Reset(ip)
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	exp := now.Add(s.cfg.Admin.TokenTTL).UTC()
	if err := s.store.CreateSession(c.Request().Context(), hashToken(token), now.UTC(), exp); err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Could not start an admin session.", Err: err}
	}
	s.store.DeleteExpiredSessions(c.Request().Context(), now.UTC())
	s.log.Info("admin: unlocked", "ip", ip)
	return c.JSON(http.StatusOK, map[string]any{"token": token, "expiresAt": exp.Format(time.RFC3339)})
}

// requireAdmin answers 401 unless the request carries a live token.
func (s *Server) requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		auth := c.Request().Header.Get("Authorization")
		token, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok || token == "" {
			return &StatusError{Status: http.StatusUnauthorized, Message: "Admin session required."}
		}
		valid, err := s.store.SessionValid(c.Request().Context(), hashToken(token), time.Now().UTC())
		if err != nil {
			return &StatusError{Status: http.StatusServiceUnavailable, Message: "Could not check the admin session.", Err: err}
		}
		if !valid {
			return &StatusError{Status: http.StatusUnauthorized, Message: "Admin session expired. Enter your PIN again."}
		}
		return next(c)
	}
}
