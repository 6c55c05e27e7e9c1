package server

import (
	"net/http"
	"time"

	"github.com/atlanta-restoration/site/ssr"
)

// ServeHTTP answers cached public pages directly and hands everything else
// to echo. A cache hit needs no routing, no echo context and no middleware
// allocation: it is the path crawlers and visitors take on every page, and
// the one the throughput target is measured on.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Development goes through echo so a failed rebuild shows on every page.
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.URL.RawQuery == "" && !s.cfg.Dev() {
		if p := s.cache.Peek(r.URL.Path); p != nil {
			start := time.Now()
			h := w.Header()
			for k, v := range s.secHeaders {
				h[k] = v
			}
			ssr.Serve(w, r, p, htmlType, "public, max-age=0, must-revalidate")
			s.logRequest(r, p.Status, time.Since(start))
			return
		}
	}
	s.echo.ServeHTTP(w, r)
}

func (s *Server) logRequest(r *http.Request, status int, d time.Duration) {
	if !s.accessLog {
		return
	}
	s.log.Info("http", "method", r.Method, "path", r.URL.Path, "status", status, "us", d.Microseconds(), "cached", true)
}
