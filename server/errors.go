package server

import (
	"errors"
	"fmt"
	"net/http"
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

// StatusError carries an HTTP status and a message safe to show.
type StatusError struct {
	Status  int
	Message string
	Err     error
	// Quiet marks an expected condition (a feature that is not
	// configured): logged at info even when the status is 5xx.
	Quiet bool
	// Title is the spec's toast title for the error ('Access
	// Restricted'), sent beside the message in JSON answers.
	Title string
}

func (e *StatusError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%d %s: %v", e.Status, e.Message, e.Err)
	}
	return fmt.Sprintf("%d %s", e.Status, e.Message)
}

func (e *StatusError) Unwrap() error { return e.Err }

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
