package leads

import (
	"bytes"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/db"
)

const site = "www.example-restoration.test"

func form(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

func TestParseAttribution(t *testing.T) {
	gclid := "Cj0KCQiA4-y8BhC3ARIsAHmjC_G2x0yHkzPEkUR8mW4rDJq3u2aP4p9e9Q1xN2YyLhJ4y_S0bZl9kaAvSOEALw_wcB"
	for _, tc := range []struct {
		name    string
		form    url.Values
		referer string
		want    Attribution
	}{
		{
			name: "with JavaScript: the fields the page kept for the visit",
			form: form("landing", "/water-damage-restoration-atlanta", "referrer", "www.Google.com", "utm_source", "google", "utm_medium", "cpc",
				"utm_campaign", "Burst pipes – winter", "utm_term", "water damage atlanta", "utm_content", "ad 2", "gclid", gclid,
				"gbraid", "0AAAAAoSc8", "wbraid", "CjkKEQiA", "fbclid", "IwAR2xyz_-", "msclkid", "0123456789abcdef0123456789abcdef",
				"device", "Mobile", "visit", "v1-4f3a9c2e"),
			referer: "https://" + site + "/estimate",
			want: Attribution{LandingPage: "/water-damage-restoration-atlanta", ReferrerHost: "www.google.com", UTMSource: "google", UTMMedium: "cpc",
				UTMCampaign: "Burst pipes – winter", UTMTerm: "water damage atlanta", UTMContent: "ad 2", GCLID: gclid, GBRAID: "0AAAAAoSc8",
				WBRAID: "CjkKEQiA", FBCLID: "IwAR2xyz_-", MSCLKID: "0123456789abcdef0123456789abcdef", DeviceClass: "mobile", VisitID: "v1-4f3a9c2e"},
		},
		{
			name:    "without JavaScript: what the form page's own address says",
			form:    form("name", "Maria"),
			referer: "https://example-restoration.test/estimate?utm_source=facebook&utm_medium=paid-social&fbclid=IwAR9&x=1#estimate-result",
			want:    Attribution{LandingPage: "/estimate", UTMSource: "facebook", UTMMedium: "paid-social", FBCLID: "IwAR9"},
		},
		{
			name:    "the landing address's query fills what the fields lack; the fields win",
			form:    form("landing", "https://"+site+"/areas/cobb/marietta?utm_source=bing&utm_campaign=spring&msclkid=abc123", "utm_source", "newsletter"),
			referer: "https://" + site + "/estimate?utm_term=from-the-form-page",
			want:    Attribution{LandingPage: "/areas/cobb/marietta", UTMSource: "newsletter", UTMCampaign: "spring", MSCLKID: "abc123", UTMTerm: "from-the-form-page"},
		},
		{
			name:    "another site's Referer says nothing",
			form:    url.Values{},
			referer: "https://evil.test/estimate?utm_source=evil&gclid=abc",
			want:    Attribution{},
		},
		{
			name:    "the site itself is no referrer",
			form:    form("referrer", "https://example-restoration.test/services", "landing", "/"),
			referer: "",
			want:    Attribution{LandingPage: "/"},
		},
		{
			name: "a referrer given as an address keeps its host only",
			form: form("referrer", "https://m.facebook.com/story.php?story_fbid=1&id=2"),
			want: Attribution{ReferrerHost: "m.facebook.com"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseAttribution(tc.form, tc.referer, site)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want, +got):\n%s", diff)
			}
		})
	}
}

