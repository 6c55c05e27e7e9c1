package runjob

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/web/httperr"
)

type runner map[string]bool

func (r runner) RunNow(job string) bool { return r[job] }

func TestHandler(t *testing.T) {
	e := echo.New()
	latest := func(context.Context) string { return "run-7" }
	c := func() (echo.Context, *httptest.ResponseRecorder) {
		w := httptest.NewRecorder()
		return e.NewContext(httptest.NewRequest(http.MethodPost, "/", nil), w), w
	}

	ctx, w := c()
	if err := Handler(runner{"audit": true}, "audit", latest, "unavailable")(ctx); err != nil {
		t.Fatal(err)
	}
	if w.Code != http.StatusAccepted || w.Body.String() != "{\"queued\":true,\"after\":\"run-7\"}\n" {
		t.Errorf("queued: %d %s", w.Code, w.Body)
	}

	ctx, _ = c()
	err := Handler(runner{}, "audit", latest, "The job is not available.")(ctx)
	var he *httperr.Error
	if !errors.As(err, &he) || he.Status != http.StatusServiceUnavailable || he.Message != "The job is not available." {
		t.Errorf("unregistered job: %v", err)
	}
}
