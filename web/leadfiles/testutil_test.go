package leadfiles

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image"
	"image/png"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// links is a fake of the links' store: tokens by hash, with the state a
// test gives them (revoked: not found).
type links struct {
	mu sync.Mutex
	m  map[string]db.LeadLink
}

func (l *links) LeadLinkByHash(_ context.Context, hash string, _ time.Time) (db.LeadLink, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k, ok := l.m[hash]
	if !ok || k.RevokedAt != nil {
		return k, db.ErrNotFound
	}
	return k, nil
}

// hashToken is the contract's rule: hex SHA-256 of a 22-character token.
func hashToken(t string) string {
	if len(t) != 22 {
		return ""
	}
	s := sha256.Sum256([]byte(t))
	return hex.EncodeToString(s[:])
}

type room struct {
	*authtest.Room
	h     *Handler
	links *links
	store *db.Store
	dir   string
}

// newRoom routes the room's handlers as server/install.go does (without
// the guards) on store, with files in a temporary folder.
func newRoom(t *testing.T, store *db.Store) *room {
	t.Helper()
	dir := t.TempDir()
	files, err := storage.NewLocal(filepath.Join(dir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	r := &room{Room: authtest.New(), links: &links{m: map[string]db.LeadLink{}}, store: store, dir: filepath.Join(dir, "media")}
	r.h = New(Handler{Store: store, Links: r.links, Hash: hashToken, Files: files, TempDir: filepath.Join(dir, "tmp"),
		MaxPhoto: 256 << 10, MaxDocument: 512 << 10, Lookups: guard.NewLimiter(1000, time.Minute), Posts: guard.NewLimiter(1000, time.Minute),
		Log: quiet, Render: func(_ context.Context, d site.FilesPageData) ([]byte, error) { return []byte("<p>files</p>"), nil }})
	// The server answers site.ErrNotFound with its 404 screen.
	answer := r.HTTPErrorHandler
	r.HTTPErrorHandler = func(err error, c echo.Context) {
		if errors.Is(err, site.ErrNotFound) {
			c.String(http.StatusNotFound, "not found")
			return
		}
		answer(err, c)
	}
	r.POST("/my/:token/photos", r.h.Photos)
	r.POST("/my/:token/messages", r.h.Message)
	r.GET("/my/:token/files", r.h.HomeownerPage)
	r.GET("/my/:token/files/:id", r.h.HomeownerFile)
	r.GET("/claim/:token/files", r.h.AdjusterPage)
	r.GET("/claim/:token/files/:id", r.h.AdjusterFile)
	r.GET("/api/admin/leads/:id/files", r.h.List, r.As)
	r.POST("/api/admin/leads/:id/files", r.h.Upload, r.As)
	r.GET("/api/admin/leads/:id/files/:file", r.h.Download, r.As)
	r.PUT("/api/admin/leads/:id/files/shared/:media", r.h.Share, r.As)
	r.DELETE("/api/admin/leads/:id/files/:file", r.h.Remove, r.As)
	return r
}

// lead stores a lead and gives it a link of kind; the token is returned.
func (r *room) lead(t *testing.T, id, kind string) string {
	t.Helper()
	now := time.Now().UTC()
	if _, err := r.store.GetLead(context.Background(), id); errors.Is(err, db.ErrNotFound) {
		if err := r.store.CreateLead(context.Background(), db.Lead{ID: id, CreatedAt: now, UpdatedAt: now, FirstName: "Ann", Email: id + "@example.com", City: "Smyrna", Status: "new", Source: "website"}); err != nil {
			t.Fatal(err)
		}
	}
	tok := (id + "-" + kind + "-tokentokentoken")[:22]
	r.links.mu.Lock()
	r.links.m[hashToken(tok)] = db.LeadLink{ID: "k-" + tok, LeadID: id, Kind: kind, CreatedAt: now}
	r.links.mu.Unlock()
	return tok
}

// part is one part of a multipart body.
type part struct {
	field, file string
	body        []byte
}

// multipartBody encodes parts.
func multipartBody(t *testing.T, parts ...part) (io.Reader, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		if p.file != "" {
			h.Set("Content-Disposition", `form-data; name="`+p.field+`"; filename="`+p.file+`"`)
			h.Set("Content-Type", "image/jpeg") // what the client says is never trusted
		} else {
			h.Set("Content-Disposition", `form-data; name="`+p.field+`"`)
		}
		pw, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		pw.Write(p.body)
	}
	w.Close()
	return &b, w.FormDataContentType()
}

// post sends parts to path as tok ("" nobody).
func (r *room) post(t *testing.T, path, tok string, parts ...part) *authtest.Response {
	t.Helper()
	body, ct := multipartBody(t, parts...)
	req := httptest.NewRequest("POST", path, body)
	req.Header.Set("Content-Type", ct)
	req.RemoteAddr = "192.0.2.10:4000"
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	return r.Serve(req)
}

// get fetches path with no caller.
func (r *room) get(path string) *authtest.Response {
	req := httptest.NewRequest("GET", path, nil)
	req.RemoteAddr = "192.0.2.10:4000"
	return r.Serve(req)
}

// stored lists the files in storage.
func (r *room) stored(t *testing.T) []string {
	t.Helper()
	var out []string
	filepath.Walk(r.dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			out = append(out, strings.TrimPrefix(p, r.dir+"/"))
		}
		return nil
	})
	return out
}

// pngOf is a w x h PNG.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
