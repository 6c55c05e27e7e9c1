package booking

import (
	"strings"
	"testing"
	"time"
)

func at(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, Zone)
	if err != nil {
		panic(err)
	}
	return t
}

func starts(slots []Slot) []string {
	var out []string
	for _, s := range slots {
		out = append(out, s.Start.In(Zone).Format("2006-01-02 15:04 MST"))
	}
	return out
}

func avail() Availability {
	a := Default()
	a.NoticeHours = 0
	return a
}

// Across the November change (2026-11-01, 2:00 EDT -> 1:00 EST) a 9:00
// window stays 9:00 on the wall clock, and its UTC time moves an hour.
func TestSlotsDaylightSaving(t *testing.T) {
	a := avail()
	a.Weekly = [7]DayHours{}
	for d := range a.Weekly {
		a.Weekly[d] = DayHours{Open: "09:00", Close: "11:00"}
	}
	got := Slots(a, nil, at("2026-10-31 06:00"), 2)
	want := []string{"2026-10-31 09:00 EDT", "2026-11-01 09:00 EST"}
	if strings.Join(starts(got), ",") != strings.Join(want, ",") {
		t.Fatalf("slots %v; want %v", starts(got), want)
	}
	if got[0].Start.UTC().Hour() != 13 || got[1].Start.UTC().Hour() != 14 {
		t.Errorf("UTC hours %d and %d; want 13 and 14", got[0].Start.UTC().Hour(), got[1].Start.UTC().Hour())
	}
	if got[1].End.Sub(got[1].Start) != 2*time.Hour {
		t.Errorf("a window on the change day lasts %v", got[1].End.Sub(got[1].Start))
	}
	// The spring change (2027-03-14): a window across 2:00 that does not
	// exist on the wall clock still starts where the owner wrote it.
	a.Weekly[6] = DayHours{Open: "01:00", Close: "05:00"}
	spring := Slots(a, nil, at("2027-03-14 00:00"), 1)
	if len(spring) != 2 || spring[0].Start.In(Zone).Format("15:04") != "01:00" || spring[1].Start.In(Zone).Format("15:04 MST") != "03:00 EDT" {
		t.Errorf("spring: %v", starts(spring))
	}
}

// A blocked day and a closed weekday offer nothing; the day after does.
func TestSlotsBlockedDay(t *testing.T) {
	a := avail()
	a.Blocked = []string{"2026-12-01"}
	// Monday 2026-11-30, at 18:00: today is over, Tuesday is blocked.
	got := Slots(a, nil, at("2026-11-30 18:00"), 3)
	for _, s := range starts(got) {
		if !strings.HasPrefix(s, "2026-12-02") {
			t.Errorf("slot %s; want only Wednesday's", s)
		}
	}
	if len(got) != 4 {
		t.Errorf("%d slots; want Wednesday's 4", len(got))
	}
	// Saturday and Sunday are closed by default.
	if weekend := Slots(a, nil, at("2026-12-05 06:00"), 2); len(weekend) != 0 {
		t.Errorf("weekend: %v", starts(weekend))
	}
}

// The notice hides the windows that start too soon, to the minute.
func TestSlotsNotice(t *testing.T) {
	a := avail()
	a.NoticeHours = 24
	got := Slots(a, nil, at("2026-12-01 11:00"), 2)
	want := "2026-12-02 11:00 EST,2026-12-02 13:00 EST,2026-12-02 15:00 EST"
	if strings.Join(starts(got), ",") != want {
		t.Errorf("slots %v; want %s", starts(got), want)
	}
	got = Slots(a, nil, at("2026-12-01 11:01"), 2)
	if len(got) != 2 {
		t.Errorf("one minute later: %v", starts(got))
	}
}

// A full window is not offered; one with room says how much is left; a
// booking made under another slot length counts against every window it
// overlaps.
func TestSlotsFull(t *testing.T) {
	a := avail()
	a.PerSlot = 2
	nine := at("2026-12-02 09:00")
	taken := []Taken{{nine, nine.Add(2 * time.Hour)}, {nine, nine.Add(2 * time.Hour)}, {at("2026-12-02 11:00"), at("2026-12-02 13:00")}}
	got := Slots(a, taken, at("2026-12-02 06:00"), 1)
	if strings.Join(starts(got), ",") != "2026-12-02 11:00 EST,2026-12-02 13:00 EST,2026-12-02 15:00 EST" {
		t.Fatalf("slots %v", starts(got))
	}
	if got[0].Left != 1 || got[1].Left != 2 {
		t.Errorf("left %d, %d; want 1, 2", got[0].Left, got[1].Left)
	}
	if _, ok := Find(got, nine.UTC()); ok {
		t.Error("the full window is found")
	}
	a.PerSlot = 1
	long := []Taken{{at("2026-12-02 10:00"), at("2026-12-02 12:00")}}
	if got := Slots(a, long, at("2026-12-02 06:00"), 1); len(got) != 2 {
		t.Errorf("an overlapping booking leaves %v", starts(got))
	}
}

