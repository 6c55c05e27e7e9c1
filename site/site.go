// Package site is the public site as data: the route table (spec 3's route
// descriptor, table.go), each page kind's loader, the head and structured
// data every page carries, the props the React pages render from, and
// sitemap.xml and robots.txt. It has no HTTP in it: the public pages' room
// (web/pages) renders and serves what it builds, and the admin rooms read
// the route table from it.
package site

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/retention"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/search"
	"github.com/atlanta-restoration/site/settings"
)

// Settings are the business facts and availability the owner keeps in
// System Settings (settings.Service).
type Settings interface {
	Business(ctx context.Context) config.Business
	Availability(ctx context.Context) settings.Availability
	// OfficePhone is the contact page's office number, "" for none
	// (ADR 039: every other place shows Business' phone, the 24/7 line).
	OfficePhone(ctx context.Context) string
}

// Reviews are the trust section's reviews and figures (reviews.Service).
type Reviews interface {
	Top(ctx context.Context) []reviews.Review
	Figures(ctx context.Context) reviews.Figures
	Configured() bool
}

// Options are a site's sources.
type Options struct {
	// BaseURL is the absolute site address (BASE_URL).
	BaseURL  string
	Content  *content.Set
	Settings Settings
	Reviews  Reviews
	// Media is the media library: the portfolio, and hero photos.
	Media Media
	// Jobs are the published jobs (ADR 062); nil shows none.
	Jobs JobSource
	// Redirects are the owner's (editor.RedirectMap): from -> to.
	Redirects map[string]string
	// Retention is what the site keeps and for how long, from the
	// configuration the retention job enforces: the privacy page lists it.
	Retention []retention.Item
	Log       *slog.Logger

	// Testimonials are the approved ones city pages quote (nil: none).
	Testimonials Testimonials
}

// Site builds every public page's data from the content, the settings,
// the reviews and the media. The content can change while the site runs
// (SetContent, when the owner publishes); a Snapshot reads one version of
// it from start to end, so a page is never built from two.
type Site struct {
	*shared
	// fixed is the content a snapshot reads; nil reads the current one.
	fixed *state
	// works is whether the portfolio has work to show, read once per
	// snapshot (every page of a refresh asks); nil reads it each time.
	works *portfolioOnce
	// jobsSnap is the snapshot's published jobs, read once; nil reads
	// them each time.
	jobsSnap *jobsOnce
}

// portfolioOnce is a snapshot's answer to "is there work to show?".
type portfolioOnce struct {
	sync.Once
	has bool
}

// shared is what every snapshot of a site shares.
type shared struct {
	base     string
	routes   []Route
	settings Settings
	reviews  Reviews
	media    Media
	jobs     JobSource
	kept     []retention.Item
	log      *slog.Logger
	cur      atomic.Pointer[state]

	// testimonials are the approved ones city pages quote.
	testimonials Testimonials
}

// state is one version of the content and of the owner's redirects, with
// its search index (built on the first search of that version).
type state struct {
	content    *content.Set
	moved      map[string]string
	searchOnce sync.Once
	searchIx   *search.Index
}

// New returns the site of the content.
func New(o Options) *Site {
	s := &Site{shared: &shared{base: o.BaseURL, routes: publicRoutes(), settings: o.Settings, reviews: o.Reviews, media: o.Media, jobs: o.Jobs, kept: o.Retention, log: o.Log}}
	s.testimonials = o.Testimonials
	s.cur.Store(&state{content: o.Content, moved: o.Redirects})
	return s
}

func (s *Site) state() *state {
	if s.fixed != nil {
		return s.fixed
	}
	return s.cur.Load()
}

func (s *Site) content() *content.Set { return s.state().content }

// Content is the site's content (the snapshot's, for a snapshot).
func (s *Site) Content() *content.Set { return s.content() }

// Set replaces the content every page is built from and the owner's
// redirects (a publish, a redirect change). Snapshots taken before keep
// reading the content they started with.
func (s *Site) Set(c *content.Set, redirects map[string]string) {
	s.cur.Store(&state{content: c, moved: redirects})
}

// Snapshot is the site fixed at the current content.
func (s *Site) Snapshot() *Site {
	return &Site{shared: s.shared, fixed: s.state(), works: &portfolioOnce{}, jobsSnap: &jobsOnce{}}
}

// With is the site as it would be with content c (a draft's preview):
// the current redirects, nothing shared with the live pages' snapshots.
func (s *Site) With(c *content.Set) *Site {
	return &Site{shared: s.shared, fixed: &state{content: c, moved: s.state().moved}, works: &portfolioOnce{}, jobsSnap: &jobsOnce{}}
}

