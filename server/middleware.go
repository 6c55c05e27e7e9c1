package server

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/ssr"
)

// requestLog answers errors through the error handler and writes the one
// log line each request gets (logRequest).
func (s *Server) requestLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		res := c.Response()
		var id string
		if v := res.Header()[requestIDHeader]; len(v) > 0 {
			id = v[0]
		}
		d := time.Since(start)
		s.metrics.ObserveRequest(routeKind(c), res.Status, d)
		s.logRequest(c.Request().Method, c.Request().URL.Path, id, res.Status, res.Size, msDur(d), false, err)
		return nil
	}
}

func msSince(t time.Time) float64 { return msDur(time.Since(t)) }

func msDur(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// noStore marks every admin API answer uncacheable: they carry session
// state and personal data, and must never sit in a browser or proxy cache.
func noStore(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if strings.HasPrefix(c.Request().URL.Path, "/api/admin") {
			c.Response().Header().Set("Cache-Control", "no-store")
		}
		return next(c)
	}
}

// securityHeaders sets the CSP and the other hardening headers. The CSP
// allows only what the pages use: own scripts, inline styles (the inlined
// stylesheet and React style attributes), own images and media, and the
// CRM lead form's origins when one is configured.
func (s *Server) buildSecurityHeaders() http.Header {
	scriptSrc := []string{"'self'", ssr.IslandsBootCSP(), ssr.SpeculationRulesCSP()}
	frameSrc := []string{"'none'"}
	b := s.cfg.Business
	if b.LeadFormURL != "" {
		frameSrc = []string{origin(b.LeadFormURL)}
	}
	if b.LeadFormScript != "" {
		scriptSrc = append(scriptSrc, origin(b.LeadFormScript))
		frameSrc = append(frameSrc, origin(b.LeadFormScript))
	}
	csp := strings.Join([]string{
		"default-src 'self'",
		"script-src " + strings.Join(dedupe(scriptSrc), " "),
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob:",
		"media-src 'self' blob:",
		"font-src 'self'",
		"connect-src 'self'",
		"frame-src " + strings.Join(dedupe(frameSrc), " "),
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
	h := http.Header{}
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
	if strings.HasPrefix(s.cfg.BaseURL, "https://") {
		h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
	}
	return h
}

// securityHeaders copies the prebuilt headers onto every echo response.
func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		for k, v := range s.secHeaders {
			h[k] = v
		}
		return next(c)
	}
}

func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if x != "" && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
