package site

import (
	"context"
	"errors"
	"testing"
)

func TestAreaMajorCitiesText(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"A"}, "A"},
		{[]string{"A", "B"}, "A and B"},
		{[]string{"A", "B", "C", "D", "E"}, "A, B, C, D and E"},
		{[]string{"A", "B", "C", "D", "E", "F"}, "A, B, C, D and E, plus 1 more city"},
		{[]string{"Atlanta", "Sandy Springs", "Roswell", "Alpharetta", "Johns Creek", "East Point", "College Park", "South Fulton"}, "Atlanta, Sandy Springs, Roswell, Alpharetta and Johns Creek, plus 3 more cities"},
	} {
		if got := MajorCitiesText(c.in); got != c.want {
			t.Errorf("MajorCitiesText(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The empty county parameter never routes (a trailing slash redirects),
// but the loaders still answer their not-found states.
func TestAreaLoadersWithEmptyParams(t *testing.T) {
	s := newTestSite(t)
	_, err := loadCounty(context.Background(), s, Params{"county": ""})
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Title != "County not found" || nf.LinkHref != "/service-areas" {
		t.Errorf("empty county: %v", err)
	}
	_, err = loadCity(context.Background(), s, Params{"county": "fulton", "slug": ""})
	if !errors.As(err, &nf) || nf.Title != "City not found" {
		t.Errorf("empty city: %v", err)
	}
}
