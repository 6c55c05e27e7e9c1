package accounts

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// Device tokens are OWASP's "device cookies": after a successful
// sign-in the browser gets a token naming the account and a random
// nonce, signed with a server key. A sign-in that presents a valid token
// for the account it names is counted against that device alone, not
// against the account's shared limit, so strangers guessing at a known
// email cannot lock its owner out of a browser they used before (ADR 026).
// The token opens nothing by itself: it only chooses which counter a
// password check uses.

const deviceVersion = "d1"

// NewDeviceToken returns a signed device token for the account userID.
func NewDeviceToken(key []byte, userID string) string {
	n := make([]byte, 16)
	rand.Read(n)
	nonce := base64.RawURLEncoding.EncodeToString(n)
	return deviceVersion + "." + nonce + "." + base64.RawURLEncoding.EncodeToString(deviceMAC(key, userID, nonce))
}

// VerifyDeviceToken returns the token's nonce when token is a device token
// signed with key for the account userID.
func VerifyDeviceToken(key []byte, token, userID string) (nonce string, ok bool) {
	parts := strings.Split(token, ".")
	if len(key) == 0 || userID == "" || len(parts) != 3 || parts[0] != deviceVersion || len(parts[1]) != 22 {
		return "", false
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, deviceMAC(key, userID, parts[1])) {
		return "", false
	}
	return parts[1], true
}

func deviceMAC(key []byte, userID, nonce string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(deviceVersion + "|" + userID + "|" + nonce))
	return m.Sum(nil)
}
