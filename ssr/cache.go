package ssr

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"
)

// Page is a rendered document kept in memory with its compressed variants.
// A cached page may drop Body (see Compact): identity requests, rare among
// browsers and crawlers, are then served by decompressing Gzip.
type Page struct {
	Status int
	Body   []byte
	Gzip   []byte
	Brotli []byte
	// Size is the uncompressed length.
	Size int
	ETag string
	// Location is set for cached redirects.
	Location string
	// Tag is what the render func says the page was rendered from (a
	// hash of its props): Refresh keeps a page whose tag has not changed.
	Tag string
}

// NewPage compresses body once and computes its strong ETag.
func NewPage(status int, body []byte) *Page {
	sum := sha256.Sum256(body)
	return &Page{
		Status: status,
		Body:   body,
		Gzip:   Gzip(body),
		Brotli: Brotli(body),
		Size:   len(body),
		ETag:   `"` + hex.EncodeToString(sum[:16]) + `"`,
	}
}

// Compact drops the uncompressed body of a page that has a gzip variant,
// so the render cache holds each page twice instead of three times.
func (p *Page) Compact() *Page {
	if p.Gzip != nil {
		p.Body = nil
	}
	return p
}

// RenderFunc renders the page for a cache key (a request path).
type RenderFunc func(ctx context.Context, key string) (*Page, error)

// Cache keeps every public page rendered once per content version.
// Concurrent misses for one key share one render; Invalidate starts a new
// version and re-warms in the background, serving nothing stale after it.
type Cache struct {
	render RenderFunc
	log    *slog.Logger

	mu      sync.RWMutex
	version uint64
	pages   map[string]*Page
	sf      singleflight.Group

	// hits and misses count lookups by requests: Served's, and Get's
	// (a miss renders). Read by /metrics.
	hits, misses atomic.Uint64

	warmMu   sync.Mutex
	onRender func(ctx context.Context, key string)
	warmKeys func() []string
	warmers  int
	cancel   context.CancelFunc
	lastWarm time.Duration
	onWarm   []func(etags map[string]string)
}

// NewCache returns an empty cache. keys lists what a warm-up renders; it is
// called at each warm-up so new content (an upload) is included.
func NewCache(render RenderFunc, keys func() []string, warmers int, log *slog.Logger) *Cache {
	if warmers < 1 {
		warmers = 1
	}
	return &Cache{render: render, warmKeys: keys, warmers: warmers, log: log, pages: map[string]*Page{}}
}

// Get returns the cached page for key, rendering it on a miss.
func (c *Cache) Get(ctx context.Context, key string) (*Page, error) {
	c.mu.RLock()
	p, ok := c.pages[key]
	v := c.version
	c.mu.RUnlock()
	if ok {
		c.hits.Add(1)
		return p, nil
	}
	c.misses.Add(1)
	// A request does not join a background render of the same page: that
	// one may still be waiting for a runtime behind other requests.
	flight := strconv.FormatUint(v, 10) + "\x00" + key
	if IsBackground(ctx) {
		flight = "bg\x00" + flight
	}
	res, err, _ := c.sf.Do(flight, func() (any, error) {
		// The render must finish even if the first caller goes away:
		// others may be waiting on it.
		p, err := c.render(context.WithoutCancel(ctx), key)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		if c.version == v {
			c.pages[key] = p
		}
		c.mu.Unlock()
		return p, nil
	})
	if err != nil {
		return nil, err
	}
	return res.(*Page), nil
}

// Peek returns a cached page without rendering, or nil.
func (c *Cache) Peek(key string) *Page {
	c.mu.RLock()
	p := c.pages[key]
	c.mu.RUnlock()
	return p
}

// Served is Peek for a request: a page found counts as a hit (the cached
// fast path's lookup).
func (c *Cache) Served(key string) *Page {
	p := c.Peek(key)
	if p != nil {
		c.hits.Add(1)
	}
	return p
}

// Stats are the hits and misses counted since the cache was made.
func (c *Cache) Stats() (hits, misses uint64) { return c.hits.Load(), c.misses.Load() }

// Len is the number of cached pages.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.pages)
}

// Version is the current content version.
func (c *Cache) Version() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.version
}

// Invalidate drops every page (an upload, a review refresh or a settings
// change may touch any of them) and warms the cache again in the background.
func (c *Cache) Invalidate(reason string) {
	c.mu.Lock()
	c.version++
	c.pages = map[string]*Page{}
	c.mu.Unlock()
	c.log.Info("render cache invalidated", "reason", reason)
	c.Warm()
}

// Refresh starts a new version that keeps the pages keep approves (their
// source has not changed: their tag is the same) and drops the others,
// then warms again in the background, so a change re-renders exactly the
// pages it touches. keep runs outside the cache's lock and may be slow;
// pages rendered while it runs belong to the old version and are
// dropped. It returns how many pages it kept and dropped.
func (c *Cache) Refresh(reason string, keep func(key string, p *Page) bool) (kept, dropped int) {
	c.mu.RLock()
	snapshot := make(map[string]*Page, len(c.pages))
	for k, p := range c.pages {
		snapshot[k] = p
	}
	c.mu.RUnlock()
	keepers := map[string]*Page{}
	for k, p := range snapshot {
		if keep(k, p) {
			keepers[k] = p
		}
	}
	c.mu.Lock()
	c.version++
	next := make(map[string]*Page, len(keepers))
	for k, p := range keepers {
		if c.pages[k] == p {
			next[k] = p
		}
	}
	kept, dropped = len(next), len(c.pages)-len(next)
	c.pages = next
	c.mu.Unlock()
	c.log.Info("render cache refreshed", "reason", reason, "kept", kept, "dropped", dropped)
	c.Warm()
	return kept, dropped
}

