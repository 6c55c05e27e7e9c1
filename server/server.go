// Package server is the HTTP side of the site: the echo router, the route
// table, the page loaders, middleware and the JSON APIs. Public pages are
// rendered by the ssr engine and served from its render cache.
package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	gbytes "github.com/labstack/gommon/bytes"

	"github.com/atlanta-restoration/site/cdnpurge"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/contentsync"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/search"
	"github.com/atlanta-restoration/site/spool"
	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/estimate"
	"github.com/atlanta-restoration/site/web/leadsmanager"
	"github.com/atlanta-restoration/site/web/uploads"
)

// Options are the server's dependencies.
type Options struct {
	Config  *config.Config
	Log     *slog.Logger
	Store   *db.Store
	Content *content.Site
	// Engine may be shared between servers in tests; nil builds one.
	Engine *ssr.Engine
	// Storage holds media files; nil builds one from the configuration.
	Storage storage.Storage
	// NoWarm renders pages on demand only (tests): no background warm-up
	// after boot or invalidation.
	NoWarm bool
	// Leads takes estimate submissions (database, else the spool) and
	// Notifier announces them; nil builds them from the configuration,
	// without a spool.
	Leads    *spool.Intake
	Notifier *notify.Notifier
}

// Server holds the handlers' dependencies.
type Server struct {
	cfg     *config.Config
	log     *slog.Logger
	store   *db.Store
	content *content.Site
	engine  *ssr.Engine
	// releaseEngine removes the server's rebuild hook from the engine (Close).
	releaseEngine func()
	// icons are the head's icon links, the favicon inlined (ADR 018).
	icons  string
	cache  *ssr.Cache
	routes []Route
	echo   *echo.Echo
	static map[string]*ssr.Asset

	// settings overlays saved System Settings on the configured business
	// facts; nil until the admin settings store is wired.
	settings func(context.Context, config.Business) config.Business

	fixedMu  sync.RWMutex
	notFound *ssr.Page // the generic 404, rendered per content version
	errPage  *ssr.Page // the 500 page, rendered at boot

	// dynamicPages answer paths that are rendered per request (search
	// results) rather than served from the cache.
	dynamicPages map[string]echo.HandlerFunc

	reviewsClient *reviews.Client
	// reviewsUnconfigured logs once that the refresh is not configured.
	reviewsUnconfigured sync.Once
	// jobs is the background work: IndexNow, health monitor, reviews.
	jobs *jobSet
	// audits are the SEO audit and the security scan (issue 10).
	audits *auditSet
	// analytics collects the beacon's events (issue 10, ADR 015).
	analytics *analyticsSet

	// leads takes estimate submissions; notifier announces new leads.
	leads    *spool.Intake
	notifier *notify.Notifier

	searchOnce   sync.Once
	searchIx     *search.Index
	searchShells *searchShells
	// estimateLimit counts stored leads per client IP (across instances
	// on PostgreSQL); estimatePosts counts every post, in memory, so a
	// flood of invalid ones stops before it costs renders.
	estimateLimit guard.Attempts
	estimatePosts *guard.Limiter

	// auth signs people in and guards every admin route (web/auth).
	auth *auth.Service
	// estimate takes the native estimate form's posts.
	estimate *estimate.Handler
	// leadsManager is the Secure Leads Manager's HTTP side.
	leadsManager *leadsmanager.Handler
	// indexNow is the IndexNow tab's API.
	indexNow *indexNow
	// hashGate bounds concurrent bcrypt/argon2 comparisons server-wide.
	hashGate *guard.HashGate
	// media files (local folder or S3)
	media storage.Storage
	// uploads is the upload tool's and /media/*'s HTTP side.
	uploads *uploads.Handler

	// secHeaders are the security headers, built once.
	secHeaders http.Header
	// accessLog writes one line per request (ACCESS_LOG).
	accessLog bool
	// bodyLimit is BODY_LIMIT in bytes.
	bodyLimit int64

	// sync shares content changes with the other instances (issue 11).
	sync *contentsync.Syncer
	// purge tells the CDN which pages changed (nil without a CDN).
	purge *cdnpurge.Client
	// pageCC is the Cache-Control of cached public pages.
	pageCC string
	// draining is set on SIGTERM: readiness fails while in-flight
	// requests finish.
	draining atomic.Bool

	nfMu    sync.Mutex
	nfCache map[string]*ssr.Page // specific not-found states, bounded
	nfOrder []string

	// offlineCache holds /offline and /sw.js for one content version.
	offlineCache atomic.Pointer[offlineFiles]
}

