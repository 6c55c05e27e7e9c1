package server

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
	"github.com/atlanta-restoration/site/ssr"
)

// Search results are the one public page a visitor (or a bot) can ask
// for in unbounded variety. Issue 7 bounded their React renders with an
// LRU and a queue; issue 20 (ADR 028) removed the render per query:
//   - the page's shell is rendered once per content version (one runtime,
//     once, however many searches wait for it) and dropped on every
//     invalidation like the render cache;
//   - a search is the index lookup, the splice and a fast gzip, a fraction
//     of a millisecond, in Go. No runtime is ever taken, so form replies
//     and cache misses never wait behind searches;
//   - at most searchWorkers searches compute at once, one fewer than the
//     cores, so a flood of them leaves a core to cached pages: a search
//     that waits longer than searchWait for its turn answers 503.
const searchWait = time.Second

// searchWorkers is how many searches may compute at once.
func searchWorkers() int { return max(1, runtime.GOMAXPROCS(0)-1) }

type searchShells struct {
	marks search.Marks
	gate  *guard.HashGate

	mu    sync.Mutex
	gen   uint64
	shell *search.Shell
	sf    singleflight.Group
}

func newSearchShells() *searchShells {
	return &searchShells{marks: search.NewMarks(), gate: guard.NewHashGate(searchWorkers(), searchWait)}
}

// get returns the current shell, rendering it on the first search of a
// content version. Concurrent searches share one render; a shell rendered
// before an invalidation is used by the searches that asked for it but
// not kept.
func (c *searchShells) get(ctx context.Context, render func(context.Context) (*search.Shell, error)) (*search.Shell, error) {
	c.mu.Lock()
	sh, gen := c.shell, c.gen
	c.mu.Unlock()
	if sh != nil {
		return sh, nil
	}
	res, err, _ := c.sf.Do(strconv.FormatUint(gen, 10), func() (any, error) {
		// Others may be waiting on this render: it must finish even if
		// the first caller goes away.
		sh, err := render(context.WithoutCancel(ctx))
		if err != nil {
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
	c.shell = nil
	c.mu.Unlock()
}

// errSearchBusy answers a search that waited searchWait for its turn.
var errSearchBusy = &StatusError{Status: http.StatusServiceUnavailable, Message: "Search is busy right now. Please try again in a moment.", Quiet: true}

var searchGzip = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// compressSearch adds a gzip variant to a results page for a client that
// accepts one (brotli clients take gzip too). BestSpeed: a results page
// is compressed once and sent once, and level 1 costs about a third of
// the default level for a tenth more bytes (ADR 028).
func compressSearch(p *ssr.Page, acceptEncoding string) {
	if ssr.Negotiate(acceptEncoding) == "" {
		return
	}
	var buf bytes.Buffer
	buf.Grow(len(p.Body) / 3)
	w := searchGzip.Get().(*gzip.Writer)
	w.Reset(&buf)
	w.Write(p.Body)
	w.Close()
	searchGzip.Put(w)
	p.Gzip = buf.Bytes()
}
