// Package server builds the application and is its HTTP edge: New wires
// every service and HTTP room together, install.go lists every route with
// its guard, and the middleware, the connection limits, the request log,
// the one error handler and /healthz live here. Cached public pages are
// answered before any routing (fast.go). The rooms themselves are under
// web/, the public site's data under site/, the rules in the domain
// packages.
package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	gbytes "github.com/labstack/gommon/bytes"

	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/cdnpurge"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/contentsync"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/editor"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/metrics"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/retention"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/spool"
	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/storage"
	analyticsweb "github.com/atlanta-restoration/site/web/analytics"
	"github.com/atlanta-restoration/site/web/audits"
	"github.com/atlanta-restoration/site/web/auth"
	backupsweb "github.com/atlanta-restoration/site/web/backups"
	"github.com/atlanta-restoration/site/web/dashboard"
	editorweb "github.com/atlanta-restoration/site/web/editor"
	"github.com/atlanta-restoration/site/web/estimate"
	indexnowweb "github.com/atlanta-restoration/site/web/indexnow"
	leadsweb "github.com/atlanta-restoration/site/web/leads"
	"github.com/atlanta-restoration/site/web/leadstream"
	mediaweb "github.com/atlanta-restoration/site/web/media"
	"github.com/atlanta-restoration/site/web/pages"
	"github.com/atlanta-restoration/site/web/push"
	settingsweb "github.com/atlanta-restoration/site/web/settings"
)

// Options are the server's dependencies.
type Options struct {
	Config  *config.Config
	Log     *slog.Logger
	Store   *db.Store
	Content *content.Set
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
	// Build is the running build's version and commit (site version,
	// /metrics, backups' manifests).
	Build Build
}

// Build names a build of the site.
type Build struct {
	Version, Commit string
}

// Server is the application: its services, its rooms and its router.
type Server struct {
	cfg    *config.Config
	log    *slog.Logger
	store  *db.Store
	engine *ssr.Engine
	// releaseEngine removes the server's rebuild hook and render observer
	// from the engine (Close).
	releaseEngine func()
	echo          *echo.Echo

	// site builds the public pages' data; editor edits their content
	// and notFound counts the 404s its monitor lists.
	site     *site.Site
	editor   *editor.Service
	notFound *editor.NotFoundLog
	// rooms are the HTTP rooms the routes lead to (install.go).
	rooms
	// settings are System Settings; reviews the trust section's reviews.
	settings *settings.Service
	reviews  *reviews.Service
	// jobs is the background work: IndexNow, health monitor, reviews.
	jobs *jobSet

	// leads takes estimate submissions; notifier announces new leads.
	leads    *spool.Intake
	notifier *notify.Notifier

	// secHeaders are the security headers, built once.
	secHeaders http.Header
	// accessLog writes one line per request (ACCESS_LOG).
	accessLog bool
	// bodyLimit is BODY_LIMIT in bytes.
	bodyLimit int64

	// sync shares content changes with the other instances (issue 11).
	sync *contentsync.Syncer
	// liveHub and leadStream are the leads screens' live stream (issue
	// 29); releaseLive detaches the hub from the store.
	liveHub     *leadstream.Hub
	leadStream  *leadstream.Handler
	releaseLive func()
	// purge tells the CDN which pages changed (nil without a CDN).
	purge *cdnpurge.Client
	// pageCC is the Cache-Control of cached public pages.
	pageCC string
	// draining is set on SIGTERM: readiness fails while in-flight
	// requests finish.
	draining atomic.Bool

	// Operations (issue 24): request ids, /metrics, backups and the
	// retention job (jobs.go).
	ids       idMinter
	metrics   *metrics.Metrics
	backups   *backup.Service
	retention *retention.Service
}