// FullHydrationKinds hydrate the whole page (the admin app); public pages
// hydrate only their islands.
var FullHydrationKinds = []string{"admin"}

// PageKinds are the React page kinds outside the route table.
var extraKinds = []string{"not-found", "error"}

// New builds the server: route table, SSR engine, render cache and the
// pre-rendered error pages.
func New(o Options) (*Server, error) {
	s := &Server{cfg: o.Config, log: o.Log, store: o.Store, content: o.Content, engine: o.Engine, nfCache: map[string]*ssr.Page{}, dynamicPages: map[string]echo.HandlerFunc{}}
	s.reviewsClient = reviews.NewClient(o.Config.Reviews)
	s.estimateLimit = s.newLeadAttempts("estimate", EstimatesPerWindow, EstimateWindow)
	s.estimatePosts = guard.NewLimiter(EstimatePostsPerWindow, EstimateWindow)
	s.hashGate = guard.NewHashGate(HashConcurrency, HashWait)
	s.auth = auth.New(o.Store, auth.Config{
		TokenTTL: o.Config.Admin.TokenTTL, Lockout: o.Config.Admin.Lockout, PIN: o.Config.Admin.PIN,
		SecureCookies: strings.HasPrefix(o.Config.BaseURL, "https://"), Issuer: o.Config.Business.Name,
	}, auth.Limits{
		PIN:          s.newAttempts("pin", o.Config.Admin.MaxAttempts, o.Config.Admin.Lockout),
		LoginIP:      s.newAttempts("login-ip", o.Config.Admin.MaxAttempts, o.Config.Admin.Lockout),
		LoginAccount: s.newAttempts("login-account", auth.LoginAttemptsPerAccount, o.Config.Admin.Lockout),
		LoginDevice:  s.newAttempts("login-device", auth.LoginAttemptsPerDevice, o.Config.Admin.Lockout),
		CodeSession:  s.newAttempts("code-session", auth.CodeAttemptsPerSession, o.Config.Admin.Lockout),
		CodeAccount:  s.newAttempts("code-account", auth.CodeAttemptsPerAccount, o.Config.Admin.Lockout),
	}, s.hashGate, o.Log)
	if s.store != nil {
		s.settings = s.overlaySettings
	}
	s.leadsManager = &leadsmanager.Handler{Store: o.Store, Auth: s.auth, Hash: s.hashGate, Log: o.Log}
	if err := s.auth.SetupPIN(context.Background()); err != nil {
		return nil, err
	}
	s.noteFirstAdmin(context.Background())
	// The route table comes first: analytics counts page views of the
	// paths it serves.
	s.routes = publicRoutes()
	s.analytics = s.newAnalytics()
	if err := s.setupLeads(o); err != nil {
		return nil, err
	}
	s.estimate = &estimate.Handler{Leads: s.leads, Limit: s.estimateLimit, Posts: s.estimatePosts,
		Phone:    func(ctx context.Context) string { return s.business(ctx).Phone },
		Recorded: s.recordLead,
		Render: func(ctx context.Context, st *estimate.State) ([]byte, error) {
			return s.renderEstimate(ctx, "/estimate", st)
		},
		Log: o.Log}
	if s.media = o.Storage; s.media == nil {
		m, err := newStorage(o.Config)
		if err != nil {
			return nil, err
		}
		s.media = m
	}
	s.uploads = uploads.New(uploads.Handler{Store: o.Store, Files: s.media, MaxUpload: o.Config.Admin.MaxUpload,
		TempDir: filepath.Join(o.Config.DataDir, "tmp"), Changed: s.Invalidate, NotFound: ErrNotFound, Log: o.Log})
	s.searchShells = newSearchShells()
	s.accessLog = o.Config.AccessLog
	s.pageCC = pageCacheControl(o.Config.CDN.SMaxAge)
	var err error
	if s.bodyLimit, err = gbytes.Parse(o.Config.BodyLimit); err != nil {
		return nil, fmt.Errorf("BODY_LIMIT: %w", err)
	}
	s.secHeaders = s.buildSecurityHeaders()
	if s.engine == nil {
		e, err := ssr.NewEngine(ssr.EngineOptions{
			Root: o.Config.SourceDir, Kinds: s.PageKinds(), FullKinds: FullHydrationKinds, PoolSize: o.Config.PoolSize,
			Timeout: o.Config.RenderTimeout, Dev: o.Config.Dev(), Log: o.Log,
		})
		if err != nil {
			return nil, err
		}
		s.engine = e
	}
	// Warm-up uses every runtime: a live request for a page not yet warm
	// waits for at most one render in progress, never for the warm-up.
	warmers := s.engine.PoolSize()
	keys := s.AllPaths
	if o.NoWarm {
		keys = func() []string { return nil }
	}
	s.cache = ssr.NewCache(s.renderPath, keys, warmers, o.Log)
	s.jobs = s.newJobs()
	s.indexNow = &indexNow{s: s, svc: s.jobs.indexNow}
	s.audits = s.newAudits()
	static, err := loadStatic(filepath.Join(o.Config.SourceDir, "static"))
	if err != nil {
		return nil, err
	}
	s.static = static
	var favicon []byte
	if a := static["/favicon.svg"]; a != nil {
		favicon = a.Body
	}
	s.icons = ssr.IconLinks(favicon)
	if err := s.renderFixed(context.Background()); err != nil && !o.Config.Dev() {
		return nil, err
	}
	s.releaseEngine = s.engine.OnReload(func() { s.Invalidate("bundle rebuilt") })
	if s.store != nil {
		dsn := ""
		if s.store.Dialect() == "postgres" {
			dsn = o.Config.DatabaseURL
		}
		s.sync = contentsync.New(s.store, dsn, s.invalidateLocal, o.Log)
		s.purge = cdnpurge.New(o.Config.CDN.PurgeURL, o.Config.CDN.PurgeToken, o.Log)
		if err := s.sync.Init(context.Background()); err != nil {
			return nil, err
		}
	}
	s.dynamicPages["/search"] = s.serveSearch
	s.echo = s.router()
	return s, nil
}

