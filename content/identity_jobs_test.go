package content

import "testing"

// A site from the database knows each record's item id (a job names its
// city by it) and a service's origin (a job may name its damage type so).
func TestCityByItemIDAndServiceByOrigin(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	rs := c.Records()
	for i := range rs {
		switch {
		case rs[i].Kind == KindCity && rs[i].Slug == "cobb/marietta":
			rs[i].ItemID, rs[i].Origin = "0b6d3c1e-city", "cobb/marietta"
		case rs[i].Kind == KindService && rs[i].Slug == "water-damage-restoration":
			rs[i].ItemID, rs[i].Origin = "7f1e2d3c-service", "water-damage-restoration"
		}
	}
	s, _, err := FromRecords(rs, "2026-01-01")
	if err != nil {
		t.Fatal(err)
	}
	if ci, ok := s.CityByItemID("0b6d3c1e-city"); !ok || ci.City != "Marietta" {
		t.Errorf("CityByItemID = %v, %v", ci, ok)
	}
	for _, id := range []string{"7f1e2d3c-service", "no-such-id", ""} {
		if ci, ok := s.CityByItemID(id); ok {
			t.Errorf("CityByItemID(%q) = %s, want none", id, ci.City)
		}
	}
	if sv, ok := s.ServiceByOrigin("water-damage-restoration"); !ok || sv.Slug != "water-damage-restoration" {
		t.Errorf("ServiceByOrigin = %v, %v", sv, ok)
	}
	// A service with no origin recorded is not found by one (as a city).
	if _, ok := s.ServiceByOrigin("fire-damage-restoration"); ok {
		t.Error("a service without an origin was found by it")
	}
	// The files' site has no ids: a city's key is taken instead.
	if ci, ok := c.CityByItemID("cobb/marietta"); !ok || ci.City != "Marietta" {
		t.Errorf("files: CityByItemID(key) = %v, %v", ci, ok)
	}
	if sv, ok := c.ServiceByOrigin("fire-damage-restoration"); !ok || sv.Slug != "fire-damage-restoration" {
		t.Errorf("files: ServiceByOrigin = %v, %v", sv, ok)
	}
}
