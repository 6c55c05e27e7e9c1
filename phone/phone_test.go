package phone

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		typed   string
		want    string
		ok      bool
		display string
	}{
		{"6785550199", "+16785550199", true, "(678) 555-0199"},
		{"770-555-0122", "+17705550122", true, "(770) 555-0122"},
		{"(404) 555-0134", "+14045550134", true, "(404) 555-0134"},
		{"678.555.0199", "+16785550199", true, "(678) 555-0199"},
		{"+1 (678) 555-0199", "+16785550199", true, "(678) 555-0199"},
		{"1-678-555-0199", "+16785550199", true, "(678) 555-0199"},
		{"16785550199", "+16785550199", true, "(678) 555-0199"},
		{"+16785550199", "+16785550199", true, "(678) 555-0199"}, // idempotent
		{" 678 555 0199 (cell) ", "+16785550199", true, "(678) 555-0199"},
		// Kept as typed: not a possible North American number.
		{"123-456-7890", "123-456-7890", false, "123-456-7890"},       // area code starts with 1
		{"(070) 555-0199", "(070) 555-0199", false, "(070) 555-0199"}, // area code starts with 0
		{"678-155-0199", "678-155-0199", false, "678-155-0199"},       // exchange starts with 1
		{"911-555-0199", "911-555-0199", false, "911-555-0199"},       // N11 area code
		{"678-411-0199", "678-411-0199", false, "678-411-0199"},       // N11 exchange
		{"26785550199", "26785550199", false, "26785550199"},          // 11 digits, no country code 1
		{"678-555-0199 x12", "678-555-0199 x12", false, "678-555-0199 x12"},
		{"+44 20 7946 0958", "+44 20 7946 0958", false, "+44 20 7946 0958"},
		{"555-0199", "555-0199", false, "555-0199"},
		{"", "", false, ""},
		{"call me", "call me", false, "call me"},
		{strings.Repeat(" ", 60) + "6785550199", strings.Repeat(" ", 60) + "6785550199", false, "6785550199"}, // over the length bound
	}
	for _, tt := range tests {
		t.Run(tt.typed, func(t *testing.T) {
			got, ok := Normalize(tt.typed)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tt.typed, got, ok, tt.want, tt.ok)
			}
			if again, _ := Normalize(got); again != got {
				t.Errorf("Normalize is not idempotent: %q then %q", got, again)
			}
			if d := Display(tt.typed); d != tt.display {
				t.Errorf("Display(%q) = %q, want %q", tt.typed, d, tt.display)
			}
			if d := Display(got); d != tt.display && tt.ok {
				t.Errorf("Display(%q) = %q, want %q", got, d, tt.display)
			}
			wantHref := ""
			if tt.ok {
				wantHref = "tel:" + tt.want
			}
			if h := Href(tt.typed); h != wantHref {
				t.Errorf("Href(%q) = %q, want %q", tt.typed, h, wantHref)
			}
		})
	}
}
