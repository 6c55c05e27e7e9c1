package media

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestCleanCaptionAndAlt(t *testing.T) {
	cases := []struct {
		name, in, want string
		alt            bool
		err            string // part of the message; "" when accepted
	}{
		{"plain", "Kitchen after drying", "Kitchen after drying", false, ""},
		{"spaces and lines", "  Ceiling\n\n dried\tin 3 days  ", "Ceiling dried in 3 days", false, ""},
		{"markup kept as text", `<img src=x onerror=alert(1)>"&'`, `<img src=x onerror=alert(1)>"&'`, false, ""},
		{"controls dropped", "Roof\x00 re\x07pair\u202Egnp.exe", "Roof repairgnp.exe", false, ""},
		{"empty", "   ", "", false, ""},
		{"at the limit", strings.Repeat("é", MaxCaption), strings.Repeat("é", MaxCaption), false, ""},
		{"too long", strings.Repeat("a", MaxCaption+1), "", false, "The caption can be at most 300 characters (this one has 301)."},
		{"invalid UTF-8", "bad \xff byte", "", false, "not valid text"},
		{"alt", "Water-stained drywall removed to the studs", "Water-stained drywall removed to the studs", true, ""},
		{"alt too long", strings.Repeat("a", MaxAlt+1), "", true, "The alt text can be at most 150 characters (this one has 151)."},
		{"alt is a file name", StoredName("jpg", time.UnixMilli(1732262400123)), "", true, "not its file name"},
		{"alt holds a file name", "Photo 1732262400123-AB12CD34.JPG", "", true, "not its file name"},
		{"alt with numbers", "Claim 2026-000123 basement", "Claim 2026-000123 basement", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clean := CleanCaption
			if c.alt {
				clean = CleanAlt
			}
			got, err := clean(c.in)
			if c.err != "" {
				var te *TextError
				if !errors.As(err, &te) || !strings.Contains(te.Message, c.err) {
					t.Errorf("got %q %v, want error %q", got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("got %q %v, want %q", got, err, c.want)
			}
		})
	}
}

func TestDefaultAltNamesProjectNotFile(t *testing.T) {
	if got := DefaultAlt("image", "Kitchen Fire Repair"); got != "Kitchen Fire Repair project photo" {
		t.Errorf("photo: %q", got)
	}
	if got := DefaultAlt("video", "Kitchen Fire Repair"); got != "Kitchen Fire Repair project video" {
		t.Errorf("video: %q", got)
	}
}
