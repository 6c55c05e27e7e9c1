package site

import (
	"context"
	"strings"

	"github.com/atlanta-restoration/site/content"
)

// Service pages (spec 2.3): the services listing, one detail page per
// service record and the water damage landing page.

func init() {
	redirects["/services/insurance-help"] = "/services/insurance-claims"
	redirects["/water-damage-cleanup-restoration"] = WaterLandingPath
}

// WaterLandingPath is the canonical address of the water damage landing
// page; /water-damage-cleanup-restoration answers 301 to it.
const WaterLandingPath = "/water-damage-restoration-atlanta"

// supplementaryServices are the services whose detail pages have medium
// sitemap priority. A route's priority is per pattern, so each gets a
// concrete route listed before the /services/{slug} pattern, which then
// only expands to the other (primary, high priority) services.
var supplementaryServices = []string{"mold-remediation", "emergency-cleanup", "roof-repair"}

func serviceRoutes() []Route {
	rs := []Route{
		{Pattern: "/services", Page: "services", Priority: "high", ChangeFreq: "monthly", InSitemap: true, Indexable: true, Load: loadServices},
	}
	for _, slug := range supplementaryServices {
		slug := slug
		rs = append(rs, Route{
			Pattern: "/services/" + slug, Page: "service", Priority: "medium", ChangeFreq: "monthly", InSitemap: true, Indexable: true,
			Load: func(ctx context.Context, s *Site, _ Params) (Page, error) {
				return loadService(ctx, s, Params{"slug": slug})
			},
		})
	}
	rs = append(rs,
		Route{Pattern: "/services/{slug}", Page: "service", Priority: "high", ChangeFreq: "monthly", InSitemap: true, Indexable: true,
			Expand: expandServices, Load: loadService},
		Route{Pattern: WaterLandingPath, Page: "water-landing", Priority: "high", ChangeFreq: "monthly", InSitemap: true, Indexable: true, Load: loadWaterLanding},
	)
	return rs
}

// expandServices lists the service pages the {slug} pattern answers: every
// service without a concrete route of its own.
func expandServices(c *content.Set) []string {
	own := map[string]bool{}
	for _, s := range supplementaryServices {
		own[s] = true
	}
	var out []string
	for _, sv := range c.Services {
		if !own[sv.Slug] {
			out = append(out, "/services/"+sv.Slug)
		}
	}
	return out
}

// ServicesData is the services listing's data.
type ServicesData struct {
	Services []ServiceCard `json:"services"`
	More     []ServiceCard `json:"more"`
	FAQs     []content.FAQ `json:"faqs"`
}

func loadServices(_ context.Context, s *Site, _ Params) (Page, error) {
	var more []content.Service
	for _, sv := range s.content().Services {
		if !sv.Primary {
			more = append(more, sv)
		}
	}
	faqs := s.content().FAQs["services"]
	if faqs == nil {
		faqs = []content.FAQ{}
	}
	return Page{
		Data: ServicesData{Services: serviceCards(s.content().PrimaryServices()), More: serviceCards(more), FAQs: faqs},
		Head: HeadSpec{
			Title:       "Restoration & Construction Services | Metro Atlanta",
			Description: "Every service we offer: water, fire and storm damage restoration, mold remediation, roof repair, remodeling and insurance claim help across metro Atlanta.",
			Keywords:    []string{"restoration services Atlanta", "water damage restoration", "fire damage restoration", "storm damage repair", "mold remediation", "general contractor Atlanta"},
			Path:        "/services",
			Crumbs:      []Crumb{{"Services", "/services"}},
		},
	}, nil
}

// ServiceDetail is one service record as its page shows it.
type ServiceDetail struct {
	ServiceCard
	Primary bool     `json:"primary"`
	Body    []string `json:"body"`
}

// ServiceData is the service detail page's data.
type ServiceData struct {
	Service ServiceDetail `json:"service"`
	FAQs    []content.FAQ `json:"faqs"`
	// RelatedServices are the first three other primary services.
	RelatedServices []ServiceCard `json:"relatedServices"`
	Related         RelatedData   `json:"related"`
	Hero            *HeroImage    `json:"hero"`
	// DamageType is the estimate form's preset type of damage on this
	// page: one of leads.DamageTypes, or "" for a service that is not
	// one kind of damage (ADR 052).
	DamageType string `json:"damageType"`
	// RecentWork are the newest published jobs of this damage type
	// (ADR 062), nil for none.
	RecentWork *JobsSection `json:"recentWork"`
}

// serviceDamageTypes maps a service record's identity (content.Service.ID,
// which survives a renamed slug) to the estimate form's type of damage.
// A service not listed (insurance claims, emergency cleanup) presets none:
// the visitor's damage could be any kind.
var serviceDamageTypes = map[string]string{
	"water-damage":       "Water Damage",
	"fire-damage":        "Fire & Smoke Damage",
	"storm-damage":       "Storm Damage",
	"mold":               "Mold",
	"roof-repair":        "Roof Damage",
	"general-contractor": "Remodeling / Construction",
	"home-remodeling":    "Remodeling / Construction",
}

