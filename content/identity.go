package content

import "strings"

// NearbyCity finds the city a nearby entry of from names: a key
// ("cobb/smyrna"), or a slug, a city of from's county first, then of any
// county (the files' readable form; the database holds ids, ADR 046).
func (s *Set) NearbyCity(from *City, ref string) (*City, bool) {
	if county, slug, ok := strings.Cut(ref, "/"); ok {
		return s.City(county, slug)
	}
	if o, ok := s.City(from.County, ref); ok {
		return o, true
	}
	return s.CityBySlug(ref)
}

// CityByOrigin returns the city first seeded as county/slug from the
// embedded files, wherever the owner has moved it since: the code's own
// lists of cities (the water landing page's areas) name cities that way,
// and a rename must not lose them. A site read from the files has no
// origins: there every key is its own.
func (s *Set) CityByOrigin(county, slug string) (*City, bool) {
	key := county + "/" + slug
	if len(s.origins) > 0 {
		now, ok := s.origins[KindCity+"\x00"+key]
		if !ok {
			return nil, false // deleted or unpublished (another city may have its old address)
		}
		key = now
	}
	c, ok := s.cityByKey[key]
	return c, ok
}
