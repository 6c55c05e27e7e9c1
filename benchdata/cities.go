// Package benchdata seeds generated data for benchmarks and scale tests.
package benchdata

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/editor"
)

// City pages, generated: the scale a busy regional company reaches (the
// site ships with 78 cities; issue 35 measures 500 and 2,000). Each
// generated city is a valid page as the owner would write it, so a
// benchmark measures what a real site of that size costs: a distinct
// name and slug, a county the site has, a position near that county's
// own cities (inside the service area), a few nearby cities of the same
// county, and an introduction, a description, a title and a meta
// description that pass the content rules (content.Set.Check) with no
// guidance either: the titles and descriptions are unique and within
// their lengths. Generation is deterministic: the same set and n give
// the same cities, so figures at one size compare across runs.

// Name parts: 60 × 48 names, and a compass word in front beyond them, so
// more than 10,000 distinct names before a number is needed.
var (
	firstParts = []string{"Pine", "Cedar", "Oak", "Maple", "Willow", "Magnolia", "Dogwood", "Hickory", "Laurel", "Chestnut",
		"Poplar", "Sycamore", "Holly", "Walnut", "Birch", "Elm", "Ash", "Cypress", "Juniper", "Persimmon",
		"Red", "Stone", "Flint", "Iron", "Copper", "Silver", "Clear", "Still", "Shady", "Sunny",
		"Fox", "Deer", "Eagle", "Heron", "Quail", "Turkey", "Bear", "Otter", "Hawk", "Wren",
		"Mill", "Church", "Bridge", "Depot", "Ferry", "Forge", "Orchard", "Meadow", "Cotton", "Peach",
		"High", "Long", "Broad", "Fair", "Green", "Spring", "Rock", "Sand", "Clay", "Rose"}
	secondParts = []string{"Creek", "Hill", "Ridge", "Springs", "Grove", "Valley", "Hollow", "Crossing", "Park", "Mill",
		"Station", "Landing", "Point", "Bluff", "Glen", "Heights", "Meadows", "Falls", "Branch", "Run",
		"Woods", "Field", "Ford", "Haven", "Lake", "Pond", "Shoals", "Summit", "Trace", "Village",
		"Gap", "Knob", "Bend", "Cove", "Dale", "Chapel", "Corner", "Farms", "Acres", "Gardens",
		"Terrace", "Commons", "Plains", "Brook", "Mount", "Vale", "Square", "Junction"}
	compass = []string{"", "North ", "South ", "East ", "West ", "Upper ", "Lower ", "Old ", "New "}

	// What the generated texts are made of: the same subjects the real
	// cities' texts cover, varied per city.
	housing = []string{"1950s ranch homes", "1970s split-levels", "1990s subdivisions", "early twentieth century cottages",
		"new townhomes", "farmhouses on acreage", "lake houses", "brick bungalows", "two-story homes with finished basements",
		"mill-village houses"}
	hazards = []string{"burst supply lines", "failed water heaters", "basement flooding after heavy rain", "trees falling on roofs in storms",
		"frozen pipes in crawlspaces", "kitchen fires", "roof leaks from worn shingles", "overflowing gutters",
		"sewer backups", "wind-driven rain through old windows"}
	waters = []string{"creek", "river", "branch", "lake", "reservoir"}
)

// CityNames lists the first n generated city names in order (all
// distinct). Exported so a test or a report can name what it generated.
func CityNames(n int) []string {
	out := make([]string, 0, n)
	per := len(firstParts) * len(secondParts)
	for i := 0; len(out) < n; i++ {
		round := i / per
		first, second := firstParts[i%len(firstParts)], secondParts[(i/len(firstParts))%len(secondParts)]
		if first == second {
			continue // "Mill Mill"
		}
		name := first + " " + second
		if round < len(compass) {
			name = compass[round] + name
		} else {
			name = fmt.Sprintf("%s%s %d", compass[round%len(compass)], name, round/len(compass)+1)
		}
		out = append(out, name)
	}
	return out
}

// Slug is a name's address form (lower-case words joined by dashes).
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
	}
	return b.String()
}