// Abs makes an absolute URL from a site path.
func (s *Site) Abs(path string) string {
	if path == "" {
		path = "/"
	}
	return s.base + path
}

// BaseURL is BASE_URL.
func (s *Site) BaseURL() string { return s.base }

func (s *Site) business(ctx context.Context) config.Business { return s.settings.Business(ctx) }

// gallery reads the portfolio (media.LoadGallery).
func (s *Site) gallery(ctx context.Context) *media.Gallery {
	return media.LoadGallery(ctx, s.media, s.log)
}

// hasPortfolio reports whether the portfolio shows any work: the main
// navigation offers OUR WORK only then (ADR 050), while the home page
// keeps the spec's empty state.
func (s *Site) hasPortfolio(ctx context.Context) bool {
	read := func() bool {
		return (s.media != nil && len(s.gallery(ctx).Items) > 0) || len(s.publishedJobs(ctx)) > 0
	}
	if s.works == nil {
		return read()
	}
	s.works.Do(func() { s.works.has = read() })
	return s.works.has
}

// extraKinds are the React page kinds outside the route table.
var extraKinds = []string{"not-found", "error"}

// PageKinds lists every page kind the SSR engine must build.
func PageKinds() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range publicRoutes() {
		if !seen[r.Page] {
			seen[r.Page] = true
			out = append(out, r.Page)
		}
	}
	for _, k := range extraKinds {
		if !seen[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// FullHydrationKinds hydrate the whole page (the admin app); public pages
// hydrate only their islands.
var FullHydrationKinds = []string{"admin"}

// Props are the props a page component renders from: the loader's data
// and head, with the business facts, the chrome and the breadcrumbs.
func (s *Site) Props(ctx context.Context, path string, pg Page) PageProps {
	b, av := s.business(ctx), s.settings.Availability(ctx)
	rating := s.reviews.Figures(ctx)
	crumbs := []BreadcrumbLink{}
	for _, c := range pg.Head.Crumbs {
		crumbs = append(crumbs, BreadcrumbLink{Name: c.Name, Href: c.Path})
	}
	kind := "" // a page outside the route table (not found, error) shows only the chrome's words
	if r, _, ok := s.Lookup(path); ok {
		kind = r.Page
	} else if k, ok := outsideKinds[path]; ok {
		kind = k
	}
	return PageProps{Head: s.head(b, av, rating, pg.Head), Site: s.siteProps(kind, b, av, s.settings.OfficePhone(ctx)), Chrome: s.chrome(s.hasPortfolio(ctx)), Path: path, Breadcrumbs: crumbs, Data: pg.Data}
}

// Load runs the loader of a route-table path on one version of the
// content (call it on a Snapshot to build the props from the same one).
// A path that names nothing is a *NotFoundError.
func (s *Site) Load(ctx context.Context, path string) (*Route, Page, error) {
	if s.fixed == nil {
		s = s.Snapshot()
	}
	r, p, ok := s.Lookup(path)
	if !ok {
		return nil, Page{}, ErrNotFound
	}
	pg, err := r.Load(ctx, s, p)
	if err != nil {
		return r, Page{}, err
	}
	if !r.Indexable {
		pg.Head.NoIndex = true
	}
	return r, pg, nil
}

// redirects are permanent moves of earlier or alias routes, in code.
var redirects = map[string]string{}

// Redirect returns where a moved path now lives: the site's own moves
// first, then the owner's (a renamed post, the Redirects screen).
func (s *Site) Redirect(path string) (string, bool) {
	if to, ok := redirects[path]; ok {
		return to, true
	}
	to, ok := s.state().moved[path]
	return to, ok
}

// ServedPages are the paths the public site answers with a page, and
// their page kind: every concrete path of the route table (the crawl test
// checks that each answers 200), without admin pages and redirected
// paths.
func (s *Site) ServedPages() map[string]string {
	out := map[string]string{}
	for _, r := range s.routes {
		if r.Page == "admin" || (r.IsDynamic() && r.Expand == nil && r.ExpandSite == nil) {
			continue
		}
		for _, p := range s.PathsOf(r) {
			if _, moved := s.Redirect(p); moved {
				continue
			}
			if rt, _, ok := s.Lookup(p); ok && rt.Page != "admin" {
				if _, seen := out[p]; !seen {
					out[p] = rt.Page
				}
			}
		}
	}
	return out
}
