package media

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// The room's tests call its handlers as the PIN on a real test store and
// a media folder of their own. Who may upload (the guards of
// server/install.go), the body limits and the headers every answer
// carries are tested across rooms in server/.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// room is the media room over its store and folder, behind an echo
// instance that routes as server/install.go does (without the guards)
// and answers errors with their status and message.
type room struct {
	h     *Handler
	store *db.Store
	e     *echo.Echo
}

func newRoom(t testing.TB) *room {
	t.Helper()
	store := db.NewTestSQLite(t)
	dir := t.TempDir()
	files, err := storage.NewLocal(filepath.Join(dir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	h := New(Handler{Store: store, Files: files, MaxUpload: 2 << 30, TempDir: filepath.Join(dir, "tmp"), Changed: func(string) {},
		NotFound: httperr.New(http.StatusNotFound, "not found"), Log: quiet})
	e := echo.New()
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		if !c.Response().Committed {
			c.JSON(httperr.Status(err), map[string]string{"error": err.Error()})
		}
	}
	pin := func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			auth.As(c, auth.Principal{Role: accounts.RolePIN})
			return next(c)
		}
	}
	e.GET("/media/*", h.Serve)
	e.GET("/api/admin/media", h.List, pin)
	e.POST("/api/admin/media", h.Upload, pin)
	e.DELETE("/api/admin/media/:id", h.Delete, pin)
	e.PATCH("/api/admin/media/:id", h.SaveText, pin)
	e.PUT("/api/admin/media/:id/portfolio", h.SetPortfolio, pin)
	e.PUT("/api/admin/media/:id/poster", h.PutPoster, pin)
	return &room{h: h, store: store, e: e}
}

type response struct {
	*http.Response
	Body string
}

// upload posts content as the file of a multipart form to project.
func (r *room) upload(t testing.TB, project, filename string, content []byte) *response {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	part, _ := mw.CreateFormFile("file", filename)
	part.Write(content)
	mw.Close()
	q := strings.NewReplacer(" ", "+", "/", "%2F", "&", "%26", "'", "%27", "#", "%23", "?", "%3F", "\\", "%5C").Replace(project)
	req := httptest.NewRequest("POST", "/api/admin/media?project="+q, &b)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	w := httptest.NewRecorder()
	r.e.ServeHTTP(w, req)
	res := w.Result()
	body, _ := io.ReadAll(res.Body)
	return &response{Response: res, Body: string(body)}
}

func testJPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 120, 255})
		}
	}
	var b bytes.Buffer
	jpeg.Encode(&b, img, nil)
	return b.Bytes()
}
