package site

import (
	"context"
	"fmt"
	"strings"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/words"
)

// Area pages (spec 2.3): the service-areas listing, the county pages and
// the city pages. The four fixed city pages (city-profiles.json) are
// concrete routes listed before the generic city pattern, so the first
// match in table order serves them with the city-profile page kind.

// AreaFirstCities is spec 9's "first 5 cities per county".
const AreaFirstCities = 5

// AreaNearbyInFAQ is spec 9's "nearby FAQ lists first 3 ... nearby areas".
const AreaNearbyInFAQ = 3

// arrival is the arrival claim of every area page (spec 1: 15-60
// minutes), one of the response times of the site's wording.
func (s *Site) arrival() string { return s.content().Words["times"]["areas"] }

// responseTime is one of the response times the owner edits in one
// place (content words, group "times"), for the texts written here: the
// pages' descriptions in search results.
func (s *Site) responseTime(key string) string { return s.content().Words["times"][key] }

func areaRoutes() []Route {
	var rs []Route
	for _, key := range CityProfileKeys() {
		key := key
		rs = append(rs, Route{
			Pattern: "/areas/" + key, Page: "city-profile", Priority: "high", ChangeFreq: "monthly",
			InSitemap: true, Indexable: true,
			Load: func(ctx context.Context, s *Site, _ Params) (Page, error) { return loadCityProfile(ctx, s, key) },
		})
	}
	return append(rs,
		Route{Pattern: "/service-areas", Page: "service-areas", Priority: "high", ChangeFreq: "monthly", InSitemap: true, Indexable: true, Load: loadServiceAreas},
		Route{Pattern: "/service-areas/{county}", Page: "county", Priority: "medium", ChangeFreq: "monthly", InSitemap: true, Indexable: true, Load: loadCounty, Expand: ExpandCounties},
		Route{Pattern: "/areas/{county}/{slug}", Page: "city", Priority: "medium", ChangeFreq: "monthly", InSitemap: true, Indexable: true, Load: loadCity, Expand: expandCities},
	)
}

// CityProfileKeys are the keys of the four fixed city pages (spec 2.1).
// The route table is built before content is loaded, so they are fixed
// here; TestAreaProfileKeysMatchContent checks them against the content.
func CityProfileKeys() []string {
	return []string{"douglas/douglasville", "fulton/atlanta-service", "cobb/marietta", "gwinnett/lawrenceville"}
}

func isCityProfile(county, slug string) bool {
	for _, k := range CityProfileKeys() {
		if k == county+"/"+slug {
			return true
		}
	}
	return false
}

func ExpandCounties(c *content.Set) []string {
	var out []string
	for _, co := range c.Counties {
		if len(c.CitiesOf(co.Slug)) > 0 {
			out = append(out, "/service-areas/"+co.Slug)
		}
	}
	return out
}

// expandCities lists every city record's page except those a fixed city
// page replaces at the same path.
func expandCities(c *content.Set) []string {
	var out []string
	for _, ci := range c.Cities {
		if isCityProfile(ci.County, ci.Slug) {
			continue
		}
		out = append(out, CityPath(ci.County, ci.Slug))
	}
	return out
}

func CityPath(county, slug string) string { return "/areas/" + county + "/" + slug }

// ---- data shapes (components/props.gen.ts is generated from them) ----

// AreaLink is a named link.
type AreaLink struct {
	Name string `json:"name"`
	Href string `json:"href"`
}

// AreaService is a service card of the area pages.
type AreaService struct {
	Title string `json:"title"`
	Text  string `json:"text"`
	Href  string `json:"href"`
	Icon  string `json:"icon"`
}

// CountySummary is one county on /service-areas.
type CountySummary struct {
	Slug      string     `json:"slug"`
	Name      string     `json:"name"`
	Intro     string     `json:"intro"`
	Href      string     `json:"href"`
	CityCount int        `json:"cityCount"`
	Cities    []AreaLink `json:"cities"`
	More      int        `json:"more"`
}

// ServiceAreasData is the /service-areas page.
type ServiceAreasData struct {
	Counties  []CountySummary `json:"counties"`
	CityTotal int             `json:"cityTotal"`
	Related   RelatedData     `json:"related"`
}

