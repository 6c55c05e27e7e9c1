// Package server is the application's HTTP edge: New builds the HTTP
// rooms over the services package app built, install.go lists every route with
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
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	gbytes "github.com/labstack/gommon/bytes"

	"github.com/atlanta-restoration/site/app"
	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/cdnpurge"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/contentsync"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/editor"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/jobs"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/metrics"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/portal"
	"github.com/atlanta-restoration/site/retention"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/seoaudit"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/spool"
	"github.com/atlanta-restoration/site/ssr"
	analyticsweb "github.com/atlanta-restoration/site/web/analytics"
	"github.com/atlanta-restoration/site/web/audits"
	"github.com/atlanta-restoration/site/web/auth"
	backupsweb "github.com/atlanta-restoration/site/web/backups"
	bookingweb "github.com/atlanta-restoration/site/web/booking"
	"github.com/atlanta-restoration/site/web/dashboard"
	editorweb "github.com/atlanta-restoration/site/web/editor"
	"github.com/atlanta-restoration/site/web/estimate"
	feedbackweb "github.com/atlanta-restoration/site/web/feedback"
	indexnowweb "github.com/atlanta-restoration/site/web/indexnow"
	"github.com/atlanta-restoration/site/web/leadfiles"
	leadsweb "github.com/atlanta-restoration/site/web/leads"
	"github.com/atlanta-restoration/site/web/leadstream"
	mediaweb "github.com/atlanta-restoration/site/web/media"
	"github.com/atlanta-restoration/site/web/pages"
	portalweb "github.com/atlanta-restoration/site/web/portal"
	"github.com/atlanta-restoration/site/web/push"
	settingsweb "github.com/atlanta-restoration/site/web/settings"
	workweb "github.com/atlanta-restoration/site/web/work"
)

// Options are how the server runs beside its services.
type Options struct {
	// NoWarm renders pages on demand only (tests): no background warm-up
	// after boot or invalidation.
	NoWarm bool
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

	// sync shares content changes with the other instances.
	sync *contentsync.Syncer
	// liveHub and leadStream are the leads screens' live stream (issue
	// 29); releaseLive detaches the hub from the store.
	liveHub     *leadstream.Hub
	leadStream  *leadstream.Handler
	releaseLive func()
	// purge tells the CDN which pages changed (nil without a CDN);
	// proxies drops them from the caching proxies in front (nil without).
	purge   *cdnpurge.Client
	proxies *cdnpurge.Proxies
	// genSums are the generated files' hashes when the proxies last
	// heard of them, hookSums when the CDN hook last did (or at boot): a
	// change that moves their bytes purges them. The two are apart: an
	// instance follows its own publish too (applyRemote, proxies only),
	// and that must not use up the change the hook is still to send.
	genMu    sync.Mutex
	genSums  map[string]string
	hookSums map[string]string
	// pageCC is the Cache-Control of cached public pages.
	pageCC string
	// draining is set on SIGTERM: readiness fails while in-flight
	// requests finish.
	draining atomic.Bool

	// Operations: request ids, /metrics, backups and the
	// retention job (jobs.go).
	ids       idMinter
	metrics   *metrics.Metrics
	backups   *backup.Service
	retention *retention.Service
	// locker runs a job on one instance at a time (PostgreSQL).
	locker jobs.Locker
	// build is the running build (metrics).
	build app.BuildInfo
}

