package site

import (
	"context"
	"sort"
	"strings"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/retention"
)

// infoRoutes are the portfolio, contact, emergency, about, privacy, terms
// and HTML sitemap pages.
func infoRoutes() []Route {
	return []Route{
		{Pattern: "/portfolio", Page: "portfolio", Priority: "medium", ChangeFreq: "weekly", InSitemap: true, Indexable: true, Load: loadPortfolio},
		{Pattern: "/contact", Page: "contact", Priority: "high", ChangeFreq: "monthly", InSitemap: true, Indexable: true, Load: loadContact},
		{Pattern: "/emergency", Page: "emergency", Priority: "medium", ChangeFreq: "monthly", InSitemap: true, Indexable: true, Load: loadEmergency},
		{Pattern: "/about", Page: "info", Priority: "medium", ChangeFreq: "monthly", InSitemap: true, Indexable: true, Load: infoPage("about")},
		{Pattern: "/privacy", Page: "info", Priority: "low", ChangeFreq: "yearly", InSitemap: true, Indexable: true, Load: infoPage("privacy")},
		{Pattern: "/terms", Page: "info", Priority: "low", ChangeFreq: "yearly", InSitemap: true, Indexable: true, Load: infoPage("terms")},
		{Pattern: "/sitemap", Page: "html-sitemap", Priority: "low", ChangeFreq: "monthly", InSitemap: true, Indexable: true, Load: loadHTMLSitemap},
	}
}

// PortfolioData is the portfolio page's data.
type PortfolioData struct {
	Gallery *media.Gallery `json:"gallery"`
	// Jobs are the newest published jobs as cards (ADR 062), nil for none.
	Jobs *JobsSection `json:"jobs"`
}

func loadPortfolio(ctx context.Context, s *Site, _ Params) (Page, error) {
	return Page{
		Data: PortfolioData{Gallery: s.gallery(ctx), Jobs: s.portfolioJobs(ctx)},
		Head: HeadSpec{
			Title:       "Our Work Portfolio | Restoration Projects in Atlanta",
			Description: "Photos and videos of our water, fire and storm damage restoration and rebuild projects across metro Atlanta, from first mitigation to final walkthrough.",
			Keywords:    []string{"restoration portfolio", "water damage before and after", "fire damage rebuild photos", "Atlanta contractor projects", "storm damage repair photos"},
			Path:        "/portfolio",
			Crumbs:      []Crumb{{"Our Work Portfolio", "/portfolio"}},
		},
	}, nil
}

// ContactData is the contact page's data.
type ContactData struct {
	// Counties are all counties served, for the service-area card.
	Counties []LinkItem `json:"counties"`
}

func (s *Site) countyLinks() []LinkItem {
	out := []LinkItem{}
	for _, c := range s.content().Counties {
		out = append(out, LinkItem{Slug: c.Slug, Name: c.Name})
	}
	return out
}

func loadContact(ctx context.Context, s *Site, _ Params) (Page, error) {
	return Page{
		Data: ContactData{Counties: s.countyLinks()},
		Head: HeadSpec{
			Title:       "Contact Us | 24/7 Restoration Help in Metro Atlanta",
			Description: "Call our 24/7 line or request a free estimate online. We contact you within " + s.responseTime("emergency") + " for emergencies and within " + s.responseTime("general") + " for general inquiries.",
			Keywords:    []string{"contact restoration company", "emergency restoration phone Atlanta", "free restoration estimate", "water damage help Douglasville", "24/7 restoration contractor"},
			Path:        "/contact",
			Crumbs:      []Crumb{{"Contact Us", "/contact"}},
			Extra: []map[string]any{{
				"@type": "ContactPage", "@id": s.Abs("/contact") + "#webpage", "url": s.Abs("/contact"), "name": "Contact Us",
				"about": map[string]any{"@id": s.Abs("/#business")},
			}},
		},
	}, nil
}

// EmergencyData is the emergency page's data.
type EmergencyData struct {
	// Services are the services an emergency call usually leads to.
	Services []ServiceCard `json:"services"`
	Counties []LinkItem    `json:"counties"`
}

// emergencyServices are the service pages the emergency page points to.
var emergencyServices = []string{"water-damage-restoration", "fire-damage-restoration", "storm-damage-repair", "emergency-cleanup", "mold-remediation", "roof-repair"}

