package leads

import (
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/atlanta-restoration/site/db"
)

// Attribution is where a lead's visit came from: the landing
// page, the referrer's host, the UTM parameters, the ad click ids, the
// device class and the visit id. Its stored form is db's, so that a
// spooled lead carries it; the rules that admit a value are here.
type Attribution = db.Attribution

// The estimate form's hidden fields that carry the attribution: named
// after the URL parameters they come from (utm_source, gclid, ...), and
// FieldLanding, FieldReferrer, FieldDevice and FieldVisit for what the
// page's script adds. The browser keeps them for the visit in
// sessionStorage, never in a cookie.
const (
	FieldLanding  = "landing"
	FieldReferrer = "referrer"
	FieldDevice   = "device"
	FieldVisit    = "visit"
)

// AttributionParams are the URL parameters kept, in the order the CSV
// export shows them.
var AttributionParams = []string{"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "gclid", "gbraid", "wbraid", "fbclid", "msclkid"}

// Bounds of the attribution, in runes for text and bytes for the rest.
const (
	// MaxUTMLen is Google Analytics' own limit for a campaign's values.
	MaxUTMLen = 100
	// MaxClickIDLen is well over the longest click id the ad platforms
	// issue (about 100 characters); a longer one is not theirs.
	MaxClickIDLen = 256
	MaxPathLen    = 256
	MaxHostLen    = 253
	MaxVisitIDLen = 64
	// maxRawURL is the longest landing or Referer address looked at.
	maxRawURL = 4096
)

// DeviceClasses are the screen classes a lead's device may be recorded
// as: analytics.WidthClass's, so a lead and its visit agree.
var DeviceClasses = []string{"mobile", "tablet", "laptop", "desktop"}

var (
	clickIDRE = regexp.MustCompile(`^[A-Za-z0-9._~+/=-]+$`)
	visitIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{8,64}$`)
	labelRE   = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
)

// ParseAttribution reads a lead's attribution from the estimate form's
// hidden fields and the Referer of the form's POST, on the server: every
// value is checked and bounded here, so nothing hostile or oversized is
// stored as sent. A value that fails its rule is dropped; free text (the
// UTM values) is cleaned and cut.
//
//   - The landing page is a path on this site (siteHost, with or without
//     www.): from the "landing" field (a path, or an absolute address on
//     this site), else the Referer's path when the Referer is this site
//     (without JavaScript the form's own page is the best there is). Its
//     query and fragment are not kept.
//   - The referrer is a host name, never this site's: from the
//     "referrer" field (a host or an address).
//   - Each UTM parameter and click id comes from its field, else from the
//     landing address's query, else from the Referer's query when the
//     Referer is this site (a visitor who landed on the form's page from
//     an ad, without JavaScript).
//   - The device class is one of DeviceClasses; the visit id 8 to 64
//     letters, digits, '-' or '_'.
func ParseAttribution(form url.Values, referer, siteHost string) Attribution {
	var a Attribution
	queries := []url.Values{form}
	if land, ok := siteURL(form.Get(FieldLanding), siteHost, true); ok {
		a.LandingPage = sitePath(land)
		queries = append(queries, land.Query())
	}
	if ref, ok := siteURL(referer, siteHost, false); ok {
		if a.LandingPage == "" && form.Get(FieldLanding) == "" {
			a.LandingPage = sitePath(ref)
		}
		queries = append(queries, ref.Query())
	}
	pick := func(name string) string {
		for _, q := range queries {
			if v := q.Get(name); v != "" {
				return v
			}
		}
		return ""
	}
	a.UTMSource = cleanText(pick("utm_source"), MaxUTMLen)
	a.UTMMedium = cleanText(pick("utm_medium"), MaxUTMLen)
	a.UTMCampaign = cleanText(pick("utm_campaign"), MaxUTMLen)
	a.UTMTerm = cleanText(pick("utm_term"), MaxUTMLen)
	a.UTMContent = cleanText(pick("utm_content"), MaxUTMLen)
	a.GCLID = clickID(pick("gclid"))
	a.GBRAID = clickID(pick("gbraid"))
	a.WBRAID = clickID(pick("wbraid"))
	a.FBCLID = clickID(pick("fbclid"))
	a.MSCLKID = clickID(pick("msclkid"))
	if h := hostName(form.Get(FieldReferrer)); h != "" && !sameHost(h, siteHost) {
		a.ReferrerHost = h
	}
	d := strings.ToLower(strings.TrimSpace(form.Get(FieldDevice)))
	for _, c := range DeviceClasses {
		if d == c {
			a.DeviceClass = c
		}
	}
	if v := strings.TrimSpace(form.Get(FieldVisit)); visitIDRE.MatchString(v) {
		a.VisitID = v
	}
	return a
}

// siteURL parses raw as an address on this site: a path (when pathOK)
// or an absolute http(s) address whose host is siteHost.
func siteURL(raw, siteHost string, pathOK bool) (*url.URL, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > maxRawURL || !utf8.ValidString(raw) || strings.ContainsFunc(raw, unicode.IsControl) {
		return nil, false
	}
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || u.User != nil {
		return nil, false
	}
	if u.Scheme == "" && u.Host == "" {
		return u, pathOK && strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "//")
	}
	return u, (u.Scheme == "https" || u.Scheme == "http") && siteHost != "" && sameHost(u.Hostname(), siteHost)
}

// sitePath is u's path as it goes on the wire, when it is a short site
// path ("" otherwise).
func sitePath(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || len(p) > MaxPathLen {
		return ""
	}
	return p
}

// hostName is raw's host name in lower case, when raw is a host name or
// an address with one: ASCII labels (IDNs as the browser sends them,
// punycode), at least two, the last not a number, so an IP address, a
// port, a path or a script is no host.
func hostName(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > maxRawURL {
		return ""
	}
	if strings.Contains(raw, "://") {
		u, err := url.Parse(raw)
		if err != nil {
			return ""
		}
		raw = u.Hostname()
	}
	h := strings.TrimSuffix(strings.ToLower(raw), ".")
	if h == "" || len(h) > MaxHostLen {
		return ""
	}
	labels := strings.Split(h, ".")
	if len(labels) < 2 || strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return ""
	}
	for _, l := range labels {
		if !labelRE.MatchString(l) {
			return ""
		}
	}
	return h
}

// sameHost compares host names without case and a leading www.
func sameHost(a, b string) bool {
	trim := func(s string) string { return strings.TrimPrefix(strings.ToLower(strings.TrimSuffix(s, ".")), "www.") }
	return trim(a) != "" && trim(a) == trim(b)
}

// clickID is v when it looks like an ad platform's click id (URL-safe
// base64 and a few more characters, at most MaxClickIDLen); a cut click
// id would be a wrong one, so anything else is dropped.
func clickID(v string) string {
	v = strings.TrimSpace(v)
	if len(v) > MaxClickIDLen || !clickIDRE.MatchString(v) {
		return ""
	}
	return v
}

// cleanText is free text as it may be stored and shown: valid UTF-8,
// without control or formatting characters (a bidi override could make
// a campaign read as another), spaces collapsed, at most max runes.
func cleanText(s string, max int) string {
	if len(s) > 4*maxRawURL {
		s = s[:4*maxRawURL]
	}
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsPrint(r):
			return r
		}
		return -1
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > max {
		s = strings.TrimSpace(string([]rune(s)[:max]))
	}
	return s
}

// MaxEmailLen is the longest address SMTP carries (RFC 5321).
const MaxEmailLen = 254

// ValidEmail reports whether e is one bare address that mail can go to:
// the estimate form's rule (net/mail parses it to itself, and its domain
// has a dot), no longer than MaxEmailLen. Mail the site sends to a
// visitor (the acknowledgement) goes only to such an address.
func ValidEmail(e string) bool {
	if e == "" || len(e) > MaxEmailLen || strings.ContainsFunc(e, unicode.IsControl) {
		return false
	}
	a, err := mail.ParseAddress(e)
	at := strings.LastIndex(e, "@")
	return err == nil && a.Address == e && at > 0 && strings.Contains(e[at:], ".")
}
