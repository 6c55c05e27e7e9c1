// Package pages is the HTTP side of the public site: every page of the
// route table served from the render cache, the 404 and 500 pages, search
// results, sitemap.xml and robots.txt, the hashed assets and static
// files, the service worker with its offline page, and the trust
// section's reviews API. Package site builds each page's data; this room
// renders it with the ssr engine, keeps it in the render cache and serves
// it. The routes and their guards are in server/install.go.
package pages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/ssr"
)

// HTMLType is the Content-Type of every page.
const HTMLType = "text/html; charset=utf-8"

// Options are the room's dependencies.
type Options struct {
	Site   *site.Site
	Engine *ssr.Engine
	// StaticDir holds the favicon, icons, Open Graph image and manifest,
	// served as they are.
	StaticDir string
	// Settings are the business facts the offline page shows.
	Settings site.Settings
	// Reviews are the trust section's reviews and their refresh.
	Reviews Reviews
	// PageCC is the Cache-Control of cached public pages.
	PageCC string
	// Dev shows build errors in every page (APP_ENV=development).
	Dev bool
	// NoWarm renders pages on demand only (tests): no background warm-up
	// after boot or invalidation.
	NoWarm bool
	Log    *slog.Logger
}

// Handler renders and serves the public pages.
type Handler struct {
	site     *site.Site
	engine   *ssr.Engine
	cache    *ssr.Cache
	static   map[string]*ssr.Asset
	settings site.Settings
	reviews  Reviews
	// icons are the head's icon links, the favicon inlined (ADR 018).
	icons  string
	pageCC string
	dev    bool
	log    *slog.Logger

	fixedMu  sync.RWMutex
	notFound *ssr.Page // the generic 404, rendered per content version
	errPage  *ssr.Page // the 500 page, rendered at boot

	nfMu    sync.Mutex
	nfCache map[string]*ssr.Page // specific not-found states, bounded
	nfOrder []string

	search *searchShells
	// offlineCache holds /offline and /sw.js for one content version.
	offlineCache atomic.Pointer[offlineFiles]
	// reviewsUnconfigured logs once that the refresh is not configured.
	reviewsUnconfigured sync.Once
}

// New builds the room: the render cache over the route table, the static
// files, and the pre-rendered 404 and 500 pages. The cache is not warmed
// until Cache().Warm().
func New(o Options) (*Handler, error) {
	h := &Handler{site: o.Site, engine: o.Engine, settings: o.Settings, reviews: o.Reviews, pageCC: o.PageCC, dev: o.Dev, log: o.Log,
		nfCache: map[string]*ssr.Page{}, search: newSearchShells()}
	// Warm-up uses every runtime: a live request for a page not yet warm
	// waits for at most one render in progress, never for the warm-up.
	keys := o.Site.AllPaths
	if o.NoWarm {
		keys = func() []string { return nil }
	}
	h.cache = ssr.NewCache(h.Render, keys, o.Engine.PoolSize(), o.Log)
	static, err := loadStatic(o.StaticDir)
	if err != nil {
		return nil, err
	}
	h.static = static
	var favicon []byte
	if a := static["/favicon.svg"]; a != nil {
		favicon = a.Body
	}
	h.icons = ssr.IconLinks(favicon)
	if err := h.renderFixed(context.Background()); err != nil && !o.Dev {
		return nil, err
	}
	return h, nil
}

// Cache is the render cache.
func (h *Handler) Cache() *ssr.Cache { return h.cache }

// SearchStats are the search pacer's counts: searches waiting for their
// turn, running, and refused with a 503 (/metrics).
func (h *Handler) SearchStats() guard.PacerStats { return h.search.gate.Stats() }

// StaticPaths are the paths of the static files.
func (h *Handler) StaticPaths() []string {
	out := make([]string, 0, len(h.static))
	for p := range h.static {
		out = append(out, p)
	}
	return out
}

// InvalidateLocal drops every page this instance rendered (a rebuilt
// client bundle changes them all): the 404 and 500 pages are re-rendered
// at once, the rest re-warmed in the background.
func (h *Handler) InvalidateLocal(reason string) {
	h.dropFixed()
	h.cache.Invalidate(reason)
}

// RefreshLocal re-renders exactly the pages whose props changed (an
// upload, a settings save, a publish): every path of the table is loaded
// again, and a cached page whose kind and props hash the same is kept.
// The chrome and the business facts are in every page's props, so a
// change to them re-renders every page.
func (h *Handler) RefreshLocal(reason string) {
	h.dropFixed()
	v := h.site.Snapshot()
	ctx := context.Background()
	h.cache.Refresh(reason, func(path string, p *ssr.Page) bool {
		kind, props, err := h.props(ctx, v, path)
		return err == nil && p.Tag != "" && tag(kind, props) == p.Tag
	})
}

