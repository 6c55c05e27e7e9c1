// Package metrics is what the site tells a Prometheus scraper (ADR
// 036), in the text format of the official client. Two kinds of
// figure: counters and histograms the server bumps as things happen
// (requests, renders, job runs), each an atomic add on a series resolved
// in advance where the path is hot; and figures read when /metrics is
// scraped (the render cache, the search pacer, the spool, the outbox,
// sessions, sign-ins, backups, the content version, the database pool).
// No label ever holds a path, an address, an account or anything a
// visitor typed: route kinds, status codes, page kinds, job names and
// channels are small fixed sets.
package metrics

import (
	"context"
	"database/sql"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
)

// Sources are what the scrape-time figures are read from. A nil source
// leaves its figures out.
type Sources struct {
	// DB is the database pool (its go_sql_* statistics).
	DB *sql.DB
	// Cache is the render cache: lookups found and not found, and the
	// pages it holds.
	Cache func() (hits, misses uint64, pages int)
	// Search is the search pacer.
	Search func() guard.PacerStats
	// Spool is the lead spool: leads waiting for the database, and
	// leads set aside after the database kept refusing them.
	Spool func() (backlog, setAside int)
	// ContentVersion is the shared content version.
	ContentVersion func() int64
	// SignIns are wrong secrets and limit refusals per secret kind.
	SignIns func() (failures, lockouts map[string]uint64)
	// Deliveries are notification attempts per channel and outcome.
	Deliveries func() map[string][3]uint64
	// DeliveryOutcomes name Deliveries' three outcomes.
	DeliveryOutcomes [3]string
	// Outbox reads the outbox per channel and its oldest undelivered row.
	Outbox func(ctx context.Context) ([]db.OutboxChannel, time.Time, error)
	// Sessions counts live admin sessions.
	Sessions func(ctx context.Context) (int, error)
	// Backup is the backups' state.
	Backup func(ctx context.Context) (backup.Status, error)
	// Version and Commit are the build's.
	Version, Commit string
}

// Metrics holds the registry and the series the server bumps.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// cached are the cached fast path's series, resolved once: a hit
	// costs two atomic adds and no allocation.
	cached        [3]prometheus.Counter // 200, 304, 404; others resolved per call
	cachedLatency prometheus.Observer
	render        *prometheus.HistogramVec
	renderErrors  *prometheus.CounterVec
	poolWait      prometheus.Histogram
	jobRuns       *prometheus.CounterVec
	jobLastOK     *prometheus.GaugeVec
}

// CachedKind is the route kind of pages answered from the render cache
// before any routing.
const CachedKind = "page_cached"

// latencyBuckets span a cached page over loopback (~50 µs) to a slow
// upload's answer.
var latencyBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// New builds the registry: the Go runtime's and the process's figures,
// the database pool's, the site's own series, and the scrape-time
// collector over src.
func New(src Sources) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{reg: reg}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "site_http_requests_total",
		Help: "Requests answered, by route kind (page_cached, page, asset, media, admin_api, ...) and status code."}, []string{"kind", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "site_http_request_duration_seconds",
		Help: "Time to answer a request, by route kind.", Buckets: latencyBuckets}, []string{"kind"})
	m.render = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "site_render_duration_seconds",
		Help: "Time a goja runtime took to render a page, by page kind.", Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}}, []string{"page_kind"})
	m.renderErrors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "site_render_errors_total",
		Help: "Renders that failed (threw, timed out), by page kind."}, []string{"page_kind"})
	m.poolWait = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "site_render_pool_wait_seconds",
		Help: "Time a render waited for a free goja runtime.", Buckets: []float64{.0001, .001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}})
	m.jobRuns = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "site_job_runs_total",
		Help: "Background job runs on this instance, by task (the job's name) and outcome (ok, failed, skipped)."}, []string{"task", "outcome"})
	m.jobLastOK = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "site_job_last_success_timestamp_seconds",
		Help: "When each background job (task) last succeeded on this instance (Unix time)."}, []string{"task"})
	for i, code := range []string{"200", "304", "404"} {
		m.cached[i] = m.requests.WithLabelValues(CachedKind, code)
	}
	m.cachedLatency = m.latency.WithLabelValues(CachedKind)
	build := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "site_build_info", Help: "The running build (always 1)."}, []string{"version", "commit", "goversion"})
	build.WithLabelValues(src.Version, src.Commit, runtime.Version()).Set(1)
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.latency, m.render, m.renderErrors, m.poolWait, m.jobRuns, m.jobLastOK, build, &scrape{src: src})
	if src.DB != nil {
		reg.MustRegister(collectors.NewDBStatsCollector(src.DB, "site"))
	}
	return m
}