func TestValidate(t *testing.T) {
	ok, err := Default().Validate()
	if err != nil {
		t.Fatal(err)
	}
	if Parse(ok.Encode()).SlotMinutes != 120 || Parse("{nonsense").PerSlot != 1 {
		t.Error("parse")
	}
	bad := []func(*Availability){
		func(a *Availability) { a.SlotMinutes = 20 },
		func(a *Availability) { a.SlotMinutes = 50 },
		func(a *Availability) { a.PerSlot = 0 },
		func(a *Availability) { a.PerSlot = 21 },
		func(a *Availability) { a.NoticeHours = -1 },
		func(a *Availability) { a.Weekly[0] = DayHours{Open: "9:00", Close: "17:00"} },
		func(a *Availability) { a.Weekly[0] = DayHours{Open: "17:00", Close: "09:00"} },
		func(a *Availability) { a.Weekly[0] = DayHours{Open: "09:00", Close: "10:00"} },
		func(a *Availability) { a.Weekly[0] = DayHours{Open: "09:00"} },
		func(a *Availability) { a.Blocked = []string{"12/25/2026"} },
	}
	for i, f := range bad {
		a := Default()
		f(&a)
		if _, err := a.Validate(); err == nil {
			t.Errorf("case %d passed", i)
		}
	}
	a := Default()
	a.Blocked = []string{"2026-12-25", "2026-12-24", "2026-12-25"}
	if v, err := a.Validate(); err != nil || strings.Join(v.Blocked, ",") != "2026-12-24,2026-12-25" {
		t.Errorf("blocked tidied: %v %v", v.Blocked, err)
	}
}

// The calendar file parses back: unfolded, unescaped, every property
// where RFC 5545 puts it, CRLF only, no line over 75 octets.
func TestICSParsesBack(t *testing.T) {
	e := Event{UID: "b1@site", Sequence: 2, Start: at("2026-12-02 09:00"), End: at("2026-12-02 11:00"), Stamp: at("2026-12-01 08:00"),
		Summary: "Inspection visit; water damage, kitchen", Description: strings.Repeat("Señor ", 30) + "\nline two \\ end", Location: "12 Peachtree St, Atlanta"}
	raw := string(ICS(e))
	if strings.Contains(strings.ReplaceAll(raw, "\r\n", ""), "\n") || !strings.HasSuffix(raw, "\r\n") {
		t.Fatal("lines must end with CRLF only")
	}
	for _, l := range strings.Split(raw, "\r\n") {
		if len(l) > 75 {
			t.Errorf("line of %d octets: %q", len(l), l)
		}
	}
	props := map[string]string{}
	var order []string
	for _, l := range strings.Split(strings.ReplaceAll(raw, "\r\n ", ""), "\r\n") {
		if l == "" {
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			t.Fatalf("line without a colon: %q", l)
		}
		if k == "BEGIN" || k == "END" {
			order = append(order, k+":"+v)
			continue
		}
		props[k] = unescape(v)
	}
	if strings.Join(order, " ") != "BEGIN:VCALENDAR BEGIN:VEVENT END:VEVENT END:VCALENDAR" {
		t.Errorf("components %v", order)
	}
	start, err := time.Parse(icsTime, props["DTSTART"])
	if err != nil || !start.Equal(e.Start) {
		t.Errorf("DTSTART %s: %v", props["DTSTART"], err)
	}
	end, _ := time.Parse(icsTime, props["DTEND"])
	if !end.Equal(e.End) || props["DTSTART"] != "20261202T140000Z" {
		t.Errorf("DTEND %s, DTSTART %s", props["DTEND"], props["DTSTART"])
	}
	for k, want := range map[string]string{"VERSION": "2.0", "UID": "b1@site", "SEQUENCE": "2", "SUMMARY": e.Summary,
		"DESCRIPTION": e.Description, "LOCATION": e.Location, "STATUS": "CONFIRMED", "METHOD": "PUBLISH"} {
		if props[k] != want {
			t.Errorf("%s = %q; want %q", k, props[k], want)
		}
	}
	for _, k := range []string{"PRODID", "DTSTAMP"} {
		if props[k] == "" {
			t.Errorf("%s missing", k)
		}
	}
	e.Cancelled = true
	if !strings.Contains(string(ICS(e)), "\r\nSTATUS:CANCELLED\r\n") {
		t.Error("a cancelled visit is not marked")
	}
}

func unescape(v string) string {
	r := strings.NewReplacer(`\n`, "\n", `\N`, "\n", `\,`, ",", `\;`, ";", `\\`, `\`)
	return r.Replace(v)
}
