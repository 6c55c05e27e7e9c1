// Package words holds the small text helpers the pages and the admin
// screens share when they write figures in sentences.
package words

import "strconv"

// Count writes n with the noun that agrees with it: "1 page", "3 pages".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
