package words

import (
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 pages"}, {1, "1 page"}, {2, "2 pages"}, {-1, "-1 pages"}} {
		if got := Count(c.n, "page", "pages"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestBytesAndDays(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1: "1 byte", 999: "999 bytes", 1000: "1.0 KB", 3_200_000: "3.2 MB", 2_000_000_000: "2.0 GB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int]string{1: "1 day", 30: "30 days", 60: "2 months", 180: "6 months", 365: "1 year", 366: "1 year", 730: "2 years", 400: "400 days", 28: "28 days"} {
		if got := Days(n); got != want {
			t.Errorf("Days(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestWhen(t *testing.T) {
	if eastern == time.UTC {
		t.Skip("no zone data on this system")
	}
	for in, want := range map[string]string{
		"2026-11-26T09:27:23Z": "Nov 26, 2026, 4:27 AM EST",
		"2026-07-04T17:05:00Z": "Jul 4, 2026, 1:05 PM EDT",
	} {
		at, _ := time.Parse(time.RFC3339, in)
		if got := When(at); got != want {
			t.Errorf("When(%s) = %q, want %q", in, got, want)
		}
	}
}
