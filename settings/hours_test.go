package settings

import (
	"reflect"
	"testing"
)

func TestParseHours(t *testing.T) {
	for _, c := range []struct{ in, norm, text string }{
		{"Mo-Fr 08:00-18:00", "Mo-Fr 08:00-18:00", "Mon–Fri 8:00 AM–6:00 PM"},
		{" mo-fr 08:00 - 18:00 ;  SA 09:30-13:00 ", "Mo-Fr 08:00-18:00; Sa 09:30-13:00", "Mon–Fri 8:00 AM–6:00 PM; Sat 9:30 AM–1:00 PM"},
		{"Mo,We,Fr 00:00-12:00; Tu-Th 12:00-23:59", "", ""}, // We twice
		{"Mo,We,Fr 00:00-12:00; Tu,Th 12:00-23:59", "Mo,We,Fr 00:00-12:00; Tu,Th 12:00-23:59", "Mon, Wed, Fri 12:00 AM–12:00 PM; Tue, Thu 12:00 PM–11:59 PM"},
		{"Mo-Su 00:00-23:59", "Mo-Su 00:00-23:59", "Mon–Sun 12:00 AM–11:59 PM"},
		{"", "", ""},
		{"Mon-Fri 8-6", "", ""},
		{"Fr-Mo 08:00-18:00", "", ""}, // backwards range
		{"Mo-Fr 18:00-08:00", "", ""}, // overnight
		{"Mo-Fr 08:00-24:00", "", ""}, // hour 24
		{"Mo-Fr 08:00-18:00;", "Mo-Fr 08:00-18:00", "Mon–Fri 8:00 AM–6:00 PM"},
		{"Xx 08:00-18:00", "", ""},
	} {
		h, err := ParseHours(c.in)
		if c.norm == "" {
			if err == nil {
				t.Errorf("%q: accepted as %q", c.in, h.String())
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if h.String() != c.norm || h.Text() != c.text {
			t.Errorf("%q: %q / %q, want %q / %q", c.in, h.String(), h.Text(), c.norm, c.text)
		}
	}
	h, _ := ParseHours("Mo-We,Fr 08:00-17:00; Sa 09:00-12:00")
	spec := h.Specification()
	if len(spec) != 2 || !reflect.DeepEqual(spec[0]["dayOfWeek"], []string{"Monday", "Tuesday", "Wednesday", "Friday"}) || spec[1]["opens"] != "09:00" {
		t.Errorf("specification: %v", spec)
	}
	if got := h.OpeningHours(); !reflect.DeepEqual(got, []string{"Mo-We,Fr 08:00-17:00", "Sa 09:00-12:00"}) {
		t.Errorf("openingHours: %v", got)
	}
}