func loadEmergency(ctx context.Context, s *Site, _ Params) (Page, error) {
	var svcs []content.Service
	for _, slug := range emergencyServices {
		if sv, ok := s.content().Service(slug); ok {
			svcs = append(svcs, *sv)
		}
	}
	return Page{
		Data: EmergencyData{Services: serviceCards(svcs), Counties: s.countyLinks()},
		Head: HeadSpec{
			Title:       "24/7 Emergency Restoration | Water, Fire & Storm Help",
			Description: "Burst pipe, fire or storm damage? What to do right now, and how our 24/7 crews reach most metro Atlanta homes within " + s.responseTime("emergency") + " to stop the damage.",
			Keywords:    []string{"emergency restoration Atlanta", "24/7 water damage", "emergency board up", "storm damage emergency tarp", "burst pipe emergency"},
			Path:        "/emergency",
			Crumbs:      []Crumb{{"24/7 Emergency Service", "/emergency"}},
		},
	}, nil
}

// InfoData is an about, privacy or terms page.
type InfoData struct {
	Slug    string `json:"slug"`
	Title   string `json:"title"`
	Lead    string `json:"lead"`
	Content string `json:"content"`
	// Retention is, on the privacy page only, what the site keeps and for
	// how long: rendered from the configuration the retention job
	// enforces, never typed into the content.
	Retention []retention.Item `json:"retention,omitempty"`
}

// infoLeads are the hero lines under each info page's title.
var infoLeads = map[string]string{
	"about":   "A state licensed restoration company and general contractor that answers the emergency call and finishes the rebuild, serving metro Atlanta for more than 20 years.",
	"privacy": "What we collect when you request an estimate or contact us, how we use it, and the choices you have.",
	"terms":   "The rules for using this website and what a website estimate request does and does not mean.",
}

func infoPage(slug string) func(context.Context, *Site, Params) (Page, error) {
	return func(ctx context.Context, s *Site, _ Params) (Page, error) {
		p, ok := s.content().Pages[slug]
		if !ok {
			return Page{}, ErrNotFound
		}
		path := "/" + slug
		h := HeadSpec{
			Title: p.SEOTitle, Description: p.MetaDescription, Keywords: p.Keywords, Path: path,
			Crumbs: []Crumb{{p.Title, path}},
		}
		if slug == "about" {
			h.Extra = []map[string]any{{
				"@type": "AboutPage", "@id": s.Abs(path) + "#webpage", "url": s.Abs(path), "name": p.Title,
				"about": map[string]any{"@id": s.Abs("/#organization")},
			}}
		}
		d := InfoData{Slug: slug, Title: p.Title, Lead: infoLeads[slug], Content: p.Content}
		if slug == "privacy" {
			d.Retention = s.kept
		}
		return Page{Data: d, Head: h}, nil
	}
}

// SitemapGroup is one block of the HTML sitemap.
type SitemapGroup struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Href links the group's heading (empty for none).
	Href  string         `json:"href"`
	Links []Link         `json:"links"`
	Subs  []SitemapGroup `json:"subs"`
}

// SitemapData is the HTML sitemap's data.
type SitemapData struct {
	Groups []SitemapGroup `json:"groups"`
	Total  int            `json:"total"`
}

// fixedLabels name the fixed pages of the route table.
var fixedLabels = map[string]string{
	"/": "Home", "/services": "All Services", "/service-areas": "Service Areas", "/portfolio": "Our Work Portfolio",
	"/contact": "Contact Us", "/blog": "Blog", "/about": "About Us", "/emergency": "24/7 Emergency Service",
	"/estimate": "Free Estimate", "/privacy": "Privacy Policy", "/terms": "Terms of Use", "/sitemap": "Sitemap",
	"/water-damage-restoration-atlanta": "Water Damage Restoration Atlanta",
	"/water-damage-cleanup-restoration": "Water Damage Cleanup & Restoration",
}

// labelFromPath turns "/some-page" into "Some Page".
func labelFromPath(p string) string {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	return media.ProjectDisplayName(segs[len(segs)-1])
}

