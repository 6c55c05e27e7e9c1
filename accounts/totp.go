package accounts

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"image/color"
	"strings"
	"time"

	"github.com/boombuler/barcode/qr"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// The second factor (ASVS 6.3.2): TOTP codes from an
// authenticator app (RFC 6238: SHA-1, 6 digits, 30 s, as every app
// reads them) and ten single-use recovery codes. These functions are the
// rules; the store keeps the secret, the last step used and the hashed
// recovery codes.

// TOTPPeriod is the length of one TOTP step.
const TOTPPeriod = 30 * time.Second

// RecoveryCodeCount is how many recovery codes an enrolment makes.
const RecoveryCodeCount = 10

// NewTOTP makes a secret for account under issuer and the otpauth://
// URI an authenticator app reads from the QR code.
func NewTOTP(issuer, account string) (secret, uri string, err error) {
	k, err := totp.Generate(totp.GenerateOpts{Issuer: issuer, AccountName: account, Period: uint(TOTPPeriod / time.Second), SecretSize: 20,
		Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return "", "", fmt.Errorf("totp: %w", err)
	}
	return k.Secret(), keyURI(issuer, account, k.Secret()), nil
}

// keyURI is the otpauth:// URI of a TOTP secret in the Key URI Format
// authenticator apps read: the label "issuer:account" and the issuer
// parameter percent-encoded byte by byte (RFC 3986: everything but the
// unreserved characters), so a business name with "&", "+", "#" or
// spaces reads back exactly. (The library's own URI left "&" of the
// issuer unencoded, cutting "Avatar Restoration & Construction" short.)
// The label's parts may not hold a colon (apps split the label on the
// first one), so the label drops any; the issuer parameter keeps the name
// whole.
func keyURI(issuer, account, secret string) string {
	label := func(s string) string { return uriEscape(strings.ReplaceAll(s, ":", "")) }
	return "otpauth://totp/" + label(issuer) + ":" + label(account) +
		"?secret=" + secret + "&issuer=" + uriEscape(issuer) +
		"&algorithm=SHA1&digits=6&period=" + fmt.Sprint(int(TOTPPeriod/time.Second))
}

func uriEscape(s string) string {
	const hexd = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hexd[c>>4])
			b.WriteByte(hexd[c&15])
		}
	}
	return b.String()
}

// TOTPStep is the step number of t: codes are single use per step.
func TOTPStep(t time.Time) int64 { return t.Unix() / int64(TOTPPeriod/time.Second) }

// CheckTOTP reports whether code is the secret's code for now or for the
// step just before or after it (a clock a little off, a code typed at the
// turn of a step), and which step it matched. The caller refuses a step
// at or before the last one used, so a code works once.
func CheckTOTP(secret, code string, now time.Time) (step int64, ok bool) {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		return 0, false
	}
	for _, skew := range []int64{0, -1, 1} {
		s := TOTPStep(now) + skew
		want, err := totp.GenerateCodeCustom(secret, time.Unix(s*int64(TOTPPeriod/time.Second), 0), totp.ValidateOpts{
			Period: uint(TOTPPeriod / time.Second), Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
		if err != nil {
			return 0, false
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return s, true
		}
	}
	return 0, false
}

// TOTPCode is the code for secret at t (tests and the enrolment check).
func TOTPCode(secret string, t time.Time) (string, error) {
	return totp.GenerateCodeCustom(secret, t, totp.ValidateOpts{Period: uint(TOTPPeriod / time.Second), Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
}

// NewRecoveryCodes makes RecoveryCodeCount codes of 10 random base32
// characters (50 bits), shown as xxxxx-xxxxx, and their hashes to store.
func NewRecoveryCodes() (codes, hashes []string, err error) {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789" // no 0/o, 1/l/i
	for i := 0; i < RecoveryCodeCount; i++ {
		b := make([]byte, 10)
		if _, err := rand.Read(b); err != nil {
			return nil, nil, err
		}
		var sb strings.Builder
		for j, c := range b {
			if j == 5 {
				sb.WriteByte('-')
			}
			sb.WriteByte(alphabet[int(c)%len(alphabet)])
		}
		codes = append(codes, sb.String())
		hashes = append(hashes, HashRecoveryCode(sb.String()))
	}
	return codes, hashes, nil
}

// HashRecoveryCode is how a recovery code is stored: SHA-256 of its
// normalised form. The codes carry about 49 bits of randomness each and
// guesses are rate-limited, so a slow hash would add nothing.
func HashRecoveryCode(code string) string {
	c := strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(code), "-", ""), " ", ""))
	sum := sha256.Sum256([]byte("recovery|" + c))
	return hex.EncodeToString(sum[:])
}

// QRCodeSVG draws uri as a QR code in SVG, rendered on the server so the
// secret never goes to a third party and needs no script.
func QRCodeSVG(uri string) (string, error) {
	code, err := qr.Encode(uri, qr.M, qr.Auto)
	if err != nil {
		return "", fmt.Errorf("qr: %w", err)
	}
	b := code.Bounds()
	n := b.Dx()
	const quiet = 4
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" shape-rendering="crispEdges" role="img" aria-label="QR code for your authenticator app"><rect width="100%%" height="100%%" fill="#fff"/><path fill="#000" d="`,
		n+2*quiet, n+2*quiet, (n+2*quiet)*5, (n+2*quiet)*5)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if code.At(b.Min.X+x, b.Min.Y+y) == color.Black || isDark(code.At(b.Min.X+x, b.Min.Y+y)) {
				fmt.Fprintf(&sb, "M%d %dh1v1h-1z", x+quiet, y+quiet)
			}
		}
	}
	sb.WriteString(`"/></svg>`)
	return sb.String(), nil
}

func isDark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return r+g+b < 3*0x8000
}
