// Package httperr is the error every HTTP room returns: a status, a
// message safe to show, and the cause for the log. The server's one error
// handler turns it into a page or a JSON answer.
package httperr

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Error carries an HTTP status and a message safe to show.
type Error struct {
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

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%d %s: %v", e.Status, e.Message, e.Err)
	}
	return fmt.Sprintf("%d %s", e.Status, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// New is an Error with a status and a message.
func New(status int, msg string) *Error { return &Error{Status: status, Message: msg} }

// Titled is an Error with the spec's toast title.
func Titled(status int, title, msg string) *Error {
	return &Error{Status: status, Title: title, Message: msg}
}

// Unavailable is a 503 with its cause (a database that did not answer).
func Unavailable(msg string, err error) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Message: msg, Err: err}
}

// Status is err's HTTP status: an Error's, else 500.
func Status(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return http.StatusInternalServerError
}

// WantsJSON reports whether the request expects a JSON answer: an API
// path, or an Accept header asking for JSON (the site's forms post with
// it when their script runs).
func WantsJSON(c echo.Context) bool {
	return strings.HasPrefix(c.Request().URL.Path, "/api/") || strings.Contains(c.Request().Header.Get("Accept"), "application/json")
}
