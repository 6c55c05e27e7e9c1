// Package app builds the application's services, each once, from the
// configuration: the one place where the site is wired. main builds them
// for the server (server.New only stores what it is handed and connects
// its render cache to their change hooks); the commands (site content,
// site backup, site restore) use the same constructors; the server's
// tests build through Build too.
//
// app holds no HTTP: the rooms under web/ and the edge in server/ are
// built by server.New from these services. app imports no package of
// the HTTP layer, so anything may import app.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/cdnpurge"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/contentsync"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/editor"
	"github.com/atlanta-restoration/site/jobs"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/retention"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/spool"
	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/storage"
)

// BuildInfo names a build of the site (site version, /metrics, backups'
// manifests).
type BuildInfo struct {
	Version, Commit string
}

// Inputs are what Build is handed rather than builds: what a process
// opens once and closes itself (the store, the log, the spool), and what
// the tests share between many servers because it is slow to make (the
// render engine, the embedded content). NewEngine, MediaStorage and
// OpenSpool make them for main.
type Inputs struct {
	Config *config.Config
	Log    *slog.Logger
	Store  *db.Store
	// Content is the embedded content (content.Load), which seeds an
	// empty database; once seeded the database's content is live.
	Content *content.Set
	Engine  *ssr.Engine
	Media   storage.Storage
	// Spool keeps estimate submissions the database could not take, for
	// replay. A site run without one (the tests) answers such a
	// submission with a 503.
	Spool *spool.Spool
	Build BuildInfo
	// Jobs, when set, replaces the store's published jobs (a test site's
	// fixed list, ADR 062).
	Jobs site.JobSource
}

// Services are every service the application runs, built once by
// Build. server.New takes them as they are.
type Services struct {
	Config *config.Config
	Log    *slog.Logger
	Store  *db.Store
	Build  BuildInfo
	Engine *ssr.Engine
	// Media holds the uploaded files.
	Media storage.Storage

	// Settings are System Settings; Reviews the trust section's reviews.
	Settings *settings.Service
	Reviews  *reviews.Service
	// Editor edits the content the Site serves; NotFound counts the 404s
	// its monitor lists.
	Editor   *editor.Service
	NotFound *editor.NotFoundLog
	Site     *site.Site
	// Notifier announces new leads; Intake takes estimate submissions
	// (the database, else the spool).
	Notifier *notify.Notifier
	Intake   *spool.Intake
	// Backups and Retention are the operations jobs' services.
	Backups   *backup.Service
	Retention *retention.Service
	// Sync shares content changes with the other instances; Purge tells
	// the CDN which pages changed (nil without a CDN), Proxies the caching
	// proxies in front of the instances (nil without one).
	Sync    *contentsync.Syncer
	Purge   *cdnpurge.Client
	Proxies *cdnpurge.Proxies
	// Locker makes a job run on one instance at a time (PostgreSQL); nil
	// on SQLite, where one instance owns the database.
	Locker jobs.Locker
}