// New builds the application: every service and room, wired together,
// and the router with every route (install.go).
func New(o Options) (*Server, error) {
	s := &Server{cfg: o.Config, log: o.Log, store: o.Store, engine: o.Engine}
	// Admin sign-in: one session model, the PIN and accounts (web/auth).
	hashGate := guard.NewHashGate(HashConcurrency, HashWait)
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
	}, hashGate, o.Log)
	s.leadsRoom = &leadsweb.Handler{Store: o.Store, Auth: s.auth, Hash: hashGate, Log: o.Log}
	// The leads screens' live stream (issue 29, ADR 041): this process's
	// lead changes from the store's hooks, the others' by LISTEN (RunLive).
	s.liveHub = leadstream.NewHub(o.Store.Origin(), o.Log)
	s.releaseLive = o.Store.OnLeadChange(s.liveHub.Publish)
	s.leadStream = &leadstream.Handler{Hub: s.liveHub, Sessions: o.Store, Log: o.Log}
	if err := s.auth.SetupPIN(context.Background()); err != nil {
		return nil, err
	}
	s.noteFirstAdmin(context.Background())

	// The public site: its content is the database's once the site runs
	// (the embedded files seed an empty one, issue 22); settings, reviews
	// and media feed every page.
	s.editor = &editor.Service{Store: contentdb.New(o.Store), Audit: o.Store, Changed: s.contentChanged,
		Paths: func() []string { return s.site.AllPaths() }, Photo: s.isPhoto, NotFoundKeep: o.Config.Retention.NotFoundDays, Log: o.Log}
	s.notFound = &editor.NotFoundLog{Store: contentdb.New(o.Store)}
	if _, err := s.editor.Seed(context.Background(), o.Content); err != nil {
		return nil, fmt.Errorf("seed content: %w", err)
	}
	live, moved, err := s.loadContent(context.Background())
	if err != nil {
		return nil, err
	}
	s.settings = &settings.Service{Store: o.Store, Defaults: o.Config.Business, BaseURL: o.Config.BaseURL, Log: o.Log}
	s.reviews = &reviews.Service{Client: reviews.NewClient(o.Config.Reviews), Store: o.Store, Owner: s.settings.Owner, Changed: s.Changed, Log: o.Log}
	// The privacy page states the retention the job enforces (issue 24).
	kept := retention.Items(o.Config.Retention, retention.Backups{})
	if o.Config.Backup.Every > 0 {
		kept = retention.Items(o.Config.Retention, retention.Backups{KeepDaily: o.Config.Backup.KeepDaily, KeepWeekly: o.Config.Backup.KeepWeekly})
	}
	s.site = site.New(site.Options{BaseURL: o.Config.BaseURL, Content: live, Redirects: moved, Settings: s.settings, Reviews: s.reviews, Media: o.Store,
		Retention: kept, Log: o.Log})
	if s.engine == nil {
		e, err := ssr.NewEngine(ssr.EngineOptions{
			Root: o.Config.SourceDir, Kinds: site.PageKinds(), FullKinds: site.FullHydrationKinds, PoolSize: o.Config.PoolSize,
			Timeout: o.Config.RenderTimeout, Dev: o.Config.Dev(), Log: o.Log,
		})
		if err != nil {
			return nil, err
		}
		s.engine = e
	}
	s.pageCC = pageCacheControl(o.Config.CDN.SMaxAge)
	if s.pages, err = pages.New(pages.Options{Site: s.site, Engine: s.engine, StaticDir: filepath.Join(o.Config.SourceDir, "static"),
		Settings: s.settings, Reviews: s.reviews, PageCC: s.pageCC, Dev: o.Config.Dev(), NoWarm: o.NoWarm, Log: o.Log}); err != nil {
		return nil, err
	}

	// Lead intake: the estimate form, the spool and the notifier.
	s.analyticsRoom = analyticsweb.New(analyticsweb.Options{Store: o.Store, Site: s.site, Log: o.Log})
	if err := s.setupLeads(o); err != nil {
		return nil, err
	}
	s.estimate = &estimate.Handler{Leads: s.leads, Limit: s.newLeadAttempts("estimate", EstimatesPerWindow, EstimateWindow),
		Posts:    guard.NewLimiter(EstimatePostsPerWindow, EstimateWindow),
		Phone:    func(ctx context.Context) string { return s.settings.Business(ctx).Phone },
		Recorded: s.analyticsRoom.RecordLead,
		Render: func(ctx context.Context, st *leads.EstimateState) ([]byte, error) {
			return s.pages.RenderEstimate(ctx, "/estimate", st)
		},
		Log: o.Log}
	// Media and settings: both re-render the pages that show them.
	files := o.Storage
	if files == nil {
		if files, err = newStorage(o.Config); err != nil {
			return nil, err
		}
	}
	s.mediaRoom = mediaweb.New(mediaweb.Handler{Store: o.Store, Files: files, MaxUpload: o.Config.Admin.MaxUpload,
		TempDir: filepath.Join(o.Config.DataDir, "tmp"), Changed: s.Changed, NotFound: site.ErrNotFound, Log: o.Log})
	s.settingsRoom = &settingsweb.Handler{Settings: s.settings, Reviews: s.reviews, Pages: s.servedPages, Audit: o.Store, Changed: s.Changed, Log: o.Log}
	// Backups and retention (issue 24): the jobs are in jobs.go, the
	// status on the dashboard, /healthz and /metrics.
	target, err := backup.Open(o.Config.Backup.To, o.Config.Storage)
	if err != nil {
		return nil, err
	}
	s.backups = backup.New(backup.Options{Store: o.Store, DatabaseURL: o.Config.DatabaseURL, DataDir: o.Config.DataDir, Media: files, Target: target,
		PGBinDir: o.Config.Backup.PGBinDir, KeepDaily: o.Config.Backup.KeepDaily, KeepWeekly: o.Config.Backup.KeepWeekly,
		Every: o.Config.Backup.Every, MaxAge: o.Config.Backup.MaxAge, Version: o.Build.Version, Log: o.Log, Locker: s.instanceLocker()})
	s.backupsRoom = &backupsweb.Handler{Backups: s.backups, Store: o.Store, Log: o.Log}
	s.retention = &retention.Service{Policy: o.Config.Retention, Store: o.Store, PruneNotFound: s.editor.PruneNotFound}
	s.editor.Render = s.pages.Preview // a page that cannot render is never published
	s.editorRoom = editorweb.New(editorweb.Handler{Editor: s.editor, Render: s.pages.Preview, BaseURL: o.Config.BaseURL, Log: o.Log})
	// The HTTP edge.
	s.accessLog = o.Config.AccessLog
	if s.bodyLimit, err = gbytes.Parse(o.Config.BodyLimit); err != nil {
		return nil, fmt.Errorf("BODY_LIMIT: %w", err)
	}
	s.secHeaders = s.buildSecurityHeaders()
	// Background jobs and the admin tools that read them.
	s.jobs = s.newJobs()
	s.indexnowRoom = &indexnowweb.Handler{Store: o.Store, Site: s.site, IndexNow: s.jobs.indexNow, Jobs: s.jobs.runner, HealthJob: jobHealth,
		HealthInterval: o.Config.HealthInterval, Monitoring: s.settings.Toggle(func(st settings.Settings) bool { return st.SEOMonitoring }), Log: o.Log}
	s.audits = &audits.Handler{Store: o.Store, Site: s.site, SEO: s.jobs.seo, Checker: s.jobs.schema, Fetch: s.fetchPage, Running: s.runningSecurity(),
		ScanEvery: SecurityScanEvery, Backups: s.backups, Jobs: audits.Jobs{Runner: s.jobs.runner, SEOAudit: jobSEOAudit, Security: jobSecurity, Schema: jobSchema}, Log: o.Log}
	s.dashboard = &dashboard.Handler{Store: o.Store, Site: s.site, Notifier: s.notifier, Spool: s.leads, Backups: s.backups, JobTitles: jobTitles,
		More: o.Store, IndexNow: s.indexNowState(), PushDevices: func(ctx context.Context) (int, error) {
			devices, err := o.Store.PushRecipients(ctx)
			return len(devices), err
		}}

	// Speed to lead (issue 23, ADR 034). The notifier's channels,
	// acknowledgement included, are NotifyConfig's. Here: the estimate
	// form keeps where each lead came from (checked against this host);
	// the leads manager works leads (notes, assignment, timeline, first
	// response: web/leads); devices subscribe to Web Push with the
	// key the notifier signs with, and the admin app's manifest and
	// service worker are served (web/push). The escalation job is in
	// jobs.go, the routes in install.go.
	if u, err := url.Parse(o.Config.BaseURL); err == nil {
		s.estimate.SiteHost = u.Hostname()
	}
	s.push = &push.Handler{Store: o.Store, Name: func(ctx context.Context) string { return s.settings.Business(ctx).Name }, Log: o.Log}
	if p := s.notifier.PushChannel(); p != nil {
		s.push.Push = p
	}
	// Content changes: a rebuilt bundle, and other instances' changes.
	releaseReload := s.engine.OnReload(func() { s.pages.InvalidateLocal("bundle rebuilt") })
	dsn := ""
	if s.store.Dialect() == "postgres" {
		dsn = o.Config.DatabaseURL
	}
	s.sync = contentsync.New(s.store, dsn, s.applyRemote, o.Log)
	s.purge = cdnpurge.New(o.Config.CDN.PurgeURL, o.Config.CDN.PurgeToken, o.Log)
	if err := s.sync.Init(context.Background()); err != nil {
		releaseReload()
		return nil, err
	}
	// Metrics last: they read every service above.
	s.metrics = s.newMetrics(o)
	releaseRender := s.engine.OnRender(s.metrics.ObserveRender)
	s.releaseEngine = func() { releaseReload(); releaseRender() }
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
	// A backup started from the admin is cancelled and cleaned up.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.backups.Stop(ctx); err != nil {
		s.log.Error("backup not stopped", "err", err)
	}
	if s.releaseLive != nil {
		s.releaseLive()
	}
}

