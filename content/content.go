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
	// derivedTitle and derivedDescription say the texts above were
	// worked out from the record (derive.go), not written by the owner.
	derivedTitle, derivedDescription bool
}

// Written is the head texts as the owner wrote them: a derived one is
// empty again, so what is saved or exported keeps following the title
// and summary (ADR 049).
func (s SEO) Written() SEO {
	if s.derivedTitle {
		s.SEOTitle = ""
	}
	if s.derivedDescription {
		s.MetaDescription = ""
	}
	s.derivedTitle, s.derivedDescription = false, false
	return s
}

// Image is a photo from the media library shown as a page's hero or a
// post's cover: the media item's id, the alt text the page
// gives it (required: it says what the photo shows) and an optional
// caption.
type Image struct {
	Media   string `json:"media"`
	Alt     string `json:"alt"`
	Caption string `json:"caption,omitempty"`
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
	Body  []string `json:"body"`
	FAQs  []FAQ    `json:"faqs"`
	Image *Image   `json:"image,omitempty"`
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
	Image   *Image         `json:"image,omitempty"`
}

// City is one city record (spec 3).
type City struct {
	County string `json:"county"`
	City   string `json:"city"`
	Slug   string `json:"slug"`
	// Lat and Lng are where the city is (its centre, in degrees): public
	// facts, used to find the jobs near it and the city nearest a photo.
	Lat         float64  `json:"lat,omitempty"`
	Lng         float64  `json:"lng,omitempty"`
	HeroImage   string   `json:"hero_image"`
	Intro       string   `json:"intro"`
	Description string   `json:"description,omitempty"`
	Services    []string `json:"services,omitempty"`
	Nearby      []string `json:"nearby"`
	SEO
	Image *Image `json:"image,omitempty"`
	// NoIndex hides the city's page from search engines (ADR 064): a
	// robots noindex tag, out of both sitemaps; visitors still reach it.
	NoIndex bool `json:"noindex,omitempty"`
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
	Image   *Image   `json:"image,omitempty"`
	// NoIndex: as a city's (ADR 064).
	NoIndex bool `json:"noindex,omitempty"`
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
	Featured bool   `json:"featured"`
	Image    *Image `json:"image,omitempty"`
}

// InfoPage is a plain content page (about, privacy, terms).
type InfoPage struct {
	Slug    string `json:"slug"`
	Title   string `json:"title"`
	Content string `json:"content"`
	SEO
}

// Home is the home page's editable texts. Every other text of the home
// page is the spec's, in pages/home.tsx and its components. WhyText may
// name {city} and {county}: the office's, from System Settings.
type Home struct {
	// HeroLead follows the hero's response-time claim.
	HeroLead      string `json:"heroLead"`
	Banner        string `json:"banner"`
	ServicesTitle string `json:"servicesTitle"`
	ServicesLead  string `json:"servicesLead"`
	ProvideTitle  string `json:"provideTitle"`
	WhyText       string `json:"whyText"`
	// Image is the hero's photo (none: the hero is the blue gradient).
	Image *Image `json:"image,omitempty"`
}

// DefaultHome are the home page's texts as the spec writes them.
func DefaultHome() Home {
	return Home{
		HeroLead:      "IICRC certified technicians, state licensed and insured, with direct insurance billing and free estimates.",
		Banner:        "Professional Restoration and Construction Services in Atlanta",
		ServicesTitle: "Our Restoration & Construction Services",
		ServicesLead:  "From the first call to the final coat of paint: emergency mitigation, insurance documentation and complete rebuilds.",
		ProvideTitle:  "Services We Provide",
		WhyText:       "Our office is right here in {city}, so {county} County homeowners get a crew that knows local housing, local storms and local insurance adjusters. We handle the emergency mitigation and the full rebuild with one licensed team, and we bill your insurance directly.",
	}
}

