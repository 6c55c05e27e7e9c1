// Package content holds the site's data (services, counties, cities,
// profiles, articles, pages) as files embedded in the binary. Load validates
// every record; a broken file stops the boot with the file and field named.
package content

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed *.json *.txt cities/*.json blog/*.md blog/*.json pages/*.md
var files embed.FS

// FAQ is one question and answer.
type FAQ struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// Reason is a titled reason to choose the company.
type Reason struct {
	Title string `json:"title"`
	Text  string `json:"text"`
}

// SEO are a record's head texts.
type SEO struct {
	SEOTitle        string   `json:"seoTitle"`
	MetaDescription string   `json:"metaDescription"`
	Keywords        []string `json:"keywords"`
}

// Service is one service record (spec 3).
type Service struct {
	ID               string   `json:"id"`
	Slug             string   `json:"slug"`
	Primary          bool     `json:"primary"`
	Title            string   `json:"title"`
	ShortDescription string   `json:"shortDescription"`
	Description      string   `json:"description"`
	Icon             string   `json:"icon"`
	Features         []string `json:"features"`
	SEO
	Body []string `json:"body"`
	FAQs []FAQ    `json:"faqs"`
}

// CountyProfile is the extra data of the seven fixed county pages.
type CountyProfile struct {
	Description  string   `json:"description"`
	MajorCities  []string `json:"majorCities"`
	Population   string   `json:"population"`
	SquareMiles  string   `json:"squareMiles"`
	Features     []string `json:"features"`
	CommonDamage []string `json:"commonDamage"`
	Reasons      []Reason `json:"reasons"`
}

// County is one of the eleven counties.
type County struct {
	Slug  string `json:"slug"`
	Name  string `json:"name"`
	Intro string `json:"intro"`
	SEO
	Profile *CountyProfile `json:"profile,omitempty"`
}

// City is one city record (spec 3).
type City struct {
	County      string   `json:"county"`
	City        string   `json:"city"`
	Slug        string   `json:"slug"`
	HeroImage   string   `json:"hero_image"`
	Intro       string   `json:"intro"`
	Description string   `json:"description,omitempty"`
	Services    []string `json:"services,omitempty"`
	Nearby      []string `json:"nearby"`
	SEO
}

// CityProfile is one of the four fixed city pages.
type CityProfile struct {
	Key           string   `json:"-"`
	CityName      string   `json:"cityName"`
	CountyName    string   `json:"countyName"`
	ZipCodes      []string `json:"zipCodes"`
	Landmarks     []string `json:"landmarks"`
	Neighborhoods []string `json:"neighborhoods"`
	Intro         string   `json:"intro"`
	SEO
	Reasons []Reason `json:"reasons"`
	FAQs    []FAQ    `json:"faqs"`
}

// Category is a blog category.
type Category struct {
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Article is a blog article: front matter plus a line-based body.
type Article struct {
	Slug        string `json:"slug"`
	Title       string `json:"title"`
	Excerpt     string `json:"excerpt"`
	Content     string `json:"content"`
	Category    string `json:"category"`
	PublishDate string `json:"publishDate"`
	ReadTime    int    `json:"readTime"`
	SEO
	Featured bool `json:"featured"`
}

// InfoPage is a plain content page (about, privacy, terms).
type InfoPage struct {
	Slug    string `json:"slug"`
	Title   string `json:"title"`
	Content string `json:"content"`
	SEO
}

// Site is all content, loaded once.
type Site struct {
	Services     []Service
	Counties     []County
	Cities       []City
	CityProfiles map[string]*CityProfile
	Categories   []Category
	Articles     []Article // newest first
	Pages        map[string]*InfoPage
	// FAQs are the fixed FAQ blocks of pages that have no record of their own.
	FAQs map[string][]FAQ
	// Updated is the date the content last changed (updated.txt), the
	// sitemap's lastmod for pages without a date of their own.
	Updated string

	serviceBySlug map[string]*Service
	countyBySlug  map[string]*County
	cityByKey     map[string]*City
	articleBySlug map[string]*Article
}

// Load reads and validates every embedded content file.
func Load() (*Site, error) { return LoadFS(files) }

// LoadFS reads content from fsys (tests pass broken trees).
func LoadFS(fsys fs.FS) (*Site, error) {
	s := &Site{CityProfiles: map[string]*CityProfile{}, Pages: map[string]*InfoPage{}}
	if err := readJSON(fsys, "services.json", &s.Services); err != nil {
		return nil, err
	}
	if err := readJSON(fsys, "counties.json", &s.Counties); err != nil {
		return nil, err
	}
	for _, c := range s.Counties {
		var cs []City
		name := "cities/" + c.Slug + ".json"
		if err := readJSON(fsys, name, &cs); err != nil {
			return nil, err
		}
		s.Cities = append(s.Cities, cs...)
	}
	var profiles map[string]*CityProfile
	if err := readJSON(fsys, "city-profiles.json", &profiles); err != nil {
		return nil, err
	}
	for k, p := range profiles {
		p.Key = k
		s.CityProfiles[k] = p
	}
	up, err := fs.ReadFile(fsys, "updated.txt")
	if err != nil {
		return nil, fmt.Errorf("content: updated.txt: %w", err)
	}
	s.Updated = strings.TrimSpace(string(up))
	if _, err := time.Parse("2006-01-02", s.Updated); err != nil {
		return nil, fmt.Errorf("content: updated.txt: %q is not YYYY-MM-DD", s.Updated)
	}
	if err := readJSON(fsys, "faqs.json", &s.FAQs); err != nil {
		return nil, err
	}
	if err := readJSON(fsys, "blog/categories.json", &s.Categories); err != nil {
		return nil, err
	}
	posts, _ := fs.Glob(fsys, "blog/*.md")
	for _, p := range posts {
		a, err := readArticle(fsys, p)
		if err != nil {
			return nil, err
		}
		s.Articles = append(s.Articles, *a)
	}
	sort.SliceStable(s.Articles, func(i, j int) bool { return s.Articles[i].PublishDate > s.Articles[j].PublishDate })
	pages, _ := fs.Glob(fsys, "pages/*.md")
	for _, p := range pages {
		fm, body, err := readFrontMatter(fsys, p)
		if err != nil {
			return nil, err
		}
		slug := strings.TrimSuffix(path.Base(p), ".md")
		s.Pages[slug] = &InfoPage{Slug: slug, Title: fm["title"], Content: body,
			SEO: SEO{SEOTitle: fm["seoTitle"], MetaDescription: fm["metaDescription"], Keywords: splitList(fm["keywords"])}}
	}
	if err := s.index(); err != nil {
		return nil, err
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	return s, nil
}

func readJSON(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("content: %s: %w", name, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("content: %s: %w", name, err)
	}
	return nil
}

func readFrontMatter(fsys fs.FS, name string) (map[string]string, string, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, "", fmt.Errorf("content: %s: %w", name, err)
	}
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return nil, "", fmt.Errorf("content: %s: missing front matter (--- line)", name)
	}
	head, body, ok := strings.Cut(text[4:], "\n---\n")
	if !ok {
		return nil, "", fmt.Errorf("content: %s: front matter is not closed by a --- line", name)
	}
	fm := map[string]string{}
	for i, line := range strings.Split(head, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, "", fmt.Errorf("content: %s: front matter line %d has no 'key: value'", name, i+2)
		}
		fm[strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"`)
	}
	return fm, strings.TrimSpace(body), nil
}

func readArticle(fsys fs.FS, name string) (*Article, error) {
	fm, body, err := readFrontMatter(fsys, name)
	if err != nil {
		return nil, err
	}
	rt, err := strconv.Atoi(fm["readTime"])
	if err != nil {
		return nil, fmt.Errorf("content: %s: field readTime: %q is not a number of minutes", name, fm["readTime"])
	}
	return &Article{
		Slug: strings.TrimSuffix(path.Base(name), ".md"), Title: fm["title"], Excerpt: fm["excerpt"],
		Content: body, Category: fm["category"], PublishDate: fm["publishDate"], ReadTime: rt,
		SEO:      SEO{SEOTitle: fm["seoTitle"], MetaDescription: fm["metaDescription"], Keywords: splitList(fm["keywords"])},
		Featured: fm["featured"] == "true",
	}, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (s *Site) index() error {
	s.serviceBySlug = map[string]*Service{}
	for i := range s.Services {
		s.serviceBySlug[s.Services[i].Slug] = &s.Services[i]
	}
	s.countyBySlug = map[string]*County{}
	for i := range s.Counties {
		s.countyBySlug[s.Counties[i].Slug] = &s.Counties[i]
	}
	s.cityByKey = map[string]*City{}
	for i := range s.Cities {
		c := &s.Cities[i]
		s.cityByKey[c.County+"/"+c.Slug] = c
	}
	s.articleBySlug = map[string]*Article{}
	for i := range s.Articles {
		s.articleBySlug[s.Articles[i].Slug] = &s.Articles[i]
	}
	return nil
}

var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

type checker struct{ errs []string }

func (c *checker) need(ok bool, format string, args ...any) {
	if !ok {
		c.errs = append(c.errs, fmt.Sprintf(format, args...))
	}
}

func (c *checker) seo(where string, s SEO) {
	c.need(s.SEOTitle != "", "%s: field seoTitle is empty", where)
	c.need(len([]rune(s.SEOTitle)) <= 60, "%s: field seoTitle is %d characters, at most 60", where, len([]rune(s.SEOTitle)))
	c.need(s.MetaDescription != "", "%s: field metaDescription is empty", where)
	c.need(len([]rune(s.MetaDescription)) <= 160, "%s: field metaDescription is %d characters, at most 160", where, len([]rune(s.MetaDescription)))
}

func (s *Site) validate() error {
	c := &checker{}
	primary := 0
	for i, sv := range s.Services {
		w := fmt.Sprintf("services.json[%d] (%s)", i, sv.Slug)
		c.need(slugRE.MatchString(sv.Slug), "%s: field slug is not a slug", w)
		c.need(sv.ID != "" && sv.Title != "" && sv.ShortDescription != "" && sv.Description != "", "%s: fields id, title, shortDescription and description are required", w)
		c.need(len(sv.Features) >= 3, "%s: field features needs at least 3 entries", w)
		c.need(len(sv.Body) > 0, "%s: field body is empty", w)
		c.seo(w, sv.SEO)
		if sv.Primary {
			primary++
		}
	}
	c.need(primary == 6, "services.json: %d primary services, want 6", primary)
	for i, co := range s.Counties {
		w := fmt.Sprintf("counties.json[%d] (%s)", i, co.Slug)
		c.need(slugRE.MatchString(co.Slug) && co.Name != "", "%s: fields slug and name are required", w)
		c.seo(w, co.SEO)
		if p := co.Profile; p != nil {
			c.need(p.Population != "" && p.Description != "", "%s: profile needs population and description", w)
			c.need(len(p.Reasons) == 3, "%s: profile.reasons has %d entries, want 3", w, len(p.Reasons))
			for _, m := range p.MajorCities {
				found := false
				for _, ci := range s.Cities {
					found = found || (ci.County == co.Slug && ci.City == m)
				}
				c.need(found, "%s: profile.majorCities names %q, which is not a city of this county", w, m)
			}
		}
	}
	for _, ci := range s.Cities {
		w := fmt.Sprintf("cities/%s.json (%s)", ci.County, ci.Slug)
		c.need(s.countyBySlug[ci.County] != nil, "%s: field county %q is not a county", w, ci.County)
		c.need(slugRE.MatchString(ci.Slug) && ci.City != "" && ci.Intro != "", "%s: fields slug, city and intro are required", w)
		c.seo(w, ci.SEO)
		for _, n := range ci.Nearby {
			found := false
			for _, o := range s.Cities {
				found = found || o.Slug == n
			}
			c.need(found && n != ci.Slug, "%s: field nearby names %q, which is not another city", w, n)
		}
	}
	for k, p := range s.CityProfiles {
		w := "city-profiles.json[" + k + "]"
		county, _, _ := strings.Cut(k, "/")
		c.need(s.countyBySlug[county] != nil, "%s: key does not start with a county slug", w)
		c.need(len(p.ZipCodes) > 0 && len(p.FAQs) == 5 && len(p.Reasons) == 3, "%s: needs zipCodes, 5 faqs and 3 reasons", w)
		c.seo(w, p.SEO)
	}
	cats := map[string]bool{}
	for _, cat := range s.Categories {
		cats[cat.Slug] = true
	}
	for _, a := range s.Articles {
		w := "blog/" + a.Slug + ".md"
		c.need(a.Title != "" && a.Excerpt != "" && a.Content != "", "%s: title, excerpt and body are required", w)
		c.need(cats[a.Category], "%s: field category %q is not a category", w, a.Category)
		_, err := time.Parse("2006-01-02", a.PublishDate)
		c.need(err == nil, "%s: field publishDate %q is not YYYY-MM-DD", w, a.PublishDate)
		c.seo(w, a.SEO)
	}
	for slug, p := range s.Pages {
		c.need(p.Title != "" && p.Content != "", "pages/%s.md: title and body are required", slug)
		c.seo("pages/"+slug+".md", p.SEO)
	}
	if len(c.errs) > 0 {
		return fmt.Errorf("content is invalid:\n  %s", strings.Join(c.errs, "\n  "))
	}
	return nil
}

// Service returns a service by slug.
func (s *Site) Service(slug string) (*Service, bool) { v, ok := s.serviceBySlug[slug]; return v, ok }

// County returns a county by slug.
func (s *Site) County(slug string) (*County, bool) { v, ok := s.countyBySlug[slug]; return v, ok }

// City returns a city of a county by slug.
func (s *Site) City(county, slug string) (*City, bool) {
	v, ok := s.cityByKey[county+"/"+slug]
	return v, ok
}

// CitiesOf returns the cities of a county in file order.
func (s *Site) CitiesOf(county string) []City {
	var out []City
	for _, c := range s.Cities {
		if c.County == county {
			out = append(out, c)
		}
	}
	return out
}

// CityBySlug returns the first city with this slug in any county.
func (s *Site) CityBySlug(slug string) (*City, bool) {
	for i := range s.Cities {
		if s.Cities[i].Slug == slug {
			return &s.Cities[i], true
		}
	}
	return nil, false
}

// Article returns an article by slug.
func (s *Site) Article(slug string) (*Article, bool) { v, ok := s.articleBySlug[slug]; return v, ok }

// PrimaryServices are the six services of the grids, in order.
func (s *Site) PrimaryServices() []Service {
	var out []Service
	for _, sv := range s.Services {
		if sv.Primary {
			out = append(out, sv)
		}
	}
	return out
}