// New builds the HTTP edge over the services app.Build made: the rooms
// (web/), the render cache, the background jobs that read the site, the
// metrics and the router with every route (install.go). It builds no
// service of its own; it connects the ones it is handed to its render
// cache: a publish, a review refresh and another instance's change
// re-render the pages they touch, and a page that cannot render is never
// published.
func New(svc *app.Services, o Options) (*Server, error) {
	cfg := svc.Config
	s := &Server{cfg: cfg, log: svc.Log, store: svc.Store, engine: svc.Engine, build: svc.Build,
		site: svc.Site, editor: svc.Editor, notFound: svc.NotFound, settings: svc.Settings, reviews: svc.Reviews,
		leads: svc.Intake, notifier: svc.Notifier, backups: svc.Backups, retention: svc.Retention, sync: svc.Sync, purge: svc.Purge,
		proxies: svc.Proxies, locker: svc.Locker}
	s.editor.Changed = s.contentChanged
	if s.purge != nil || s.proxies != nil {
		s.genSums = s.generatedSums()
		s.hookSums = s.genSums
	}
	s.reviews.Changed = s.Changed
	s.sync.Follow(s.applyRemote)

	// Admin sign-in: one session model, the PIN and accounts (web/auth).
	hashGate := guard.NewHashGate(HashConcurrency, HashWait)
	s.auth = auth.New(svc.Store, auth.Config{
		TokenTTL: cfg.Admin.TokenTTL, Lockout: cfg.Admin.Lockout, PIN: cfg.Admin.PIN,
		SecureCookies: strings.HasPrefix(cfg.BaseURL, "https://"), Issuer: cfg.Business.Name,
	}, auth.Limits{
		PIN:          s.newAttempts("pin", cfg.Admin.MaxAttempts, cfg.Admin.Lockout),
		LoginIP:      s.newAttempts("login-ip", cfg.Admin.MaxAttempts, cfg.Admin.Lockout),
		LoginAccount: s.newAttempts("login-account", auth.LoginAttemptsPerAccount, cfg.Admin.Lockout),
		LoginDevice:  s.newAttempts("login-device", auth.LoginAttemptsPerDevice, cfg.Admin.Lockout),
		CodeSession:  s.newAttempts("code-session", auth.CodeAttemptsPerSession, cfg.Admin.Lockout),
		CodeAccount:  s.newAttempts("code-account", auth.CodeAttemptsPerAccount, cfg.Admin.Lockout),
	}, hashGate, svc.Log)
	s.leadsRoom = &leadsweb.Handler{Store: svc.Store, Auth: s.auth, Hash: hashGate, Changed: s.Changed, Log: svc.Log}
	// The leads screens' live stream (ADR 041): this process's lead
	// changes from the store's hooks, the others' by LISTEN (RunLive).
	s.liveHub = leadstream.NewHub(svc.Store.Origin(), svc.Log)
	s.releaseLive = svc.Store.OnLeadChange(s.liveHub.Publish)
	s.leadStream = &leadstream.Handler{Hub: s.liveHub, Sessions: svc.Store, Log: svc.Log}
	if err := s.auth.SetupPIN(context.Background()); err != nil {
		return nil, err
	}
	s.noteFirstAdmin(context.Background())

	// The public pages and their render cache.
	var err error
	s.pageCC = pageCacheControl(cfg.CDN.SMaxAge)
	if s.pages, err = pages.New(pages.Options{Site: s.site, Engine: s.engine, StaticDir: filepath.Join(cfg.SourceDir, "static"),
		Settings: s.settings, Reviews: s.reviews, PageCC: s.pageCC, Dev: cfg.Dev(), NoWarm: o.NoWarm, Log: svc.Log}); err != nil {
		return nil, err
	}
	s.editor.Render = s.pages.Preview // a page that cannot render is never published

	// Lead intake: the estimate form in front of the intake.
	s.analyticsRoom = analyticsweb.New(analyticsweb.Options{Store: svc.Store, Site: s.site, Log: svc.Log})
	s.estimate = &estimate.Handler{Leads: s.leads, Limit: s.newLeadAttempts("estimate", EstimatesPerWindow, EstimateWindow),
		Posts:    guard.NewLimiter(EstimatePostsPerWindow, EstimateWindow),
		Phone:    func(ctx context.Context) string { return s.settings.Business(ctx).Phone },
		Recorded: s.analyticsRoom.RecordLead,
		Render: func(ctx context.Context, st *leads.EstimateState) ([]byte, error) {
			return s.pages.RenderEstimate(ctx, "/estimate", st)
		},
		Log: svc.Log}
	// Where each lead came from is checked against this host.
	if u, err := url.Parse(cfg.BaseURL); err == nil {
		s.estimate.SiteHost = u.Hostname()
	}
	// Media and settings: both re-render the pages that show them.
	s.mediaRoom = mediaweb.New(mediaweb.Handler{Store: svc.Store, Files: svc.Media, MaxUpload: cfg.Admin.MaxUpload,
		TempDir: filepath.Join(cfg.DataDir, "tmp"), Changed: s.Changed, NotFound: site.ErrNotFound, Log: svc.Log})
	s.feedbackRoom = &feedbackweb.Handler{Store: svc.Store, PlaceID: cfg.Reviews.PlaceID, Posts: guard.NewLimiter(FeedbackPostsPerWindow, EstimateWindow),
		Channels: s.notifier.ReviewChannels, Changed: s.Changed, Log: svc.Log,
		Render: func(ctx context.Context, d site.FeedbackData) ([]byte, error) {
			return s.pages.RenderDoc(ctx, "feedback", "/feedback", s.site.FeedbackPage(d))
		}}
	s.portalRoom = &portalweb.Handler{Store: svc.Store, Lookups: guard.NewLimiter(PortalLookupsPerWindow, EstimateWindow), Tell: s.notifier.ProgressRecorded,
		BaseURL: cfg.BaseURL, Log: svc.Log,
		Render: func(ctx context.Context, d site.JobPageData) ([]byte, error) {
			path := "/my"
			if d.View == "adjuster" {
				path = "/claim"
			}
			return s.pages.RenderDoc(ctx, "job-home", path, s.site.JobHomePage(d))
		}}
	// A lead's files and the homeowner's messages (ADR 067): photos and
	// PDFs within the upload cap, stored in the media storage.
	s.leadFilesRoom = leadfiles.New(leadfiles.Handler{Store: svc.Store, Links: svc.Store, Hash: portal.Hash, Files: svc.Media,
		TempDir: filepath.Join(cfg.DataDir, "tmp"), MaxPhoto: min(cfg.Admin.MaxUpload, leadfiles.MaxPhotoBytes), MaxDocument: min(cfg.Admin.MaxUpload, leadfiles.MaxDocumentBytes),
		Lookups: guard.NewLimiter(LeadFileLookupsPerWindow, EstimateWindow), Posts: guard.NewLimiter(LeadFilePostsPerWindow, EstimateWindow),
		PagePath: "", Log: svc.Log,
		Render: func(ctx context.Context, d site.FilesPageData) ([]byte, error) {
			return s.pages.RenderDoc(ctx, "job-files", "/my/files", s.site.FilesPage(d))
		}})
	s.leadsRoom.Files = s.leadFilesRoom // an erased lead's files leave storage
	s.portalRoom.Files = s.leadFilesRoom.View
	// Inspection booking (ADR 066): the homeowner's links (ADR 065)
	// resolve it, and each change is told to the homeowner with the
	// visit's time, in the change's own transaction.
	s.bookingRoom = &bookingweb.Handler{Store: svc.Store, Links: svc.Store, Log: svc.Log,
		Lookups:  guard.NewLimiter(BookingLookupsPerWindow, EstimateWindow),
		Phone:    func(ctx context.Context) string { return s.settings.Business(ctx).Phone },
		Business: func(ctx context.Context) string { return s.settings.Business(ctx).Name },
		Tell:     s.notifier.BookingChanged,
		Render: func(ctx context.Context, d site.BookingData) ([]byte, error) {
			return s.pages.RenderDoc(ctx, "booking", "/my/booking", s.site.BookingPage(d))
		}}
	s.portalRoom.Booking = func(ctx context.Context, leadID, base string) (*site.BookingView, error) {
		l, err := svc.Store.GetLead(ctx, leadID)
		if err != nil {
			return nil, err
		}
		v, err := s.bookingRoom.View(ctx, l, base, false)
		return &v, err
	}
	s.estimate.BookingLink = func(ctx context.Context, l db.Lead) string {
		if l.IsEmergency {
			return ""
		}
		token, err := bookingweb.IssueHomeownerLink(ctx, svc.Store, l.ID, time.Now())
		if err != nil {
			svc.Log.Error("homeowner link not issued", "lead", l.ID, "err", err)
			return ""
		}
		return bookingweb.MyPath + token + "/booking"
	}
	s.settingsRoom = &settingsweb.Handler{Settings: s.settings, Reviews: s.reviews, Pages: s.servedPages, Audit: svc.Store, Changed: s.Changed, Log: svc.Log}
	// Backups: the jobs are in jobs.go, the status on the dashboard,
	// /healthz and /metrics.
	s.backupsRoom = &backupsweb.Handler{Backups: s.backups, Store: svc.Store, Log: svc.Log}
	// Jobs: a change to a job on the site re-renders its pages as an upload does.
	s.workRoom = &workweb.Handler{Store: svc.Store, Records: s.editor, Changed: s.Changed, Log: svc.Log}
	s.editorRoom = editorweb.New(editorweb.Handler{Editor: s.editor, Render: s.pages.Preview, BaseURL: cfg.BaseURL, Log: svc.Log})
	// The HTTP edge.
	s.accessLog = cfg.AccessLog
	if s.bodyLimit, err = gbytes.Parse(cfg.BodyLimit); err != nil {
		return nil, fmt.Errorf("BODY_LIMIT: %w", err)
	}
	s.secHeaders = s.buildSecurityHeaders()
	// Background jobs and the admin tools that read them.
	s.jobs = s.newJobs()
	s.indexnowRoom = &indexnowweb.Handler{Store: svc.Store, Site: s.site, IndexNow: s.jobs.indexNow, Jobs: s.jobs.runner, HealthJob: jobHealth,
		HealthInterval: cfg.HealthInterval, Monitoring: s.settings.Toggle(func(st settings.Settings) bool { return st.SEOMonitoring }), Log: svc.Log}
	s.audits = &audits.Handler{Store: svc.Store, Site: s.site, SEO: s.jobs.seo, Proof: s.localProof(svc.Store), Content: contentdb.New(svc.Store), Checker: s.jobs.schema, Fetch: s.fetchPage, Running: s.runningSecurity(),
		ScanEvery: SecurityScanEvery, Backups: s.backups, Jobs: audits.Jobs{Runner: s.jobs.runner, SEOAudit: jobSEOAudit, Security: jobSecurity, Schema: jobSchema}, Log: svc.Log}
	s.dashboard = &dashboard.Handler{Store: svc.Store, Site: s.site, Notifier: s.notifier, Spool: s.leads, Backups: s.backups, JobTitles: jobTitles,
		More: svc.Store, IndexNow: s.indexNowState(), PushDevices: func(ctx context.Context) (int, error) {
			devices, err := svc.Store.PushRecipients(ctx)
			return len(devices), err
		}}
	// Devices subscribe to Web Push with the key the notifier signs with;
	// the admin app's manifest and service worker are served (web/push).
	s.push = &push.Handler{Store: svc.Store, Name: func(ctx context.Context) string { return s.settings.Business(ctx).Name }, Log: svc.Log}
	if p := s.notifier.PushChannel(); p != nil {
		s.push.Push = p
	}
	// A rebuilt bundle (development) re-renders every page.
	releaseReload := s.engine.OnReload(func() { s.pages.InvalidateLocal("bundle rebuilt") })
	// Metrics last: they read every service above.
	s.metrics = s.newMetrics()
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
func (s *Server) Changed(reason string) { s.changed(reason, s.served()) }

// changed is Changed with what was served before the change (served).
func (s *Server) changed(reason string, before map[string]string) {
	s.pages.RefreshLocal(reason)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	version, _ := s.sync.Publish(ctx, reason)
	if before != nil {
		go s.purgeChanged(before, reason, version, true)
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

// reloadContent makes the database's live content current on this
// instance: the pages, the search index and analytics' served pages. On a
// failed read the site keeps serving what it has.
func (s *Server) reloadContent(reason string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, moved, err := app.LoadContent(ctx, s.editor)
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
	before := s.served()
	s.reloadContent(reason)
	s.changed(reason, before)
}

// applyRemote follows another instance's change (the content version
// moved): its content and redirects, then the pages that changed. The
// caching proxies hear of them from here too, once this instance serves
// the new bytes: a proxy that refetched a page from this instance between
// the other's purge and this refresh stored the old page (ADR 068).
func (s *Server) applyRemote(reason string) {
	var before map[string]string
	if s.proxies != nil {
		before = s.served()
	}
	s.reloadContent(reason)
	s.pages.RefreshLocal(reason)
	if before != nil {
		go s.purgeChanged(before, reason, 0, false)
	}
}

// pageCacheControl is what cached public pages send: browsers revalidate
// every time (ETag, 304); with CDN_SMAXAGE a CDN or a caching proxy may
// keep them that long, serve a stale copy while it refetches (for a
// minute, or for CDN_SMAXAGE when that is shorter: an owner who asks for
// copies at most 10 s old means it), and serve one for a day while no
// instance answers (stale-if-error, RFC 5861). The purge hook and the
// proxies' purges drop changed pages at once.
func pageCacheControl(sMaxAge time.Duration) string {
	if sMaxAge <= 0 {
		return "public, max-age=0, must-revalidate"
	}
	swr := min(sMaxAge, time.Minute)
	return fmt.Sprintf("public, max-age=0, must-revalidate, s-maxage=%d, stale-while-revalidate=%d, stale-if-error=%d",
		int(sMaxAge.Seconds()), int(swr.Seconds()), int(staleIfError.Seconds()))
}

// staleIfError is how long a CDN or proxy may serve a stored page while
// no instance answers: a day covers a night's outage.
const staleIfError = 24 * time.Hour

// generatedPaths are the files generated from the route table that
// caches may keep (an hour): purged, like a page, when their bytes change.
var generatedPaths = []string{"/sitemap.xml", "/robots.txt"}

// served snapshots what caches may hold of the public pages: the ETag of
// every cached page. It is nil when nothing in front needs telling (no
// CDN hook, no proxy). The generated files are compared with genSums:
// their bytes follow the content the moment it changes, before a
// snapshot could be taken.
func (s *Server) served() map[string]string {
	if s.purge == nil && s.proxies == nil {
		return nil
	}
	out := map[string]string{}
	for _, p := range s.site.AllPaths() {
		if pg := s.Cache().Peek(p); pg != nil {
			out[p] = pg.ETag
		}
	}
	return out
}

// generatedSums hashes the generated files of the current content.
func (s *Server) generatedSums() map[string]string {
	sum := func(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:8]) }
	return map[string]string{"/sitemap.xml": sum(s.site.SitemapXML()), "/robots.txt": sum(s.site.RobotsTxt())}
}

// purgeChanged re-reads every public page of the new version (from the
// warm-up under way, or rendering it) and the generated files (against
// genSums), and drops the paths whose bytes changed: from the CDN (hook: only the instance
// where the change happened) and from the caching proxies (every
// instance, once it serves the new bytes).
func (s *Server) purgeChanged(before map[string]string, reason string, version int64, hook bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var pages []string
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
			pages = append(pages, p)
		}
	}
	sums := s.generatedSums()
	s.genMu.Lock()
	proxyPrev, hookPrev := s.genSums, s.hookSums
	s.genSums = sums
	if hook {
		s.hookSums = sums
	}
	s.genMu.Unlock()
	withGenerated := func(prev map[string]string) []string {
		out := slices.Clone(pages)
		for _, p := range generatedPaths {
			if prev[p] != sums[p] {
				out = append(out, p)
			}
		}
		return out
	}
	// The two retry apart (a proxy that is down must not hold up the CDN).
	var wg sync.WaitGroup
	if paths := withGenerated(proxyPrev); s.proxies != nil && len(paths) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.proxies.Purge(ctx, paths, reason)
		}()
	}
	if paths := withGenerated(hookPrev); hook && s.purge != nil && len(paths) > 0 {
		req := cdnpurge.Request{Paths: paths, Reason: reason, Version: version}
		for _, p := range paths {
			req.URLs = append(req.URLs, s.site.Abs(p))
		}
		s.purge.Purge(ctx, req)
	}
	wg.Wait()
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
			return isUploadRequest(c.Request().Method, c.Request().URL.Path)
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

// localProof is what the thin-pages audit counts as a city's proof: the
// published jobs as the city pages place them (within site.NearbyJobsKm),
// and the approved testimonials.
func (s *Server) localProof(store *db.Store) seoaudit.LocalProof {
	return seoaudit.LocalProof{
		Jobs: seoaudit.NearbyJobs{Km: site.NearbyJobsKm, List: func(ctx context.Context) ([]seoaudit.Place, error) {
			var out []seoaudit.Place
			for _, p := range s.site.JobPlaces(ctx) {
				out = append(out, seoaudit.Place{CityKey: p.CityKey, Lat: p.Lat, Lng: p.Lng, Located: p.Located})
			}
			return out, nil
		}},
		Testimonials: seoaudit.CityTestimonials{List: func(ctx context.Context) ([]string, error) {
			ts, err := store.PublicTestimonials(ctx)
			if err != nil {
				return nil, err
			}
			cities := make([]string, 0, len(ts))
			for _, t := range ts {
				cities = append(cities, t.City)
			}
			return cities, nil
		}},
	}
}