// Set is all of the site's content (services, places, articles, pages,
// FAQs, the home page's texts and the fixed wording), loaded once.
type Set struct {
	Services     []Service
	Counties     []County
	Cities       []City
	CityProfiles map[string]*CityProfile
	Categories   []Category
	Articles     []Article // newest first
	Pages        map[string]*InfoPage
	// FAQs are the fixed FAQ blocks of pages that have no record of their own.
	FAQs map[string][]FAQ
	// Home are the home page's editable texts.
	Home Home
	// Words are the site's fixed wording (words.go), defaults included.
	Words Words
	// Updated is the date the content last changed (updated.txt, or the
	// latest publish), the sitemap's lastmod for pages without a date of
	// their own.
	Updated string

	// stamps are when each record's live copy was published by a person
	// (kind + "\x00" + slug); the embedded files have none.
	stamps map[string]time.Time
	// origins are the keys of the records seeded from the embedded files
	// (kind + "\x00" + origin -> current key): see CityByOrigin. Empty for
	// a site read from the files, where every key is its origin.
	origins map[string]string
	// items are the records' content item ids (id -> kind + "\x00" +
	// key): see CityByItemID. Empty for a site read from the files.
	items map[string]string

	serviceBySlug map[string]*Service
	countyBySlug  map[string]*County
	cityByKey     map[string]*City
	articleBySlug map[string]*Article
}

// Load reads and validates every embedded content file.
func Load() (*Set, error) { return LoadFS(files) }

