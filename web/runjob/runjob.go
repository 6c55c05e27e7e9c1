// Package runjob answers the admin's run buttons (Run Audit, Run Full
// Scan, Validate All, the health check's run): the job is asked to run
// now, and the press is answered at once with the id of the latest run it
// will replace. The screen polls until a newer run appears; a job never
// holds a request.
package runjob

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/web/httperr"
)

// Runner runs a registered job now (jobs.Runner). RunNow reports false
// when the job is not registered on this server.
type Runner interface {
	RunNow(job string) bool
}

// Queued answers a run press: the run is queued, and After is the id of
// the latest run it will replace.
type Queued struct {
	Queued bool   `json:"queued"`
	After  string `json:"after"`
}

// Handler asks for job now. latest returns the id of the latest run ("" for
// none); unavailable is the message when the job cannot run here.
func Handler(r Runner, job string, latest func(context.Context) string, unavailable string) echo.HandlerFunc {
	return func(c echo.Context) error {
		after := latest(c.Request().Context())
		if !r.RunNow(job) {
			return httperr.New(http.StatusServiceUnavailable, unavailable)
		}
		return c.JSON(http.StatusAccepted, Queued{Queued: true, After: after})
	}
}
