package accounts

import (
	"encoding/xml"
	"github.com/pquerna/otp"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestTOTP(t *testing.T) {
	secret, uri, err := NewTOTP("Avatar Restoration", "owner@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(uri, "otpauth://totp/") || !strings.Contains(uri, "secret="+secret) || !strings.Contains(uri, "issuer=Avatar") {
		t.Errorf("uri %q", uri)
	}
	now := time.Date(2026, 11, 25, 9, 30, 10, 0, time.UTC)
	for _, c := range []struct {
		name  string
		at    time.Time
		ok    bool
		delta int64
	}{
		{"this step", now, true, 0},
		{"the step before (clock behind)", now.Add(-TOTPPeriod), true, -1},
		{"the step after (clock ahead)", now.Add(TOTPPeriod), true, 1},
		{"two steps ago", now.Add(-2 * TOTPPeriod), false, 0},
		{"two steps ahead", now.Add(2 * TOTPPeriod), false, 0},
	} {
		code, err := TOTPCode(secret, c.at)
		if err != nil {
			t.Fatal(err)
		}
		step, ok := CheckTOTP(secret, code, now)
		if ok != c.ok || (ok && step != TOTPStep(now)+c.delta) {
			t.Errorf("%s: ok=%v step=%d, want ok=%v step=%d", c.name, ok, step, c.ok, TOTPStep(now)+c.delta)
		}
	}
	code, _ := TOTPCode(secret, now)
	if _, ok := CheckTOTP(secret, " "+code[:3]+" "+code[3:]+" ", now); !ok {
		t.Error("a code typed with spaces was refused")
	}
	for _, bad := range []string{"", "12345", "1234567", "abcdef", "12345a", strings.Repeat("9", 100)} {
		if _, ok := CheckTOTP(secret, bad, now); ok {
			t.Errorf("%q accepted", bad)
		}
	}
	other, _, _ := NewTOTP("x", "y")
	if _, ok := CheckTOTP(other, code, now); ok {
		t.Error("another secret's code accepted")
	}
}

func TestRecoveryCodes(t *testing.T) {
	codes, hashes, err := NewRecoveryCodes()
	if err != nil || len(codes) != RecoveryCodeCount || len(hashes) != RecoveryCodeCount {
		t.Fatalf("%d codes, %d hashes, %v", len(codes), len(hashes), err)
	}
	seen := map[string]bool{}
	for i, c := range codes {
		if len(c) != 11 || c[5] != '-' || seen[c] {
			t.Errorf("code %q", c)
		}
		seen[c] = true
		if HashRecoveryCode(c) != hashes[i] || HashRecoveryCode(" "+strings.ToUpper(strings.ReplaceAll(c, "-", ""))+" ") != hashes[i] {
			t.Errorf("code %q does not match its hash however it is typed", c)
		}
		if strings.Contains(hashes[i], c) {
			t.Error("hash holds the code")
		}
	}
}

func TestQRCodeSVG(t *testing.T) {
	_, uri, _ := NewTOTP("Avatar Restoration", "owner@example.com")
	svg, err := QRCodeSVG(uri)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name
		ViewBox string `xml:"viewBox,attr"`
		Path    struct {
			D string `xml:"d,attr"`
		} `xml:"path"`
	}
	if err := xml.Unmarshal([]byte(svg), &doc); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	if doc.XMLName.Local != "svg" || doc.ViewBox == "" || strings.Count(doc.Path.D, "M") < 100 {
		t.Errorf("svg %q with %d modules", doc.ViewBox, strings.Count(doc.Path.D, "M"))
	}
	if strings.Contains(svg, "<script") || strings.Contains(svg, "href") {
		t.Error("the SVG carries script or links")
	}
}

// The otpauth URI reads back exactly through two independent parsers
// (net/url, and the otp library's own key parser, as an app would), for
// business names with the characters that cut a query short.
func TestTOTPURIEncodesIssuerAndAccount(t *testing.T) {
	for _, c := range []struct{ issuer, account string }{
		{"Avatar Restoration & Construction", "owner@example.com"},
		{"A+B #1 Restoration?", "o'brien+admin@example.com"},
		{"Café Façades: 100% Dry", "jo@example.com"},
	} {
		secret, uri, err := NewTOTP(c.issuer, c.account)
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(uri)
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		q := u.Query()
		if u.Scheme != "otpauth" || u.Host != "totp" || q.Get("issuer") != c.issuer || q.Get("secret") != secret ||
			q.Get("digits") != "6" || q.Get("period") != "30" || q.Get("algorithm") != "SHA1" || len(q) != 5 {
			t.Errorf("%s: query %v", uri, q)
		}
		if label := strings.TrimPrefix(u.Path, "/"); label != strings.ReplaceAll(c.issuer, ":", "")+":"+c.account {
			t.Errorf("%s: label %q", uri, label)
		}
		k, err := otp.NewKeyFromURL(uri)
		if err != nil {
			t.Fatal(err)
		}
		if k.Issuer() != c.issuer || k.AccountName() != c.account || k.Secret() != secret || k.Period() != 30 {
			t.Errorf("%s: the otp library reads issuer %q, account %q", uri, k.Issuer(), k.AccountName())
		}
		if strings.ContainsAny(strings.TrimPrefix(uri, "otpauth://totp/"), " &#+") && strings.Count(uri, "&") != 4 {
			t.Errorf("%s: unencoded characters", uri)
		}
	}
}
