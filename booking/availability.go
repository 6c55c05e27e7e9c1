// Package booking is the inspection booking's rules (ADR 066): the
// owner's availability (weekly hours, slot length, visits per slot,
// blocked days, the shortest notice), the open slots it gives against
// the bookings already made (Slots, a pure function), and the calendar
// file a homeowner downloads (ICS). No HTTP and no SQL here: the store
// (db/bookings.go) keeps a slot from holding more than its capacity, and
// web/booking serves the pages and the owner's screens.
package booking

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"time"
)

// SettingKey is the settings row that holds the availability as JSON.
const SettingKey = "booking.availability"

// Limits of the availability the owner may save.
const (
	MinSlotMinutes = 30
	MaxSlotMinutes = 8 * 60
	MaxPerSlot     = 20
	MaxNoticeHours = 14 * 24
	MaxBlocked     = 366
	// Days is how far ahead a homeowner may book.
	Days = 14
)

// Zone is the business's time zone: every time the owner types and every
// time a homeowner reads is Atlanta's wall clock.
var Zone = func() *time.Location {
	z, err := time.LoadLocation("America/New_York")
	if err != nil {
		return time.FixedZone("EST", -5*3600)
	}
	return z
}()

// DayHours are one weekday's visiting hours, "HH:MM" 24-hour; both
// empty means no visits that day.
type DayHours struct {
	Open  string `json:"open"`
	Close string `json:"close"`
}

// Availability is what the owner sets in Settings.
type Availability struct {
	// Weekly holds Monday first, Sunday last.
	Weekly      [7]DayHours `json:"weekly"`
	SlotMinutes int         `json:"slotMinutes"`
	PerSlot     int         `json:"perSlot"`
	// Blocked are days without visits (holidays, a full week of jobs), as
	// YYYY-MM-DD in the business's time zone, sorted.
	Blocked     []string `json:"blocked"`
	NoticeHours int      `json:"noticeHours"`
}

// Default is the availability until the owner saves one: weekdays 9 to 5
// in two-hour windows, one visit each, booked at least a day ahead.
func Default() Availability {
	a := Availability{SlotMinutes: 120, PerSlot: 1, NoticeHours: 24, Blocked: []string{}}
	for d := 0; d < 5; d++ {
		a.Weekly[d] = DayHours{Open: "09:00", Close: "17:00"}
	}
	return a
}

// Parse reads the stored setting ("" or unreadable: Default; a stored
// value was validated when saved).
func Parse(stored string) Availability {
	if stored == "" {
		return Default()
	}
	var a Availability
	if err := json.Unmarshal([]byte(stored), &a); err != nil {
		return Default()
	}
	if _, err := a.Validate(); err != nil {
		return Default()
	}
	return a
}

// Encode is the setting's stored form.
func (a Availability) Encode() string {
	b, _ := json.Marshal(a)
	return string(b)
}

var clock = regexp.MustCompile(`^([01][0-9]|2[0-3]):([0-5][0-9])$`)

// minutes reads "HH:MM" as minutes after midnight (-1: not a time).
func minutes(s string) int {
	m := clock.FindStringSubmatch(s)
	if m == nil {
		return -1
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	return h*60 + mi
}

var weekdayNames = [7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// Validate checks a and returns it tidied (blocked days sorted, without
// repeats). The error is the sentence the Settings screen shows.
func (a Availability) Validate() (Availability, error) {
	if a.SlotMinutes < MinSlotMinutes || a.SlotMinutes > MaxSlotMinutes || a.SlotMinutes%15 != 0 {
		return a, fmt.Errorf("A visit lasts from 30 minutes to 8 hours, in steps of 15 minutes.")
	}
	if a.PerSlot < 1 || a.PerSlot > MaxPerSlot {
		return a, fmt.Errorf("Visits at the same time must be from 1 to %d.", MaxPerSlot)
	}
	if a.NoticeHours < 0 || a.NoticeHours > MaxNoticeHours {
		return a, fmt.Errorf("The shortest notice must be from 0 to %d hours (two weeks).", MaxNoticeHours)
	}
	for i, d := range a.Weekly {
		if d.Open == "" && d.Close == "" {
			continue
		}
		o, c := minutes(d.Open), minutes(d.Close)
		if o < 0 || c < 0 {
			return a, fmt.Errorf("%s: enter both times as 24-hour HH:MM, e.g. 09:00 and 17:00, or leave both empty for no visits.", weekdayNames[i])
		}
		if c-o < a.SlotMinutes {
			return a, fmt.Errorf("%s: the hours must end after they start, with room for at least one visit.", weekdayNames[i])
		}
	}
	if len(a.Blocked) > MaxBlocked {
		return a, fmt.Errorf("At most %d blocked days.", MaxBlocked)
	}
	seen := map[string]bool{}
	out := []string{}
	for _, d := range a.Blocked {
		if _, err := time.ParseInLocation("2006-01-02", d, Zone); err != nil {
			return a, fmt.Errorf("Blocked day %q is not a date: write it as YYYY-MM-DD, e.g. 2026-12-25.", d)
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.Strings(out)
	a.Blocked = out
	return a, nil
}
