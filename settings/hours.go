package settings

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Business hours (System Settings) are written in schema.org's
// openingHours syntax, so the one field feeds both the visible text and the
// structured data (ADR 013):
//
//	Mo-Fr 08:00-18:00; Sa 09:00-13:00
//
// Rules are separated by ";". A rule is days then opening and closing time:
// days are Mo Tu We Th Fr Sa Su, a range (Mo-Fr) or a comma list
// (Mo,We,Fr or Mo-We,Fr); times are 24-hour HH:MM and the closing time is
// after the opening time (no overnight rules). Each day appears in at most
// one rule; days in no rule are closed.

// DefaultHours are the business hours until the owner saves others.
const DefaultHours = "Mo-Fr 08:00-18:00"

// maxHoursLen bounds the field; seven one-day rules fit.
const maxHoursLen = 150

var (
	dayCodes  = []string{"Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"}
	dayShort  = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	dayNames  = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	hoursRule = regexp.MustCompile(`^([A-Za-z]{2}(?:\s*-\s*[A-Za-z]{2})?(?:\s*,\s*[A-Za-z]{2}(?:\s*-\s*[A-Za-z]{2})?)*)\s+(\d{2}):(\d{2})\s*-\s*(\d{2}):(\d{2})$`)
	hoursHelp = "Enter the hours as days and 24-hour times, e.g. Mo-Fr 08:00-18:00; Sa 09:00-13:00 (days Mo Tu We Th Fr Sa Su; one rule per day)."
)

// hoursSpan is one rule: its days as written (ranges kept) and the times.
type hoursSpan struct {
	Groups [][2]int // day ranges, inclusive, 0 = Monday
	Opens  int      // minutes after midnight
	Closes int
}

// Hours are parsed business hours.
type Hours []hoursSpan

func dayIndex(code string) int {
	for i, d := range dayCodes {
		if strings.EqualFold(d, code) {
			return i
		}
	}
	return -1
}

// ParseHours reads the settings syntax; the error is the message the
// System Settings screen shows.
func ParseHours(s string) (Hours, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxHoursLen {
		return nil, fmt.Errorf("%s", hoursHelp)
	}
	var out Hours
	seen := [7]bool{}
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		m := hoursRule.FindStringSubmatch(part)
		if m == nil {
			return nil, fmt.Errorf("%s", hoursHelp)
		}
		var sp hoursSpan
		for _, g := range strings.Split(m[1], ",") {
			a, b, isRange := strings.Cut(strings.ReplaceAll(g, " ", ""), "-")
			from, to := dayIndex(a), dayIndex(a)
			if isRange {
				to = dayIndex(b)
			}
			if from < 0 || to < 0 || to < from {
				return nil, fmt.Errorf("%s", hoursHelp)
			}
			for d := from; d <= to; d++ {
				if seen[d] {
					return nil, fmt.Errorf("%s appears in two rules; give each day one opening time.", dayNames[d])
				}
				seen[d] = true
			}
			sp.Groups = append(sp.Groups, [2]int{from, to})
		}
		n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
		if n(2) > 23 || n(3) > 59 || n(4) > 23 || n(5) > 59 {
			return nil, fmt.Errorf("%s", hoursHelp)
		}
		sp.Opens, sp.Closes = n(2)*60+n(3), n(4)*60+n(5)
		if sp.Closes <= sp.Opens {
			return nil, fmt.Errorf("The closing time must be after the opening time (%s).", part)
		}
		out = append(out, sp)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s", hoursHelp)
	}
	return out, nil
}

func hhmm(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }

// clock is 12-hour US time: 8:00 AM, 12:30 PM.
func clock(m int) string {
	h, ampm := m/60, "AM"
	if h >= 12 {
		ampm = "PM"
	}
	if h%12 == 0 {
		h = 12
	} else {
		h %= 12
	}
	return fmt.Sprintf("%d:%02d %s", h, m%60, ampm)
}

func (sp hoursSpan) days(names []string, sep, dash string) string {
	var parts []string
	for _, g := range sp.Groups {
		if g[0] == g[1] {
			parts = append(parts, names[g[0]])
		} else {
			parts = append(parts, names[g[0]]+dash+names[g[1]])
		}
	}
	return strings.Join(parts, sep)
}

// String is the normalised settings syntax (the value saved).
func (h Hours) String() string {
	var parts []string
	for _, sp := range h {
		parts = append(parts, sp.days(dayCodes, ",", "-")+" "+hhmm(sp.Opens)+"-"+hhmm(sp.Closes))
	}
	return strings.Join(parts, "; ")
}

// Text is what visitors read: "Mon–Fri 8:00 AM–6:00 PM; Sat 9:00 AM–1:00 PM".
func (h Hours) Text() string {
	var parts []string
	for _, sp := range h {
		parts = append(parts, sp.days(dayShort, ", ", "–")+" "+clock(sp.Opens)+"–"+clock(sp.Closes))
	}
	return strings.Join(parts, "; ")
}

// HoursText is the visitors' text of saved hours; the default's when they
// do not parse.
func HoursText(s string) string {
	h, err := ParseHours(s)
	if err != nil {
		h, _ = ParseHours(DefaultHours)
	}
	return h.Text()
}

// OpeningHours is schema.org's openingHours text, one entry per rule.
func (h Hours) OpeningHours() []string {
	var out []string
	for _, sp := range h {
		out = append(out, sp.days(dayCodes, ",", "-")+" "+hhmm(sp.Opens)+"-"+hhmm(sp.Closes))
	}
	return out
}

// Specification is schema.org's openingHoursSpecification, one per rule.
func (h Hours) Specification() []map[string]any {
	var out []map[string]any
	for _, sp := range h {
		var days []string
		for _, g := range sp.Groups {
			for d := g[0]; d <= g[1]; d++ {
				days = append(days, dayNames[d])
			}
		}
		out = append(out, map[string]any{"@type": "OpeningHoursSpecification", "dayOfWeek": days, "opens": hhmm(sp.Opens), "closes": hhmm(sp.Closes)})
	}
	return out
}

// Availability is what every element promising emergency service follows:
// in 24/7 emergency mode the spec's 24/7 texts; otherwise
// "Call us" with the business hours. Both dial the one 24/7 line
// (Settings.PhoneFor, ADR 039). The LocalBusiness opening hours follow
// it too.
type Availability struct {
	EmergencyMode bool
	Hours         Hours
}

// OpenAllWeek is the structured data of emergency mode: open every day,
// around the clock (spec 9).
func OpenAllWeek() (string, map[string]any) {
	return "Mo-Su 00:00-23:59", map[string]any{
		"@type":     "OpeningHoursSpecification",
		"dayOfWeek": dayNames,
		"opens":     "00:00", "closes": "23:59",
	}
}
