// Package analytics is the site's own, cookie-free visitor analytics
// (ADR 015): the beacon's events are classified (traffic source,
// screen width class), bots and opted-out visitors are dropped, visitors
// are counted with a daily-rotating salt, and events are written in
// batches. The Analytics screen's figures are defined in report.go (ADR
// 023). Storage is db's; the HTTP handlers are server's.
package analytics

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Sources are the traffic sources the Analytics screen shows.
const (
	SourceOrganic  = "Organic Search"
	SourceDirect   = "Direct"
	SourceSocial   = "Social"
	SourceReferral = "Referral"
	SourceEmail    = "Email"
	SourcePaid     = "Paid Search"
)

var searchHosts = []string{"google.", "bing.com", "duckduckgo.com", "yahoo.", "baidu.com", "yandex.", "ecosia.org", "search.brave.com", "startpage.com", "ask.com", "aol.com"}
var socialHosts = []string{"facebook.com", "fb.com", "instagram.com", "t.co", "twitter.com", "x.com", "linkedin.com", "lnkd.in", "pinterest.", "reddit.com", "youtube.com", "tiktok.com", "nextdoor.com", "threads.net"}
var emailHosts = []string{"mail.google.com", "outlook.live.com", "outlook.office.com", "mail.yahoo.com", "webmail."}