// Close detaches the server from its engine, whose rebuild hook would
// otherwise keep the server alive as long as the engine. Background jobs
// stop with StopJobs.
func (s *Server) Close() {
	if s.releaseEngine != nil {
		s.releaseEngine()
	}
}

// PageKinds lists every page kind the engine must build.
func (s *Server) PageKinds() []string {
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

// Handler is the server's http.Handler: cached pages first, then echo.
func (s *Server) Handler() http.Handler { return s }

// Engine is the SSR engine.
func (s *Server) Engine() *ssr.Engine { return s.engine }

// Cache is the render cache.
func (s *Server) Cache() *ssr.Cache { return s.cache }

// Warm starts the background warm-up of every public route.
func (s *Server) Warm() { s.cache.Warm() }

// Invalidate drops every rendered page and re-warms in the background,
// and announces the change to the other instances. Uploads, deletes,
// review refreshes and settings saves call it.
func (s *Server) Invalidate(reason string) {
	var before map[string]string
	if s.purge != nil {
		before = s.etags()
	}
	s.invalidateLocal(reason)
	var version int64
	if s.sync != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		version, _ = s.sync.Publish(ctx, reason)
	}
	if s.purge != nil {
		go s.purgeChanged(before, reason, version)
	}
}

// pageCacheControl is what cached public pages send: browsers revalidate
// every time (ETag, 304); with CDN_SMAXAGE a CDN may keep them that long
// and serve a stale copy for a minute while it refetches. The purge hook
// drops changed pages from the CDN at once.
func pageCacheControl(sMaxAge time.Duration) string {
	if sMaxAge <= 0 {
		return "public, max-age=0, must-revalidate"
	}
	return fmt.Sprintf("public, max-age=0, must-revalidate, s-maxage=%d, stale-while-revalidate=60", int(sMaxAge.Seconds()))
}

