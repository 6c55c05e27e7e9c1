package server

import (
	"errors"
	"net/http"

	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/httperr"
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