// CountyCityCard is a city card on a county page.
type CountyCityCard struct {
	Name string `json:"name"`
	Href string `json:"href"`
	Text string `json:"text"`
}

// CountyProfileView is the extra block of the seven fixed county pages.
type CountyProfileView struct {
	Description  string           `json:"description"`
	Population   string           `json:"population"`
	SquareMiles  string           `json:"squareMiles"`
	CitiesServed int              `json:"citiesServed"`
	Features     []string         `json:"features"`
	CommonDamage []string         `json:"commonDamage"`
	Services     []AreaService    `json:"services"`
	Reasons      []content.Reason `json:"reasons"`
	FAQs         []content.FAQ    `json:"faqs"`
}

// CountyData is a county page.
type CountyData struct {
	Slug     string             `json:"slug"`
	Name     string             `json:"name"`
	Intro    string             `json:"intro"`
	Cities   []CountyCityCard   `json:"cities"`
	Services []AreaService      `json:"services"`
	Profile  *CountyProfileView `json:"profile"`
	Hero     *HeroImage         `json:"hero"`
	// RecentWork are the newest published jobs in the county's cities
	// (ADR 062), nil for none.
	RecentWork *JobsSection `json:"recentWork"`
}

// CityData is the generic city page.
type CityData struct {
	City        string           `json:"city"`
	Slug        string           `json:"slug"`
	County      string           `json:"county"`
	CountySlug  string           `json:"countySlug"`
	Heading     string           `json:"heading"`
	Intro       string           `json:"intro"`
	Description string           `json:"description"`
	Services    []AreaService    `json:"services"`
	Reasons     []content.Reason `json:"reasons"`
	Nearby      []AreaLink       `json:"nearby"`
	FAQs        []content.FAQ    `json:"faqs"`
	Hero        *HeroImage       `json:"hero"`
	// RecentWork is "Recent work near {city}" (ADR 062), nil for none.
	RecentWork *JobsSection `json:"recentWork"`
	// Quotes are homeowners' testimonials from this city (ADR 063).
	Quotes []Quote `json:"quotes"`
}

// CityProfileData is one of the four fixed city pages.
type CityProfileData struct {
	City          string           `json:"city"`
	County        string           `json:"county"`
	CountySlug    string           `json:"countySlug"`
	Heading       string           `json:"heading"`
	Intro         string           `json:"intro"`
	ZipCodes      []string         `json:"zipCodes"`
	Landmarks     []string         `json:"landmarks"`
	Neighborhoods []string         `json:"neighborhoods"`
	Services      []AreaService    `json:"services"`
	Reasons       []content.Reason `json:"reasons"`
	FAQs          []content.FAQ    `json:"faqs"`
	Hero          *HeroImage       `json:"hero"`
	// RecentWork is "Recent work near {city}" (ADR 062), nil for none.
	RecentWork *JobsSection `json:"recentWork"`
	// Quotes are homeowners' testimonials from this city (ADR 063).
	Quotes []Quote `json:"quotes"`
}

// ---- services shown on area pages ----

// areaService builds a card from the service record, with a fallback text
// so a content edit cannot empty the card.
func (s *Site) areaService(slug, title, icon, fallback string) AreaService {
	text := fallback
	if sv, ok := s.content().Service(slug); ok && sv.ShortDescription != "" {
		text = sv.ShortDescription
		if title == "" {
			title = sv.Title
		}
		if icon == "" {
			icon = sv.Icon
		}
	}
	return AreaService{Title: title, Text: text, Href: "/services/" + slug, Icon: icon}
}

// countyServices are the three service cards of every county page.
func (s *Site) countyServices() []AreaService {
	return []AreaService{
		s.areaService("water-damage-restoration", "Water Damage Restoration", "droplets", "Water extraction, drying and repairs."),
		s.areaService("fire-damage-restoration", "Fire Damage Restoration", "flame", "Smoke, soot and structural repairs after a fire."),
		s.areaService("emergency-cleanup", "Emergency Services", "alert-triangle", "Around-the-clock response to floods, fires and storms."),
	}
}

