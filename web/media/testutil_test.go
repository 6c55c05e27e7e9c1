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
	"sync/atomic"
	"testing"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/auth/authtest"
	"github.com/atlanta-restoration/site/web/httperr"
)

// The room's tests call its handlers as the PIN on a real test store and
// a media folder of their own. Who may upload (the guards of
// server/install.go), the body limits and the headers every answer
// carries are tested across rooms in server/.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// room is the media room over its store and folder, behind an echo
// instance that routes as server/install.go does (without the guards);
// a request without a token calls as the PIN.
type room struct {
	*authtest.Room
	h       *Handler
	store   *db.Store
	dir     string       // the data folder: media/ and tmp/
	changed atomic.Int64 // calls of Changed (the pages re-rendered)
}

// newRoom builds the room on a fresh SQLite store and a media folder
// under dir; each of with changes the handler before it is built (an
// upload limit, another storage).
func newRoom(t testing.TB, with ...func(*Handler)) *room {
	t.Helper()
	store := db.NewTestSQLite(t)
	dir := t.TempDir()
	files, err := storage.NewLocal(filepath.Join(dir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	r := &room{store: store, dir: dir}
	hv := Handler{Store: store, Files: files, MaxUpload: 2 << 30, TempDir: filepath.Join(dir, "tmp"), Changed: func(string) { r.changed.Add(1) },
		NotFound: httperr.New(http.StatusNotFound, "not found"), Log: quiet}
	for _, f := range with {
		f(&hv)
	}
	h := New(hv)
	r.Room, r.h = authtest.New(), h
	r.Caller("", auth.Principal{Role: accounts.RolePIN})
	e, pin := r.Room, r.As
	e.GET("/media/*", h.Serve)
	e.HEAD("/media/*", h.Serve)
	e.GET("/api/admin/media", h.List, pin)
	e.POST("/api/admin/media", h.Upload, pin)
	e.DELETE("/api/admin/media/:id", h.Delete, pin)
	e.PATCH("/api/admin/media/:id", h.SaveText, pin)
	e.PUT("/api/admin/media/:id/portfolio", h.SetPortfolio, pin)
	e.PUT("/api/admin/media/:id/poster", h.PutPoster, pin)
	return r
}

type response = authtest.Response

// serve answers req.
func (r *room) serve(req *http.Request) *response { return r.Serve(req) }

// get answers a GET of path.
func (r *room) get(path string) *response {
	return r.serve(httptest.NewRequest("GET", path, nil))
}

// json sends body as JSON (a string as it is).
func (r *room) json(t testing.TB, method, path string, body any) *response {
	t.Helper()
	return r.Call(t, method, path, "", body)
}

// form sends a multipart form: the text fields first (in order), then
// the file.
func (r *room) form(method, path string, fields [][2]string, filename string, content []byte) *response {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	part, _ := mw.CreateFormFile("file", filename)
	part.Write(content)
	mw.Close()
	req := httptest.NewRequest(method, path, &b)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return r.serve(req)
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
	return r.serve(req)
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
