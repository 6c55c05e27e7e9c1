package pages

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/web/httperr"
)

var (
	quiet      = slog.New(slog.NewTextHandler(io.Discard, nil))
	engineOnce sync.Once
	engine     *ssr.Engine
	engineErr  error
)

const testBase = "https://www.example-restoration.test"

// fixed are settings, reviews and media that never change: these tests
// are about serving, not about what the pages say.
type fixed struct{ b config.Business }

func (f fixed) Business(context.Context) config.Business { return f.b }
func (f fixed) Availability(context.Context) settings.Availability {
	h, _ := settings.ParseHours(settings.DefaultHours)
	return settings.Availability{EmergencyMode: true, Hours: h}
}
func (fixed) OfficePhone(context.Context) string   { return "" }
func (fixed) Top(context.Context) []reviews.Review { return []reviews.Review{} }
func (fixed) Refresh(context.Context) (int, error) { return 0, reviews.ErrNotConfigured }
func (fixed) Figures(context.Context) reviews.Figures {
	return reviews.FromOwner(reviews.DefaultOwner())
}
func (fixed) Configured() bool                                   { return false }
func (fixed) ListPortfolio(context.Context) ([]db.Media, error)  { return nil, nil }
func (fixed) GetMedia(context.Context, string) (db.Media, error) { return db.Media{}, db.ErrNotFound }

// newTestHandler builds the room on the real content and the real React
// pages, sharing one SSR engine across tests (the build is the slow part),
// and a router that serves every page through it with the site's status
// codes.
func newTestHandler(t testing.TB) (*Handler, http.Handler) {
	t.Helper()
	root, err := ssr.FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	engineOnce.Do(func() {
		engine, engineErr = ssr.NewEngine(ssr.EngineOptions{Root: root, Kinds: site.PageKinds(), FullKinds: site.FullHydrationKinds, PoolSize: 2, Timeout: 20 * time.Second, Log: quiet})
	})
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadFrom(func(k string) string { return map[string]string{"BASE_URL": testBase}[k] })
	if err != nil {
		t.Fatal(err)
	}
	f := fixed{b: cfg.Business}
	st := site.New(site.Options{BaseURL: testBase, Content: c, Settings: f, Reviews: f, Media: f, Log: quiet})
	h, err := New(Options{Site: st, Engine: engine, StaticDir: root + "/static", Settings: f, Reviews: f, PageCC: "public, max-age=0, must-revalidate", NoWarm: true, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		status := httperr.Status(err)
		var nf *site.NotFoundError
		if errors.As(err, &nf) {
			status = http.StatusNotFound
		}
		c.String(status, err.Error())
	}
	e.GET("/*", h.Page)
	return h, e
}

type response struct {
	*http.Response
	Body string
}

func get(t testing.TB, h http.Handler, path string, hdr ...string) *response {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	return &response{Response: res, Body: string(b)}
}
