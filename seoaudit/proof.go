package seoaudit

import (
	"context"
	"strings"

	"github.com/atlanta-restoration/site/content"
)

// The real sources of a city page's local proof. Each reads its rows once
// per audit through List, which the server wires to the store; they
// count as the public pages show: a job within the distance of the
// city's position (or, without a position of its own, in the city
// itself), an approved testimonial given with consent under the city's
// name.

// Place is a published job as the audit needs it: the city it names
// ("county/slug") and its rounded position, when it has one.
type Place struct {
	CityKey  string
	Lat, Lng float64
	Located  bool
}

// NearbyJobs counts, for each city page, the published jobs within Km of
// the city: the distance the city pages use for "Recent work near" them.
type NearbyJobs struct {
	List func(ctx context.Context) ([]Place, error)
	Km   float64
}

// WithinKm is the distance a job counts within (Within).
func (n NearbyJobs) WithinKm() float64 { return n.Km }

// Count implements ProofSource.
func (n NearbyJobs) Count(ctx context.Context, pages []CityPage) (map[string]int, error) {
	places, err := n.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(pages))
	for _, p := range pages {
		for _, j := range places {
			switch {
			case j.Located && p.Located:
				if content.DistanceKm(p.Lat, p.Lng, j.Lat, j.Lng) <= n.Km {
					out[p.Path]++
				}
			case j.CityKey != "" && j.CityKey == p.CityKey:
				out[p.Path]++
			}
		}
	}
	return out, nil
}

// CityTestimonials counts, for each city page, the testimonials the
// public pages may show under its city's name. List gives the city name
// of each approved testimonial given with consent.
type CityTestimonials struct {
	List func(ctx context.Context) ([]string, error)
}

// Count implements ProofSource.
func (c CityTestimonials) Count(ctx context.Context, pages []CityPage) (map[string]int, error) {
	cities, err := c.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(pages))
	for _, p := range pages {
		for _, name := range cities {
			if strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(p.City)) {
				out[p.Path]++
			}
		}
	}
	return out, nil
}