// etags snapshots the ETag of every cached public page.
func (s *Server) etags() map[string]string {
	out := map[string]string{}
	for _, p := range s.AllPaths() {
		if pg := s.cache.Peek(p); pg != nil {
			out[p] = pg.ETag
		}
	}
	return out
}

// purgeChanged re-reads every public page of the new version (from the
// warm-up under way, or rendering it) and sends the CDN the paths whose
// bytes changed. Only the instance where the change happened calls it.
func (s *Server) purgeChanged(before map[string]string, reason string, version int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var req cdnpurge.Request
	for _, p := range s.AllPaths() {
		r, _, ok := s.routeFor(p)
		if !ok || !r.Indexable {
			continue
		}
		pg, err := s.cache.Get(ctx, p)
		if err != nil {
			continue
		}
		if before[p] != pg.ETag {
			req.Paths = append(req.Paths, p)
			req.URLs = append(req.URLs, s.abs(p))
		}
	}
	if len(req.Paths) == 0 {
		return
	}
	req.Reason, req.Version = reason, version
	s.purge.Purge(ctx, req)
}

// RunSync applies other instances' content changes until ctx ends.
func (s *Server) RunSync(ctx context.Context) {
	if s.sync != nil {
		s.sync.Run(ctx)
	}
}

// Drain makes the readiness check fail (a load balancer stops sending new
// requests) while the server keeps answering; shutdown follows.
func (s *Server) Drain() { s.draining.Store(true) }

// invalidateLocal drops this instance's rendered pages and re-warms.
func (s *Server) invalidateLocal(reason string) {
	if err := s.renderFixed(context.Background()); err != nil {
		s.log.Error("re-render error pages", "err", err)
	}
	s.nfMu.Lock()
	s.nfCache, s.nfOrder = map[string]*ssr.Page{}, nil
	s.nfMu.Unlock()
	s.searchShells.invalidate()
	s.cache.Invalidate(reason)
}

func (s *Server) router() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// Client IPs (rate limits) come from the connection unless the server
	// sits behind a proxy we trust to set X-Forwarded-For.
	e.IPExtractor = echo.ExtractIPDirect()
	if s.cfg.TrustProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	e.HTTPErrorHandler = s.errorHandler
	e.Use(s.requestLog)
	e.Use(middleware.Recover())
	e.Use(s.securityHeaders)
	e.Use(noStore)
	// Uploads and posters stream and have their own caps.
	e.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: s.cfg.BodyLimit,
		Skipper: func(c echo.Context) bool {
			return uploads.IsUploadRequest(c.Request().Method, c.Request().URL.Path)
		}}))
	e.Use(s.textIntake)

	s.install(e)
	return e
}

// getHead registers h for GET and for HEAD. Crawlers, uptime monitors and
// caches ask with HEAD and must get the status and headers a GET would
// get; echo registers GET alone, which left HEAD /robots.txt a 404 and
// HEAD of an asset a 405. net/http drops the body of a HEAD answer, and
// ssr.Serve writes none.
func getHead(e *echo.Echo, path string, h echo.HandlerFunc) {
	e.GET(path, h)
	e.HEAD(path, h)
}

// renderPath renders a route-table path; it is the render cache's
// RenderFunc. Not-found states come back as *NotFoundError, uncached.
func (s *Server) renderPath(ctx context.Context, path string) (*ssr.Page, error) {
	r, p, ok := s.routeFor(path)
	if !ok {
		return nil, ErrNotFound
	}
	pg, err := r.Load(ctx, s, p)
	if err != nil {
		return nil, err
	}
	if !r.Indexable {
		pg.Head.NoIndex = true
	}
	body, err := s.renderDoc(ctx, r.Page, path, pg)
	if err != nil {
		return nil, err
	}
	return ssr.NewPage(http.StatusOK, body).Compact(), nil
}

func (s *Server) renderDoc(ctx context.Context, kind, path string, pg page) ([]byte, error) {
	return s.engine.Render(ctx, kind, s.pageProps(ctx, path, pg), ssr.DocumentOptions{Hydrate: true, Icons: s.icons})
}