// Handler serves the registry in Prometheus' text format. The guard is
// the server's (install.go).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// codes are the status codes' label values, made once.
var codes = func() []string {
	out := make([]string, 600)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}()

func code(status int) string {
	if status < 0 || status >= len(codes) {
		return "other"
	}
	return codes[status]
}

// ObserveRequest counts a routed request and its time.
func (m *Metrics) ObserveRequest(kind string, status int, d time.Duration) {
	m.requests.WithLabelValues(kind, code(status)).Inc()
	m.latency.WithLabelValues(kind).Observe(d.Seconds())
}

// ObserveCached counts a page answered from the render cache: resolved
// series for the usual codes, no allocation.
func (m *Metrics) ObserveCached(status int, d time.Duration) {
	switch status {
	case http.StatusOK:
		m.cached[0].Inc()
	case http.StatusNotModified:
		m.cached[1].Inc()
	case http.StatusNotFound:
		m.cached[2].Inc()
	default:
		m.requests.WithLabelValues(CachedKind, code(status)).Inc()
	}
	m.cachedLatency.Observe(d.Seconds())
}

// ObserveRender records one render (ssr.Engine.OnRender).
func (m *Metrics) ObserveRender(kind string, wait, render time.Duration, err error) {
	m.poolWait.Observe(wait.Seconds())
	if err != nil {
		m.renderErrors.WithLabelValues(kind).Inc()
		return
	}
	m.render.WithLabelValues(kind).Observe(render.Seconds())
}

// ObserveJob records one job run (jobs.Options.Observe).
func (m *Metrics) ObserveJob(job, outcome string, _ time.Duration) {
	m.jobRuns.WithLabelValues(job, outcome).Inc()
	if outcome == db.OutcomeOK {
		m.jobLastOK.WithLabelValues(job).SetToCurrentTime()
	}
}

// scrape reads the scrape-time figures.
type scrape struct{ src Sources }

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(name, help, labels, nil)
}

var (
	dCacheHits      = desc("site_render_cache_hits_total", "Requests for a public page found in the render cache.")
	dCacheMisses    = desc("site_render_cache_misses_total", "Lookups of a public page not in the render cache (each renders it, or joins a render under way).")
	dCachePages     = desc("site_render_cache_pages", "Pages the render cache holds.")
	dSearchWaiting  = desc("site_search_queue", "Searches waiting for their turn at the search pacer.")
	dSearchRunning  = desc("site_search_running", "Searches computing now.")
	dSearchRejected = desc("site_search_rejected_total", "Searches refused with a 503 because their turn was too far away.")
	dSpoolBacklog   = desc("site_spool_backlog", "Leads kept on disk while the database could not take them, not stored yet.")
	dSpoolSetAside  = desc("site_spool_set_aside", "Spooled leads the database kept refusing, set aside in DATA_DIR/spool/refused.jsonl for a person.")
	dContent        = desc("site_content_version", "The shared content version (it moves on every publish, upload or settings save).")
	dSignInFail     = desc("site_signin_failures_total", "Wrong secrets at sign-in, by secret (pin, password, code).", "secret")
	dSignInLock     = desc("site_signin_lockouts_total", "Sign-in attempts refused because a limit was reached (429), by secret.", "secret")
	dDeliveries     = desc("site_notification_deliveries_total", "Lead notification attempts on this instance, by channel and outcome (sent, retry, given_up).", "channel", "outcome")
	dOutboxPending  = desc("site_outbox_pending", "Lead notifications not delivered yet, by channel.", "channel")
	dOutboxRetrying = desc("site_outbox_retrying", "Undelivered lead notifications whose last attempt failed, by channel.", "channel")
	dOutboxFailed   = desc("site_outbox_failed", "Lead notifications given up, still within RETAIN_OUTBOX_DAYS, by channel.", "channel")
	dOutboxOldest   = desc("site_outbox_oldest_pending_seconds", "Age of the oldest undelivered lead notification (0: none).")
	dSessions       = desc("site_admin_sessions", "Admin sessions that have not ended.")
	dDBUp           = desc("site_database_up", "Whether the scrape could read the database (1) or not (0).")
	dBackupLast     = desc("site_backup_last_success_timestamp_seconds", "When the last good backup finished (Unix time; 0: none yet).")
	dBackupAge      = desc("site_backup_age_seconds", "Age of the last good backup (-1: none yet).")
	dBackupFailed   = desc("site_backup_last_run_failed", "Whether the newest backup failed (1) or not (0).")
	dBackupAlarm    = desc("site_backup_alarm", "Whether the backup alarm is raised (1): the last backup failed, or the last good one is older than BACKUP_MAX_AGE.")
	dBackupBytes    = desc("site_backup_last_success_bytes", "Size of the last good backup.")
)