// Build builds every service from in, each once. The hooks that follow
// a change (Editor.Changed and .Render, Reviews.Changed, Sync's apply)
// are the server's, which connects them when it is built.
func Build(ctx context.Context, in Inputs) (*Services, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	cfg, log, store := in.Config, in.Log, in.Store
	s := &Services{Config: cfg, Log: log, Store: store, Build: in.Build, Engine: in.Engine, Media: in.Media, Locker: Locker(store)}

	// The public site: its content is the database's once the site runs
	// (the embedded files seed an empty one, ADR 035); settings, reviews
	// and media feed every page.
	s.Settings = NewSettings(cfg, store, log)
	s.Reviews = &reviews.Service{Client: reviews.NewClient(cfg.Reviews), Store: store, Owner: s.Settings.Owner, Log: log}
	s.Editor = NewEditor(store, log)
	s.Editor.Paths = func() []string { return s.Site.AllPaths() }
	s.Editor.Photo = isPhoto(store)
	s.Editor.NotFoundKeep = cfg.Retention.NotFoundDays
	s.NotFound = &editor.NotFoundLog{Store: contentdb.New(store)}
	if _, err := s.Editor.Seed(ctx, in.Content); err != nil {
		return nil, fmt.Errorf("seed content: %w", err)
	}
	live, moved, err := LoadContent(ctx, s.Editor)
	if err != nil {
		return nil, err
	}
	// The privacy page states the retention the job enforces.
	kept := retention.Items(cfg.Retention, retention.Backups{})
	if cfg.Backup.Every > 0 {
		kept = retention.Items(cfg.Retention, retention.Backups{KeepDaily: cfg.Backup.KeepDaily, KeepWeekly: cfg.Backup.KeepWeekly})
	}
	// The published jobs come from the store; a test site may bring its
	// own fixed list (tests/jobsite).
	var jobs site.JobSource = store
	if in.Jobs != nil {
		jobs = in.Jobs
	}
	s.Site = site.New(site.Options{BaseURL: cfg.BaseURL, Content: live, Redirects: moved, Settings: s.Settings, Reviews: s.Reviews, Media: store,
		Jobs: jobs, Retention: kept, Log: log, Testimonials: store})

	// Leads: the notifier's channels and the intake in front of it.
	nc, err := NotifyConfig(ctx, cfg, store, s.Settings, log)
	if err != nil {
		return nil, err
	}
	s.Notifier = notify.New(store, nc, log)
	// Told, not asked (ADR 065): a status change tells the homeowner in
	// its own transaction.
	store.OnStatusChangeTx(s.Notifier.StatusChanged)
	s.Intake = spool.NewIntake(s.Notifier, in.Spool, store.Ping, log)

	// Operations: backups (their jobs run in the server) and retention.
	target, err := backup.Open(cfg.Backup.To, cfg.Storage)
	if err != nil {
		return nil, err
	}
	s.Backups = backup.New(backup.Options{Store: store, DatabaseURL: cfg.DatabaseURL, DataDir: cfg.DataDir, Media: in.Media, Target: target,
		PGBinDir: cfg.Backup.PGBinDir, KeepDaily: cfg.Backup.KeepDaily, KeepWeekly: cfg.Backup.KeepWeekly,
		Every: cfg.Backup.Every, MaxAge: cfg.Backup.MaxAge, Version: in.Build.Version, Log: log, Locker: s.Locker})
	s.Retention = &retention.Service{Policy: cfg.Retention, Store: store, PruneNotFound: s.Editor.PruneNotFound}

	// Several instances: the content version and the CDN.
	s.Sync = contentsync.New(store, listenDSN(cfg, store), nil, log)
	if err := s.Sync.Init(ctx); err != nil {
		return nil, err
	}
	s.Purge = cdnpurge.New(cfg.CDN.PurgeURL, cfg.CDN.PurgeToken, log)
	s.Proxies = cdnpurge.NewProxies(cfg.CDN.ProxyPurgeURLs, cfg.BaseURL, log)
	return s, nil
}

