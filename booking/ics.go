package booking

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Event is an inspection visit as a calendar file describes it.
type Event struct {
	// UID stays the same for a booking through its reschedules, so a
	// calendar replaces the visit instead of adding a second one;
	// Sequence grows with each change (RFC 5545 3.8.7.4).
	UID      string
	Sequence int
	Start    time.Time
	End      time.Time
	// Stamp is when the file was made.
	Stamp       time.Time
	Summary     string
	Description string
	Location    string
	// Cancelled marks the visit cancelled (STATUS:CANCELLED).
	Cancelled bool
}

const icsTime = "20060102T150405Z"

// ICS is e as an iCalendar file (RFC 5545): one VEVENT in UTC, text
// escaped, lines folded at 75 octets and ended by CRLF.
func ICS(e Event) []byte {
	var b bytes.Buffer
	line := func(name, value string) { fold(&b, name+":"+value) }
	line("BEGIN", "VCALENDAR")
	line("VERSION", "2.0")
	line("PRODID", "-//Atlanta Restoration//Inspection booking//EN")
	line("CALSCALE", "GREGORIAN")
	line("METHOD", "PUBLISH")
	line("BEGIN", "VEVENT")
	line("UID", escapeText(e.UID))
	line("SEQUENCE", strconv.Itoa(e.Sequence))
	line("DTSTAMP", e.Stamp.UTC().Format(icsTime))
	line("DTSTART", e.Start.UTC().Format(icsTime))
	line("DTEND", e.End.UTC().Format(icsTime))
	line("SUMMARY", escapeText(e.Summary))
	if e.Description != "" {
		line("DESCRIPTION", escapeText(e.Description))
	}
	if e.Location != "" {
		line("LOCATION", escapeText(e.Location))
	}
	if e.Cancelled {
		line("STATUS", "CANCELLED")
	} else {
		line("STATUS", "CONFIRMED")
	}
	line("TRANSP", "OPAQUE")
	line("END", "VEVENT")
	line("END", "VCALENDAR")
	return b.Bytes()
}

// escapeText escapes a TEXT value (RFC 5545 3.3.11); control characters
// other than a newline are dropped.
func escapeText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\' || r == ';' || r == ',':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fold writes a content line folded at 75 octets, never inside a UTF-8
// character (RFC 5545 3.1).
func fold(b *bytes.Buffer, s string) {
	limit := 75
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		b.WriteString(s[:cut])
		b.WriteString("\r\n ")
		s = s[cut:]
		limit = 74 // the leading space counts
	}
	b.WriteString(s)
	b.WriteString("\r\n")
}
