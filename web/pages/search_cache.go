package pages

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/search"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Search results are the one public page a visitor (or a bot) can ask
// for in unbounded variety, so no query renders React (ADR 028; an LRU
// and a queue of renders came first and were not enough):
//   - the page's shell is rendered once per content version (one runtime,
//     once, however many searches wait for it) and dropped on every
//     invalidation like the render cache;
//   - a search is the index lookup, the splice and, for clients that
//     accept it, a fast gzip: about 0.2 ms of CPU in all, in Go. No
//     runtime is ever taken, so form replies and cache misses never wait
//     behind searches;
//   - searches are paced server-wide (guard.Pacer): at most searchRate
//     start a second and searchWorkers compute at once, first come first
//     served, so a flood of them takes about a fifth of one core however
//     many clients send it, and cached pages keep the rest. A search
//     whose turn is more than searchWait away answers 503 at once.
//
// Measured with make bench's flood (200 connections of random searches,
// 10 s, server CPU from /proc): unpaced, the server answered ~4,600
// searches/s and spent 0.95 of a core on them, and the load generator
// another 0.18; paced at 500/s, 0.21 and 0.04. 200 connections then wait
// about 0.4 s for their turn.
const (
	searchRate  = 500
	searchBurst = 50
	searchWait  = 1500 * time.Millisecond
)

// searchWorkers is how many searches may compute at once: one fewer
// than the cores, so a long query never holds them all.
func searchWorkers() int { return max(1, runtime.GOMAXPROCS(0)-1) }

type searchShells struct {
	marks search.Marks
	gate  *guard.Pacer

	mu    sync.Mutex
	gen   uint64
	shell *search.Shell
	sf    singleflight.Group
	// failed and failedAt keep a failed shell render of this content
	// version for searchRetry, so a flood during a failure (a render
	// timeout, a broken page) costs one render per searchRetry, not one
	// per search.
	failed   error
	failedAt time.Time
}

// searchRetry is how long a failed shell render is answered from memory.
const searchRetry = 2 * time.Second

func newSearchShells() *searchShells {
	return &searchShells{marks: search.NewMarks(), gate: guard.NewPacer(searchRate, searchBurst, searchWorkers(), searchWait)}
}

// get returns the current shell, rendering it on the first search of a
// content version. Concurrent searches share one render; a shell rendered
// before an invalidation is used by the searches that asked for it but
// not kept; a failed render is answered for searchRetry.
func (c *searchShells) get(ctx context.Context, render func(context.Context) (*search.Shell, error)) (*search.Shell, error) {
	c.mu.Lock()
	sh, gen, failed := c.shell, c.gen, c.failed
	if failed != nil && time.Since(c.failedAt) > searchRetry {
		failed = nil
	}
	c.mu.Unlock()
	if sh != nil {
		return sh, nil
	}
	if failed != nil {
		return nil, failed
	}
	res, err, _ := c.sf.Do(strconv.FormatUint(gen, 10), func() (any, error) {
		// Others may be waiting on this render: it must finish even if
		// the first caller goes away.
		sh, err := render(context.WithoutCancel(ctx))
		if err != nil {
			c.mu.Lock()
			if c.gen == gen {
				c.failed, c.failedAt = err, time.Now()
			}
			c.mu.Unlock()
			return nil, err
		}
		c.mu.Lock()
		if c.gen == gen {
			c.shell = sh
		}
		c.mu.Unlock()
		return sh, nil
	})
	if err != nil {
		return nil, err
	}
	return res.(*search.Shell), nil
}

func (c *searchShells) invalidate() {
	c.mu.Lock()
	c.gen++
	c.shell, c.failed = nil, nil
	c.mu.Unlock()
}

// errSearchBusy answers a search whose turn was too far away.
var errSearchBusy = &httperr.Error{Status: http.StatusServiceUnavailable, Message: "Search is busy right now. Please try again in a moment.", Quiet: true}

// searchBuf is the memory one results page is written and compressed
// in, reused from search to search (ssr.Serve has written it out when
// the handler returns).
type searchBuf struct {
	page []byte
	gz   bytes.Buffer
	zw   *gzip.Writer
}

var searchBufs = sync.Pool{New: func() any { return new(searchBuf) }}

// gzip compresses a results page for a client that accepts gzip or
// brotli (brotli clients take gzip too). BestSpeed: a results page is
// compressed once and sent once, and level 1 costs about a third of the
// default level for a tenth more bytes (ADR 028).
func (b *searchBuf) gzip(body []byte) []byte {
	b.gz.Reset()
	if b.zw == nil {
		b.zw, _ = gzip.NewWriterLevel(&b.gz, gzip.BestSpeed)
	} else {
		b.zw.Reset(&b.gz)
	}
	b.zw.Write(body)
	b.zw.Close()
	return b.gz.Bytes()
}
