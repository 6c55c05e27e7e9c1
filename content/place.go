package content

import "math"

// The service area, for the rule on a city's coordinates: a city is in
// Georgia (its bounding box) and within ServiceRadiusKm of Atlanta. A
// position outside it is a typo (a swapped sign, latitude and longitude
// exchanged, a missing digit), not a city the crews drive to.
const (
	georgiaSouth, georgiaNorth = 30.35, 35.0
	georgiaWest, georgiaEast   = -85.61, -80.84
	atlantaLat, atlantaLng     = 33.749, -84.388
	// ServiceRadiusKm is how far from Atlanta a city may be.
	ServiceRadiusKm = 150
)

// DistanceKm is the great-circle distance between two positions in
// degrees (haversine on a sphere of the Earth's mean radius): within a
// few metres at the scale of a metro area.
func DistanceKm(aLat, aLng, bLat, bLng float64) float64 {
	const r = 6371.0088
	rad := math.Pi / 180
	dLat, dLng := (bLat-aLat)*rad, (bLng-aLng)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(aLat*rad)*math.Cos(bLat*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(h)))
}

// Placed reports whether a city has coordinates.
func (c City) Placed() bool { return c.Lat != 0 || c.Lng != 0 }

// InServiceArea reports whether a position is one a city of the site can
// have: in Georgia and within ServiceRadiusKm of Atlanta.
func InServiceArea(lat, lng float64) bool {
	if math.IsNaN(lat) || math.IsNaN(lng) {
		return false
	}
	if lat < georgiaSouth || lat > georgiaNorth || lng < georgiaWest || lng > georgiaEast {
		return false
	}
	return DistanceKm(atlantaLat, atlantaLng, lat, lng) <= ServiceRadiusKm
}

// NearestCity is the placed city nearest a position and its distance in
// km; ok is false when no city has coordinates.
func (s *Set) NearestCity(lat, lng float64) (City, float64, bool) {
	var best City
	bestKm, ok := math.Inf(1), false
	for _, c := range s.Cities {
		if !c.Placed() {
			continue
		}
		if d := DistanceKm(lat, lng, c.Lat, c.Lng); d < bestKm {
			best, bestKm, ok = c, d, true
		}
	}
	return best, bestKm, ok
}

// place checks a city's coordinates: missing is guidance (the city shows
// no nearby work until it has them); impossible is refused.
func (c *checker) place(kind, key string, lat, lng float64) {
	if lat == 0 && lng == 0 {
		c.need(false, kind, key, "lat", false, "has no coordinates: the page cannot show the work done near it")
		return
	}
	c.need(InServiceArea(lat, lng), kind, key, "lat", true,
		"%.4f, %.4f is not in the service area (Georgia, within %d km of Atlanta): check the numbers and their signs (Atlanta is 33.749, -84.388)", lat, lng, ServiceRadiusKm)
}
