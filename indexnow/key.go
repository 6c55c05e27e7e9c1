package indexnow

import (
	"context"
	"errors"
	"regexp"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// KeySetting is the settings key of the key saved from the admin screen.
const KeySetting = "indexnow_key"

// keyRE is a valid key: 8-128 letters, digits or dashes (the protocol's rule).
var keyRE = regexp.MustCompile(`^[a-zA-Z0-9-]{8,128}$`)

// ValidKey reports whether k is a valid IndexNow key.
func ValidKey(k string) bool { return keyRE.MatchString(k) }

// ErrFixedKey is returned when the admin tries to replace a key that
// INDEXNOW_KEY sets.
var ErrFixedKey = errors.New("indexnow: the key is set by INDEXNOW_KEY")

// ErrBadKey is returned for a key that breaks the protocol's rule.
var ErrBadKey = errors.New("indexnow: a key is 8-128 letters, digits or dashes")

// KeyStore keeps the saved key; *db.Store is one.
type KeyStore interface {
	GetSetting(ctx context.Context, key string) (string, error)
	SetSettings(ctx context.Context, kv map[string]string, now time.Time) error
}

// Keys resolves the key: INDEXNOW_KEY when it is configured, else the key
// generated on the admin screen and saved in settings.
type Keys struct {
	// Fixed is INDEXNOW_KEY ("" when unset).
	Fixed string
	Store KeyStore
}

// Key returns the key in force ("" when there is none) and whether it is
// the configured one.
func (k *Keys) Key(ctx context.Context) (key string, fixed bool, err error) {
	if k.Fixed != "" {
		return k.Fixed, true, nil
	}
	if k.Store == nil {
		return "", false, nil
	}
	v, err := k.Store.GetSetting(ctx, KeySetting)
	if errors.Is(err, db.ErrNotFound) {
		return "", false, nil
	}
	return v, false, err
}

// Save stores the admin's key. It fails with ErrFixedKey when INDEXNOW_KEY
// is set (the saved key would never be used) and ErrBadKey for a bad key.
func (k *Keys) Save(ctx context.Context, key string) error {
	if k.Fixed != "" {
		return ErrFixedKey
	}
	if !ValidKey(key) {
		return ErrBadKey
	}
	return k.Store.SetSettings(ctx, map[string]string{KeySetting: key}, time.Now().UTC())
}
