// Package server is the HTTP side of the site: the echo router, the route
// table, the page loaders, middleware and the JSON APIs. Public pages are
// rendered by the ssr engine and served from its render cache.
package server

import (
	"context"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/storage"
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
}

// Server holds the handlers' dependencies.
type Server struct {
	cfg     *config.Config
	log     *slog.Logger
	store   *db.Store
	content *content.Site
	engine  *ssr.Engine
	cache   *ssr.Cache
	routes  []Route
	echo    *echo.Echo
	static  map[string]*ssr.Asset

	// settings overlays saved System Settings on the configured business
	// facts; nil until the admin settings store is wired.
	settings func(context.Context, config.Business) config.Business

	fixedMu  sync.RWMutex
	notFound *ssr.Page // the generic 404, rendered per content version
	errPage  *ssr.Page // the 500 page, rendered at boot

	// dynamicPages answer paths that are rendered per request (search
	// results) rather than served from the cache.
	dynamicPages map[string]echo.HandlerFunc

	reviewsClient *ReviewsClient

	searchOnce    sync.Once
	searchDocs    []searchDoc
	estimateLimit *RateLimiter

	// admin gate
	pinHash  []byte
	pinLimit *RateLimiter
	// media files (local folder or S3)
	media storage.Storage
	// imageSem lets one photo be decoded at a time.
	imageSem chan struct{}

	// secHeaders are the security headers, built once.
	secHeaders http.Header
	// accessLog writes one line per request (ACCESS_LOG).
	accessLog bool

	nfMu    sync.Mutex
	nfCache map[string]*ssr.Page // specific not-found states, bounded
	nfOrder []string
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
	s.reviewsClient = NewReviewsClient(o.Config.Reviews)
	s.estimateLimit = NewRateLimiter(EstimatesPerWindow, EstimateWindow)
	s.pinLimit = NewRateLimiter(o.Config.Admin.MaxAttempts, o.Config.Admin.Lockout)
	s.imageSem = make(chan struct{}, 1)
	if s.store != nil {
		s.settings = s.overlaySettings
	}
	if err := s.setupPIN(context.Background()); err != nil {
		return nil, err
	}
	if s.media = o.Storage; s.media == nil {
		m, err := newStorage(o.Config)
		if err != nil {
			return nil, err
		}
		s.media = m
	}
	s.routes = publicRoutes()
	s.accessLog = o.Config.AccessLog
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
	static, err := loadStatic(filepath.Join(o.Config.SourceDir, "static"))
	if err != nil {
		return nil, err
	}
	s.static = static
	if err := s.renderFixed(context.Background()); err != nil && !o.Config.Dev() {
		return nil, err
	}
	s.engine.OnReload(func() { s.Invalidate("bundle rebuilt") })
	s.dynamicPages["/search"] = s.serveSearch
	s.echo = s.router()
	return s, nil
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

// Invalidate drops every rendered page and re-warms in the background.
// Uploads, review refreshes and settings changes call it.
func (s *Server) Invalidate(reason string) {
	if err := s.renderFixed(context.Background()); err != nil {
		s.log.Error("re-render error pages", "err", err)
	}
	s.nfMu.Lock()
	s.nfCache, s.nfOrder = map[string]*ssr.Page{}, nil
	s.nfMu.Unlock()
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
	// Uploads stream and have their own cap (MAX_UPLOAD_BYTES).
	e.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: s.cfg.BodyLimit,
		Skipper: func(c echo.Context) bool {
			return c.Path() == "/api/admin/media" && c.Request().Method == http.MethodPost
		}}))

	// Operations
	e.GET("/healthz", s.healthz)

	// Crawlers: generated from the route table
	e.GET("/sitemap.xml", s.serveGenerated("application/xml; charset=utf-8", s.SitemapXML))
	e.GET("/robots.txt", s.serveGenerated("text/plain; charset=utf-8", s.RobotsTxt))

	// Hashed client assets and static files
	e.GET("/assets/*", s.serveAsset)
	for name := range s.static {
		e.GET(name, s.serveStatic)
	}

	// Native estimate form (no JavaScript: /estimate; inline: /api/estimate)
	e.POST("/estimate", s.postEstimate)
	e.POST("/api/estimate", s.postEstimate)

	// Admin API (token-gated) and stored media
	s.adminAPI(e)
	e.GET("/media/*", s.serveMedia)
	e.HEAD("/media/*", s.serveMedia)

	// Public JSON APIs
	e.GET("/api/reviews", s.apiReviews)
	e.POST("/api/reviews/refresh", s.apiRefreshReviews)

	// Every public page: the route table decides.
	e.GET("/*", s.servePage)
	e.HEAD("/*", s.servePage)
	return e
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
	b := s.business(ctx)
	crumbs := []BreadcrumbLink{}
	for _, c := range pg.Head.Crumbs {
		crumbs = append(crumbs, BreadcrumbLink{Name: c.Name, Href: c.Path})
	}
	props := PageProps{Head: s.head(b, pg.Head), Site: s.siteProps(b), Chrome: s.chrome(), Path: path, Breadcrumbs: crumbs, Data: pg.Data}
	return s.engine.Render(ctx, kind, props, ssr.DocumentOptions{Hydrate: true})
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

// Estimate submissions allowed per client IP per window.
const (
	EstimatesPerWindow = 5
	EstimateWindow     = 10 * time.Minute
)

const htmlType = "text/html; charset=utf-8"

// servePage answers every public page from the render cache.
func (s *Server) servePage(c echo.Context) error {
	r := c.Request()
	path := r.URL.Path
	// One trailing-slash policy: none, except the root.
	if path != "/" && strings.HasSuffix(path, "/") {
		return c.Redirect(http.StatusMovedPermanently, withQuery(strings.TrimRight(path, "/"), r.URL.RawQuery))
	}
	if to, ok := redirects[path]; ok {
		return c.Redirect(http.StatusMovedPermanently, withQuery(to, r.URL.RawQuery))
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
	ssr.Serve(c.Response(), r, p, htmlType, "public, max-age=0, must-revalidate")
	return nil
}

func withQuery(path, q string) string {
	if q == "" {
		return path
	}
	return path + "?" + q
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
	status, code := "ok", http.StatusOK
	dbStatus := "ok"
	if s.store != nil {
		ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
		defer cancel()
		if err := s.store.Ping(ctx); err != nil {
			dbStatus, status, code = "unavailable", "degraded", http.StatusServiceUnavailable
		}
	}
	return c.JSON(code, map[string]any{
		"status": status, "db": dbStatus,
		"cache": map[string]any{"pages": s.cache.Len(), "version": s.cache.Version(), "lastWarmMs": s.cache.LastWarm().Milliseconds()},
	})
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
	if errors.As(err, &se) {
		msg = se.Message
	}
	if status >= 500 {
		s.log.Error("request failed", slog.Group("req", "method", r.Method, "path", r.URL.Path), "status", status, "err", err)
	} else {
		s.log.Info("request rejected", slog.Group("req", "method", r.Method, "path", r.URL.Path), "status", status, "err", err)
	}
	if strings.HasPrefix(r.URL.Path, "/api/") {
		c.JSON(status, map[string]string{"error": msg})
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
