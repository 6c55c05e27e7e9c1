package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// VerifySignature is the receiver's check of a delivery, and
// docs/notifications.md shows it verbatim for receivers to copy (a test keeps the two the same):
// header is the X-Signature-256 value, body the raw request body. It
// refuses a timestamp more than tolerance from now (a replay) and any
// signature not made with secret over that timestamp and that body.
func VerifySignature(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	fields := map[string][]string{}
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		fields[k] = append(fields[k], v)
	}
	if len(fields["t"]) != 1 {
		return errors.New("not one timestamp")
	}
	t, err := strconv.ParseInt(fields["t"][0], 10, 64)
	if err != nil || now.Sub(time.Unix(t, 0)).Abs() > tolerance {
		return errors.New("timestamp unreadable or too far from now: a replay?")
	}
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "%d.%s", t, body)
	for _, v1 := range fields["v1"] {
		if sig, err := hex.DecodeString(v1); err == nil && hmac.Equal(sig, mac.Sum(nil)) {
			return nil
		}
	}
	return errors.New("no valid signature")
}
