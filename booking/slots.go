package booking

import "time"

// Slot is one visit window: its start and end (UTC) and how many visits
// it can still take.
type Slot struct {
	Start time.Time
	End   time.Time
	Left  int
}

// Taken is a live booking's window, as the slots count it.
type Taken struct {
	Start time.Time
	End   time.Time
}

// Slots lists the open slots of the next days days (today, in the
// business's time zone, first): each weekday's hours cut into windows
// of the slot length, from the opening time, a window ending by the
// closing time; none on a blocked day, none starting before now plus
// the notice, none already holding PerSlot bookings (a booking counts
// against every window it overlaps, so a change of slot length never
// lets a window hold more than its capacity). Times are wall-clock
// times in Zone, so a 9:00 window is 9:00 on both sides of a daylight
// saving change. A pure function: the store re-checks the capacity when
// it books.
func Slots(a Availability, taken []Taken, now time.Time, days int) []Slot {
	earliest := now.Add(time.Duration(a.NoticeHours) * time.Hour)
	blocked := map[string]bool{}
	for _, d := range a.Blocked {
		blocked[d] = true
	}
	local := now.In(Zone)
	y, m, d := local.Date()
	var out []Slot
	for i := 0; i < days; i++ {
		day := time.Date(y, m, d+i, 12, 0, 0, 0, Zone)
		if blocked[day.Format("2006-01-02")] {
			continue
		}
		h := a.Weekly[(int(day.Weekday())+6)%7]
		open, close := minutes(h.Open), minutes(h.Close)
		if open < 0 || close < 0 {
			continue
		}
		for at := open; at+a.SlotMinutes <= close; at += a.SlotMinutes {
			start := time.Date(day.Year(), day.Month(), day.Day(), at/60, at%60, 0, 0, Zone)
			end := time.Date(day.Year(), day.Month(), day.Day(), (at+a.SlotMinutes)/60, (at+a.SlotMinutes)%60, 0, 0, Zone)
			if start.Before(earliest) {
				continue
			}
			left := a.PerSlot - Overlapping(taken, start, end)
			if left > 0 {
				out = append(out, Slot{Start: start.UTC(), End: end.UTC(), Left: left})
			}
		}
	}
	return out
}

// Overlapping counts the bookings that overlap [start, end).
func Overlapping(taken []Taken, start, end time.Time) int {
	n := 0
	for _, t := range taken {
		if t.Start.Before(end) && t.End.After(start) {
			n++
		}
	}
	return n
}

// Find returns the open slot that starts at start (false when there is
// none: taken, too soon, blocked or never offered).
func Find(slots []Slot, start time.Time) (Slot, bool) {
	for _, s := range slots {
		if s.Start.Equal(start) {
			return s, true
		}
	}
	return Slot{}, false
}

// Label is how a homeowner reads a window: "Tuesday, December 1, 9:00 AM
// to 11:00 AM".
func Label(start, end time.Time) string {
	s, e := start.In(Zone), end.In(Zone)
	return s.Format("Monday, January 2, 3:04 PM") + " to " + e.Format("3:04 PM")
}