// OnWarm registers f to be called after every complete warm-up with the
// ETag of each page it left cached (key -> ETag; 200 pages only). A
// warm-up overtaken by an Invalidate calls nothing: the next one will.
// f runs on the warm-up's goroutine and must not block.
func (c *Cache) OnWarm(f func(etags map[string]string)) {
	c.warmMu.Lock()
	c.onWarm = append(c.onWarm, f)
	c.warmMu.Unlock()
}

// OnWarmRender registers f to be called by a warm-up worker before it
// renders a key (after a page already cached is skipped): it sees the
// warm-up's progress, and a test holds the warm-up there. f runs on the
// worker and holds it while it runs.
func (c *Cache) OnWarmRender(f func(ctx context.Context, key string)) {
	c.warmMu.Lock()
	c.onRender = f
	c.warmMu.Unlock()
}

// Warm renders every key in the background with a few workers. Its
// renders are Background work: a request's render takes the next free
// runtime before them, so a page not yet warm is rendered for its
// visitor at once. A running warm-up is cancelled first.
func (c *Cache) Warm() {
	c.warmMu.Lock()
	if c.cancel != nil {
		c.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	c.warmMu.Unlock()
	go c.warm(ctx)
}

// WarmSync renders every key and returns how long it took.
func (c *Cache) WarmSync(ctx context.Context) time.Duration {
	return c.warm(ctx)
}

func (c *Cache) warm(ctx context.Context) time.Duration {
	ctx = Background(ctx)
	c.warmMu.Lock()
	onRender := c.onRender
	c.warmMu.Unlock()
	start := time.Now()
	version := c.Version()
	keys := c.warmKeys()
	ch := make(chan string)
	var wg sync.WaitGroup
	var failed int
	var fmu sync.Mutex
	for i := 0; i < c.warmers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range ch {
				if onRender != nil && c.Peek(k) == nil {
					onRender(ctx, k)
				}
				if _, err := c.Get(ctx, k); err != nil {
					fmu.Lock()
					failed++
					fmu.Unlock()
					c.log.Error("warm-up render failed", "path", k, "err", err)
				}
			}
		}()
	}
loop:
	for _, k := range keys {
		select {
		case ch <- k:
		case <-ctx.Done():
			break loop
		}
	}
	close(ch)
	wg.Wait()
	d := time.Since(start)
	if ctx.Err() == nil {
		c.warmMu.Lock()
		c.lastWarm = d
		hooks := c.onWarm
		c.warmMu.Unlock()
		c.log.Info("render cache warm", "pages", len(keys), "failed", failed, "took", d.Round(time.Millisecond).String())
		c.notifyWarm(hooks, version, keys)
	}
	return d
}

// notifyWarm calls the OnWarm hooks when the cache still holds the
// version the warm-up rendered.
func (c *Cache) notifyWarm(hooks []func(map[string]string), version uint64, keys []string) {
	if len(hooks) == 0 {
		return
	}
	etags := make(map[string]string, len(keys))
	c.mu.RLock()
	current := c.version == version
	for _, k := range keys {
		if p := c.pages[k]; p != nil && p.Status == http.StatusOK {
			etags[k] = p.ETag
		}
	}
	c.mu.RUnlock()
	if !current {
		return
	}
	for _, f := range hooks {
		f(etags)
	}
}

// LastWarm is how long the last complete warm-up took.
func (c *Cache) LastWarm() time.Duration {
	c.warmMu.Lock()
	defer c.warmMu.Unlock()
	return c.lastWarm
}

// Serve writes p honouring If-None-Match and Accept-Encoding, and returns
// the status and the number of body bytes it wrote.
func Serve(w http.ResponseWriter, r *http.Request, p *Page, contentType, cacheControl string) (status, n int) {
	h := w.Header()
	// Direct map writes: the keys are already canonical.
	h["Content-Type"] = []string{contentType}
	// A one-off reply (no-store) may carry no ETag: nothing revalidates it.
	if p.ETag != "" {
		h["Etag"] = []string{p.ETag}
	}
	h["Vary"] = varyAE
	if cacheControl != "" {
		h["Cache-Control"] = []string{cacheControl}
	}
	if p.Status == http.StatusOK && p.ETag != "" && etagMatch(r.Header.Get("If-None-Match"), p.ETag) {
		w.WriteHeader(http.StatusNotModified)
		return http.StatusNotModified, 0
	}
	body := p.Body
	// A page built without compressed variants (a one-off reply) is sent
	// as is.
	switch enc := negotiate(r.Header.Get("Accept-Encoding")); {
	case enc == "br" && p.Brotli != nil:
		h["Content-Encoding"] = encBr
		body = p.Brotli
	case enc != "" && p.Gzip != nil:
		h["Content-Encoding"] = encGzip
		body = p.Gzip
	}
	if body == nil { // a compacted page asked for without compression
		h["Content-Length"] = []string{strconv.Itoa(p.Size)}
		w.WriteHeader(p.Status)
		if r.Method != http.MethodHead {
			if zr, err := gzip.NewReader(bytes.NewReader(p.Gzip)); err == nil {
				written, _ := io.Copy(w, zr)
				return p.Status, int(written)
			}
		}
		return p.Status, 0
	}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(p.Status)
	if r.Method != http.MethodHead {
		n, _ = w.Write(body)
		return p.Status, n
	}
	return p.Status, 0
}

var (
	varyAE  = []string{"Accept-Encoding"}
	encBr   = []string{"br"}
	encGzip = []string{"gzip"}
)