// Hostile and oversized values are dropped, or (free text) cleaned and
// cut; none is stored as sent.
func TestParseAttributionHostile(t *testing.T) {
	long := strings.Repeat("a", 5000)
	for _, tc := range []struct {
		name, field, value string
		want               Attribution
	}{
		{"landing on another site", "landing", "https://evil.test/water", Attribution{}},
		{"landing protocol-relative", "landing", "//evil.test/water", Attribution{}},
		{"landing javascript", "landing", "javascript:alert(1)", Attribution{}},
		{"landing relative", "landing", "water-damage", Attribution{}},
		{"landing with credentials", "landing", "https://user:pw@" + site + "/", Attribution{}},
		{"landing with a newline", "landing", "/water\r\nSet-Cookie: x=1", Attribution{}},
		{"landing too long", "landing", "/" + strings.Repeat("x", MaxPathLen), Attribution{}},
		{"landing far too long", "landing", "/" + long, Attribution{}},
		{"landing with markup is escaped", "landing", "/a<script>b", Attribution{LandingPage: "/a%3Cscript%3Eb"}},
		{"landing with a backslash is escaped", "landing", `/\evil.test`, Attribution{LandingPage: "/%5Cevil.test"}},
		{"referrer an IPv4 address", "referrer", "http://10.0.0.7/admin", Attribution{}},
		{"referrer an IPv6 address", "referrer", "http://[::1]:8080/", Attribution{}},
		{"referrer with a port", "referrer", "evil.test:8080", Attribution{}},
		{"referrer a script", "referrer", "<script>alert(1)</script>", Attribution{}},
		{"referrer one label", "referrer", "localhost", Attribution{}},
		{"referrer unicode", "referrer", "gооgle.com", Attribution{}}, // Cyrillic o's
		{"referrer too long", "referrer", strings.Repeat("a.", 130) + "com", Attribution{}},
		{"referrer a label too long", "referrer", strings.Repeat("a", 64) + ".com", Attribution{}},
		{"utm oversized is cut", "utm_campaign", long, Attribution{UTMCampaign: strings.Repeat("a", MaxUTMLen)}},
		{"utm controls and bidi go", "utm_source", "goo\x00gle\u202e\r\n\tads\u200b", Attribution{UTMSource: "google ads"}},
		{"utm invalid UTF-8 goes", "utm_medium", "c\xffp\xfec", Attribution{UTMMedium: "cpc"}},
		{"utm only spaces", "utm_term", " \t\n ", Attribution{}},
		{"gclid with markup", "gclid", `abc"><img src=x onerror=alert(1)>`, Attribution{}},
		{"gclid with spaces", "gclid", "abc def", Attribution{}},
		{"gclid oversized", "gclid", strings.Repeat("A", MaxClickIDLen+1), Attribution{}},
		{"fbclid with a newline", "fbclid", "IwAR\nX-Evil: 1", Attribution{}},
		{"msclkid SQL", "msclkid", "1'; DROP TABLE avatar_leads;--", Attribution{}},
		{"device unknown", "device", "smart-fridge", Attribution{}},
		{"visit id too short", "visit", "abc", Attribution{}},
		{"visit id too long", "visit", strings.Repeat("a", MaxVisitIDLen+1), Attribution{}},
		{"visit id with markup", "visit", "abcdefgh<>", Attribution{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseAttribution(form(tc.field, tc.value), "", site)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s=%q (-want, +got):\n%s", tc.field, tc.value, diff)
			}
		})
	}
	// Every field at once, each oversized: everything stored is within
	// its bound and valid UTF-8.
	f := url.Values{}
	for _, k := range append([]string{"landing", "referrer", "device", "visit"}, AttributionParams...) {
		f.Set(k, "/"+strings.Repeat("é\x01", 3000))
	}
	got := ParseAttribution(f, "https://"+site+"/?"+strings.Repeat("utm_source=x&", 1000), site)
	for name, v := range map[string]string{"landing": got.LandingPage, "referrer": got.ReferrerHost, "utm_source": got.UTMSource,
		"utm_campaign": got.UTMCampaign, "gclid": got.GCLID, "device": got.DeviceClass, "visit": got.VisitID} {
		if !utf8.ValidString(v) || utf8.RuneCountInString(v) > MaxPathLen || strings.ContainsRune(v, 1) {
			t.Errorf("%s stored as %q", name, v)
		}
	}
	if got.UTMSource == "" || utf8.RuneCountInString(got.UTMSource) > MaxUTMLen {
		t.Errorf("utm_source %q", got.UTMSource)
	}
}

// The device classes are the analytics' own, so a lead and its visit
// agree.
func TestDeviceClassesAreTheAnalytics(t *testing.T) {
	for _, w := range []int{320, 800, 1200, 1920} {
		c := analytics.WidthClass(w)
		if got := ParseAttribution(form("device", c), "", site); got.DeviceClass != c {
			t.Errorf("width class %q not taken", c)
		}
	}
}

func TestValidEmail(t *testing.T) {
	for e, want := range map[string]bool{
		"maria@example.com": true, "m.gonzalez+roof@mail.example.co": true,
		"": false, "maria": false, "maria@localhost": false, "Maria <maria@example.com>": false, "maria@example.com, b@example.com": false,
		"maria@example.com\r\nBcc: x@evil.test": false, " maria@example.com": false, strings.Repeat("a", 250) + "@x.com": false,
	} {
		if got := ValidEmail(e); got != want {
			t.Errorf("ValidEmail(%q) = %v, want %v", e, got, want)
		}
	}
}

func TestCheckNote(t *testing.T) {
	if got, err := CheckNote("  Called back.\r\nVoicemail.  "); err != nil || got != "Called back.\nVoicemail." {
		t.Errorf("note %q %v", got, err)
	}
	for body, msg := range map[string]string{
		" \n\t":                           MsgNoteEmpty,
		"a\x00b":                          MsgNoteInvalid,
		"a\xffb":                          MsgNoteInvalid,
		strings.Repeat("é", MaxNoteLen+1): "Notes are too long (2000 characters at most).",
	} {
		if _, err := CheckNote(body); err == nil || err.Error() != msg {
			t.Errorf("CheckNote(%.20q) = %v, want %q", body, err, msg)
		}
	}
	if _, err := CheckNote(strings.Repeat("é", MaxNoteLen)); err != nil {
		t.Errorf("a note of exactly the limit: %v", err)
	}
}

// 'Export with source' adds the attribution after the spec's nine
// columns, neutralised like the rest.
func TestSourceCSV(t *testing.T) {
	var b bytes.Buffer
	w, err := NewSourceCSVWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	l := db.Lead{ID: "L1", FirstName: "Maria", Phone: "+17705550199", Status: "new",
		Attribution: Attribution{LandingPage: "/", UTMSource: "google", UTMCampaign: "=HYPERLINK(\"x\")", DeviceClass: "mobile"}}
	if err := w.Write(l); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], strings.Join(CSVHeader, ",")+",Street Address,ZIP,Insurance Carrier,Message,Landing Page,Referrer,UTM Source") {
		t.Fatalf("csv:\n%s", b.String())
	}
	if !strings.Contains(lines[1], `,/,,google,,"'=HYPERLINK(""x"")",`) || !strings.Contains(lines[1], ",mobile,") {
		t.Errorf("row %s", lines[1])
	}
	var plain bytes.Buffer
	pw, _ := NewCSVWriter(&plain)
	pw.Write(l)
	pw.Flush()
	if strings.Contains(plain.String(), "google") || strings.Count(strings.Split(plain.String(), "\n")[0], ",") != 12 {
		t.Errorf("the plain export changed:\n%s", plain.String())
	}
}