// fourServices are the water, fire, storm and mold services of the fixed
// county and city pages.
func (s *Site) fourServices() []AreaService {
	return []AreaService{
		s.areaService("water-damage-restoration", "Water Damage Restoration", "droplets", "Water extraction, drying and repairs."),
		s.areaService("fire-damage-restoration", "Fire Damage Restoration", "flame", "Smoke, soot and structural repairs after a fire."),
		s.areaService("storm-damage-repair", "Storm Damage Repair", "cloud-lightning", "Tarping and repairs after wind, hail and trees."),
		s.areaService("mold-remediation", "Mold Remediation", "wind", "Containment, mold removal and moisture correction."),
	}
}

// defaultCityServices are the six services of the generic city page, each
// with its own icon.
var defaultCityServices = []struct{ Slug, Title, Icon string }{
	{"water-damage-restoration", "Water Damage Restoration", "droplets"},
	{"fire-damage-restoration", "Fire Damage Restoration", "flame"},
	{"storm-damage-repair", "Storm Damage Repair", "cloud-lightning"},
	{"mold-remediation", "Mold Remediation", "wind"},
	{"emergency-cleanup", "Emergency Cleanup", "alert-triangle"},
	{"roof-repair", "Roof Repair", "home"},
}

// serviceIcons give a service named in a city record's optional services
// list its icon, by the first keyword its name contains.
var serviceIcons = []struct{ Word, Icon string }{
	{"water", "droplets"}, {"flood", "droplets"}, {"fire", "flame"}, {"smoke", "flame"}, {"storm", "cloud-lightning"},
	{"mold", "wind"}, {"emergency", "alert-triangle"}, {"roof", "home"}, {"remodel", "hammer"}, {"contract", "hammer"},
	{"insurance", "file-text"}, {"cleanup", "sparkles"},
}

func (s *Site) cityServices(ci *content.City) []AreaService {
	var out []AreaService
	if len(ci.Services) > 0 {
		for _, name := range ci.Services {
			icon := "shield"
			lower := strings.ToLower(name)
			for _, si := range serviceIcons {
				if strings.Contains(lower, si.Word) {
					icon = si.Icon
					break
				}
			}
			href := "/services"
			text := "Professional " + lower + " for " + ci.City + " homes and businesses."
			for _, sv := range s.content().Services {
				if strings.EqualFold(sv.Title, name) {
					href, text = "/services/"+sv.Slug, sv.ShortDescription
				}
			}
			out = append(out, AreaService{Title: name, Text: text, Href: href, Icon: icon})
		}
		return out
	}
	for _, d := range defaultCityServices {
		out = append(out, s.areaService(d.Slug, d.Title, d.Icon, d.Title+" for "+ci.City+" homes and businesses."))
	}
	return out
}

// ---- /service-areas ----

func loadServiceAreas(_ context.Context, s *Site, _ Params) (Page, error) {
	d := ServiceAreasData{Counties: []CountySummary{}}
	for _, co := range s.content().Counties {
		cities := s.content().CitiesOf(co.Slug)
		if len(cities) == 0 {
			continue
		}
		sum := CountySummary{Slug: co.Slug, Name: co.Name, Intro: co.Intro, Href: "/service-areas/" + co.Slug, CityCount: len(cities), Cities: []AreaLink{}}
		for i, ci := range cities {
			if i == AreaFirstCities {
				break
			}
			sum.Cities = append(sum.Cities, AreaLink{Name: ci.City, Href: CityPath(co.Slug, ci.Slug)})
		}
		sum.More = len(cities) - len(sum.Cities)
		d.CityTotal += len(cities)
		d.Counties = append(d.Counties, sum)
	}
	return Page{
		Data: d,
		Head: HeadSpec{
			Title:       "Service Areas | Restoration in 11 Metro Atlanta Counties",
			Description: fmt.Sprintf("Water, fire and storm damage restoration in %d cities across 11 metro Atlanta counties, from Fulton and Cobb to Gwinnett and Henry. 24/7 emergency crews.", d.CityTotal),
			Keywords:    []string{"restoration service areas atlanta", "water damage restoration metro atlanta", "fulton county restoration", "cobb county restoration", "gwinnett county restoration", "douglas county restoration"},
			Path:        "/service-areas",
			Crumbs:      []Crumb{{"Service Areas", "/service-areas"}},
			Extra:       []map[string]any{s.areaItemList(d)},
		},
	}, nil
}

