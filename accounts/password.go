// Package accounts holds the rules of the Secure Leads Manager's accounts
// (spec 6): password hashing (argon2id), the password and email
// rules, roles, and the `site user` command line. Storage is db's; the
// HTTP handlers are server's.
package accounts

import (
	"bufio"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"github.com/atlanta-restoration/site/db"
)

// argon2id parameters: OWASP's recommended minimum (19 MiB, 2 passes, one
// lane). A comparison takes ~30-60 ms of one core; the server runs them
// inside its hash gate, so a burst of sign-ins cannot take every core.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024
	argonThreads = 1
	argonKeyLen  = 32
	saltLen      = 16
)

// Cost is the argon2id cost (passes, KiB of memory) of new password
// hashes. A hash records its own parameters, so a change never affects
// how a stored hash is checked. The server's tests, which create
// hundreds of accounts, lower it (ADR 053); nothing else does.
var Cost = struct{ Time, Memory uint32 }{argonTime, argonMemory}

// MinPasswordLength is the shortest password accepted.
const MinPasswordLength = 12

// MaxPasswordLength bounds what is hashed (a megabyte password would be a
// cheap way to burn CPU).
const MaxPasswordLength = 256

//go:embed common-passwords.txt
var commonList string

var common = func() map[string]bool {
	m := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(commonList))
	for sc.Scan() {
		if w := strings.TrimSpace(sc.Text()); w != "" && !strings.HasPrefix(w, "#") {
			m[strings.ToLower(w)] = true
		}
	}
	return m
}()

// CheckPassword says why a password is not acceptable, or nil. email and
// name are the account's: a password that is one of them is refused too.
func CheckPassword(pw, email, name string) error {
	n := utf8.RuneCountInString(pw)
	switch {
	case n < MinPasswordLength:
		return fmt.Errorf("Password must be at least %d characters.", MinPasswordLength)
	case n > MaxPasswordLength:
		return fmt.Errorf("Password must be at most %d characters.", MaxPasswordLength)
	}
	low := strings.ToLower(pw)
	if common[low] || common[strings.TrimRight(low, "0123456789!@#$%^&*.?-_ ")] || isRepetitive(low) {
		return errors.New("This password is too common. Choose a longer phrase that is not easy to guess.")
	}
	local, _, _ := strings.Cut(strings.ToLower(email), "@")
	if low == strings.ToLower(email) || (len(local) >= 4 && strings.Contains(low, local)) || (name != "" && low == strings.ToLower(strings.ReplaceAll(name, " ", ""))) {
		return errors.New("The password must not contain the account's email or name.")
	}
	return nil
}

// isRepetitive catches "aaaaaaaaaaaa" and "abcabcabcabc": passwords made of
// one short repeated unit.
func isRepetitive(s string) bool {
	for unit := 1; unit <= 4 && unit < len(s); unit++ {
		if strings.Repeat(s[:unit], len(s)/unit+1)[:len(s)] == s {
			return true
		}
	}
	return false
}

// HashPassword returns the argon2id hash of pw in the PHC string format.
func HashPassword(pw string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	t, m := Cost.Time, Cost.Memory
	key := argon2.IDKey([]byte(pw), salt, t, m, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, m, t, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword reports whether pw matches the encoded hash, in constant
// time. A malformed hash never matches.
func VerifyPassword(encoded, pw string) bool {
	if len(pw) > MaxPasswordLength*4 {
		return false
	}
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || m > 256*1024 || t == 0 || t > 10 || p == 0 {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	key, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(key) == 0 || len(key) > 64 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1
}

// dummyHash is compared against when the email is unknown, so an unknown
// account takes as long to refuse as a wrong password.
var dummyHash, _ = HashPassword("not a real password: timing only")

// VerifyNobody spends the time of one comparison and never matches.
func VerifyNobody(pw string) bool {
	VerifyPassword(dummyHash, pw)
	return false
}

// NormalizeEmail trims and lower-cases an email and checks its shape.
func NormalizeEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || len(e) > 254 || !strings.Contains(e[strings.LastIndex(e, "@")+1:], ".") {
		return "", errors.New("Enter a valid email address, like name@example.com.")
	}
	return e, nil
}

// CheckRole says whether role is an account role (db.Roles).
func CheckRole(role string) error {
	if !slices.Contains(db.Roles, role) {
		return errors.New("Role must be admin, staff or editor.")
	}
	return nil
}

// CheckName bounds a display name.
func CheckName(name string) error {
	if utf8.RuneCountInString(name) > 100 {
		return errors.New("Name must be at most 100 characters.")
	}
	if strings.ContainsAny(name, "\x00\r\n") {
		return errors.New("Name must be a single line.")
	}
	return nil
}
