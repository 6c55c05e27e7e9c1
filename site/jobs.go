package site

import (
	"cmp"
	"context"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
)

// Jobs on the public site (issue 33, ADR 062): the owner's published jobs
// as cards on the city, county, service and portfolio pages, and a page
// of its own for a job with enough to say. A job's position (rounded to
// about 1 km) is read here only to measure distances: no page, prop or
// structured data carries it, nor a street or an address; a job shows
// its city and its month.

// JobSource is where the public pages read the published jobs (db.Store).
type JobSource interface {
	PublishedJobs(ctx context.Context) ([]db.PublishedJob, error)
}

const (
	// NearbyJobsKm is how far from a city's coordinates a job may be and
	// still show under "Recent work near {city}".
	NearbyJobsKm = 15.0
	// NearbyJobsShown is how many jobs a city page shows at most.
	NearbyJobsShown = 3
	// CountyJobsShown and ServiceJobsShown are the county and service
	// pages' limits: the newest first.
	CountyJobsShown  = 6
	ServiceJobsShown = 3
	// PortfolioJobsShown caps the portfolio page's job cards.
	PortfolioJobsShown = 24
	// JobPageMinPhotos and JobPageMinWords are what a job needs to have a
	// page of its own: at least two photos and a story of 60+ words.
	JobPageMinPhotos = 2
	JobPageMinWords  = 60
)

// JobPath is a job page's address.
func JobPath(slug string) string { return "/portfolio/" + slug }

// ---- data shapes (components/props.gen.ts is generated from them) ----