// dropFixed re-renders the 404 and 500 pages and drops the search shell
// and the specific not-found pages, which read the chrome and settings.
func (h *Handler) dropFixed() {
	if err := h.renderFixed(context.Background()); err != nil {
		h.log.Error("re-render error pages", "err", err)
	}
	h.nfMu.Lock()
	h.nfCache, h.nfOrder = map[string]*ssr.Page{}, nil
	h.nfMu.Unlock()
	h.search.invalidate()
}

// Render renders a route-table path; it is the render cache's RenderFunc.
// Not-found states come back as *site.NotFoundError, uncached. The page's
// tag is a hash of its kind and props: RefreshLocal keeps it while they
// do not change.
func (h *Handler) Render(ctx context.Context, path string) (*ssr.Page, error) {
	kind, props, err := h.props(ctx, h.site.Snapshot(), path)
	if err != nil {
		return nil, err
	}
	body, err := h.engine.RenderJSON(ctx, kind, props, h.docOptions(kind))
	if err != nil {
		return nil, err
	}
	p := ssr.NewPage(http.StatusOK, body).Compact()
	p.Tag = tag(kind, props)
	return p, nil
}

// props loads a path on one version of the content and serialises its
// props as the page receives them.
func (h *Handler) props(ctx context.Context, v *site.Site, path string) (string, []byte, error) {
	r, pg, err := v.Load(ctx, path)
	if err != nil {
		return "", nil, err
	}
	data, err := ssr.MarshalProps(v.Props(ctx, path, pg))
	if err != nil {
		return "", nil, fmt.Errorf("props of %s: %w", path, err)
	}
	return r.Page, data, nil
}

func tag(kind string, props []byte) string {
	sum := sha256.Sum256(append([]byte(kind+"\x00"), props...))
	return hex.EncodeToString(sum[:16])
}

// docOptions are a page kind's document options. Admin pages link the
// admin app's own manifest (site.AdminManifestPath), so the admin
// installs as an app of its own, apart from the public site.
func (h *Handler) docOptions(kind string) ssr.DocumentOptions {
	if kind == "admin" {
		return ssr.DocumentOptions{Hydrate: true, Icons: strings.Replace(h.icons, `href="/site.webmanifest"`, `href="`+site.AdminManifestPath+`"`, 1)}
	}
	return ssr.DocumentOptions{Hydrate: true, Icons: h.icons}
}

// RenderDoc renders a page's document, neither cached nor compressed.
func (h *Handler) RenderDoc(ctx context.Context, kind, path string, pg site.Page) ([]byte, error) {
	return h.engine.Render(ctx, kind, h.site.Props(ctx, path, pg), h.docOptions(kind))
}

// Preview renders path as it would be with content c: a draft's real
// render in the real layout, noindex, never cached.
func (h *Handler) Preview(ctx context.Context, c *content.Set, path string) ([]byte, error) {
	v := h.site.With(c)
	r, pg, err := v.Load(ctx, path)
	if err != nil {
		return nil, err
	}
	pg.Head.NoIndex = true
	data, err := ssr.MarshalProps(v.Props(ctx, path, pg))
	if err != nil {
		return nil, err
	}
	return h.engine.RenderJSON(ctx, r.Page, data, h.docOptions(r.Page))
}

// RenderEstimate renders the estimate page with the form's state: the
// answer to a post without JavaScript (web/estimate). It is never cached
// and never indexed.
func (h *Handler) RenderEstimate(ctx context.Context, path string, st *leads.EstimateState) ([]byte, error) {
	pg := h.site.EstimatePage(path, st)
	pg.Head.NoIndex = true
	return h.RenderDoc(ctx, "estimate", path, pg)
}

// renderFixed renders the generic 404 and the 500 page. The 500 page is
// kept from boot so it can be served when rendering itself fails.
func (h *Handler) renderFixed(ctx context.Context) error {
	nf, err := h.renderNotFound(ctx, &site.NotFoundError{})
	if err != nil {
		return fmt.Errorf("render 404 page: %w", err)
	}
	body, err := h.RenderDoc(ctx, "error", "/500", site.ErrorPage())
	if err != nil {
		return fmt.Errorf("render 500 page: %w", err)
	}
	h.fixedMu.Lock()
	h.notFound = nf
	h.errPage = ssr.NewPage(http.StatusInternalServerError, body)
	h.fixedMu.Unlock()
	return nil
}

func (h *Handler) renderNotFound(ctx context.Context, nf *site.NotFoundError) (*ssr.Page, error) {
	body, err := h.RenderDoc(ctx, "not-found", "/404", site.NotFoundPage(nf))
	if err != nil {
		return nil, err
	}
	return ssr.NewPage(http.StatusNotFound, body), nil
}

// maxNotFoundPages bounds the cache of specific not-found pages: their key
// includes a user-chosen slug, so it must not grow without limit.
const maxNotFoundPages = 256

