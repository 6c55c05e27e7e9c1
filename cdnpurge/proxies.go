package cdnpurge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Proxies drops changed pages from caching proxies in front of the site
// (Varnish with deploy/varnish/site.vcl, ADR 068): one PURGE request per
// changed path to every proxy, with the Host visitors use, so the proxy
// finds the copies it stored for them. Varnish cannot read the hook's JSON
// body without modules Debian does not ship; a PURGE per path needs only
// core VCL.
type Proxies struct {
	// URLs are the proxies' own addresses (http://10.0.0.5:6081).
	URLs []string
	// Host is the public host name pages are stored under (BASE_URL's).
	Host string
	HTTP *http.Client
	Log  *slog.Logger
	// Backoff is the first retry delay; it doubles up to 4 attempts.
	Backoff time.Duration
	// Parallel is how many PURGE requests go to one proxy at a time.
	Parallel int
}

// NewProxies returns a purger for the proxies at urls that stores pages
// under baseURL's host, or nil when there are none.
func NewProxies(urls []string, baseURL string, log *slog.Logger) *Proxies {
	if len(urls) == 0 {
		return nil
	}
	host := ""
	if u, err := url.Parse(baseURL); err == nil {
		host = u.Host
	}
	return &Proxies{URLs: urls, Host: host, HTTP: &http.Client{Timeout: 10 * time.Second}, Log: log, Backoff: time.Second, Parallel: 4}
}

// Purge sends PURGE for every path to every proxy and waits for the
// answers. A proxy that cannot be reached, or answers 429 or 5xx, is
// asked again with backoff; any other refusal (403: this instance is not
// in the proxy's purgers list) is logged and returned at once.
func (p *Proxies) Purge(ctx context.Context, paths []string, reason string) error {
	if len(paths) == 0 {
		return nil
	}
	var errs []error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, proxy := range p.URLs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			failed, err := p.purgeOne(ctx, strings.TrimRight(proxy, "/"), paths)
			if err != nil {
				p.Log.Warn("proxy purge failed: the proxy may serve old copies of these pages until they expire",
					"proxy", proxy, "failed", failed, "paths", len(paths), "err", err)
				mu.Lock()
				errs = append(errs, fmt.Errorf("%s: %d of %d paths: %w", proxy, failed, len(paths), err))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	p.Log.Info("proxies purged", "proxies", len(p.URLs), "paths", len(paths), "reason", reason)
	return nil
}

// purgeOne purges every path on one proxy, Parallel at a time, and returns
// how many failed and the first error.
func (p *Proxies) purgeOne(ctx context.Context, proxy string, paths []string) (int, error) {
	work := make(chan string)
	var mu sync.Mutex
	var first error
	failed := 0
	var wg sync.WaitGroup
	for i := 0; i < max(p.Parallel, 1); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range work {
				if err := p.send(ctx, proxy, path); err != nil {
					mu.Lock()
					failed++
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, path := range paths {
		work <- path
	}
	close(work)
	wg.Wait()
	return failed, first
}

func (p *Proxies) send(ctx context.Context, proxy, path string) error {
	return do(ctx, p.HTTP, p.Backoff, "PURGE "+path, func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, "PURGE", proxy+path, nil)
		if err != nil {
			return nil, err
		}
		if p.Host != "" {
			req.Host = p.Host
		}
		return req, nil
	})
}
