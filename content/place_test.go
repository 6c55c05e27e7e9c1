package content

import (
	"math"
	"strings"
	"testing"
)

func TestDistanceKm(t *testing.T) {
	// Atlanta to Marietta is about 27 km as the crow flies; a degree of
	// latitude is about 111.2 km everywhere.
	if d := DistanceKm(33.749, -84.388, 33.9526, -84.5499); d < 26 || d > 28.5 {
		t.Errorf("Atlanta to Marietta = %.1f km", d)
	}
	if d := DistanceKm(33, -84, 34, -84); math.Abs(d-111.2) > 0.3 {
		t.Errorf("one degree of latitude = %.2f km", d)
	}
	if d := DistanceKm(33.5, -84.5, 33.5, -84.5); d != 0 {
		t.Errorf("same point = %v", d)
	}
}

func TestInServiceArea(t *testing.T) {
	for _, c := range []struct {
		lat, lng float64
		ok       bool
	}{
		{33.749, -84.388, true},      // Atlanta
		{34.3823, -84.371, true},     // Nelson, the far north
		{33.749, 84.388, false},      // the sign of the longitude dropped
		{-84.388, 33.749, false},     // latitude and longitude exchanged
		{3.749, -84.388, false},      // a digit missing
		{0, 0, false},                // no position
		{32.0809, -81.0912, false},   // Savannah: Georgia, but not the metro
		{35.1495, -90.049, false},    // Memphis
		{math.NaN(), -84.388, false}, // not a number
	} {
		if got := InServiceArea(c.lat, c.lng); got != c.ok {
			t.Errorf("InServiceArea(%v, %v) = %v", c.lat, c.lng, got)
		}
	}
}

// Every embedded city has coordinates in the service area, it is the
// nearest city to its own position, and it lies near the other cities of
// its county: a typo in the data (a wrong first decimal moves a city tens of
// km) fails here.
func TestEmbeddedCitiesArePlaced(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cities) < 70 {
		t.Fatalf("%d cities", len(s.Cities))
	}
	type sum struct{ lat, lng, n float64 }
	county := map[string]*sum{}
	for _, c := range s.Cities {
		if !c.Placed() || !InServiceArea(c.Lat, c.Lng) {
			t.Errorf("%s: %v, %v", c.Slug, c.Lat, c.Lng)
			continue
		}
		if n, _, _ := s.NearestCity(c.Lat, c.Lng); n.Slug != c.Slug {
			t.Errorf("the city nearest %s's position is %s", c.Slug, n.Slug)
		}
		if county[c.County] == nil {
			county[c.County] = &sum{}
		}
		cs := county[c.County]
		cs.lat, cs.lng, cs.n = cs.lat+c.Lat, cs.lng+c.Lng, cs.n+1
	}
	for _, c := range s.Cities {
		cs := county[c.County]
		if d := DistanceKm(c.Lat, c.Lng, cs.lat/cs.n, cs.lng/cs.n); d > 45 { // Fulton runs 90 km north to south
			t.Errorf("%s is %.0f km from the middle of %s County's cities", c.Slug, d, c.County)
		}
	}
}

func TestNearestCity(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	// A house a kilometre off Marietta Square.
	c, km, ok := s.NearestCity(33.96, -84.54)
	if !ok || c.Slug != "marietta" || km > 2 {
		t.Errorf("nearest = %s at %.1f km (%v)", c.Slug, km, ok)
	}
	empty := &Set{Cities: []City{{Slug: "x"}}}
	if _, _, ok := empty.NearestCity(33.96, -84.54); ok {
		t.Error("a city without coordinates was nearest")
	}
}

// The rules: a city without coordinates is guidance; one outside the
// service area is refused.
func TestCityCoordinatesRule(t *testing.T) {
	var c checker
	c.place(KindCity, "cobb/x", 0, 0)
	c.place(KindCity, "cobb/y", 33.95, 84.55)
	c.place(KindCity, "cobb/z", 33.95, -84.55)
	if len(c.out) != 2 || c.out[0].Hard || !c.out[1].Hard || c.out[1].Slug != "cobb/y" || !strings.Contains(c.out[1].Message, "not in the service area") {
		t.Errorf("%+v", c.out)
	}
}