// Handler is the server's http.Handler: cached pages first, then echo.
func (s *Server) Handler() http.Handler { return s }

// Engine is the SSR engine.
func (s *Server) Engine() *ssr.Engine { return s.engine }

// Cache is the render cache.
func (s *Server) Cache() *ssr.Cache { return s.pages.Cache() }

// Site is the public site's route table and loaders.
func (s *Server) Site() *site.Site { return s.site }

// Warm starts the background warm-up of every public route.
func (s *Server) Warm() { s.pages.Cache().Warm() }

// Changed re-renders the pages a change touched (an upload, a delete, a
// review refresh, a settings save), tells the other instances through
// the content version, and purges the pages whose bytes changed from the
// CDN. Only pages whose props changed are rendered again
// (pages.RefreshLocal).
func (s *Server) Changed(reason string) {
	var before map[string]string
	if s.purge != nil {
		before = s.etags()
	}
	s.pages.RefreshLocal(reason)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	version, _ := s.sync.Publish(ctx, reason)
	if s.purge != nil {
		go s.purgeChanged(before, reason, version)
	}
}

// servedPages are the indexable public pages as the render cache serves
// them (rendered on a miss): where System Settings counts the phone
// numbers (ADR 039).
func (s *Server) servedPages(ctx context.Context) ([]settings.RenderedPage, error) {
	var out []settings.RenderedPage
	for _, path := range s.site.IndexablePaths() {
		r, _, ok := s.site.Lookup(path)
		if !ok {
			continue
		}
		p, err := s.pages.Cache().Get(ctx, path)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue // a page that cannot render shows no number
		}
		body := p.Body
		if body == nil && p.Gzip != nil { // a compacted page keeps only its gzip
			zr, err := gzip.NewReader(bytes.NewReader(p.Gzip))
			if err != nil {
				continue
			}
			body, err = io.ReadAll(zr)
			if err != nil {
				continue
			}
		}
		out = append(out, settings.RenderedPage{Path: path, Kind: settings.KindName(r.Page), HTML: body})
	}
	return out, nil
}

