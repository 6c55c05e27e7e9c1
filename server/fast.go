package server

import (
	"net/http"
	"time"

	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/web/pages"
)

// ServeHTTP answers cached public pages directly and hands everything else
// to echo. A cache hit needs no routing, no echo context and no middleware
// allocation: it is the path crawlers and visitors take on every page, and
// the one the throughput target is measured on.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := s.requestID(w, r)
	s.limitBody(w, r)
	if !s.readFormBody(w, r) {
		return
	}
	// Development goes through echo so a failed rebuild shows on every page.
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.URL.RawQuery == "" && !s.cfg.Dev() {
		if p := s.Cache().Served(r.URL.Path); p != nil {
			start := time.Now()
			h := w.Header()
			for k, v := range s.secHeaders {
				h[k] = v
			}
			status, n := ssr.Serve(w, r, p, pages.HTMLType, pages.CacheControl(r.URL.Path, s.pageCC))
			d := time.Since(start)
			s.metrics.ObserveCached(status, d)
			s.logRequest(r.Method, r.URL.Path, id, status, int64(n), msDur(d), true, nil)
			return
		}
	}
	s.echo.ServeHTTP(w, r)
}
