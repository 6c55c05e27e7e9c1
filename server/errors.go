package server

import (
	"errors"
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/pages"
)

// StatusError carries an HTTP status and a message safe to show; every
// room returns it (web/httperr).
type StatusError = httperr.Error

func statusOf(err error) int {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status
	}
	var nf *site.NotFoundError
	if errors.As(err, &nf) {
		return http.StatusNotFound
	}
	return http.StatusInternalServerError
}

func isQuiet(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && se.Quiet
}

// isPlainNotFound reports a 404 with nothing worth logging beyond the
// status and path.
func isPlainNotFound(err error) bool {
	if errors.Is(err, site.ErrNotFound) {
		return true
	}
	var nf *site.NotFoundError
	return errors.As(err, &nf) && nf.Title == "" && nf.Message == ""
}

// errorHandler turns every error into a page (or JSON under /api/) with
// the right status. 5xx are logged at error level, 4xx at info.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	r := c.Request()
	status := statusOf(err)
	msg := http.StatusText(status)
	var he *echo.HTTPError
	if errors.As(err, &he) {
		status = he.Code
		msg = fmt.Sprint(he.Message)
	}
	var se *StatusError
	title := ""
	if errors.As(err, &se) {
		msg, title = se.Message, se.Title
	}
	// The request's one log line (requestLog) reports the error.
	if strings.HasPrefix(r.URL.Path, "/api/") {
		body := map[string]string{"error": msg}
		if title != "" {
			body["title"] = title
		}
		c.JSON(status, body)
		return
	}
	if s.cfg.Dev() {
		if berr := s.pages.BuildErr(); berr != nil {
			devError(c, "Build failed", berr)
			return
		}
		if status >= 500 {
			devError(c, "Render failed", err)
			return
		}
	}
	if status == http.StatusNotFound {
		if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/api/") {
			s.notFound.Hit(r.URL.Path, guard.ClientKey(c.RealIP()), time.Now())
		}
		var nf *site.NotFoundError
		if !errors.As(err, &nf) {
			nf = &site.NotFoundError{}
		}
		if p, perr := s.pages.NotFoundPage(r.Context(), nf); perr == nil {
			ssr.Serve(c.Response(), r, p, pages.HTMLType, "no-store")
			return
		}
	}
	if status >= 500 {
		if p := s.pages.ErrorPage(); p != nil {
			ep := *p
			ep.Status = status
			ssr.Serve(c.Response(), r, &ep, pages.HTMLType, "no-store")
			return
		}
	}
	c.String(status, msg)
}

// devError shows a build or render error with file and line in the page.
func devError(c echo.Context, title string, err error) {
	c.HTML(http.StatusInternalServerError, "<!doctype html><title>"+title+"</title><body style=\"font-family:monospace;padding:2rem\"><h1>"+title+"</h1><pre style=\"white-space:pre-wrap;background:#111;color:#fca5a5;padding:1rem\">"+html.EscapeString(err.Error())+"</pre><p>Save a file to rebuild.</p></body>")
}