// Cities generates n cities for set: none shares a slug, a title or a
// description with a city (or fixed city page) set already has, each is in
// one of set's counties (in turn) and placed near that county's own
// cities, and each names up to three cities generated before it in its
// county as nearby. set is not changed.
func Cities(set *content.Set, n int) ([]content.City, error) {
	if n < 0 {
		return nil, fmt.Errorf("benchdata: %d cities", n)
	}
	if len(set.Counties) == 0 {
		return nil, fmt.Errorf("benchdata: the content has no county to put cities in")
	}
	taken := map[string]bool{}
	for _, c := range set.Cities {
		taken[c.Slug] = true
		taken[c.County+"/"+c.Slug] = true
	}
	for k := range set.CityProfiles {
		taken[k] = true
		_, slug, _ := strings.Cut(k, "/")
		taken[slug] = true
	}
	centres := countyCentres(set)
	rng := rand.New(rand.NewPCG(35, uint64(n)))
	out := make([]content.City, 0, n)
	byCounty := map[string][]string{}
	// More names than needed: some may be taken by the set's own cities.
	names := CityNames(n + len(taken) + 1)
	for _, name := range names {
		if len(out) == n {
			break
		}
		slug := Slug(name)
		if taken[slug] {
			continue
		}
		taken[slug] = true
		co := set.Counties[len(out)%len(set.Counties)]
		lat, lng := place(rng, centres[co.Slug])
		h1, h2 := housing[rng.IntN(len(housing))], housing[rng.IntN(len(housing))]
		z1, z2 := hazards[rng.IntN(len(hazards))], hazards[rng.IntN(len(hazards))]
		water := waters[rng.IntN(len(waters))]
		prev := byCounty[co.Slug]
		var nearby []string
		for i := len(prev) - 1; i >= 0 && len(nearby) < 3; i-- {
			nearby = append(nearby, prev[i])
		}
		byCounty[co.Slug] = append(prev, slug)
		out = append(out, content.City{
			County: co.Slug,
			City:   name,
			Slug:   slug,
			Lat:    lat,
			Lng:    lng,
			Intro: fmt.Sprintf("%s is a %s community in %s County, grown up along the %s that gives it its name. Our crews restore water, fire and storm damage across %s around the clock.",
				name, size(rng), co.Name, water, name),
			Description: fmt.Sprintf("Homes in %s range from %s to %s. The calls we answer most here are %s and %s, and heavy storms bring runoff toward foundations on the lower streets near the %s. Our IICRC certified technicians extract the water, dry the structure, remove smoke and soot, and rebuild, and we document every step for your insurance claim.",
				name, h1, h2, z1, z2, water),
			Nearby: nearby,
			SEO: content.SEO{
				SEOTitle:        clip(fmt.Sprintf("%s, GA Water & Storm Damage Restoration", name), 60),
				MetaDescription: clip(fmt.Sprintf("Water, fire or storm damage in %s, %s County? Local IICRC certified crews dry, clean and rebuild. Open 24/7.", name, co.Name), 160),
				Keywords:        []string{"water damage restoration " + name + " GA", "storm damage " + name, co.Name + " County restoration"},
			},
		})
	}
	if len(out) < n {
		return nil, fmt.Errorf("benchdata: only %d distinct city names are free, want %d", len(out), n)
	}
	return out, nil
}

// WithCities is set with n generated cities added after its own: the
// content as the files of `site content import` would read it.
func WithCities(set *content.Set, n int) (*content.Set, error) {
	cities, err := Cities(set, n)
	if err != nil {
		return nil, err
	}
	rs := set.Records()
	next := 0
	for _, r := range rs {
		if r.Kind == content.KindCity {
			next = max(next, r.Position+1)
		}
	}
	for i, c := range cities {
		r, err := cityRecord(c, next+i)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	out, problems, err := content.FromRecords(rs, set.Updated)
	if err != nil {
		return nil, err
	}
	for _, p := range content.HardProblems(problems) {
		if p.Kind == content.KindCity {
			return nil, fmt.Errorf("benchdata: a generated city is refused: %s", p.String())
		}
	}
	return out, nil
}

// AddCities adds n generated city pages to the live content as `site
// content import` does: the live content with the new cities is imported
// through the editor (every record checked as a publish from the admin is,
// all published in one transaction, the site told once). It returns the
// import's report.
func AddCities(ctx context.Context, ed *editor.Service, n int) (editor.ImportReport, error) {
	live, err := ed.Load(ctx)
	if err != nil {
		return editor.ImportReport{}, err
	}
	set, err := WithCities(live, n)
	if err != nil {
		return editor.ImportReport{}, err
	}
	return ed.Import(ctx, set, editor.Actor{Name: "benchdata"})
}

// WriteCities writes the live content with n generated cities added as a
// content folder (dir must not exist or be empty), for timing `site
// content import DIR` itself.
func WriteCities(ctx context.Context, ed *editor.Service, n int, dir string) error {
	live, err := ed.Load(ctx)
	if err != nil {
		return err
	}
	set, err := WithCities(live, n)
	if err != nil {
		return err
	}
	return set.Export(dir)
}

func cityRecord(c content.City, pos int) (content.Record, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return content.Record{}, err
	}
	return content.Record{Kind: content.KindCity, Slug: c.County + "/" + c.Slug, JSON: b, Position: pos}, nil
}

// countyCentres is the mean position of each county's placed cities
// (Atlanta for a county with none).
func countyCentres(set *content.Set) map[string][2]float64 {
	sum := map[string][3]float64{}
	for _, c := range set.Cities {
		if !c.Placed() {
			continue
		}
		s := sum[c.County]
		sum[c.County] = [3]float64{s[0] + c.Lat, s[1] + c.Lng, s[2] + 1}
	}
	out := map[string][2]float64{}
	for _, co := range set.Counties {
		if s := sum[co.Slug]; s[2] > 0 {
			out[co.Slug] = [2]float64{s[0] / s[2], s[1] / s[2]}
		} else {
			out[co.Slug] = [2]float64{33.749, -84.388}
		}
	}
	return out
}

// place is a position within about 15 km of centre, in the service area.
func place(rng *rand.Rand, centre [2]float64) (float64, float64) {
	for {
		a, d := rng.Float64()*2*math.Pi, rng.Float64()*0.13
		lat, lng := centre[0]+d*math.Sin(a), centre[1]+d*math.Cos(a)/math.Cos(centre[0]*math.Pi/180)
		lat, lng = math.Round(lat*1e4)/1e4, math.Round(lng*1e4)/1e4
		if content.InServiceArea(lat, lng) {
			return lat, lng
		}
	}
}

func size(rng *rand.Rand) string {
	return []string{"small", "quiet", "growing", "busy", "close-knit", "historic"}[rng.IntN(6)]
}

// clip shortens s to at most n characters at a word boundary.
func clip(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	r := []rune(s)[:n]
	if i := strings.LastIndexByte(string(r), ' '); i > 0 {
		return strings.TrimRight(string(r)[:i], ",.&- ")
	}
	return string(r)
}
