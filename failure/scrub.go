package failure

import (
	"regexp"
	"strings"
)

// risky finds what must not reach an admin screen: a URL, an IP address
// (v4, v6, bracketed or not), host:port, a host name under a common or
// private top-level domain, localhost, user@host, a query string, and
// the raw texts of Go's network errors (dial tcp..., lookup..., Post
// "..."), whose next words are an address.
var risky = regexp.MustCompile(`(?i)` + strings.Join([]string{
	`[a-z][a-z0-9+.-]*://`,
	`(?:^|[^\d.])\d{1,3}(?:\.\d{1,3}){3}(?:[^\d.]|$)`,
	`[0-9a-f]::|::[0-9a-f]|\[[0-9a-f:.%]*:[0-9a-f:.%]*\]`,
	`\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\b`,
	`\b[a-z][a-z0-9.-]*:\d{1,5}\b`,
	`\blocalhost\b`,
	`\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.(?:com|net|org|edu|gov|io|dev|app|co|us|uk|de|biz|info|cloud|site|online|tech|ai|me|xyz|local|localdomain|internal|intranet|lan|corp|home|invalid|test|example|arpa)\b`,
	`\w@[\w-]`,
	`\?[\w.%-]+=`,
	`\bdial\b`, `\blookup\b`, `\b(?:get|post|put|patch|delete|head|options) "`,
	`\btls:`, `\bx509:`, `connection refused`, `i/o timeout`, `no such host`, `connection reset`, `broken pipe`,
	`unreachable`, `deadline exceeded`, `client\.timeout`, `\bEOF\b`,
}, "|"))

// labelRE is a party's label at the start of a stored error.
var labelRE = regexp.MustCompile(`^([A-Za-z][A-Za-z ]{1,20}): `)

// Scrub is what an admin screen may show of a stored error text: the text
// itself when it names no address (the site's own words, or Text's), else
// the kind of failure recognised in it, with a known party's label kept.
// Rows written before Text existed come out as Text would have written
// them; Scrub(Text(err)) is Text(err).
func Scrub(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || !risky.MatchString(s) {
		return s
	}
	var p Party
	if m := labelRE.FindStringSubmatch(s); m != nil {
		if lp, ok := labels[strings.ToLower(m[1])]; ok {
			p, s = lp, s[len(m[0]):]
		}
	}
	return compose(p, textClass(s, p))
}

var (
	httpCodeRE = regexp.MustCompile(`(?i)(?:webhook answered|\bhttp|\bstatus(?: code)?)[ :]*([1-5]\d\d)\b`)
	smtpCodeRE = regexp.MustCompile(`(?:^|[:\s])([45]\d\d)[\s-]`)
)

// textClass names the kind of failure from a text: the types are gone
// once an error is stored.
func textClass(s string, p Party) string {
	l := strings.ToLower(s)
	has := func(subs ...string) bool {
		for _, x := range subs {
			if strings.Contains(l, x) {
				return true
			}
		}
		return false
	}
	switch {
	case has("context canceled", "operation was canceled"):
		return Cancelled
	case has("no such host", "lookup ", "server misbehaving", "dns lookup"):
		return DNS
	case has("x509", "certificate"):
		return Certificate
	case has("tls handshake timeout"):
		return TimedOut
	case has("tls:", "tls handshake", "handshake failure", "first record does not look like"):
		return TLS
	case has("connection refused"):
		return Refused
	case has("timeout", "timed out", "deadline exceeded"):
		return TimedOut
	case has("connection reset", "connection aborted"):
		return Reset
	case has("unreachable", "no route to host"):
		return Unreachable
	case has("eof", "broken pipe", "use of closed", "connection closed"):
		return Closed
	}
	if m := httpCodeRE.FindStringSubmatch(s); m != nil {
		return "HTTP " + m[1] + " from " + who(p)
	}
	if p == Email || strings.HasPrefix(l, "smtp") {
		if m := smtpCodeRE.FindStringSubmatch(s); m != nil {
			what := "refused"
			for _, st := range []string{SMTPAuth, SMTPRcpt, SMTPMail, SMTPData, SMTPStartTLS, SMTPHello, SMTPGreeting} {
				if strings.Contains(l, strings.ToLower(st)) {
					what = smtpPhrases[st]
					break
				}
			}
			return "SMTP " + m[1] + " " + what
		}
	}
	if has("network") {
		return Network
	}
	return Unknown
}
