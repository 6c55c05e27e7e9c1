package site

import (
	"strings"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/ssr"
)

// Head is the head every page's props embed (title, description, canonical,
// structured data). The React Seo component writes it; Go fills it.
type Head struct {
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Keywords    []string `json:"keywords"`
	// Canonical is absolute, built from BASE_URL and the clean path.
	Canonical string `json:"canonical"`
	Robots    string `json:"robots"`
	OGType    string `json:"ogType"`
	Image     string `json:"image"`
	// JSONLD blocks are serialised here, in Go, with HTML escaping on.
	JSONLD []string `json:"jsonLd"`
	Geo    Geo      `json:"geo"`
}

// Geo are the geo meta tags.
type Geo struct {
	Region    string `json:"region"`
	Placename string `json:"placename"`
	Position  string `json:"position"`
}

// Crumb is one breadcrumb.
type Crumb struct{ Name, Path string }

// HeadSpec is what a loader says about its page's head.
type HeadSpec struct {
	Title       string
	Description string
	Keywords    []string
	Path        string
	NoIndex     bool
	OGType      string
	Crumbs      []Crumb // without Home; empty on the home page
	Extra       []map[string]any
	// Image is the page's Open Graph image ("" for the site's).
	Image string
	// Robots, when set, is the robots meta tag as it is (a city page the
	// owner hid from search engines: "noindex", its links still followed).
	Robots string
}

// Douglasville office coordinates for the geo tags and structured data.
const (
	officeLat = 33.7515
	officeLng = -84.7477
)

// head builds a page's head. rating goes into the business's structured
// data only when it qualifies (reviews.Figures.AggregateRating).
func (s *Site) head(b config.Business, av settings.Availability, rating reviews.Figures, h HeadSpec) Head {
	robots := "index, follow, max-image-preview:large"
	if h.NoIndex {
		robots = "noindex, nofollow"
	} else if h.Robots != "" {
		robots = h.Robots
	}
	og := h.OGType
	if og == "" {
		og = "website"
	}
	graph := []map[string]any{s.localBusiness(b, av, rating), s.organization(b), s.webSite(b)}
	if len(h.Crumbs) > 0 {
		graph = append(graph, s.breadcrumbs(h.Crumbs))
	}
	graph = append(graph, h.Extra...)
	ld := map[string]any{"@context": "https://schema.org", "@graph": graph}
	js, _ := jsonLD(ld)
	kw := h.Keywords
	if kw == nil {
		kw = []string{}
	}
	return Head{
		Title:       h.Title,
		Description: h.Description,
		Keywords:    kw,
		Canonical:   s.Abs(h.Path),
		Robots:      robots,
		OGType:      og,
		Image:       orDefault(h.Image, s.Abs("/og-image.png")),
		JSONLD:      []string{js},
		Geo: Geo{
			Region:    "US-GA",
			Placename: b.City + ", Georgia",
			Position:  "33.7515;-84.7477",
		},
	}
}

// website is the business's public address: the saved setting, else BASE_URL.
func (s *Site) website(b config.Business) string {
	if b.Website != "" {
		return strings.TrimRight(b.Website, "/") + "/"
	}
	return s.Abs("/")
}

// localBusiness is the business's structured data. Its opening hours
// follow the 24/7 emergency mode: open every day around the clock (spec 9),
// or the business hours from System Settings. It carries aggregateRating
// only with Google Places' own figures behind it (ADR 021).
func (s *Site) localBusiness(b config.Business, av settings.Availability, rating reviews.Figures) map[string]any {
	desc := "Licensed water, fire and storm damage restoration and general contractor serving metro Atlanta, Georgia, 24/7."
	openingHours, spec := settings.OpenAllWeek()
	var hours any = openingHours
	var hoursSpec any = spec
	if !av.EmergencyMode && len(av.Hours) > 0 {
		desc = "Licensed water, fire and storm damage restoration and general contractor serving metro Atlanta, Georgia."
		hours, hoursSpec = av.Hours.OpeningHours(), av.Hours.Specification()
	}
	lb := map[string]any{
		"@type":       []string{"LocalBusiness", "GeneralContractor"},
		"@id":         s.Abs("/#business"),
		"name":        b.Name,
		"url":         s.website(b),
		"telephone":   "+1-" + dashed(config.PhoneDigits(b.Phone)),
		"image":       s.Abs("/og-image.png"),
		"logo":        s.Abs("/favicon.svg"),
		"priceRange":  "$$",
		"description": desc,
		"address": map[string]any{
			"@type": "PostalAddress", "streetAddress": b.Street, "addressLocality": b.City,
			"addressRegion": b.State, "postalCode": b.Zip, "addressCountry": "US",
		},
		"geo":                       map[string]any{"@type": "GeoCoordinates", "latitude": officeLat, "longitude": officeLng},
		"openingHours":              hours,
		"openingHoursSpecification": hoursSpec,
		"areaServed":                s.areaServed(),
		"serviceArea": map[string]any{
			"@type": "GeoCircle", "geoMidpoint": map[string]any{"@type": "GeoCoordinates", "latitude": officeLat, "longitude": officeLng},
			"geoRadius": 80467,
		},
		"hasCredential": "Georgia contractor licence " + b.License,
		"sameAs":        nonEmpty(b.Facebook, b.Instagram, b.YouTube, b.Yelp),
	}
	if agg := rating.AggregateRating(); agg != nil {
		lb["aggregateRating"] = agg
	}
	if b.Email != "" {
		lb["email"] = b.Email
	}
	return lb
}

func (s *Site) areaServed() []map[string]any {
	var out []map[string]any
	for _, c := range s.content().Counties {
		out = append(out, map[string]any{"@type": "AdministrativeArea", "name": c.Name + " County, Georgia"})
	}
	return out
}

func (s *Site) organization(b config.Business) map[string]any {
	return map[string]any{
		"@type": "Organization", "@id": s.Abs("/#organization"), "name": b.Name, "url": s.website(b),
		"logo": s.Abs("/favicon.svg"), "telephone": "+1-" + dashed(config.PhoneDigits(b.Phone)),
		"sameAs": nonEmpty(b.Facebook, b.Instagram, b.YouTube, b.Yelp),
	}
}

func (s *Site) webSite(b config.Business) map[string]any {
	return map[string]any{
		"@type": "WebSite", "@id": s.Abs("/#website"), "name": b.Name, "url": s.Abs("/"),
		"publisher": map[string]any{"@id": s.Abs("/#organization")},
		"potentialAction": map[string]any{
			"@type":       "SearchAction",
			"target":      map[string]any{"@type": "EntryPoint", "urlTemplate": s.Abs("/search?q={search_term_string}")},
			"query-input": "required name=search_term_string",
		},
	}
}

func (s *Site) breadcrumbs(crumbs []Crumb) map[string]any {
	items := []map[string]any{{"@type": "ListItem", "position": 1, "name": "Home", "item": s.Abs("/")}}
	for i, c := range crumbs {
		items = append(items, map[string]any{"@type": "ListItem", "position": i + 2, "name": c.Name, "item": s.Abs(c.Path)})
	}
	return map[string]any{"@type": "BreadcrumbList", "itemListElement": items}
}

func dashed(d string) string {
	if len(d) != 10 {
		return d
	}
	return d[:3] + "-" + d[3:6] + "-" + d[6:]
}

func nonEmpty(v ...string) []string {
	out := []string{}
	for _, s := range v {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// jsonLD serialises structured data with HTML escaping on, so text such as
// "</script>" inside content cannot end the script element.
func jsonLD(v any) (string, error) {
	b, err := ssr.MarshalProps(v)
	return string(b), err
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