func (s *scrape) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{dCacheHits, dCacheMisses, dCachePages, dSearchWaiting, dSearchRunning, dSearchRejected, dSpoolBacklog, dSpoolSetAside,
		dContent, dSignInFail, dSignInLock, dDeliveries, dOutboxPending, dOutboxRetrying, dOutboxFailed, dOutboxOldest, dSessions, dDBUp,
		dBackupLast, dBackupAge, dBackupFailed, dBackupAlarm, dBackupBytes} {
		ch <- d
	}
}

func (s *scrape) Collect(ch chan<- prometheus.Metric) {
	src := s.src
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	if src.Cache != nil {
		hits, misses, pages := src.Cache()
		counter(dCacheHits, float64(hits))
		counter(dCacheMisses, float64(misses))
		gauge(dCachePages, float64(pages))
	}
	if src.Search != nil {
		st := src.Search()
		gauge(dSearchWaiting, float64(st.Waiting))
		gauge(dSearchRunning, float64(st.Running))
		counter(dSearchRejected, float64(st.Refused))
	}
	if src.Spool != nil {
		backlog, aside := src.Spool()
		gauge(dSpoolBacklog, float64(backlog))
		gauge(dSpoolSetAside, float64(aside))
	}
	if src.ContentVersion != nil {
		gauge(dContent, float64(src.ContentVersion()))
	}
	if src.SignIns != nil {
		fails, locks := src.SignIns()
		for k, v := range fails {
			counter(dSignInFail, float64(v), k)
		}
		for k, v := range locks {
			counter(dSignInLock, float64(v), k)
		}
	}
	if src.Deliveries != nil {
		for channel, by := range src.Deliveries() {
			for i, outcome := range src.DeliveryOutcomes {
				counter(dDeliveries, float64(by[i]), channel, outcome)
			}
		}
	}
	// The database's figures, within a bound: a scrape must not hang on
	// a database that does not answer.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	up := 1.0
	if src.Outbox != nil {
		rows, oldest, err := src.Outbox(ctx)
		if err != nil {
			up = 0
		} else {
			for _, r := range rows {
				gauge(dOutboxPending, float64(r.Pending), r.Kind)
				gauge(dOutboxRetrying, float64(r.Retrying), r.Kind)
				gauge(dOutboxFailed, float64(r.Failed), r.Kind)
			}
			age := 0.0
			if !oldest.IsZero() {
				age = time.Since(oldest).Seconds()
			}
			gauge(dOutboxOldest, age)
		}
	}
	if src.Sessions != nil {
		if n, err := src.Sessions(ctx); err != nil {
			up = 0
		} else {
			gauge(dSessions, float64(n))
		}
	}
	if src.Backup != nil {
		if st, err := src.Backup(ctx); err != nil {
			up = 0
		} else {
			last, bytes := 0.0, 0.0
			if st.LastGood != nil {
				last, bytes = float64(st.LastGood.FinishedAt.Unix()), float64(st.LastGood.Bytes)
			}
			gauge(dBackupLast, last)
			gauge(dBackupAge, st.AgeSeconds)
			gauge(dBackupBytes, bytes)
			gauge(dBackupFailed, b2f(st.LastFailed()))
			gauge(dBackupAlarm, b2f(st.Alarm != ""))
		}
	}
	gauge(dDBUp, up)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
