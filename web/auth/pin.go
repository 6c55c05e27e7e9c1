package auth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/atlanta-restoration/site/db"
)

// PINHashKey is the settings key of a generated PIN's hash.
const PINHashKey = "admin_pin_hash"

// PINInUseKey records the hash of the PIN the last boot used, so a boot
// with a different PIN can tell that it changed and end every session the
// old PIN opened.
const PINInUseKey = "admin_pin_in_use"

// SetupPIN decides the admin PIN hash: ADMIN_PIN when configured (hashed
// here, never stored in clear), else a hash saved by an earlier boot, else
// a new random PIN whose hash is saved and which is printed once. When the
// PIN differs from the one the previous boot used, every PIN session is
// revoked.
//
// The in-use record is read once, before a hash is chosen: instances
// booting together on a fresh database each hash ADMIN_PIN with their own
// salt, and a second read would see the other's hash and take it for a
// PIN change.
func (a *Service) SetupPIN(ctx context.Context) error {
	prev, err := a.store.GetSetting(ctx, PINInUseKey)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return err
	}
	found := err == nil
	if found && a.cfg.PIN != "" && bcrypt.CompareHashAndPassword([]byte(prev), []byte(a.cfg.PIN)) == nil {
		a.pinHash = []byte(prev) // the same PIN as before
		return nil
	}
	if err := a.choosePIN(ctx); err != nil {
		return err
	}
	if found && prev == string(a.pinHash) { // the same generated PIN
		return nil
	}
	if found { // a PIN was in use before, and it is not this one
		n, err := a.store.RevokeUserSessions(ctx, "")
		if err != nil {
			return err
		}
		a.log.Warn("admin: the PIN changed; ended every session the old PIN opened", "revoked", n)
	}
	return a.store.SetSettings(ctx, map[string]string{PINInUseKey: string(a.pinHash)}, time.Now().UTC())
}

// PINCost is bcrypt's cost for the PIN's hash. The hash records its
// cost, so a change never affects how a stored hash is checked. The
// server's tests, which start hundreds of servers, lower it (ADR 053);
// nothing else does.
var PINCost = bcrypt.DefaultCost

// choosePIN hashes ADMIN_PIN, or loads (or generates once) a generated
// PIN's hash.
func (a *Service) choosePIN(ctx context.Context) error {
	if a.cfg.PIN != "" {
		h, err := bcrypt.GenerateFromPassword([]byte(a.cfg.PIN), PINCost)
		if err != nil {
			return err
		}
		a.pinHash = h
		return nil
	}
	if h, err := a.store.GetSetting(ctx, PINHashKey); err == nil {
		a.pinHash = []byte(h)
		return nil
	} else if !errors.Is(err, db.ErrNotFound) {
		return err
	}
	n, err := rand.Int(rand.Reader, big.NewInt(100_000_000))
	if err != nil {
		return err
	}
	pin := fmt.Sprintf("%08d", n.Int64())
	h, err := bcrypt.GenerateFromPassword([]byte(pin), PINCost)
	if err != nil {
		return err
	}
	stored, err := a.store.SetSettingIfAbsent(ctx, PINHashKey, string(h), time.Now().UTC())
	if err != nil {
		return err
	}
	if !stored { // another instance generated one first
		return a.choosePIN(ctx)
	}
	a.pinHash = h
	a.log.Warn("ADMIN_PIN is not set: generated an admin PIN. It is shown only this once; set ADMIN_PIN to choose your own.", "admin_pin", pin)
	return nil
}

// PINHash is the bcrypt hash of the PIN in force (tests compare boots).
func (a *Service) PINHash() []byte { return a.pinHash }