// pageProps are the props a page component renders from.
func (s *Server) pageProps(ctx context.Context, path string, pg page) PageProps {
	b, av := s.business(ctx), s.availability(ctx)
	rating := s.reviewFigures(ctx)
	crumbs := []BreadcrumbLink{}
	for _, c := range pg.Head.Crumbs {
		crumbs = append(crumbs, BreadcrumbLink{Name: c.Name, Href: c.Path})
	}
	return PageProps{Head: s.head(b, av, rating, pg.Head), Site: s.siteProps(b, av), Chrome: s.chrome(), Path: path, Breadcrumbs: crumbs, Data: pg.Data}
}

// renderFixed renders the generic 404 and the 500 page. The 500 page is
// kept from boot so it can be served when rendering itself fails.
func (s *Server) renderFixed(ctx context.Context) error {
	nf, err := s.renderNotFound(ctx, &NotFoundError{})
	if err != nil {
		return fmt.Errorf("render 404 page: %w", err)
	}
	body, err := s.renderDoc(ctx, "error", "/500", page{
		Data: map[string]string{"detail": ""},
		Head: headSpec{Title: "Something went wrong", Description: "This page could not be loaded.", Path: "/", NoIndex: true},
	})
	if err != nil {
		return fmt.Errorf("render 500 page: %w", err)
	}
	s.fixedMu.Lock()
	s.notFound = nf
	s.errPage = ssr.NewPage(http.StatusInternalServerError, body)
	s.fixedMu.Unlock()
	return nil
}

func (s *Server) renderNotFound(ctx context.Context, nf *NotFoundError) (*ssr.Page, error) {
	title := "Page Not Found"
	if nf.Title != "" {
		title = nf.Title
	}
	body, err := s.renderDoc(ctx, "not-found", "/404", page{
		Data: map[string]string{"title": nf.Title, "message": nf.Message, "linkHref": nf.LinkHref, "linkText": nf.LinkText},
		Head: headSpec{Title: title + " | 404", Description: "The page you are looking for does not exist.", Path: "/", NoIndex: true},
	})
	if err != nil {
		return nil, err
	}
	return ssr.NewPage(http.StatusNotFound, body), nil
}

// maxNotFoundPages bounds the cache of specific not-found pages: their key
// includes a user-chosen slug, so it must not grow without limit.
const maxNotFoundPages = 256

func (s *Server) notFoundPage(ctx context.Context, nf *NotFoundError) (*ssr.Page, error) {
	if nf.Title == "" {
		s.fixedMu.RLock()
		defer s.fixedMu.RUnlock()
		if s.notFound == nil {
			return nil, errors.New("404 page not rendered")
		}
		return s.notFound, nil
	}
	key := nf.Title + "\x00" + nf.Message
	s.nfMu.Lock()
	p, ok := s.nfCache[key]
	s.nfMu.Unlock()
	if ok {
		return p, nil
	}
	p, err := s.renderNotFound(ctx, nf)
	if err != nil {
		return nil, err
	}
	s.nfMu.Lock()
	if len(s.nfOrder) >= maxNotFoundPages {
		delete(s.nfCache, s.nfOrder[0])
		s.nfOrder = s.nfOrder[1:]
	}
	s.nfCache[key] = p
	s.nfOrder = append(s.nfOrder, key)
	s.nfMu.Unlock()
	return p, nil
}

// HashConcurrency is how many PIN or password hash comparisons run at
// once, server-wide: one, so a burst of guesses uses at most one core and
// the other keeps serving pages. HashWait is how long a sign-in waits for
// its turn before it gets 503.
const (
	HashConcurrency = 1
	HashWait        = 10 * time.Second
)

// Estimate requests stored per client IP per window, and posts of the
// form (valid or not) per client IP per window. Only stored leads count
// toward the first: a visitor who fumbles the form, or an office behind
// one address, is not told to wait. The second is the flood guard: a
// person never sends 30 forms in 10 minutes, and past it every post gets
// the small fixed 429 page instead of a render.
const (
	EstimatesPerWindow     = 5
	EstimatePostsPerWindow = 30
	EstimateWindow         = 10 * time.Minute
)

const htmlType = "text/html; charset=utf-8"