func (s *Site) areaItemList(d ServiceAreasData) map[string]any {
	items := []map[string]any{}
	for i, c := range d.Counties {
		items = append(items, map[string]any{"@type": "ListItem", "position": i + 1, "name": c.Name + " County", "url": s.Abs(c.Href)})
	}
	return map[string]any{"@type": "ItemList", "name": "Service Areas", "itemListElement": items}
}

// ---- /service-areas/{county} ----

func loadCounty(ctx context.Context, s *Site, p Params) (Page, error) {
	slug := p["county"]
	if slug == "" {
		return Page{}, &NotFoundError{Title: "County not found", LinkHref: "/service-areas", LinkText: "Back to Service Areas"}
	}
	cities := s.content().CitiesOf(slug)
	co, ok := s.content().County(slug)
	if len(cities) == 0 || !ok {
		return Page{}, &NotFoundError{
			Title:    "County Not Found",
			Message:  "We couldn't find any cities for " + capitalise(slug) + " County.",
			LinkHref: "/service-areas", LinkText: "Back to Service Areas",
		}
	}
	path := "/service-areas/" + co.Slug
	d := CountyData{Slug: co.Slug, Name: co.Name, Intro: co.Intro, Cities: []CountyCityCard{}, Services: s.countyServices(), Hero: s.heroImage(ctx, co.Image), RecentWork: s.countyJobs(ctx, co)}
	for _, ci := range cities {
		d.Cities = append(d.Cities, CountyCityCard{Name: ci.City, Href: CityPath(co.Slug, ci.Slug), Text: firstSentence(ci.Intro)})
	}
	if pr := co.Profile; pr != nil {
		d.Profile = &CountyProfileView{
			Description: pr.Description, Population: pr.Population, SquareMiles: pr.SquareMiles,
			CitiesServed: len(cities), Features: orEmpty(pr.Features), CommonDamage: orEmpty(pr.CommonDamage),
			Services: s.fourServices(), Reasons: pr.Reasons, FAQs: s.countyFAQs(ctx, co, len(cities)),
		}
	}
	return Page{
		Data: d,
		Head: HeadSpec{
			Title: co.SEOTitle, Description: co.MetaDescription, Keywords: co.Keywords, Path: path,
			Crumbs: []Crumb{{"Service Areas", "/service-areas"}, {co.Name + " County", path}},
			Extra:  []map[string]any{s.areaServiceLD(co.Name+" County restoration services", path, map[string]any{"@type": "AdministrativeArea", "name": co.Name + " County, Georgia"})},
			Image:  s.ogImage(d.Hero),
		},
	}, nil
}

// countyFAQs are the five questions of a fixed county page, written from
// its profile.
func (s *Site) countyFAQs(ctx context.Context, co *content.County, cityCount int) []content.FAQ {
	b := s.business(ctx)
	pr := co.Profile
	name := co.Name + " County"
	damage := make([]string, 0, len(pr.CommonDamage))
	for _, d := range pr.CommonDamage {
		damage = append(damage, lowerFirst(d))
	}
	return []content.FAQ{
		{
			Question: "How fast can you respond to an emergency in " + name + "?",
			Answer:   "Our emergency line is answered 24/7, and for emergencies our crews typically arrive within " + s.arrival() + " anywhere in " + name + ", depending on your location, traffic and weather. We start water extraction, board-up or tarping as soon as we arrive.",
		},
		{
			Question: "Which cities in " + name + " do you serve?",
			Answer:   "We serve all " + words.Count(cityCount, "city", "cities") + " in " + name + ", including " + MajorCitiesText(pr.MajorCities) + ". Every city has its own page on our site with local details.",
		},
		{
			Question: "What kinds of property damage are most common in " + name + "?",
			Answer:   "The calls we see most often in " + name + " are " + joinAnd(damage, "; ") + ". We handle all of them, from the first emergency visit to the final repairs.",
		},
		{
			Question: "Do you work with insurance companies on " + name + " claims?",
			Answer:   "Yes. We document the damage with photos, moisture readings and a detailed scope, meet your adjuster on site and bill your insurance company directly, so you pay only your deductible and anything your policy does not cover.",
		},
		{
			Question: "Are you licensed to work on homes in " + name + "?",
			Answer:   "Yes. We are a state licensed and insured general contractor (License #" + b.License + ") with IICRC certified technicians, so the same team that dries out or cleans up your " + co.Name + " County home can also rebuild it.",
		},
	}
}