// isPhoto reports whether a media item is a stored photo (a hero or a
// cover must be one).
func (s *Server) isPhoto(ctx context.Context, id string) (bool, error) {
	m, err := s.store.GetMedia(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return m.Kind != "video" && !media.IsVideoName(m.Name) && m.Width > 0, nil
}

// loadContent reads the live content and the owner's redirects from the
// database.
func (s *Server) loadContent(ctx context.Context) (*content.Set, map[string]string, error) {
	c, err := s.editor.Load(ctx)
	if err != nil {
		return nil, nil, err
	}
	moved, err := s.editor.RedirectMap(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("redirects: %w", err)
	}
	return c, moved, nil
}

// reloadContent makes the database's live content current on this
// instance: the pages, the search index and analytics' served pages. On a
// failed read the site keeps serving what it has.
func (s *Server) reloadContent(reason string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, moved, err := s.loadContent(ctx)
	if err != nil {
		s.log.Error("content not reloaded; the site keeps serving the version it has", "reason", reason, "err", err)
		return false
	}
	s.site.Set(c, moved)
	s.analyticsRoom.Refresh()
	return true
}

// contentChanged follows a publish or a redirect change made here: the
// new content, then the pages it changed, here and on the other instances.
func (s *Server) contentChanged(reason string) {
	s.reloadContent(reason)
	s.Changed(reason)
}

// applyRemote follows another instance's change (the content version
// moved): its content and redirects, then the pages that changed.
func (s *Server) applyRemote(reason string) {
	s.reloadContent(reason)
	s.pages.RefreshLocal(reason)
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
	for _, p := range s.site.AllPaths() {
		if pg := s.Cache().Peek(p); pg != nil {
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
	for _, p := range s.site.AllPaths() {
		r, _, ok := s.site.Lookup(p)
		if !ok || !r.Indexable {
			continue
		}
		pg, err := s.Cache().Get(ctx, p)
		if err != nil {
			continue
		}
		if before[p] != pg.ETag {
			req.Paths = append(req.Paths, p)
			req.URLs = append(req.URLs, s.site.Abs(p))
		}
	}
	if len(req.Paths) == 0 {
		return
	}
	req.Reason, req.Version = reason, version
	s.purge.Purge(ctx, req)
}

// RunSync applies other instances' content changes until ctx ends.
func (s *Server) RunSync(ctx context.Context) { s.sync.Run(ctx) }

// RunLive hears other instances' lead changes for the live stream until
// ctx ends (PostgreSQL; on SQLite it returns at once).
func (s *Server) RunLive(ctx context.Context) {
	dsn := ""
	if s.store.Dialect() == "postgres" {
		dsn = s.cfg.DatabaseURL
	}
	s.liveHub.Run(ctx, dsn)
}

// EndStreams ends every live stream and refuses new ones (shutdown: the
// streams never end by themselves, and Shutdown would wait for them).
func (s *Server) EndStreams() { s.liveHub.Close() }

// Drain makes the readiness check fail (a load balancer stops sending new
// requests) while the server keeps answering; shutdown follows.
func (s *Server) Drain() { s.draining.Store(true) }

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
			return mediaweb.IsUploadRequest(c.Request().Method, c.Request().URL.Path)
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

// noteFirstAdmin says at boot how to create the first admin account when
// there is none: the leads manager is closed until there is one.
func (s *Server) noteFirstAdmin(ctx context.Context) {
	if n, err := s.store.CountAdmins(ctx); err == nil && n == 0 {
		s.log.Info("no admin account yet: the Secure Leads Manager needs one. Create it with: site user add --email you@example.com --role admin")
	}
}

// MediaStorage is the media storage the configuration names, as the
// server opens it (site backup and site restore read and write the same).
func MediaStorage(cfg *config.Config) (storage.Storage, error) { return newStorage(cfg) }

// newStorage builds the media storage the configuration names.
func newStorage(cfg *config.Config) (storage.Storage, error) {
	if cfg.Storage.Kind == "s3" {
		b := storage.NewS3(storage.S3Options{Endpoint: cfg.Storage.Endpoint, Region: cfg.Storage.Region, Bucket: cfg.Storage.Bucket,
			AccessKey: cfg.Storage.AccessKey, SecretKey: cfg.Storage.SecretKey})
		return b, b.EnsureBucket(context.Background())
	}
	return storage.NewLocal(filepath.Join(cfg.DataDir, "media"))
}

// setupLeads takes the lead intake and the notifier from the options, or
// builds them from the configuration: the notifier on the store
// (NotifyConfig), the intake without a spool (a failed save is then a
// 503).
func (s *Server) setupLeads(o Options) error {
	s.notifier, s.leads = o.Notifier, o.Leads
	if s.notifier == nil {
		nc, err := NotifyConfig(context.Background(), o.Config, o.Store, o.Log)
		if err != nil {
			return err
		}
		s.notifier = notify.New(o.Store, nc, o.Log)
	}
	if s.leads == nil {
		s.leads = spool.NewIntake(s.notifier, nil, o.Store.Ping, o.Log)
	}
	return nil
}

// NotifyConfig is the notifier's configuration as the application runs
// it (main.go's leadIntake, and New without Options.Notifier): the
// channels the configuration describes (email, webhook, SMS, the
// escalation's delay), Web Push signed with the VAPID keys stored in the
// database (made by the first instance to boot), and the homeowner's
// acknowledgement, switched by System Settings (lead_ack) and giving the
// emergency phone System Settings shows. Push that cannot start (a damaged
// key pair) is logged and left off: leads still go out on the other
// channels, and the devices screen says push is unavailable.
func NotifyConfig(ctx context.Context, cfg *config.Config, store *db.Store, log *slog.Logger) (notify.Config, error) {
	nc, err := notify.FromConfig(cfg)
	if err != nil {
		return nc, err
	}
	if nc.Push, err = notify.LoadPush(ctx, store, cfg.Notify.VAPIDSubject); err != nil {
		log.Error("web push is off: its VAPID keys could not be loaded", "err", err)
		nc.Push = nil
	}
	st := &settings.Service{Store: store, Defaults: cfg.Business, BaseURL: cfg.BaseURL, Log: log}
	nc.Ack = notify.NewAck(cfg)
	nc.Ack.Enabled = st.Toggle(func(v settings.Settings) bool { return v.AckOn() })
	nc.Ack.Phone = func(ctx context.Context) string { return st.Business(ctx).Phone } // the 24/7 line (ADR 039)
	// The response times the site states now (ADR 045): the live wording.
	words := contentdb.New(store)
	nc.Ack.Times = func(ctx context.Context) (string, string, error) {
		it, err := words.GetBySlug(ctx, content.KindWords, content.WordsKey)
		if err != nil {
			return "", "", err
		}
		w, err := content.DecodeWords([]byte(it.Live))
		if err != nil {
			return "", "", err
		}
		return w["times"]["emergency"], w["times"]["general"], nil
	}
	return nc, nil
}
