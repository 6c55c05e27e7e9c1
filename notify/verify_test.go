package notify

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// capture is a receiver that keeps the last request as sent.
type capture struct {
	mu     sync.Mutex
	header http.Header
	body   []byte
}

func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.header, c.body = r.Header.Clone(), b
	c.mu.Unlock()
}

// A delivery verifies when it arrives; the same bytes replayed six minutes
// later do not, nor with a fresh timestamp put in by someone without the
// secret, nor with another body, nor in the old unsigned-timestamp form.
func TestWebhookReplayFails(t *testing.T) {
	rc := &capture{}
	ts := httptest.NewServer(rc)
	defer ts.Close()
	secret := []byte(testSecret)
	body := []byte(`{"event":"lead.created","id":"lead-r"}`)
	sent := time.Now()
	if err := NewWebhook(ts.URL, testSecret).Post(context.Background(), "row-1", body); err != nil {
		t.Fatal(err)
	}
	sig := rc.header.Get(SignatureHeader)
	if !regexp.MustCompile(`^t=\d+,v1=[0-9a-f]{64}$`).MatchString(sig) || !strings.HasPrefix(sig, "t="+rc.header.Get(TimestampHeader)+",") {
		t.Fatalf("%s: %q (timestamp %q)", SignatureHeader, sig, rc.header.Get(TimestampHeader))
	}
	if err := VerifySignature(secret, sig, rc.body, sent.Add(time.Second), SignatureTolerance); err != nil {
		t.Fatalf("a fresh delivery does not verify: %v", err)
	}
	later := sent.Add(6 * time.Minute)
	var ts0 int64
	fmt.Sscanf(sig, "t=%d,", &ts0)
	v1 := sig[strings.Index(sig, "v1="):]
	// An attacker's own HMAC: the right construction, a guessed secret.
	forged := Sign([]byte("guessed-secret-0000"), rc.body, later)
	for _, c := range []struct {
		name, header string
		body         []byte
		now          time.Time
	}{
		{"replayed 6 minutes later", sig, rc.body, later},
		{"replayed with a fresh timestamp", fmt.Sprintf("t=%d,%s", later.Unix(), v1), rc.body, later},
		{"fresh timestamp first, captured one after", fmt.Sprintf("t=%d,%s,t=%d", later.Unix(), v1, ts0), rc.body, later},
		{"fresh timestamp, another encoding", fmt.Sprintf("t=+0%d, v1=%s", later.Unix(), strings.ToUpper(v1[3:])), rc.body, later},
		{"signed with a guessed secret", forged, rc.body, later},
		{"body changed", sig, []byte(strings.Replace(string(rc.body), "lead-r", "lead-x", 1)), sent},
		{"body with a byte added", sig, append(append([]byte{}, rc.body...), ' '), sent},
		{"the old scheme (body only)", "sha256=" + oldSign(secret, rc.body), rc.body, sent},
		{"from the future", Sign(secret, rc.body, sent.Add(6*time.Minute)), rc.body, sent},
		{"no signature", fmt.Sprintf("t=%d", ts0), rc.body, sent},
		{"largest timestamp", "t=9223372036854775807," + v1, rc.body, sent},
		{"smallest timestamp", "t=-9223372036854775808," + v1, rc.body, sent},
		{"empty timestamp", "t=," + v1, rc.body, sent},
		{"empty", "", rc.body, sent},
	} {
		if err := VerifySignature(secret, c.header, c.body, c.now, SignatureTolerance); err == nil {
			t.Errorf("%s: verified", c.name)
		}
	}
}

func oldSign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// What VerifySignature accepts: the edges of the tolerance, several v1
// (a receiver rotating secrets gets one per secret), upper-case hex.
func TestVerifySignatureAccepts(t *testing.T) {
	secret, body := []byte(testSecret), []byte(`{"id":"x"}`)
	at := time.Unix(1_800_000_000, 0)
	good := Sign(secret, body, at)
	other := Sign([]byte("an-older-secret-00000"), body, at)
	for _, c := range []struct {
		name, header string
		now          time.Time
	}{
		{"now", good, at},
		{"4m59s later", good, at.Add(4*time.Minute + 59*time.Second)},
		{"5 minutes early clock", good, at.Add(-5 * time.Minute)},
		{"rotation: another v1 first", other + "," + good[strings.Index(good, "v1="):], at},
		{"upper-case hex", "t=" + good[2:strings.Index(good, "v1=")] + "v1=" + strings.ToUpper(good[strings.Index(good, "v1=")+3:]), at},
		{"spaces after commas", strings.Replace(good, ",", ", ", 1), at},
	} {
		if err := VerifySignature(secret, c.header, body, c.now, SignatureTolerance); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// docs/notifications.md shows VerifySignature's code for receivers to
// copy, byte for byte: what is tested is what they copy.
func TestDocShowsVerifySignature(t *testing.T) {
	src, err := os.ReadFile("verify.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../docs/notifications.md")
	if err != nil {
		t.Fatal(err)
	}
	fn := regexp.MustCompile(`(?ms)^func VerifySignature\(.*?^}\n`).Find(src)
	if fn == nil {
		t.Fatal("no VerifySignature in verify.go")
	}
	if !strings.Contains(string(readme), "```go\n"+string(fn)+"```\n") {
		t.Errorf("docs/notifications.md does not show VerifySignature as verify.go has it:\n%s", fn)
	}
}