// check names the first input Build cannot do without.
func (in Inputs) check() error {
	var missing []string
	for name, absent := range map[string]bool{"Config": in.Config == nil, "Log": in.Log == nil, "Store": in.Store == nil,
		"Content": in.Content == nil, "Engine": in.Engine == nil, "Media": in.Media == nil} {
		if absent {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("app.Build: missing inputs %v", missing)
	}
	return nil
}

// NewEngine builds the render engine the configuration describes.
func NewEngine(cfg *config.Config, log *slog.Logger) (*ssr.Engine, error) {
	return ssr.NewEngine(ssr.EngineOptions{
		Root: cfg.SourceDir, Kinds: site.PageKinds(), FullKinds: site.FullHydrationKinds, PoolSize: cfg.PoolSize,
		Timeout: cfg.RenderTimeout, Dev: cfg.Dev(), Log: log,
	})
}

// MediaStorage opens the media storage the configuration names: the S3
// bucket (made if missing), else a folder under DATA_DIR. The server,
// site backup and site restore read and write the same.
func MediaStorage(ctx context.Context, cfg *config.Config) (storage.Storage, error) {
	if cfg.Storage.Kind == "s3" {
		b := storage.NewS3(storage.S3Options{Endpoint: cfg.Storage.Endpoint, Region: cfg.Storage.Region, Bucket: cfg.Storage.Bucket,
			AccessKey: cfg.Storage.AccessKey, SecretKey: cfg.Storage.SecretKey})
		return b, b.EnsureBucket(ctx)
	}
	return storage.NewLocal(filepath.Join(cfg.DataDir, "media"))
}

// OpenSpool opens the lead spool under DATA_DIR.
func OpenSpool(cfg *config.Config, log *slog.Logger) (*spool.Spool, error) {
	return spool.Open(filepath.Join(cfg.DataDir, "spool"), log)
}

// NewSettings is System Settings over the configuration's defaults.
func NewSettings(cfg *config.Config, store *db.Store, log *slog.Logger) *settings.Service {
	return &settings.Service{Store: store, Defaults: cfg.Business, BaseURL: cfg.BaseURL, Log: log}
}

// NewEditor is the content editor on the store, without the hooks a
// running server adds (re-rendering, the page check before a publish,
// the photo check). site content import uses it as it is: the running
// site follows the publish by its content version.
func NewEditor(store *db.Store, log *slog.Logger) *editor.Service {
	return &editor.Service{Store: contentdb.New(store), Audit: store, Log: log}
}

// LoadContent reads the live content and the owner's redirects from the
// database.
func LoadContent(ctx context.Context, ed *editor.Service) (*content.Set, map[string]string, error) {
	c, err := ed.Load(ctx)
	if err != nil {
		return nil, nil, err
	}
	moved, err := ed.RedirectMap(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("redirects: %w", err)
	}
	return c, moved, nil
}

// Locker is the job lock the store's database offers: PostgreSQL's
// advisory locks, so a job runs on one instance at a time; none on
// SQLite.
func Locker(store *db.Store) jobs.Locker {
	if store.Dialect() == "postgres" {
		return jobs.PostgresLocker{DB: store.SQL()}
	}
	return nil
}

// listenDSN is the PostgreSQL URL other instances' notices arrive on;
// empty on SQLite.
func listenDSN(cfg *config.Config, store *db.Store) string {
	if store.Dialect() == "postgres" {
		return cfg.DatabaseURL
	}
	return ""
}

// isPhoto reports whether a media item is a stored photo (a hero or a
// cover must be one).
func isPhoto(store *db.Store) func(ctx context.Context, id string) (bool, error) {
	return func(ctx context.Context, id string) (bool, error) {
		m, err := store.GetMedia(ctx, id)
		if errors.Is(err, db.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return m.Kind != "video" && !media.IsVideoName(m.Name) && m.Width > 0, nil
	}
}

// NotifyConfig is the notifier's configuration as the application runs
// it: the channels the configuration describes (email, webhook, SMS, the
// escalation's delay), Web Push signed with the VAPID keys stored in the
// database (made by the first instance to boot), and the homeowner's
// acknowledgement, switched by System Settings (lead_ack) and giving the
// emergency phone System Settings shows. Push that cannot start (a
// damaged key pair) is logged and left off: leads still go out on the
// other channels, and the devices screen says push is unavailable.
func NotifyConfig(ctx context.Context, cfg *config.Config, store *db.Store, st *settings.Service, log *slog.Logger) (notify.Config, error) {
	nc, err := notify.FromConfig(cfg)
	if err != nil {
		return nc, err
	}
	if nc.Push, err = notify.LoadPush(ctx, store, cfg.Notify.VAPIDSubject); err != nil {
		log.Error("web push is off: its VAPID keys could not be loaded", "err", err)
		nc.Push = nil
	}
	nc.Ack = notify.NewAck(cfg)
	if nc.SMTP != nil || nc.SMS != nil {
		// Review requests (ADR 063); without a channel they wait.
		nc.Review = &notify.Review{BusinessName: cfg.Business.Name, ReplyTo: cfg.Business.Email, PlaceID: cfg.Reviews.PlaceID}
	}
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