// servePage answers every public page from the render cache.
func (s *Server) servePage(c echo.Context) error {
	r := c.Request()
	path := r.URL.Path
	// No page has an empty segment, a backslash or a control character in
	// its path, and such paths are what turns a same-site redirect into an
	// off-site one (//host, /\host, /%2fhost, /<tab>/host all read as
	// another host to a browser). They are simply not found.
	if !cleanPath(path) {
		return ErrNotFound
	}
	// One trailing-slash policy: none, except the root.
	if path != "/" && strings.HasSuffix(path, "/") {
		return localRedirect(c, strings.TrimSuffix(path, "/"), r.URL.RawQuery)
	}
	if to, ok := redirects[path]; ok {
		return localRedirect(c, to, r.URL.RawQuery)
	}
	if s.cfg.Dev() {
		if err := s.engine.BuildErr(); err != nil {
			return err
		}
	}
	if dyn, ok := s.dynamicPages[path]; ok {
		return dyn(c)
	}
	if _, _, ok := s.routeFor(path); !ok {
		return ErrNotFound
	}
	p, err := s.cache.Get(r.Context(), path)
	if err != nil {
		return err
	}
	ssr.Serve(c.Response(), r, p, htmlType, s.pageCC)
	return nil
}

// cleanPath reports whether a decoded request path is one the site could
// serve: absolute, without empty segments (a single trailing slash
// aside), backslashes or control characters.
func cleanPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.Contains(strings.TrimSuffix(p, "/"), "//") && p != "/" {
		return false
	}
	for i := 0; i < len(p); i++ {
		if b := p[i]; b < 0x20 || b == 0x7f || b == '\\' {
			return false
		}
	}
	return true
}

// localRedirect answers a permanent redirect to a path on this site. The
// target is re-encoded, and refused (404) unless it is a clean absolute
// path, so no redirect can ever leave the site whatever the input's
// encoding.
func localRedirect(c echo.Context, path, rawQuery string) error {
	if path == "" {
		path = "/"
	}
	if !cleanPath(path) || strings.HasPrefix(path, "//") {
		return ErrNotFound
	}
	loc := (&url.URL{Path: path}).EscapedPath()
	if !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") {
		return ErrNotFound
	}
	if q := sanitizeQuery(rawQuery); q != "" {
		loc += "?" + q
	}
	return c.Redirect(http.StatusMovedPermanently, loc)
}

// sanitizeQuery re-encodes a raw query so that it cannot carry control
// characters into the Location header.
func sanitizeQuery(q string) string {
	if q == "" {
		return ""
	}
	v, err := url.ParseQuery(q)
	if err != nil {
		return ""
	}
	return v.Encode()
}

// redirects are permanent moves of earlier or alias routes.
var redirects = map[string]string{}

func (s *Server) serveAsset(c echo.Context) error {
	a := s.engine.Asset(c.Request().URL.Path)
	if a == nil {
		return ErrNotFound
	}
	serveAsset(c, a, "public, max-age=31536000, immutable")
	return nil
}

func (s *Server) serveStatic(c echo.Context) error {
	a := s.static[c.Request().URL.Path]
	if a == nil {
		return ErrNotFound
	}
	serveAsset(c, a, "public, max-age=86400")
	return nil
}

func serveAsset(c echo.Context, a *ssr.Asset, cacheControl string) {
	p := &ssr.Page{Status: http.StatusOK, Body: a.Body, Gzip: a.Gzip, Brotli: a.Brotli, ETag: a.ETag}
	ssr.Serve(c.Response(), c.Request(), p, a.ContentType, cacheControl)
}

