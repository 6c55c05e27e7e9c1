package site

import (
	"time"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/settings"
)

// SiteProps are the public business facts the pages show; only this subset
// of the configuration reaches the browser.
type SiteProps struct {
	config.Business
	Tel        string `json:"tel"`
	BaseURL    string `json:"baseUrl"`
	ThemeColor string `json:"themeColor"`
	Year       int    `json:"year"`
	// EmergencyMode is System Settings' 24/7 emergency mode. Every
	// bar, banner, badge and call button that promises emergency service
	// follows it: on, the spec's 24/7 texts; off, "Call us" with Hours.
	// Both dial Phone, the one 24/7 line (ADR 039).
	EmergencyMode bool `json:"emergencyMode"`
	// OfficePhone is the optional office number the contact page shows
	// beside the hours ("" for none); OfficeTel its tel: link.
	OfficePhone string `json:"officePhone"`
	OfficeTel   string `json:"officeTel"`
	// Hours are the business hours as visitors read them.
	Hours string `json:"hours"`
	// Words are the groups of the site's wording this page shows, inserts
	// filled in (content.Words.Fill): only those, so a change of wording
	// changes the props, and re-renders, exactly the pages that show it.
	Words content.Words `json:"words"`
}

// LinkItem is a slug and a display name.
type LinkItem struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// Chrome is the data of the header and footer.
type Chrome struct {
	Services []LinkItem `json:"services"`
	Counties []LinkItem `json:"counties"`
	// Portfolio is whether the portfolio has work to show: the main
	// navigation's OUR WORK is offered only then (ADR 050). An upload or a
	// removal that changes it changes every page's props, so every page
	// is rendered again (RefreshLocal).
	Portfolio bool `json:"portfolio"`
}

// PageProps are the props of every page component.
type PageProps struct {
	Head   Head      `json:"head"`
	Site   SiteProps `json:"site"`
	Chrome Chrome    `json:"chrome"`
	Path   string    `json:"path"`
	// Breadcrumbs are the visible trail; the same crumbs feed BreadcrumbList.
	Breadcrumbs []BreadcrumbLink `json:"breadcrumbs"`
	// Data is the loader's Page.Data: its own named type per page kind
	// (HomeData, CityData, ...). The pages read it as PageProps<D>
	// (components/types.ts), so its TypeScript here is unknown.
	Data any `json:"data" tstype:"unknown"`
}

// BreadcrumbLink is one visible breadcrumb.
type BreadcrumbLink struct {
	Name string `json:"name"`
	Href string `json:"href"`
}

// FooterCounties is spec 2.2's "first 8 counties".
const FooterCounties = 8

// siteProps are the business facts every page gets. b.Phone is the 24/7
// line (settings.PhoneFor): every call button, bar and tel: link dials it.
func (s *Site) siteProps(kind string, b config.Business, av settings.Availability, office string) SiteProps {
	p := SiteProps{Business: b, Tel: config.TelHref(b.Phone), BaseURL: s.base, ThemeColor: "#1d4ed8", Year: time.Now().Year(),
		EmergencyMode: av.EmergencyMode, Hours: av.Hours.Text(), Words: s.content().Words.Fill(kind, facts(b))}
	if office != "" {
		p.OfficePhone, p.OfficeTel = office, config.TelHref(office)
	}
	return p
}

// facts are the business facts the site's wording may insert.
func facts(b config.Business) content.Facts {
	return content.Facts{Name: b.Name, Phone: b.Phone, City: b.City, County: b.County, License: b.License}
}

func (s *Site) chrome(portfolio bool) Chrome {
	c := Chrome{Portfolio: portfolio}
	for _, sv := range s.content().Services {
		c.Services = append(c.Services, LinkItem{Slug: sv.Slug, Name: sv.Title})
	}
	for i, co := range s.content().Counties {
		if i == FooterCounties {
			break
		}
		c.Counties = append(c.Counties, LinkItem{Slug: co.Slug, Name: co.Name})
	}
	return c
}

// ServiceCard is a service as the grids show it.
type ServiceCard struct {
	Slug             string   `json:"slug"`
	Title            string   `json:"title"`
	ShortDescription string   `json:"shortDescription"`
	Description      string   `json:"description"`
	Icon             string   `json:"icon"`
	Features         []string `json:"features"`
}

func serviceCards(svcs []content.Service) []ServiceCard {
	out := []ServiceCard{}
	for _, sv := range svcs {
		out = append(out, ServiceCard{Slug: sv.Slug, Title: sv.Title, ShortDescription: sv.ShortDescription, Description: sv.Description, Icon: sv.Icon, Features: sv.Features})
	}
	return out
}

// ArticleCard is an article as lists show it.
type ArticleCard struct {
	Slug         string `json:"slug"`
	Title        string `json:"title"`
	Excerpt      string `json:"excerpt"`
	Category     string `json:"category"`
	CategoryName string `json:"categoryName"`
	PublishDate  string `json:"publishDate"`
	ReadTime     int    `json:"readTime"`
}

func (s *Site) articleCards(as []content.Article) []ArticleCard {
	names := map[string]string{}
	for _, c := range s.content().Categories {
		names[c.Slug] = c.Name
	}
	out := []ArticleCard{}
	for _, a := range as {
		out = append(out, ArticleCard{Slug: a.Slug, Title: a.Title, Excerpt: a.Excerpt, Category: a.Category, CategoryName: names[a.Category], PublishDate: a.PublishDate, ReadTime: a.ReadTime})
	}
	return out
}

// RelatedData feeds related-links block (a).
type RelatedData struct {
	Services  []RelatedService `json:"services"`
	Locations []Link           `json:"locations"`
	Resources []Link           `json:"resources"`
}

// RelatedService is a service link.
type RelatedService struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

// Link is an href and a name.
type Link struct {
	Href string `json:"href"`
	Name string `json:"name"`
}

// related builds block (a): up to 3 services other than current, 4 fixed
// locations and 3 resources.
func (s *Site) related(current string) RelatedData {
	r := RelatedData{}
	for _, sv := range s.content().PrimaryServices() {
		if sv.Slug == current {
			continue
		}
		if len(r.Services) == 3 {
			break
		}
		r.Services = append(r.Services, RelatedService{Slug: sv.Slug, Title: sv.Title})
	}
	r.Locations = []Link{
		{"/areas/fulton/atlanta-service", "Atlanta"},
		{"/areas/douglas/douglasville", "Douglasville"},
		{"/areas/cobb/marietta", "Marietta"},
		{"/areas/gwinnett/lawrenceville", "Lawrenceville"},
	}
	r.Resources = []Link{{"/portfolio", "Our Work Portfolio"}, {"/service-areas", "Service Areas"}, {"/services", "All Services"}}
	return r
}