// LoadFS reads content from fsys and refuses any problem at all: the
// embedded files are the developers' and must pass every rule (tests pass
// broken trees).
func LoadFS(fsys fs.FS) (*Set, error) {
	s, err := ReadFS(fsys)
	if err != nil {
		return nil, err
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// ReadFS reads content files without judging them: `site content
// import` refuses their hard problems and reports the rest, as a publish
// does.
func ReadFS(fsys fs.FS) (*Set, error) {
	s := &Set{CityProfiles: map[string]*CityProfile{}, Pages: map[string]*InfoPage{}}
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
	if err := readJSON(fsys, "home.json", &s.Home); err != nil {
		return nil, err
	}
	s.Words = DefaultWords()
	if _, err := fs.Stat(fsys, "words.json"); err == nil {
		var w Words
		if err := readJSON(fsys, "words.json", &w); err != nil {
			return nil, err
		}
		s.Words = w.withDefaults()
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
	s.index()
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
	// readTime is worked out from the body (derive.go); a file may still
	// carry the number it was written with.
	rt, err := strconv.Atoi(fm["readTime"])
	if err != nil && fm["readTime"] != "" {
		return nil, fmt.Errorf("content: %s: field readTime: %q is not a number of minutes", name, fm["readTime"])
	}
	a := &Article{
		Slug: strings.TrimSuffix(path.Base(name), ".md"), Title: fm["title"], Excerpt: fm["excerpt"],
		Content: body, Category: fm["category"], PublishDate: fm["publishDate"], ReadTime: rt,
		SEO:      SEO{SEOTitle: fm["seoTitle"], MetaDescription: fm["metaDescription"], Keywords: splitList(fm["keywords"])},
		Featured: fm["featured"] == "true",
	}
	if fm["image"] != "" {
		a.Image = &Image{Media: fm["image"], Alt: fm["imageAlt"], Caption: fm["imageCaption"]}
	}
	return a, nil
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

func (s *Set) index() {
	s.derive()
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
}

var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ValidSlug reports whether s is a slug: lower-case letters and digits in
// words joined by single dashes.
func ValidSlug(s string) bool { return len(s) <= 100 && slugRE.MatchString(s) }

// checker collects the problems of one site.
type checker struct{ out []Problem }

func (c *checker) need(ok bool, kind, slug, field string, hard bool, format string, args ...any) {
	if !ok {
		c.out = append(c.out, Problem{Kind: kind, Slug: slug, Field: field, Message: fmt.Sprintf(format, args...), Hard: hard})
	}
}

// seo checks a record's head texts: present (hard: the page has no title
// without them) and within spec 5's lengths (guidance).
func (c *checker) seo(kind, slug string, s SEO) {
	c.need(strings.TrimSpace(s.SEOTitle) != "", kind, slug, "seoTitle", true, "is empty")
	c.need(len([]rune(s.SEOTitle)) <= 60, kind, slug, "seoTitle", false, "is %d characters, at most 60", len([]rune(s.SEOTitle)))
	c.need(strings.TrimSpace(s.MetaDescription) != "", kind, slug, "metaDescription", true, "is empty")
	c.need(len([]rune(s.MetaDescription)) <= 160, kind, slug, "metaDescription", false, "is %d characters, at most 160", len([]rune(s.MetaDescription)))
}

// Check is the one set of content rules, at boot and at every save:
// what a page needs to render and be reached (hard), and spec 5's and
// content/SCHEMA.md's guidance (not hard).
func (s *Set) Check() []Problem {
	c := &checker{}
	primary := 0
	seen := map[string]bool{}
	dup := func(kind, slug string) {
		c.need(!seen[kind+"\x00"+slug], kind, slug, "slug", true, "is used by another %s", kind)
		seen[kind+"\x00"+slug] = true
	}
	for _, sv := range s.Services {
		k := KindService
		dup(k, sv.Slug)
		c.need(ValidSlug(sv.Slug), k, sv.Slug, "slug", true, "is not a slug (lower-case words joined by dashes)")
		c.need(sv.ID != "", k, sv.Slug, "id", true, "is required")
		c.need(strings.TrimSpace(sv.Title) != "", k, sv.Slug, "title", true, "is empty")
		c.need(sv.ShortDescription != "", k, sv.Slug, "shortDescription", true, "is empty")
		c.need(sv.Description != "", k, sv.Slug, "description", true, "is empty")
		c.need(KnownIcon(sv.Icon), k, sv.Slug, "icon", true, "%q is not one of the site's icons: choose one", sv.Icon)
		c.need(len(sv.Features) >= 3, k, sv.Slug, "features", false, "needs at least 3 entries")
		c.need(len(sv.Body) > 0, k, sv.Slug, "body", false, "is empty")
		c.seo(k, sv.Slug, sv.SEO)
		if sv.Primary {
			primary++
		}
	}
	c.need(primary == 6, KindService, "", "primary", true, "%d primary services, want 6 (the home page's grid)", primary)
	for _, co := range s.Counties {
		k := KindCounty
		dup(k, co.Slug)
		c.need(ValidSlug(co.Slug), k, co.Slug, "slug", true, "is not a slug (lower-case words joined by dashes)")
		c.need(strings.TrimSpace(co.Name) != "", k, co.Slug, "name", true, "is empty")
		c.seo(k, co.Slug, co.SEO)
		if p := co.Profile; p != nil {
			c.need(p.Population != "", k, co.Slug, "profile.population", false, "is empty")
			c.need(p.Description != "", k, co.Slug, "profile.description", false, "is empty")
			c.need(len(p.Reasons) == 3, k, co.Slug, "profile.reasons", false, "has %d entries, want 3", len(p.Reasons))
			for _, m := range p.MajorCities {
				found := false
				for _, ci := range s.Cities {
					found = found || (ci.County == co.Slug && ci.City == m)
				}
				c.need(found, k, co.Slug, "profile.majorCities", false, "names %q, which is not a city of this county", m)
			}
		}
	}
	for _, ci := range s.Cities {
		k, key := KindCity, ci.County+"/"+ci.Slug
		dup(k, key)
		c.need(s.countyBySlug[ci.County] != nil, k, key, "county", true, "%q is not a county", ci.County)
		c.need(ValidSlug(ci.Slug), k, key, "slug", true, "is not a slug (lower-case words joined by dashes)")
		c.need(strings.TrimSpace(ci.City) != "", k, key, "city", true, "is empty")
		c.need(strings.TrimSpace(ci.Intro) != "", k, key, "intro", true, "is empty")
		c.seo(k, key, ci.SEO)
		c.place(k, key, ci.Lat, ci.Lng)
		for _, n := range ci.Nearby {
			o, found := s.NearbyCity(&ci, n)
			c.need(found && o.County+"/"+o.Slug != key, k, key, "nearby", true, "names %q, which is not another city", n)
		}
	}
	for _, key := range sortedKeys(s.CityProfiles) {
		p, k := s.CityProfiles[key], KindCityProfile
		county, _, _ := strings.Cut(key, "/")
		c.need(s.countyBySlug[county] != nil, k, key, "key", true, "does not start with a county slug")
		c.need(strings.TrimSpace(p.CityName) != "", k, key, "cityName", true, "is empty")
		c.need(len(p.ZipCodes) > 0, k, key, "zipCodes", false, "is empty")
		c.need(len(p.FAQs) == 5, k, key, "faqs", false, "has %d entries, want 5", len(p.FAQs))
		c.need(len(p.Reasons) == 3, k, key, "reasons", false, "has %d entries, want 3", len(p.Reasons))
		c.seo(k, key, p.SEO)
	}
	cats := map[string]bool{}
	for _, cat := range s.Categories {
		dup(KindCategory, cat.Slug)
		c.need(ValidSlug(cat.Slug), KindCategory, cat.Slug, "slug", true, "is not a slug (lower-case words joined by dashes)")
		c.need(strings.TrimSpace(cat.Name) != "", KindCategory, cat.Slug, "name", true, "is empty")
		cats[cat.Slug] = true
	}
	for _, a := range s.Articles {
		k := KindArticle
		dup(k, a.Slug)
		c.need(ValidSlug(a.Slug), k, a.Slug, "slug", true, "is not a slug (lower-case words joined by dashes)")
		c.need(strings.TrimSpace(a.Title) != "", k, a.Slug, "title", true, "is empty")
		c.need(strings.TrimSpace(a.Excerpt) != "", k, a.Slug, "excerpt", true, "is empty")
		c.need(strings.TrimSpace(a.Content) != "", k, a.Slug, "content", true, "is empty")
		c.checkBody(k, a.Slug, "content", a.Content)
		if strings.TrimSpace(a.Category) == "" {
			c.need(false, k, a.Slug, "category", true, "is empty: choose a category")
		} else {
			c.need(cats[a.Category], k, a.Slug, "category", true, "%q is not a category", a.Category)
		}
		_, err := time.Parse("2006-01-02", a.PublishDate)
		c.need(err == nil, k, a.Slug, "publishDate", true, "%q is not YYYY-MM-DD", a.PublishDate)
		bodyProblems(c, k, a.Slug, "content", a.Content)
		c.seo(k, a.Slug, a.SEO)
	}
	for _, slug := range sortedKeys(s.Pages) {
		p := s.Pages[slug]
		c.need(strings.TrimSpace(p.Title) != "", KindPage, slug, "title", true, "is empty")
		c.need(strings.TrimSpace(p.Content) != "", KindPage, slug, "content", true, "is empty")
		c.checkBody(KindPage, slug, "content", p.Content)
		bodyProblems(c, KindPage, slug, "content", p.Content)
		c.seo(KindPage, slug, p.SEO)
	}
	c.checkWords(s.Words)
	s.checkClaims(c)
	s.checkImages(c)
	s.checkUnique(c)
	return c.out
}

// pageRecord is a record that is a page of its own: its head texts and
// its photo.
type pageRecord struct {
	kind, slug string
	seo        SEO
	image      *Image
}

// pageRecords lists the records that are pages, in the site's order.
func (s *Set) pageRecords() []pageRecord {
	var out []pageRecord
	for _, sv := range s.Services {
		out = append(out, pageRecord{KindService, sv.Slug, sv.SEO, sv.Image})
	}
	for _, co := range s.Counties {
		out = append(out, pageRecord{KindCounty, co.Slug, co.SEO, co.Image})
	}
	for _, ci := range s.Cities {
		out = append(out, pageRecord{KindCity, ci.County + "/" + ci.Slug, ci.SEO, ci.Image})
	}
	for _, k := range sortedKeys(s.CityProfiles) {
		out = append(out, pageRecord{KindCityProfile, k, s.CityProfiles[k].SEO, s.CityProfiles[k].Image})
	}
	for _, a := range s.Articles {
		out = append(out, pageRecord{KindArticle, a.Slug, a.SEO, a.Image})
	}
	for _, k := range sortedKeys(s.Pages) {
		out = append(out, pageRecord{KindPage, k, s.Pages[k].SEO, nil})
	}
	return out
}

// checkImages requires what a hero or cover photo needs: which photo, and
// alt text saying what it shows (the media library's own check that the
// photo exists is the editor's).
func (s *Set) checkImages(c *checker) {
	check := func(kind, slug string, im *Image) {
		if im == nil {
			return
		}
		c.need(strings.TrimSpace(im.Media) != "", kind, slug, "image.media", true, "choose a photo, or remove the image")
		c.need(strings.TrimSpace(im.Alt) != "", kind, slug, "image.alt", true, "is required: say what the photo shows")
		c.need(len([]rune(im.Alt)) <= 200, kind, slug, "image.alt", false, "is %d characters; keep it under 200", len([]rune(im.Alt)))
		c.need(len([]rune(im.Caption)) <= 300, kind, slug, "image.caption", false, "is %d characters; keep it under 300", len([]rune(im.Caption)))
	}
	for _, r := range s.pageRecords() {
		check(r.kind, r.slug, r.image)
	}
	check(KindHome, KindHome, s.Home.Image)
}

// checkUnique flags every seoTitle and metaDescription that another record
// uses too (spec 5: unique across the site).
func (s *Set) checkUnique(c *checker) {
	type owner struct{ kind, slug string }
	titles, descs := map[string]owner{}, map[string]owner{}
	for _, r := range s.pageRecords() {
		t, d := strings.ToLower(strings.TrimSpace(r.seo.SEOTitle)), strings.ToLower(strings.TrimSpace(r.seo.MetaDescription))
		if o, ok := titles[t]; ok && t != "" {
			c.need(false, r.kind, r.slug, "seoTitle", false, "is also the title of %s %s", o.kind, o.slug)
		} else {
			titles[t] = owner{r.kind, r.slug}
		}
		if o, ok := descs[d]; ok && d != "" {
			c.need(false, r.kind, r.slug, "metaDescription", false, "is also the description of %s %s", o.kind, o.slug)
		} else {
			descs[d] = owner{r.kind, r.slug}
		}
	}
}

// fileOf names where a record lives among the content files.
func fileOf(kind, slug string) string {
	switch kind {
	case KindService:
		return "services.json (" + slug + ")"
	case KindCounty:
		return "counties.json (" + slug + ")"
	case KindCity:
		county, city, _ := strings.Cut(slug, "/")
		return "cities/" + county + ".json (" + city + ")"
	case KindCityProfile:
		return "city-profiles.json[" + slug + "]"
	case KindCategory:
		return "blog/categories.json (" + slug + ")"
	case KindArticle:
		return "blog/" + slug + ".md"
	case KindPage:
		return "pages/" + slug + ".md"
	case KindFAQ:
		return "faqs.json[" + slug + "]"
	case KindWords:
		return "words.json (or words-catalogue.json's defaults)"
	}
	return "home.json"
}

func (s *Set) validate() error {
	ps := s.Check()
	if len(ps) == 0 {
		return nil
	}
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = fileOf(p.Kind, p.Slug) + ": field " + p.Field + ": " + p.Message
	}
	return fmt.Errorf("content is invalid:\n  %s", strings.Join(lines, "\n  "))
}

// PublishedAt is when a record was last published from the admin.
func (s *Set) PublishedAt(kind, slug string) (time.Time, bool) {
	t, ok := s.stamps[kind+"\x00"+slug]
	return t, ok
}

// Service returns a service by slug.
func (s *Set) Service(slug string) (*Service, bool) { v, ok := s.serviceBySlug[slug]; return v, ok }

// County returns a county by slug.
func (s *Set) County(slug string) (*County, bool) { v, ok := s.countyBySlug[slug]; return v, ok }

// City returns a city of a county by slug.
func (s *Set) City(county, slug string) (*City, bool) {
	v, ok := s.cityByKey[county+"/"+slug]
	return v, ok
}

// CitiesOf returns the cities of a county in file order.
func (s *Set) CitiesOf(county string) []City {
	var out []City
	for _, c := range s.Cities {
		if c.County == county {
			out = append(out, c)
		}
	}
	return out
}

// CityBySlug returns the first city with this slug in any county.
func (s *Set) CityBySlug(slug string) (*City, bool) {
	for i := range s.Cities {
		if s.Cities[i].Slug == slug {
			return &s.Cities[i], true
		}
	}
	return nil, false
}

// Article returns an article by slug.
func (s *Set) Article(slug string) (*Article, bool) { v, ok := s.articleBySlug[slug]; return v, ok }

// PrimaryServices are the six services of the grids, in order.
func (s *Set) PrimaryServices() []Service {
	var out []Service
	for _, sv := range s.Services {
		if sv.Primary {
			out = append(out, sv)
		}
	}
	return out
}
