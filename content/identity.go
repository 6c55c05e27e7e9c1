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

// CityByItemID returns the city whose content item id is id (ADR 046: other
// tables, a job's city, name a city by it). A site read from the files has
// no item ids; there a city's key ("county/slug") is accepted instead.
func (s *Set) CityByItemID(id string) (*City, bool) {
	key, ok := s.items[id]
	if !ok {
		c, ok := s.cityByKey[id]
		return c, ok
	}
	kind, key, _ := strings.Cut(key, "\x00")
	if kind != KindCity {
		return nil, false
	}
	c, ok := s.cityByKey[key]
	return c, ok
}

// ServiceByOrigin returns the service first seeded with slug, wherever the
// owner has moved it since (as CityByOrigin; a job may name its damage
// type that way). A site read from the files has no origins: there every
// slug is its own.
func (s *Set) ServiceByOrigin(slug string) (*Service, bool) {
	if len(s.origins) > 0 {
		now, ok := s.origins[KindService+"\x00"+slug]
		if !ok {
			return nil, false
		}
		slug = now
	}
	v, ok := s.serviceBySlug[slug]
	return v, ok
}
