package analytics

import (
	"math"
	"net/url"
	pathpkg "path"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
)

// Intake (ADR 029): every field of a beacon is checked before
// it becomes an event, whatever the edge middleware already refused, so
// that no event can hold text a database refuses (a NUL, invalid UTF-8,
// a character cut in half), junk that would show on the Analytics screen
// (a page the site does not serve, an implausible measurement) or
// unbounded text.

// Beacon is what client/beacon.ts sends to POST /api/collect.
type Beacon struct {
	Type        string  `json:"t"`
	Path        string  `json:"p"`
	Referrer    string  `json:"r"`
	Width       int     `json:"w"`
	UTMSource   string  `json:"us"`
	UTMMedium   string  `json:"um"`
	UTMCampaign string  `json:"uc"`
	Metric      string  `json:"m"`
	Value       float64 `json:"v"`
}

// Bounds of the free text an event keeps.
const (
	MaxPath = 300
	MaxUTM  = 100
	MaxHost = 253
)

// VitalRanges are the plausible values of each Core Web Vital
// (db.VitalRanges). A value outside is not a measurement of a page
// someone used (an LCP of minutes is a tab left in the background or a
// forged beacon) and is dropped, so it cannot move a percentile.
var VitalRanges = db.VitalRanges

// Metrics are the Core Web Vitals collected, in the screen's order.
var Metrics = []string{"LCP", "INP", "CLS", "FCP", "TTFB"}

// PlausibleVital reports whether v is a value metric can have.
func PlausibleVital(metric string, v float64) bool {
	max, ok := VitalRanges[metric]
	return ok && !math.IsNaN(v) && v >= 0 && v <= max
}

// Intake turns beacons into events.
type Intake struct {
	// Pages are the paths the site serves (the route table's concrete
	// paths, without admin pages and redirects) and their page kind. A
	// page view of any other path is a not-found page view.
	Pages map[string]string
	// Places names the place of an area page.
	Places *Places
	// SiteHost is the site's own host: a referrer from it is internal.
	SiteHost string
}

// Event checks a beacon and makes the event it stands for, without its
// visitor id. ok is false when the beacon is dropped: an unknown kind, a
// path that is not one, an admin page, a vital that is not plausible or
// not of a page the site serves. A page view of a path the site does not
// serve becomes a not-found page view, without the path (the address
// someone typed or forged is not kept). Free text is cleaned (CleanText),
// a referrer reduced to a valid host name.
func (in *Intake) Event(b Beacon, now time.Time) (e db.Event, ok bool) {
	path, ok := BeaconPath(b.Path)
	if !ok {
		return db.Event{}, false
	}
	kind, served := in.Pages[path]
	e = db.Event{At: now.UTC(), Day: Day(now), Kind: b.Type, Width: WidthClass(b.Width)}
	switch b.Type {
	case db.EventPageview:
		if !served {
			e.Kind = db.EventNotFound
			return e, true
		}
		e.Path = path
		host := RefHost(b.Referrer)
		e.Referrer = host
		e.UTMSource, e.UTMMedium, e.UTMCampaign = CleanText(b.UTMSource, MaxUTM), CleanText(b.UTMMedium, MaxUTM), CleanText(b.UTMCampaign, MaxUTM)
		ref := ""
		if host != "" {
			ref = "https://" + host + "/"
		}
		// Each page view keeps its own source; a visit's source is its
		// first page view's, decided when the figures are counted (ADR 023).
		e.Source = Classify(ref, e.UTMSource, e.UTMMedium, in.SiteHost)
		e.Area = in.Places.OfPath(path)
	case db.EventTelClick, db.EventFormView:
		// A call tap on the not-found page is still a call; its page is
		// not kept.
		if served {
			e.Path = path
		}
	case db.EventVital:
		if !served || !PlausibleVital(b.Metric, b.Value) {
			return db.Event{}, false
		}
		e.Path, e.PageKind, e.Metric, e.Value = path, kind, b.Metric, b.Value
	default:
		return db.Event{}, false
	}
	return e, true
}

// BeaconPath is the page a beacon reports, as the route table names it:
// the path alone (no query), without a trailing slash (the server
// redirects those). ok is false for what no page reports: not a path,
// a protocol-relative URL, dot segments, over MaxPath bytes, an admin
// page.
func BeaconPath(p string) (string, bool) {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || len(p) > MaxPath {
		return "", false
	}
	path := p
	if u, err := url.Parse(p); err == nil {
		path = u.Path
	}
	// Dot segments ("/%2e%2e/admin/…") resolve before the checks, as a
	// browser would resolve them; a path that needed resolving is not one
	// a page reports.
	if clean := pathpkg.Clean(path); clean != path && clean+"/" != path {
		return "", false
	}
	if !strings.HasPrefix(path, "/") || path == "/admin" || strings.HasPrefix(path, "/admin/") {
		return "", false
	}
	if path != "/" {
		path = strings.TrimSuffix(path, "/")
	}
	return path, true
}

// hostName is a host as a browser serializes a referrer's: an ASCII name
// (international names in punycode), an IPv4 address or an IPv6 one.
var hostName = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?\.?$|^[0-9a-f:.]+$`)

// RefHost keeps only a referrer's host, lower case: the path of another
// site may carry someone's search or personal data. Anything that is not
// a valid host name gives "".
func RefHost(r string) string {
	if len(r) > 4*MaxHost {
		return ""
	}
	u, err := url.Parse(strings.TrimSpace(r))
	if err != nil || u.Host == "" {
		return ""
	}
	h := strings.ToLower(u.Hostname())
	if len(h) > MaxHost || !hostName.MatchString(h) {
		return ""
	}
	return h
}

// CleanText is s as the analytics tables keep free text (UTM tags):
// printable characters only (no control or format characters such as
// NUL, bidirectional overrides or zero-width spaces, no private-use or
// unassigned ones), spaces collapsed, at most max characters, cut
// between characters, never inside one. Invalid UTF-8 gives "": the
// value cannot be read, so it is not guessed at.
func CleanText(s string, max int) string {
	if !utf8.ValidString(s) {
		return ""
	}
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		if n >= max {
			break
		}
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case r == utf8.RuneError || !unicode.IsGraphic(r):
			continue
		}
		if space {
			if n+1 >= max {
				break
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// Network is the part of a client address one client controls, for the
// per-client limits: an IPv4 address, or the /64 of an IPv6 one. It is
// the key every limit of the site counts by (guard.ClientKey).
func Network(ip string) string {
	return guard.ClientKey(ip)
}
