package server

import (
	"container/list"
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/atlanta-restoration/site/ssr"
)

// Search results are rendered per query, so they are the one public page
// a visitor (or a bot) can make the server render at will. Two bounds keep
// that from hurting anyone else (issue 7):
//   - rendered result pages are kept per normalised query in a small LRU,
//     dropped whenever the content changes;
//   - at most searchRenders result pages render at once, always fewer than
//     the runtime pool holds, so a flood of searches leaves a runtime free
//     for form replies and cache misses; at most searchQueue more wait,
//     and past that a search answers 503 at once instead of queueing.
const (
	searchCacheSize = 128
	searchWait      = 5 * time.Second
	// searchQueue is about what one render slot gets through in
	// searchWait (a result page renders in ~20 ms): a longer queue would
	// only hold searches that time out, a much shorter one turns a burst
	// into a loop of instant 503s that clients retry at once. Measured
	// with make bench, 200 connections of random searches beside the
	// cached /: with 32 places, 99.6% of searches got 503 and the cached
	// page's p99 rose from 6.6 to 41 ms; with 256, every search was
	// answered and the p99 stayed at 19 ms.
	searchQueue = 256
)

type searchCache struct {
	mu    sync.Mutex
	gen   uint64
	order *list.List // front: most recent; values are *searchEntry
	byKey map[string]*list.Element

	renders chan struct{} // render slots
	waiting chan struct{} // queue places
}

type searchEntry struct {
	key  string
	page *ssr.Page
}

func newSearchCache(poolSize int) *searchCache {
	n := max(1, poolSize-1)
	return &searchCache{order: list.New(), byKey: map[string]*list.Element{}, renders: make(chan struct{}, n), waiting: make(chan struct{}, searchQueue+n)}
}

// normalizeQuery folds runs of spaces, so "water  damage " and "water
// damage" share one entry.
func normalizeQuery(q string) string { return strings.Join(strings.Fields(q), " ") }

func (c *searchCache) get(key string) (*ssr.Page, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*searchEntry).page, c.gen
	}
	return nil, c.gen
}

// put stores a page rendered during generation gen; a page rendered
// before an invalidation is dropped, not stored.
func (c *searchCache) put(key string, p *ssr.Page, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if el, ok := c.byKey[key]; ok {
		el.Value.(*searchEntry).page = p
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(&searchEntry{key: key, page: p})
	for c.order.Len() > searchCacheSize {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.byKey, old.Value.(*searchEntry).key)
	}
}

func (c *searchCache) invalidate() {
	c.mu.Lock()
	c.gen++
	c.order.Init()
	c.byKey = map[string]*list.Element{}
	c.mu.Unlock()
}

func (c *searchCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// errSearchBusy answers a search that found the queue full.
var errSearchBusy = &StatusError{Status: http.StatusServiceUnavailable, Message: "Search is busy right now. Please try again in a moment.", Quiet: true}

// render runs fn in a search render slot, queueing at most searchQueue
// searches; fn never runs when the queue is full or the wait too long.
func (c *searchCache) render(ctx context.Context, fn func() error) error {
	select {
	case c.waiting <- struct{}{}:
	default:
		return errSearchBusy
	}
	defer func() { <-c.waiting }()
	t := time.NewTimer(searchWait)
	defer t.Stop()
	select {
	case c.renders <- struct{}{}:
	case <-t.C:
		return errSearchBusy
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-c.renders }()
	return fn()
}