// loadStatic reads static/ into memory, pre-compressed, at boot.
func loadStatic(dir string) (map[string]*ssr.Asset, error) {
	out := map[string]*ssr.Asset{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("static files: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		a := ssr.NewAsset(e.Name(), b)
		if strings.HasSuffix(e.Name(), ".webmanifest") {
			a.ContentType = "application/manifest+json"
		}
		out["/"+e.Name()] = a
	}
	return out, nil
}

func (s *Server) healthz(c echo.Context) error {
	warm := s.cache.LastWarm() > 0
	ready := warm && !s.draining.Load()
	c.Response().Header().Set("Cache-Control", "no-store")
	if !s.healthDetailsAllowed(c) {
		// The public answer says up or down, nothing an attacker could
		// time a flood by. Down is "not ready" (warming up, draining):
		// with the database down the site still serves every cached page
		// and spools every lead, so the instance stays in the pool.
		if c.QueryParam("ready") == "1" && !ready {
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "down"})
		}
		return c.JSON(http.StatusOK, map[string]string{"status": "up"})
	}
	status, code := "ok", http.StatusOK
	dbStatus := "ok"
	if s.store != nil {
		ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
		defer cancel()
		if err := s.store.Ping(ctx); err != nil {
			dbStatus, status, code = "unavailable", "degraded", http.StatusServiceUnavailable
		}
	}
	out := map[string]any{
		"status": status, "db": dbStatus, "ready": ready, "draining": s.draining.Load(),
		"cache": map[string]any{"pages": s.cache.Len(), "version": s.cache.Version(), "lastWarmMs": s.cache.LastWarm().Milliseconds(), "warm": warm},
	}
	s.leadHealth(c.Request().Context(), out, dbStatus == "ok")
	if s.sync != nil {
		out["content"] = map[string]any{"version": s.sync.Version(), "shared": s.sync.Shared(), "listening": s.sync.Listening()}
	}
	// ?ready=1 is the load balancer's readiness check: 503 until the
	// first warm-up is done, and from the moment a shutdown begins.
	if c.QueryParam("ready") == "1" && !ready {
		code = http.StatusServiceUnavailable
	}
	return c.JSON(code, out)
}

// healthDetailsAllowed reports whether /healthz may show its details:
// to a monitor with HEALTH_TOKEN as a bearer token, or to a request from
// this machine that no proxy forwarded (a proxy on the same host makes
// every visitor's connection come from loopback, so a forwarding header
// rules it out).
func (s *Server) healthDetailsAllowed(c echo.Context) bool {
	if t := s.cfg.HealthToken; t != "" {
		if got := bearer(c); got != "" {
			return subtle.ConstantTimeCompare([]byte(got), []byte(t)) == 1
		}
	}
	r := c.Request()
	if r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("Forwarded") != "" || r.Header.Get("X-Real-Ip") != "" {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// errorHandler turns every error into a page (or JSON under /api/) with
// the right status. 5xx are logged at error level, 4xx at info.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	r := c.Request()
	status := statusOf(err)
	msg := http.StatusText(status)
	var he *echo.HTTPError
	if errors.As(err, &he) {
		status = he.Code
		msg = fmt.Sprint(he.Message)
	}
	var se *StatusError
	title := ""
	if errors.As(err, &se) {
		msg, title = se.Message, se.Title
	}
	// The request's one log line (requestLog) reports the error.
	if strings.HasPrefix(r.URL.Path, "/api/") {
		body := map[string]string{"error": msg}
		if title != "" {
			body["title"] = title
		}
		c.JSON(status, body)
		return
	}
	if s.cfg.Dev() {
		if berr := s.engine.BuildErr(); berr != nil {
			devError(c, "Build failed", berr)
			return
		}
		if status >= 500 {
			devError(c, "Render failed", err)
			return
		}
	}
	if status == http.StatusNotFound {
		var nf *NotFoundError
		if !errors.As(err, &nf) {
			nf = &NotFoundError{}
		}
		if p, perr := s.notFoundPage(r.Context(), nf); perr == nil {
			ssr.Serve(c.Response(), r, p, htmlType, "no-store")
			return
		}
	}
	if status >= 500 {
		s.fixedMu.RLock()
		p := s.errPage
		s.fixedMu.RUnlock()
		if p != nil {
			ep := *p
			ep.Status = status
			ssr.Serve(c.Response(), r, &ep, htmlType, "no-store")
			return
		}
	}
	c.String(status, msg)
}

// devError shows a build or render error with file and line in the page.
func devError(c echo.Context, title string, err error) {
	c.HTML(http.StatusInternalServerError, "<!doctype html><title>"+title+"</title><body style=\"font-family:monospace;padding:2rem\"><h1>"+title+"</h1><pre style=\"white-space:pre-wrap;background:#111;color:#fca5a5;padding:1rem\">"+html.EscapeString(err.Error())+"</pre><p>Save a file to rebuild.</p></body>")
}