// JobPhoto is a job's photo or video as a page shows it: responsive
// sources and its size (width and height hold its place before it loads).
type JobPhoto struct {
	Src    string `json:"src"`
	Srcset string `json:"srcset"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Alt    string `json:"alt"`
	// Caption is the owner's caption, "" for none.
	Caption string `json:"caption"`
	Type    string `json:"type" tstype:"'image' | 'video'"`
	// Phase is before, during, after or "" (not said).
	Phase string `json:"phase" tstype:"'before' | 'during' | 'after' | ''"`
	// Poster is a video's poster image, "" for none.
	Poster string `json:"poster"`
	// Large is the largest rendition: the ImageObject's contentUrl.
	Large string `json:"-"`
}

// BeforeAfter is the pair the comparison shows: a before and an after
// photo of one job.
type BeforeAfter struct {
	Before JobPhoto `json:"before"`
	After  JobPhoto `json:"after"`
}

// JobCard is a published job as a card: its before and after photos
// (or its first photo), the month and the damage type, and a link to its
// page when it has one.
type JobCard struct {
	Title string `json:"title"`
	// Href is the job's page, "" when it has none (the card is not a link).
	Href     string `json:"href"`
	City     string `json:"city"`
	CityHref string `json:"cityHref"`
	Damage   string `json:"damage"`
	// Month is the month the job was done, as read: "March 2026".
	Month string       `json:"month"`
	Pair  *BeforeAfter `json:"pair"`
	// Photo is the card's picture when the job has no before/after pair.
	Photo *JobPhoto `json:"photo"`
}

// JobsSection is a page's block of job cards, absent (nil) when there is
// no job to show: no empty promise.
type JobsSection struct {
	Heading string    `json:"heading"`
	Jobs    []JobCard `json:"jobs"`
}

// JobData is a job's page.
type JobData struct {
	Title string `json:"title"`
	// Summary reads "{Damage type} in {City}, {Month Year}".
	Summary string `json:"summary"`
	// Story is the owner's story, one entry per paragraph.
	Story      []string `json:"story"`
	City       string   `json:"city"`
	CityHref   string   `json:"cityHref"`
	Damage     string   `json:"damage"`
	DamageHref string   `json:"damageHref"`
	Month      string   `json:"month"`
	// Customer is the homeowner's name, only with their recorded consent.
	Customer string       `json:"customer"`
	Compare  *BeforeAfter `json:"compare"`
	// Photos are the job's other photos and videos.
	Photos []JobPhoto `json:"photos"`
	// Quotes are the homeowner's words about this job, when they gave
	// them with consent and the owner approved them (ADR 063).
	Quotes []Quote `json:"quotes"`
}

// ---- reading the jobs ----

// job is a published job resolved against the content: its city, county
// and service records, its photos, whether it has a page, and its rounded
// position when it has one.
type job struct {
	db.PublishedJob
	city    *content.City
	county  *content.County
	service *content.Service
	photos  []JobPhoto
	page    bool
	lat     float64
	lng     float64
	located bool
}

// jobsOnce is a snapshot's published jobs, read once (every page of a
// refresh asks).
type jobsOnce struct {
	sync.Once
	jobs []job
}

// publishedJobs reads the published jobs, newest first, each resolved
// against the snapshot's content; a job whose city is gone is left out
// (a page never links to nothing). A failure is logged and shows none.
func (s *Site) publishedJobs(ctx context.Context) []job {
	read := func() []job {
		if s.jobs == nil {
			return nil
		}
		rows, err := s.jobs.PublishedJobs(ctx)
		if err != nil {
			s.log.Error("published jobs not read; the pages show none", "err", err)
			return nil
		}
		out := make([]job, 0, len(rows))
		for _, r := range rows {
			if j, ok := s.resolveJob(r); ok {
				out = append(out, j)
			}
		}
		return out
	}
	if s.jobsSnap == nil {
		return read()
	}
	s.jobsSnap.Do(func() { s.jobsSnap.jobs = read() })
	return s.jobsSnap.jobs
}

func (s *Site) resolveJob(r db.PublishedJob) (job, bool) {
	c := s.content()
	if r.Slug == "" || strings.ContainsAny(r.Slug, "/?#") {
		return job{}, false
	}
	ci, ok := c.CityByItemID(r.CityID)
	if !ok {
		if county, slug, found := strings.Cut(r.CityID, "/"); found {
			ci, ok = c.CityByOrigin(county, slug)
		}
	}
	if !ok {
		return job{}, false
	}
	co, ok := c.County(ci.County)
	if !ok {
		return job{}, false
	}
	j := job{PublishedJob: r, city: ci, county: co, service: s.jobService(r.Service)}
	images := 0
	for _, m := range r.Media {
		p := s.jobPhoto(m, j)
		if p.Type == "image" {
			images++
		}
		j.photos = append(j.photos, p)
	}
	j.page = images >= JobPageMinPhotos && len(strings.Fields(r.Story)) >= JobPageMinWords
	if r.HasPlace {
		j.lat, j.lng, j.located = r.Lat, r.Lng, true
	}
	return j, true
}

// jobService finds a job's damage type: a service record's id, its slug,
// or the slug it was seeded with (its origin, ADR 046).
func (s *Site) jobService(ref string) *content.Service {
	if ref == "" {
		return nil
	}
	for i, sv := range s.content().Services {
		if sv.ID == ref {
			return &s.content().Services[i]
		}
	}
	if sv, ok := s.content().Service(ref); ok {
		return sv
	}
	if sv, ok := s.content().ServiceByOrigin(ref); ok {
		return sv
	}
	return nil
}

// damage is the job's damage type as read: its service's title.
func (j job) damage() string {
	if j.service != nil {
		return j.service.Title
	}
	return "Restoration"
}

// monthText reads "2026-03" as "March 2026" ("" when it is not a month).
func monthText(m string) string {
	t, err := time.Parse("2006-01", m)
	if err != nil {
		return ""
	}
	return t.Format("January 2006")
}

// jobPhoto builds a photo's sources as the portfolio does (media.ItemOf),
// with an alt text naming the phase, the damage and the city when the
// owner wrote none.
func (s *Site) jobPhoto(m db.PublishedJobMedia, j job) JobPhoto {
	it := media.ItemOf(db.Media{ID: m.ID, Path: m.Path, Name: path.Base(m.Path), Kind: m.Kind, Width: m.Width, Height: m.Height,
		Variants: m.Variants, Caption: m.Caption, Alt: m.Alt, Poster: m.Poster, Portfolio: true})
	p := JobPhoto{Src: it.URL, Srcset: it.Srcset, Width: it.Width, Height: it.Height, Alt: m.Alt, Caption: m.Caption, Type: it.Type, Phase: m.Phase, Poster: it.Poster, Large: media.URL(m.Path)}
	switch p.Phase {
	case "before", "during", "after":
	default:
		p.Phase = ""
	}
	if parts := strings.Split(it.Srcset, ", "); it.Srcset != "" {
		p.Large, _, _ = strings.Cut(parts[len(parts)-1], " ")
	}
	if p.Alt == "" {
		what := strings.ToLower(j.damage()) + " in " + j.city.City
		switch p.Phase {
		case "before":
			p.Alt = "Before " + what
		case "during":
			p.Alt = "During " + what
		case "after":
			p.Alt = "After " + what
		default:
			p.Alt = capitalise(what)
		}
	}
	return p
}

// pair is the job's first before and first after photo (images only), or
// nil when it lacks either.
func (j job) pair() *BeforeAfter {
	var before, after *JobPhoto
	for i := range j.photos {
		p := &j.photos[i]
		if p.Type != "image" || p.Width == 0 || p.Height == 0 {
			continue
		}
		if p.Phase == "before" && before == nil {
			before = p
		}
		if p.Phase == "after" && after == nil {
			after = p
		}
	}
	if before == nil || after == nil {
		return nil
	}
	return &BeforeAfter{Before: *before, After: *after}
}

func (j job) href() string {
	if !j.page {
		return ""
	}
	return JobPath(j.Slug)
}

func (j job) card() JobCard {
	c := JobCard{Title: j.Title, Href: j.href(), City: j.city.City, CityHref: CityPath(j.city.County, j.city.Slug), Damage: j.damage(), Month: monthText(j.Month), Pair: j.pair()}
	if c.Pair == nil {
		for i := range j.photos {
			if j.photos[i].Type == "image" || j.photos[i].Poster != "" {
				p := j.photos[i]
				if p.Type == "video" { // a card shows the video's poster, not the video
					p.Type, p.Src, p.Srcset = "image", p.Poster, ""
				}
				c.Photo = &p
				break
			}
		}
	}
	return c
}

// jobsNear are the jobs within NearbyJobsKm of a city's coordinates,
// nearest first (the newest first at the same distance), at most
// NearbyJobsShown. A job without a position of its own, or a city without
// coordinates, counts in its own city only: the rule the thin-pages audit
// counts local proof by (seoaudit.NearbyJobs).
func (s *Site) jobsNear(ctx context.Context, ci *content.City) []JobCard {
	type near struct {
		j job
		d float64
	}
	var in []near
	cityLocated := ci.Lat != 0 || ci.Lng != 0
	for _, j := range s.publishedJobs(ctx) {
		switch {
		case j.located && cityLocated:
			if d := content.DistanceKm(ci.Lat, ci.Lng, j.lat, j.lng); d <= NearbyJobsKm {
				in = append(in, near{j, d})
			}
		case j.city.County == ci.County && j.city.Slug == ci.Slug:
			in = append(in, near{j, 0})
		}
	}
	// The jobs come newest first: a stable sort keeps that order at one distance.
	slices.SortStableFunc(in, func(a, b near) int { return cmp.Compare(a.d, b.d) })
	out := []JobCard{}
	for _, n := range in {
		if len(out) == NearbyJobsShown {
			break
		}
		out = append(out, n.j.card())
	}
	return out
}

// section is a block of cards with its heading, nil when there are none.
func section(heading string, cards []JobCard) *JobsSection {
	if len(cards) == 0 {
		return nil
	}
	return &JobsSection{Heading: heading, Jobs: cards}
}

// jobWord is one of the jobs group's words (content/words-catalogue.json).
func (s *Site) jobWord(key string) string { return s.content().Words["jobs"][key] }

// cityJobs is a city page's "Recent work near {city}" section.
func (s *Site) cityJobs(ctx context.Context, ci *content.City) *JobsSection {
	if ci == nil {
		return nil
	}
	return section(s.jobWord("nearHeading")+" "+ci.City, s.jobsNear(ctx, ci))
}

// countyJobs are the newest jobs in a county's cities.
func (s *Site) countyJobs(ctx context.Context, co *content.County) *JobsSection {
	out := []JobCard{}
	for _, j := range s.publishedJobs(ctx) {
		if j.city.County == co.Slug && len(out) < CountyJobsShown {
			out = append(out, j.card())
		}
	}
	return section(s.jobWord("countyHeading")+" "+co.Name+" County", out)
}

// serviceJobs are the newest jobs of a service's damage type.
func (s *Site) serviceJobs(ctx context.Context, sv *content.Service) *JobsSection {
	out := []JobCard{}
	for _, j := range s.publishedJobs(ctx) {
		if j.service != nil && j.service.Slug == sv.Slug && len(out) < ServiceJobsShown {
			out = append(out, j.card())
		}
	}
	return section(s.jobWord("serviceHeading"), out)
}

// portfolioJobs are the newest published jobs for /portfolio.
func (s *Site) portfolioJobs(ctx context.Context) *JobsSection {
	out := []JobCard{}
	for _, j := range s.publishedJobs(ctx) {
		if len(out) < PortfolioJobsShown {
			out = append(out, j.card())
		}
	}
	return section(s.jobWord("portfolioHeading"), out)
}

// profileCity is the city record of one of the four fixed city pages
// (their keys are not always the city's: fulton/atlanta-service).
func (s *Site) profileCity(key string, pr *content.CityProfile) *content.City {
	county, slug, _ := strings.Cut(key, "/")
	if ci, ok := s.content().CityByOrigin(county, slug); ok {
		return ci
	}
	for _, ci := range s.content().CitiesOf(county) {
		if strings.EqualFold(ci.City, pr.CityName) {
			c, _ := s.content().City(ci.County, ci.Slug)
			return c
		}
	}
	return nil
}

// ---- /portfolio/{slug} ----

func jobRoutes() []Route {
	return []Route{{
		Pattern: "/portfolio/{slug}", Page: "job", Priority: "medium", ChangeFreq: "monthly", InSitemap: true, Indexable: true,
		Load: loadJob, ExpandSite: expandJobs,
	}}
}

// expandJobs are the published jobs that have a page.
func expandJobs(s *Site) []string {
	var out []string
	for _, j := range s.publishedJobs(context.Background()) {
		if j.page {
			out = append(out, JobPath(j.Slug))
		}
	}
	return out
}

// jobNotFound is the spec's not-found screen (section 8: any other path).
func jobNotFound() *NotFoundError {
	return &NotFoundError{Title: "404", Message: "Oops! Page not found", LinkHref: "/portfolio", LinkText: "See our work"}
}

func loadJob(ctx context.Context, s *Site, p Params) (Page, error) {
	var j *job
	for _, x := range s.publishedJobs(ctx) {
		if x.Slug == p["slug"] && x.page {
			j = &x
			break
		}
	}
	if j == nil {
		return Page{}, jobNotFound()
	}
	cityHref := CityPath(j.city.County, j.city.Slug)
	month := monthText(j.Month)
	d := JobData{
		Title: j.Title, City: j.city.City, CityHref: cityHref, Damage: j.damage(), Month: month,
		Customer: j.CustomerName, Compare: j.pair(), Photos: []JobPhoto{}, Story: paragraphs(j.Story),
		Quotes: s.leadQuotes(ctx, j.LeadID, j.city.City),
	}
	d.Summary = d.Damage + " in " + d.City
	if month != "" {
		d.Summary += ", " + month
	}
	if j.service != nil {
		d.DamageHref = "/services/" + j.service.Slug
	}
	for _, ph := range j.photos {
		if d.Compare != nil && (ph.Src == d.Compare.Before.Src || ph.Src == d.Compare.After.Src) {
			continue
		}
		d.Photos = append(d.Photos, ph)
	}
	path := JobPath(j.Slug)
	b := s.business(ctx)
	place := map[string]any{"@type": "Place", "name": j.city.City + ", GA",
		"address": map[string]any{"@type": "PostalAddress", "addressLocality": j.city.City, "addressRegion": "GA"}}
	var extra []map[string]any
	og := ""
	for _, ph := range j.photos {
		if ph.Type != "image" {
			continue
		}
		if og == "" {
			og = s.Abs(ph.Large)
		}
		n := map[string]any{"@type": "ImageObject", "contentUrl": s.Abs(ph.Large), "url": s.Abs(ph.Large), "name": ph.Alt,
			"width": ph.Width, "height": ph.Height, "contentLocation": place, "creditText": b.Name,
			"creator": map[string]any{"@id": s.Abs("/#business")}}
		if ph.Caption != "" {
			n["caption"] = ph.Caption
		}
		extra = append(extra, n)
	}
	desc := d.Summary + ". " + firstWords(j.Story, 22)
	return Page{
		Data: d,
		Head: HeadSpec{
			Title:       clip(j.Title+" | "+j.city.City+", GA", 60),
			Description: clip(desc, 160),
			Keywords:    []string{strings.ToLower(d.Damage) + " " + strings.ToLower(j.city.City), strings.ToLower(d.Damage) + " before and after"},
			Path:        path,
			Crumbs:      []Crumb{{"Our Work Portfolio", "/portfolio"}, {j.Title, path}},
			Extra:       extra,
			Image:       og,
		},
	}, nil
}

// paragraphs splits a story at its blank lines.
func paragraphs(story string) []string {
	out := []string{}
	for _, p := range strings.Split(strings.ReplaceAll(story, "\r\n", "\n"), "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// firstWords is the first n words of a text, with an ellipsis when cut.
func firstWords(text string, n int) string {
	ws := strings.Fields(text)
	if len(ws) <= n {
		return strings.Join(ws, " ")
	}
	return strings.Join(ws[:n], " ") + "…"
}

// clip cuts a text to at most n characters at a word boundary.
func clip(text string, n int) string {
	r := []rune(text)
	if len(r) <= n {
		return text
	}
	cut := string(r[:n-1])
	if i := strings.LastIndex(cut, " "); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// jobTitle is a job page's name in the HTML sitemap.
func (s *Site) jobTitle(ctx context.Context, slug string) string {
	for _, j := range s.publishedJobs(ctx) {
		if j.Slug == slug {
			return j.Title
		}
	}
	return labelFromPath(JobPath(slug))
}

// jobPublished is when a job was published: its page's lastmod.
func (s *Site) jobPublished(ctx context.Context, slug string) (time.Time, bool) {
	for _, j := range s.publishedJobs(ctx) {
		if j.Slug == slug && !j.PublishedAt.IsZero() {
			return j.PublishedAt, true
		}
	}
	return time.Time{}, false
}

// JobPlace is where a published job is, as the city pages place it: its
// city's key and, when a photo gave one, its rounded position. Server
// only (the thin-pages audit counts local proof with it).
type JobPlace struct {
	CityKey  string
	Lat, Lng float64
	Located  bool
}

// JobPlaces are the published jobs the pages show, resolved as they are
// (a job whose city is gone is left out), read fresh.
func (s *Site) JobPlaces(ctx context.Context) []JobPlace {
	out := []JobPlace{}
	for _, j := range s.Snapshot().publishedJobs(ctx) {
		out = append(out, JobPlace{CityKey: j.city.County + "/" + j.city.Slug, Lat: j.lat, Lng: j.lng, Located: j.located})
	}
	return out
}
