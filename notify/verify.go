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

// VerifySignature is the receiver's check of a delivery, and the README
// shows it verbatim for receivers to copy (a test keeps the two the same):
// header is the X-Signature-256 value, body the raw request body. It
// refuses a timestamp more than tolerance from now (a replay) and any
// signature not made with secret over that timestamp and that body.
func VerifySignature(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs [][]byte
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		if k == "t" && ts == "" {
			ts = v
		} else if k == "t" {
			return errors.New("two timestamps")
		} else if s, err := hex.DecodeString(v); k == "v1" && err == nil {
			sigs = append(sigs, s)
		}
	}
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("no timestamp")
	}
	if age := now.Sub(time.Unix(t, 0)); age > tolerance || age < -tolerance {
		return errors.New("timestamp too old or too new: a replay?")
	}
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "%d.", t)
	mac.Write(body)
	for _, s := range sigs {
		if hmac.Equal(s, mac.Sum(nil)) {
			return nil
		}
	}
	return errors.New("no valid signature")
}