// NotFoundPage is the 404 page of a not-found state.
func (h *Handler) NotFoundPage(ctx context.Context, nf *site.NotFoundError) (*ssr.Page, error) {
	if nf.Title == "" {
		h.fixedMu.RLock()
		defer h.fixedMu.RUnlock()
		if h.notFound == nil {
			return nil, errors.New("404 page not rendered")
		}
		return h.notFound, nil
	}
	key := nf.Title + "\x00" + nf.Message
	h.nfMu.Lock()
	p, ok := h.nfCache[key]
	h.nfMu.Unlock()
	if ok {
		return p, nil
	}
	p, err := h.renderNotFound(ctx, nf)
	if err != nil {
		return nil, err
	}
	h.nfMu.Lock()
	if len(h.nfOrder) >= maxNotFoundPages {
		delete(h.nfCache, h.nfOrder[0])
		h.nfOrder = h.nfOrder[1:]
	}
	h.nfCache[key] = p
	h.nfOrder = append(h.nfOrder, key)
	h.nfMu.Unlock()
	return p, nil
}

// ErrorPage is the 500 page rendered at boot (nil if that failed).
func (h *Handler) ErrorPage() *ssr.Page {
	h.fixedMu.RLock()
	defer h.fixedMu.RUnlock()
	return h.errPage
}

// BuildErr is the failed rebuild of development mode, if any.
func (h *Handler) BuildErr() error { return h.engine.BuildErr() }

// Page answers every public page from the render cache.
func (h *Handler) Page(c echo.Context) error {
	r := c.Request()
	path := r.URL.Path
	// No page has an empty segment, a backslash or a control character in
	// its path, and such paths are what turns a same-site redirect into an
	// off-site one (//host, /\host, /%2fhost, /<tab>/host all read as
	// another host to a browser). They are simply not found.
	if !cleanPath(path) {
		return site.ErrNotFound
	}
	// One trailing-slash policy: none, except the root.
	if path != "/" && strings.HasSuffix(path, "/") {
		return localRedirect(c, strings.TrimSuffix(path, "/"), r.URL.RawQuery)
	}
	if to, ok := h.site.Redirect(path); ok {
		return localRedirect(c, to, r.URL.RawQuery)
	}
	if h.dev {
		if err := h.engine.BuildErr(); err != nil {
			return err
		}
	}
	if path == site.SearchPath {
		return h.serveSearch(c)
	}
	if _, _, ok := h.site.Lookup(path); !ok {
		return site.ErrNotFound
	}
	p, err := h.cache.Get(r.Context(), path)
	if err != nil {
		return err
	}
	ssr.Serve(c.Response(), r, p, HTMLType, CacheControl(path, h.pageCC))
	return nil
}

// AdminCC is the admin app's document's Cache-Control. The document is
// the same for everyone, but no CDN or caching proxy may keep it (the
// admin is never cached in front of the site, ADR 068); the browser
// revalidates it every time (ETag, 304).
const AdminCC = "private, no-cache"

// CacheControl is what a route-table page at path sends: AdminCC for the
// admin's, public (the page Cache-Control) for every other.
func CacheControl(path, public string) string {
	if strings.HasPrefix(path, "/admin") && (len(path) == len("/admin") || path[len("/admin")] == '/') {
		return AdminCC
	}
	return public
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
		return site.ErrNotFound
	}
	loc := (&url.URL{Path: path}).EscapedPath()
	if !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") {
		return site.ErrNotFound
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

// Asset answers a hashed client bundle (immutable for a year).
func (h *Handler) Asset(c echo.Context) error {
	a := h.engine.Asset(c.Request().URL.Path)
	if a == nil {
		return site.ErrNotFound
	}
	serveAsset(c, a, "public, max-age=31536000, immutable")
	return nil
}

// Static answers a file of static/.
func (h *Handler) Static(c echo.Context) error {
	a := h.static[c.Request().URL.Path]
	if a == nil {
		return site.ErrNotFound
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

// Sitemap answers sitemap.xml, generated once per content version.
func (h *Handler) Sitemap() echo.HandlerFunc {
	return h.generated("application/xml; charset=utf-8", h.site.SitemapXML)
}

// Robots answers robots.txt, generated once per content version.
func (h *Handler) Robots() echo.HandlerFunc {
	return h.generated("text/plain; charset=utf-8", h.site.RobotsTxt)
}

// generated serves a file generated from the route table, compressed once
// per content version.
func (h *Handler) generated(contentType string, gen func() []byte) echo.HandlerFunc {
	var (
		mu      sync.Mutex
		version uint64
		cached  *ssr.Page
	)
	return func(c echo.Context) error {
		v := h.cache.Version()
		mu.Lock()
		if cached == nil || version != v {
			cached, version = ssr.NewPage(http.StatusOK, gen()), v
		}
		p := cached
		mu.Unlock()
		ssr.Serve(c.Response(), c.Request(), p, contentType, "public, max-age=3600")
		return nil
	}
}
