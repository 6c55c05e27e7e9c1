package reviews

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Where the trust section's rating figures come from.
const (
	// SourcePlaces: Google Places' rating and review count of the place,
	// as last fetched.
	SourcePlaces = "places"
	// SourceSettings: the values the owner typed in System Settings (or
	// their defaults), used while Places is not configured or has not
	// answered yet.
	SourceSettings = "settings"
)

// The owner's values before any are saved: spec 2.3's "rating 4.9/5, 79
// Google reviews".
const (
	DefaultOwnerRating = "4.9"
	DefaultOwnerCount  = 79
	// MaxOwnerCount bounds the review count System Settings accepts: far
	// above any local business, far below a typing slip of many digits.
	MaxOwnerCount = 100_000
)

// Settings keys of the owner's values.
const (
	KeyOwnerRating = "review_rating"
	KeyOwnerCount  = "review_count"
)

// Figures are the rating and review count the trust section shows.
type Figures struct {
	// Rating has one decimal ("4.9"); "" when the source has no rating
	// (Places reports none for a place without reviews).
	Rating string `json:"rating"`
	Count  int    `json:"count"`
	// Source is SourcePlaces or SourceSettings.
	Source string `json:"source" tstype:"'places' | 'settings'"`
	// FetchedAt is when Places reported them (SourcePlaces only).
	FetchedAt *time.Time `json:"fetchedAt,omitempty"`
}

// FromPlaces are the figures Places reported.
func FromPlaces(pr db.PlacesRating) Figures {
	f := Figures{Count: pr.Count, Source: SourcePlaces}
	if pr.Rating >= 1 && pr.Rating <= 5 {
		f.Rating = strconv.FormatFloat(pr.Rating, 'f', 1, 64)
	}
	at := pr.FetchedAt
	f.FetchedAt = &at
	return f
}

// FromOwner are the owner's figures.
func FromOwner(o Owner) Figures {
	return Figures{Rating: o.Rating, Count: o.Count, Source: SourceSettings}
}

// AggregateRating is the schema.org AggregateRating for the business's
// structured data, or nil. Only figures Places reported, with at least one
// review behind them, qualify: a rating the business states about itself
// is self-serving under Google's review-snippet guidelines, and one with
// no reviews behind it invites a manual action (ADR 021).
func (f Figures) AggregateRating() map[string]any {
	if f.Source != SourcePlaces || f.Rating == "" || f.Count < 1 {
		return nil
	}
	return map[string]any{"@type": "AggregateRating", "ratingValue": f.Rating, "reviewCount": f.Count, "bestRating": "5", "worstRating": "1"}
}

// Owner are the rating and review count the owner sets in System
// Settings, already valid.
type Owner struct {
	Rating string // one decimal, "1.0" to "5.0"
	Count  int    // 0 to MaxOwnerCount
}

// DefaultOwner are the spec's figures.
func DefaultOwner() Owner { return Owner{Rating: DefaultOwnerRating, Count: DefaultOwnerCount} }

// Messages of the owner's fields.
const (
	MsgOwnerRating = "Enter the average rating as a number from 1.0 to 5.0 with at most one decimal, e.g. 4.9."
	MsgOwnerCount  = "Enter the number of reviews as a whole number from 0 to 100000, e.g. 79."
)

var (
	ratingRE = regexp.MustCompile(`^([1-5])(?:\.([0-9]))?$`)
	countRE  = regexp.MustCompile(`^[0-9]{1,6}$`)
)

// ParseOwnerRating reads a rating as the owner types it ("4.9", "5")
// into its one-decimal form, or returns MsgOwnerRating.
func ParseOwnerRating(s string) (string, string) {
	m := ratingRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", MsgOwnerRating
	}
	dec := m[2]
	if dec == "" {
		dec = "0"
	}
	if m[1] == "5" && dec != "0" {
		return "", MsgOwnerRating
	}
	return m[1] + "." + dec, ""
}

// ParseOwnerCount reads a review count, or returns MsgOwnerCount.
func ParseOwnerCount(s string) (int, string) {
	s = strings.TrimSpace(s)
	if !countRE.MatchString(s) {
		return 0, MsgOwnerCount
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > MaxOwnerCount {
		return 0, MsgOwnerCount
	}
	return n, ""
}

// OwnerFromSettings reads the owner's values from saved settings; a
// missing or unreadable one is its default.
func OwnerFromSettings(m map[string]string) Owner {
	o := DefaultOwner()
	if v, ok := m[KeyOwnerRating]; ok {
		if r, msg := ParseOwnerRating(v); msg == "" {
			o.Rating = r
		}
	}
	if v, ok := m[KeyOwnerCount]; ok {
		if n, msg := ParseOwnerCount(v); msg == "" {
			o.Count = n
		}
	}
	return o
}
