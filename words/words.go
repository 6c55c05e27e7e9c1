// Package words holds the small text helpers the pages and the admin
// screens share when they write figures in sentences.
package words

import (
	"strconv"
	"time"
)

// eastern is the business's time zone (metro Atlanta); UTC where the
// system has no zone data.
var eastern = func() *time.Location {
	if z, err := time.LoadLocation("America/New_York"); err == nil {
		return z
	}
	return time.UTC
}()

// When writes a moment the way the admin reads it, in the business's time
// zone: "Nov 26, 2026, 4:27 AM EST".
func When(t time.Time) string {
	return t.In(eastern).Format("Jan 2, 2006, 3:04 PM MST")
}

// Count writes n with the noun that agrees with it: "1 page", "3 pages".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Bytes writes a size the way people read it: "512 bytes", "3.2 MB"
// (powers of 1,000, as file managers and disks count).
func Bytes(n int64) string {
	if n < 1000 {
		return Count(int(n), "byte", "bytes")
	}
	units := []string{"KB", "MB", "GB", "TB"}
	v := float64(n) / 1000
	i := 0
	for v >= 1000 && i < len(units)-1 {
		v /= 1000
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i]
}

// Days writes a number of days as a period: whole years ("2 years" for
// 730), whole months of 30 days ("6 months" for 180), else days ("30
// days"). 365 and 366 are a year.
func Days(n int) string {
	switch {
	case n >= 365 && (n%365 == 0 || n%365 == 1 && n < 730):
		return Count(n/365, "year", "years")
	case n >= 60 && n%30 == 0:
		return Count(n/30, "month", "months")
	}
	return Count(n, "day", "days")
}
