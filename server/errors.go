package server

import (
	"errors"
	"net/http"

	"github.com/atlanta-restoration/site/web/httperr"
)

// NotFoundError is a content route's not-found state with the exact texts
// of spec 8. It is answered with status 404.
type NotFoundError struct {
	Title    string
	Message  string
	LinkHref string
	LinkText string
}

func (e *NotFoundError) Error() string { return "not found: " + e.Title }

// ErrNotFound is the generic not-found sentinel.
var ErrNotFound = &NotFoundError{}

// StatusError carries an HTTP status and a message safe to show; every
// room returns it (web/httperr).
type StatusError = httperr.Error

func statusOf(err error) int {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status
	}
	var nf *NotFoundError
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
	if errors.Is(err, ErrNotFound) {
		return true
	}
	var nf *NotFoundError
	return errors.As(err, &nf) && nf.Title == "" && nf.Message == ""
}