// MajorCitiesText names the first five major cities and counts the rest:
// "Atlanta, Sandy Springs, Roswell, Alpharetta and Johns Creek, plus 3 more cities".
func MajorCitiesText(cities []string) string {
	if len(cities) <= AreaFirstCities {
		return joinAnd(cities, ", ")
	}
	rest := len(cities) - AreaFirstCities
	return joinAnd(cities[:AreaFirstCities], ", ") + ", plus " + words.Count(rest, "more city", "more cities")
}

// ---- /areas/{county}/{slug} ----

func loadCity(ctx context.Context, s *Site, p Params) (Page, error) {
	county, slug := p["county"], p["slug"]
	notFound := &NotFoundError{Title: "City not found", LinkHref: "/service-areas", LinkText: "Back to Service Areas"}
	if county == "" || slug == "" {
		return Page{}, notFound
	}
	ci, ok := s.content().City(county, slug)
	if !ok || ci.County != county {
		return Page{}, notFound
	}
	co, ok := s.content().County(county)
	if !ok {
		return Page{}, notFound
	}
	path := CityPath(county, slug)
	d := CityData{
		City: ci.City, Slug: ci.Slug, County: co.Name, CountySlug: co.Slug,
		Heading: "Water Damage Restoration in " + ci.City + ", GA",
		Intro:   ci.Intro, Description: ci.Description,
		Services: s.cityServices(ci), Reasons: cityReasons(ci.City, co.Name, s.arrival()),
		Nearby: s.nearby(ci), FAQs: nil, Hero: s.heroImage(ctx, ci.Image), RecentWork: s.cityJobs(ctx, ci),
	}
	d.FAQs = s.cityFAQs(ctx, ci, co, d.Nearby)
	d.Quotes = s.cityQuotes(ctx, ci.City)
	return Page{
		Data: d,
		Head: HeadSpec{
			Title: ci.SEOTitle, Description: ci.MetaDescription, Keywords: ci.Keywords, Path: path,
			Crumbs: []Crumb{{"Service Areas", "/service-areas"}, {co.Name + " County", "/service-areas/" + co.Slug}, {ci.City, path}},
			Extra:  []map[string]any{s.areaServiceLD("Water damage restoration in "+ci.City+", GA", path, map[string]any{"@type": "City", "name": ci.City + ", Georgia"})},
			Image:  s.ogImage(d.Hero),
			Robots: hiddenRobots(ci.NoIndex),
		},
	}, nil
}

// nearby links the city's nearby slugs to their pages, in whatever county
// each one is in.
func (s *Site) nearby(ci *content.City) []AreaLink {
	out := []AreaLink{}
	for _, n := range ci.Nearby {
		if o, ok := s.content().NearbyCity(ci, n); ok {
			out = append(out, AreaLink{Name: o.City, Href: CityPath(o.County, o.Slug)})
		}
	}
	return out
}

func cityReasons(city, county, arrival string) []content.Reason {
	return []content.Reason{
		{Title: "Local crews, ready 24/7", Text: "Our crews work across " + county + " County every day, so help reaches " + city + " fast, day or night. For emergencies we typically arrive within " + arrival + "."},
		{Title: "One licensed team, start to finish", Text: "IICRC certified technicians handle the cleanup and drying, and our state licensed construction crews complete the repairs, so you deal with one company from the first call to the final walkthrough."},
		{Title: "Insurance handled for you", Text: "We document every room with photos and moisture readings, work with your adjuster and bill your insurance company directly. Daily job photos keep you informed."},
	}
}