// RelatedServicesShown is spec 9's "related services 3".
const RelatedServicesShown = 3

func serviceNotFound() *NotFoundError {
	return &NotFoundError{
		Title:    "Service Not Found",
		Message:  "The service you're looking for doesn't exist.",
		LinkHref: "/services",
		LinkText: "View All Services",
	}
}

func loadService(ctx context.Context, s *Site, p Params) (Page, error) {
	sv, ok := s.content().Service(p["slug"])
	if !ok {
		return Page{}, serviceNotFound()
	}
	var rel []content.Service
	for _, o := range s.content().PrimaryServices() {
		if o.Slug == sv.Slug {
			continue
		}
		if len(rel) == RelatedServicesShown {
			break
		}
		rel = append(rel, o)
	}
	path := "/services/" + sv.Slug
	card := serviceCards([]content.Service{*sv})[0]
	hero := s.heroImage(ctx, sv.Image)
	return Page{
		Data: ServiceData{
			Hero:            hero,
			Service:         ServiceDetail{ServiceCard: card, Primary: sv.Primary, Body: sv.Body},
			FAQs:            sv.FAQs,
			RelatedServices: serviceCards(rel),
			Related:         s.related(sv.Slug),
			DamageType:      serviceDamageTypes[sv.ID],
			RecentWork:      s.serviceJobs(ctx, sv),
		},
		Head: HeadSpec{
			Title:       sv.SEOTitle,
			Description: sv.MetaDescription,
			Keywords:    sv.Keywords,
			Path:        path,
			Crumbs:      []Crumb{{"Services", "/services"}, {sv.Title, path}},
			Extra:       []map[string]any{s.serviceLD(sv.Title, sv.Title, sv.Description, path)},
			Image:       s.ogImage(hero),
		},
	}, nil
}

// serviceLD is the Service node of a service page; the provider is the
// LocalBusiness node every page publishes.
func (s *Site) serviceLD(name, serviceType, description, path string) map[string]any {
	return map[string]any{
		"@type":       "Service",
		"@id":         s.Abs(path) + "#service",
		"name":        name,
		"serviceType": serviceType,
		"description": description,
		"url":         s.Abs(path),
		"provider":    map[string]any{"@id": s.Abs("/#business")},
		"areaServed":  s.areaServed(),
	}
}

// WaterArea is one place the landing page links to.
type WaterArea struct {
	Name string `json:"name"`
	Href string `json:"href"`
}

// WaterLandingData is the water damage landing page's data; its texts are
// in pages/water-landing.tsx.
type WaterLandingData struct {
	Areas []WaterArea `json:"areas"`
}

// waterAreas are the landing page's areas served, as the county/slug keys
// the city records were seeded with (content.Set.CityByOrigin).
var waterAreas = []string{"fulton/atlanta", "dekalb/decatur", "fulton/sandy-springs", "cobb/smyrna", "cobb/marietta", "dekalb/brookhaven", "fulton/east-point"}

func loadWaterLanding(_ context.Context, s *Site, _ Params) (Page, error) {
	areas := []WaterArea{}
	for _, key := range waterAreas {
		county, slug, _ := strings.Cut(key, "/")
		// By origin: a city the owner renamed is still this list's.
		c, ok := s.content().CityByOrigin(county, slug)
		if !ok {
			s.log.Warn("water landing: city missing from content", "city", key)
			continue
		}
		areas = append(areas, WaterArea{Name: c.City, Href: CityPath(c.County, c.Slug)})
	}
	const title = "Water Damage Restoration & Cleanup in Atlanta"
	return Page{
		Data: WaterLandingData{Areas: areas},
		Head: HeadSpec{
			Title:       "Emergency Water Damage Restoration Atlanta | 24/7",
			Description: "Burst pipe, ceiling leak or sewage backup in Atlanta? Crews arrive in " + s.responseTime("water") + " to extract water, dry the structure and bill your insurance directly.",
			Keywords:    []string{"water damage restoration Atlanta", "emergency water removal Atlanta", "burst pipe cleanup", "sewage backup cleanup Atlanta", "water damage cleanup", "structural drying"},
			Path:        WaterLandingPath,
			Crumbs:      []Crumb{{"Water Damage Restoration Atlanta", WaterLandingPath}},
			Extra:       []map[string]any{s.serviceLD(title, "Water Damage Restoration", "Emergency water extraction, structural drying, sewage cleanup and repairs for homes and businesses in Atlanta, with direct insurance billing.", WaterLandingPath)},
		},
	}, nil
}