func hostIs(host string, list []string) bool {
	for _, h := range list {
		if strings.HasSuffix(h, ".") {
			if strings.HasPrefix(host, h) || strings.Contains(host, "."+h) {
				return true
			}
			continue
		}
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

// Classify names the traffic source of a visit from its referrer and UTM
// parameters. siteHost is the site's own host: a referrer from it is not
// a source (an internal click), and counts as Direct.
func Classify(referrer, utmSource, utmMedium, siteHost string) string {
	m := strings.ToLower(strings.TrimSpace(utmMedium))
	src := strings.ToLower(strings.TrimSpace(utmSource))
	switch {
	case m == "email" || m == "e-mail" || m == "newsletter" || src == "newsletter":
		return SourceEmail
	case m == "cpc" || m == "ppc" || m == "paid" || m == "paidsearch" || m == "paid-search":
		return SourcePaid
	case m == "social" || m == "social-media" || m == "paid-social":
		return SourceSocial
	case m == "organic":
		return SourceOrganic
	case m == "referral":
		return SourceReferral
	}
	if src != "" {
		switch {
		case hostIs(src, searchHosts) || src == "google" || src == "bing":
			return SourceOrganic
		case hostIs(src, socialHosts) || src == "facebook" || src == "instagram" || src == "nextdoor":
			return SourceSocial
		}
	}
	u, err := url.Parse(strings.TrimSpace(referrer))
	if err != nil || u.Host == "" {
		return SourceDirect
	}
	host := strings.ToLower(strings.TrimPrefix(u.Hostname(), "www."))
	switch {
	case host == strings.TrimPrefix(strings.ToLower(siteHost), "www."):
		return SourceDirect
	case hostIs(host, emailHosts):
		return SourceEmail
	case hostIs(host, searchHosts):
		return SourceOrganic
	case hostIs(host, socialHosts):
		return SourceSocial
	}
	return SourceReferral
}

// WidthClass buckets a screen width: mobile, tablet, laptop, desktop.
func WidthClass(w int) string {
	switch {
	case w <= 0:
		return ""
	case w < 576:
		return "mobile"
	case w < 992:
		return "tablet"
	case w < 1440:
		return "laptop"
	}
	return "desktop"
}

var botUA = regexp.MustCompile(`(?i)bot\b|bot/|crawl|spider|slurp|headlesschrome|lighthouse|pagespeed|preview|facebookexternalhit|whatsapp|curl/|wget/|python-|go-http-client|java/|okhttp|axios|node-fetch|httpclient|phantomjs|puppeteer|playwright|scrapy|feedfetcher|monitor|uptime|pingdom|semrush|ahrefs|mj12|dotbot|petalbot|bytespider`)

// IsBot reports whether a user agent is a crawler, a monitor, a headless
// browser or a script. An empty user agent is one too.
func IsBot(ua string) bool {
	return strings.TrimSpace(ua) == "" || botUA.MatchString(ua)
}

// OptedOut reports whether the request asks not to be tracked (DNT or
// Global Privacy Control).
func OptedOut(dnt, gpc string) bool { return dnt == "1" || gpc == "1" }

// Zone is the business's time zone: a day is an Atlanta day.
var Zone = func() *time.Location {
	if z, err := time.LoadLocation("America/New_York"); err == nil {
		return z
	}
	return time.FixedZone("EST", -5*3600)
}()

// Day is the Atlanta day of t, YYYY-MM-DD.
func Day(t time.Time) string { return t.In(Zone).Format("2006-01-02") }

// Visitor is the day's anonymous visitor id: sha256(salt, IP, user agent,
// day). The salt is random per day and deleted once the day is over, so
// the same person gets an unrelated id tomorrow and the id cannot be
// reversed to an IP.
func Visitor(salt, ip, ua, day string) string {
	h := sha256.Sum256([]byte(salt + "\x00" + ip + "\x00" + ua + "\x00" + day))
	return hex.EncodeToString(h[:16])
}

// Store is what the collector needs from the database.
type Store interface {
	AddEvents(context.Context, []db.Event) error
	DailySalt(context.Context, string) (string, error)
	// Ping tells a database that is down from one that refused a row.
	Ping(context.Context) error
}

// Collector takes events from requests and writes them in batches, so
// thousands of beacons a second cost a few transactions. Add never blocks:
// when the queue is full the event is dropped and counted.
//
// One event the database refuses never costs the others: a
// batch that fails while the database answers is split in halves until
// the refused rows are alone; they are counted (Refused) and logged, the
// rest are stored. A batch that fails because the database is down is
// kept and tried again (at most BatchSize events wait; further events
// wait in the queue).
type Collector struct {
	store   Store
	log     *slog.Logger
	queue   chan db.Event
	Dropped atomic.Int64
	// Refused counts the events the database refused (each alone).
	Refused atomic.Int64
	// flushes asks a running Run to write everything now and answer.
	flushes chan chan error
	running atomic.Bool
	// downLogged is when an outage was last logged (unix ns): once a
	// minute is enough.
	downLogged atomic.Int64

	saltMu  sync.Mutex
	saltDay string
	salt    string
}

// QueueSize bounds the events waiting to be written, BatchSize those
// written at once.
const (
	QueueSize = 20000
	BatchSize = 1000
)

// ErrDatabaseDown is the error of a write that failed because the
// database could not be reached: its events are kept, not refused.
var ErrDatabaseDown = errors.New("analytics: database unreachable")

// NewCollector builds a collector; Run writes what it collects.
func NewCollector(store Store, log *slog.Logger) *Collector {
	return &Collector{store: store, log: log, queue: make(chan db.Event, QueueSize), flushes: make(chan chan error)}
}

// Salt returns the salt of day (cached; created once per day).
func (c *Collector) Salt(ctx context.Context, day string) (string, error) {
	c.saltMu.Lock()
	defer c.saltMu.Unlock()
	if c.saltDay == day {
		return c.salt, nil
	}
	s, err := c.store.DailySalt(ctx, day)
	if err != nil {
		return "", err
	}
	c.saltDay, c.salt = day, s
	return s, nil
}

// Add queues an event. It reports false when the queue was full.
func (c *Collector) Add(e db.Event) bool {
	select {
	case c.queue <- e:
		return true
	default:
		c.Dropped.Add(1)
		return false
	}
}

// Write stores evs and returns the events not written because the
// database is down (with ErrDatabaseDown); nil when every event was
// stored or refused alone. Each refused event is counted in Refused.
func (c *Collector) Write(ctx context.Context, evs []db.Event) ([]db.Event, error) {
	refused := 0
	var first error
	left, err := c.write(ctx, evs, &refused, &first)
	if refused > 0 {
		c.Refused.Add(int64(refused))
		if c.log != nil {
			c.log.Warn("analytics events refused by the database; the rest of their batch was stored", "refused", refused, "batch", len(evs), "err", first)
		}
	}
	if last := c.downLogged.Load(); err != nil && c.log != nil && time.Since(time.Unix(0, last)) > time.Minute && c.downLogged.CompareAndSwap(last, time.Now().UnixNano()) {
		c.log.Warn("analytics events not written yet: database unreachable", "events", len(left), "err", err)
	}
	return left, err
}

func (c *Collector) write(ctx context.Context, evs []db.Event, refused *int, first *error) ([]db.Event, error) {
	if len(evs) == 0 {
		return nil, nil
	}
	err := c.store.AddEvents(ctx, evs)
	if err == nil {
		return nil, nil
	}
	if ctx.Err() != nil || c.store.Ping(ctx) != nil {
		// AddEvents is one transaction: none of evs was stored.
		return evs, fmt.Errorf("%w: %v", ErrDatabaseDown, err)
	}
	if len(evs) == 1 {
		*refused++
		if *first == nil {
			*first = err
		}
		return nil, nil
	}
	h := len(evs) / 2
	if left, err := c.write(ctx, evs[:h], refused, first); err != nil {
		return append(left, evs[h:]...), err
	}
	return c.write(ctx, evs[h:], refused, first)
}

// Start runs Run on a goroutine of its own and returns a channel closed
// when it ends. Flush goes through Run from the moment Start returns
// (a Flush between "go c.Run" and Run's first line would write beside
// it, and return before the events Run had taken were written).
func (c *Collector) Start(ctx context.Context) <-chan struct{} {
	c.running.Store(true)
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	return done
}

// Run writes queued events until ctx ends, then writes what is left.
func (c *Collector) Run(ctx context.Context) {
	c.running.Store(true)
	defer c.running.Store(false)
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	batch := make([]db.Event, 0, BatchSize)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		left, err := c.Write(wctx, batch)
		// Events the database could not take yet stay first in the batch.
		batch = append(batch[:0], left...)
		return err
	}
	for {
		// While the database is down and a whole batch waits, events wait
		// in the queue (and past QueueSize are dropped and counted).
		queue := c.queue
		if len(batch) >= BatchSize {
			queue = nil
		}
		select {
		case reply := <-c.flushes:
			for drained := false; !drained; {
				select {
				case e := <-c.queue:
					batch = append(batch, e)
				default:
					drained = true
				}
			}
			reply <- flush()
		case e := <-queue:
			batch = append(batch, e)
			if len(batch) >= BatchSize {
				flush()
			}
		case <-t.C:
			flush()
		case <-ctx.Done():
			for {
				select {
				case e := <-c.queue:
					batch = append(batch, e)
				default:
					if flush() != nil {
						c.Dropped.Add(int64(len(batch)))
					}
					return
				}
			}
		}
	}
}

// Flush writes everything queued so far, through Run when it runs.
func (c *Collector) Flush(ctx context.Context) error {
	if c.running.Load() {
		reply := make(chan error, 1)
		select {
		case c.flushes <- reply:
			return <-reply
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	var batch []db.Event
	for {
		select {
		case e := <-c.queue:
			batch = append(batch, e)
		default:
			left, err := c.Write(ctx, batch)
			c.Dropped.Add(int64(len(left)))
			return err
		}
	}
}