// loadHTMLSitemap lists every indexable route of the table, grouped.
func loadHTMLSitemap(ctx context.Context, s *Site, _ Params) (Page, error) {
	c := s.content()
	main := SitemapGroup{ID: "main", Title: "Main Pages", Links: []Link{}, Subs: []SitemapGroup{}}
	services := SitemapGroup{ID: "services", Title: "Services", Href: "", Links: []Link{}, Subs: []SitemapGroup{}}
	counties := SitemapGroup{ID: "counties", Title: "Service Areas by County", Links: []Link{}, Subs: []SitemapGroup{}}
	cities := SitemapGroup{ID: "cities", Title: "Cities We Serve", Links: []Link{}, Subs: []SitemapGroup{}}
	blog := SitemapGroup{ID: "blog", Title: "Blog Articles", Links: []Link{}, Subs: []SitemapGroup{}}
	cityLinks := map[string][]Link{}
	var extraCounties []string // counties with cities but no county record (not expected)
	total := 0
	seen := map[string]bool{}
	for _, r := range s.Routes() {
		if !r.Indexable {
			continue
		}
		for _, p := range s.PathsOf(r) {
			if seen[p] || s.NoIndexed(p) {
				continue
			}
			seen[p] = true
			total++
			segs := strings.Split(strings.Trim(p, "/"), "/")
			switch {
			case len(segs) == 2 && segs[0] == "services":
				name := labelFromPath(p)
				if sv, ok := c.Service(segs[1]); ok {
					name = sv.Title
				}
				services.Links = append(services.Links, Link{p, name})
			case len(segs) == 2 && segs[0] == "service-areas":
				name := labelFromPath(p) + " County"
				if co, ok := c.County(segs[1]); ok {
					name = co.Name + " County"
				}
				counties.Links = append(counties.Links, Link{p, name})
			case len(segs) == 3 && segs[0] == "areas":
				name := labelFromPath(p)
				if ci, ok := c.City(segs[1], segs[2]); ok {
					name = ci.City
				} else if cp, ok := c.CityProfiles[segs[1]+"/"+segs[2]]; ok {
					// A fixed city page without a city record of its own
					// (atlanta-service) sits beside the generic one.
					name = cp.CityName + " Restoration Services"
				}
				if _, ok := cityLinks[segs[1]]; !ok {
					if _, known := c.County(segs[1]); !known {
						extraCounties = append(extraCounties, segs[1])
					}
				}
				cityLinks[segs[1]] = append(cityLinks[segs[1]], Link{p, name})
			case len(segs) == 3 && segs[0] == "blog" && segs[1] == "category":
				name := labelFromPath(p)
				for _, cat := range c.Categories {
					if cat.Slug == segs[2] {
						name = "Topic: " + cat.Name
					}
				}
				blog.Links = append(blog.Links, Link{p, name})
			case len(segs) == 2 && segs[0] == "blog":
				name := labelFromPath(p)
				if a, ok := c.Article(segs[1]); ok {
					name = a.Title
				}
				blog.Links = append(blog.Links, Link{p, name})
			case len(segs) == 2 && segs[0] == "portfolio":
				main.Links = append(main.Links, Link{p, s.jobTitle(ctx, segs[1])})
			case len(segs) == 1 && strings.HasPrefix(segs[0], "water-damage-"):
				services.Links = append(services.Links, Link{p, labelOr(p)})
			default:
				main.Links = append(main.Links, Link{p, labelOr(p)})
			}
		}
	}
	countyName := func(slug string) string {
		if co, ok := c.County(slug); ok {
			return co.Name
		}
		return media.ProjectDisplayName(slug)
	}
	order := []string{}
	for _, co := range c.Counties {
		order = append(order, co.Slug)
	}
	order = append(order, extraCounties...)
	for _, slug := range order {
		ls := cityLinks[slug]
		if len(ls) == 0 {
			continue
		}
		href := ""
		if seen["/service-areas/"+slug] {
			href = "/service-areas/" + slug
		}
		cities.Subs = append(cities.Subs, SitemapGroup{ID: "cities-" + slug, Title: countyName(slug) + " County", Href: href, Links: ls, Subs: []SitemapGroup{}})
	}
	// Services in the content's order (primary six first), landing pages last.
	rank := map[string]int{}
	for i, sv := range c.Services {
		rank["/services/"+sv.Slug] = i + 1
	}
	sort.SliceStable(services.Links, func(i, j int) bool {
		ri, rj := rank[services.Links[i].Href], rank[services.Links[j].Href]
		if ri == 0 {
			ri = len(rank) + 1
		}
		if rj == 0 {
			rj = len(rank) + 1
		}
		return ri < rj
	})
	if seen["/services"] {
		services.Href = "/services"
	}
	if seen["/service-areas"] {
		counties.Href = "/service-areas"
	}
	if seen["/blog"] {
		blog.Href = "/blog"
	}
	groups := []SitemapGroup{}
	for _, g := range []SitemapGroup{main, services, counties, cities, blog} {
		if len(g.Links) > 0 || len(g.Subs) > 0 {
			groups = append(groups, g)
		}
	}
	return Page{
		Data: SitemapData{Groups: groups, Total: total},
		Head: HeadSpec{
			Title:       "Sitemap | All Pages on Our Restoration Website",
			Description: "Every page of our website in one place: restoration services, the counties and cities we serve across metro Atlanta, blog guides and company pages.",
			Path:        "/sitemap",
			Crumbs:      []Crumb{{"Sitemap", "/sitemap"}},
		},
	}, nil
}

func labelOr(p string) string {
	if l, ok := fixedLabels[p]; ok {
		return l
	}
	return labelFromPath(p)
}