// cityFAQs are the six questions of a generic city page.
func (s *Site) cityFAQs(ctx context.Context, ci *content.City, co *content.County, nearby []AreaLink) []content.FAQ {
	b := s.business(ctx)
	city := ci.City
	names := []string{}
	for i, n := range nearby {
		if i == AreaNearbyInFAQ {
			break
		}
		names = append(names, n.Name)
	}
	nearbyAnswer := "Yes. Besides " + city + ", we serve every city in " + co.Name + " County and 11+ counties across metro Atlanta."
	if len(names) > 0 {
		nearbyAnswer = "Yes. Besides " + city + ", we serve nearby " + joinAnd(names, ", ") + ", the rest of " + co.Name + " County and 11+ counties across metro Atlanta."
	}
	return []content.FAQ{
		{
			Question: "How quickly can your crew arrive in " + city + "?",
			Answer:   "For emergencies, our crews typically arrive within " + s.arrival() + " in " + city + ", depending on your exact location, traffic and weather. Our phone is answered 24/7, including nights, weekends and holidays.",
		},
		{
			Question: "Do you serve areas near " + city + "?",
			Answer:   nearbyAnswer,
		},
		{
			Question: "What types of damage do you repair in " + city + "?",
			Answer:   "We handle water damage from burst pipes, leaks and flooding, fire and smoke damage, storm and fallen-tree damage, mold remediation, emergency cleanup and roof repair, and our licensed contractors complete the rebuild.",
		},
		{
			Question: "Will you work with my insurance company?",
			Answer:   "Yes. We document the loss with photos, moisture readings and a detailed scope, meet your adjuster and bill your insurance company directly, so you pay only your deductible and anything your policy does not cover.",
		},
		{
			Question: "Do you offer free estimates in " + city + "?",
			Answer:   "Yes. Estimates are always free. For emergencies we start mitigation right away and document everything for your claim; for repairs we give you a written estimate before work begins.",
		},
		{
			Question: "Are your technicians licensed and certified?",
			Answer:   "Yes. We are a state licensed and insured general contractor (License #" + b.License + "), and our technicians hold IICRC certifications for water, fire and mold restoration.",
		},
	}
}

// ---- fixed city pages ----

// loadCityProfile serves one of the four fixed city pages.
func loadCityProfile(ctx context.Context, s *Site, key string) (Page, error) {
	pr, ok := s.content().CityProfiles[key]
	if !ok {
		return Page{}, &NotFoundError{Title: "City not found", LinkHref: "/service-areas", LinkText: "Back to Service Areas"}
	}
	countySlug, _, _ := strings.Cut(key, "/")
	path := "/areas/" + key
	countyName := pr.CountyName
	if co, ok := s.content().County(countySlug); ok {
		countyName = co.Name
	}
	d := CityProfileData{
		City: pr.CityName, County: countyName, CountySlug: countySlug,
		Heading: "Water, Fire & Storm Damage Restoration in " + pr.CityName + ", GA",
		Intro:   pr.Intro, ZipCodes: orEmpty(pr.ZipCodes), Landmarks: orEmpty(pr.Landmarks), Neighborhoods: orEmpty(pr.Neighborhoods),
		Services: s.fourServices(), Reasons: pr.Reasons, FAQs: pr.FAQs, Hero: s.heroImage(ctx, pr.Image),
		RecentWork: s.cityJobs(ctx, s.profileCity(key, pr)),
	}
	d.Quotes = s.cityQuotes(ctx, pr.CityName)
	return Page{
		Data: d,
		Head: HeadSpec{
			Title: pr.SEOTitle, Description: pr.MetaDescription, Keywords: pr.Keywords, Path: path,
			Crumbs: []Crumb{{"Service Areas", "/service-areas"}, {countyName + " County", "/service-areas/" + countySlug}, {pr.CityName, path}},
			Extra:  []map[string]any{s.areaServiceLD("Water, fire and storm damage restoration in "+pr.CityName+", GA", path, map[string]any{"@type": "City", "name": pr.CityName + ", Georgia"})},
			Image:  s.ogImage(d.Hero),
			Robots: hiddenRobots(s.profileHidden(key)),
		},
	}, nil
}

// areaServiceLD is the Service node of a county or city page.
func (s *Site) areaServiceLD(name, path string, area map[string]any) map[string]any {
	return map[string]any{
		"@type": "Service", "@id": s.Abs(path) + "#service", "name": name,
		"serviceType": "Water, fire and storm damage restoration", "url": s.Abs(path),
		"provider": map[string]any{"@id": s.Abs("/#business")}, "areaServed": area,
	}
}

// ---- text helpers ----

func capitalise(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToLower(string(r[0])) + string(r[1:])
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// joinAnd joins "a, b and c" (or with another separator before the last
// "and" when the items contain commas).
func joinAnd(items []string, sep string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	last := " and "
	if sep != ", " {
		last = sep + "and "
	}
	return strings.Join(items[:len(items)-1], sep) + last + items[len(items)-1]
}

func orEmpty(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}
