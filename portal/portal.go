// Package portal holds the rules of the private links to a lead's pages
// (ADR 065): the homeowner's /my/{token} and an insurer's /claim/{token}.
// A token is 128 random bits, written base64url (22 characters); only
// its SHA-256 is stored (db.LeadLink.TokenHash), so a copy of the
// database opens no page. No HTTP here: web/portal serves the pages.
package portal

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"
)

// TokenLen is the length of a token as it appears in a URL.
const TokenLen = 22

// Paths of the two pages: HomePath + token, ClaimPath + token.
const (
	HomePath  = "/my/"
	ClaimPath = "/claim/"
)

// Expiry rules.
const (
	// HomeAfterCompletion is how long a homeowner's link keeps working
	// after the job is marked completed.
	HomeAfterCompletion = 90 * 24 * time.Hour
	// AdjusterDefaultDays is an adjuster link's life unless the owner
	// chooses; AdjusterMaxDays bounds the owner's choice.
	AdjusterDefaultDays = 30
	AdjusterMaxDays     = 180
)

// NewToken returns a 128-bit random token (base64url, 22 characters) and
// its hash (hex SHA-256): only the hash is stored.
func NewToken() (token, hash string) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand does not fail on the systems Go supports (Go 1.24
		// documents it never returns an error).
		panic("portal: no randomness: " + err.Error())
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, Hash(token)
}

// Hash hashes a token presented in a URL ("" for a malformed one: the
// wrong length or a character outside base64url).
func Hash(token string) string {
	if len(token) != TokenLen {
		return ""
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(token)
	if err != nil || len(b) != 16 {
		return ""
	}
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
