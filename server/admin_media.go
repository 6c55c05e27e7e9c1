package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/storage"
)

// errTooLarge is returned by limitReader past the upload cap.
var errTooLarge = errors.New("upload exceeds the size limit")

// limitReader fails once more than n bytes have been read, so an upload
// is cut off at the cap while it streams instead of after it is stored.
type limitReader struct {
	r io.Reader
	n int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n < 0 {
		return 0, errTooLarge
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	if l.n < 0 {
		return n, errTooLarge
	}
	return n, err
}

func (s *Server) listMedia(c echo.Context) error {
	rows, err := s.store.ListMedia(c.Request().Context())
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Failed to load existing photos", Err: err}
	}
	out := []GalleryItem{}
	for _, m := range rows {
		if m.Name != placeholderFile {
			out = append(out, galleryItem(m))
		}
	}
	return c.JSON(http.StatusOK, out)
}

func (s *Server) tooLarge() error {
	return &StatusError{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("The file is larger than the %s upload limit.", humanBytes(s.cfg.Admin.MaxUpload))}
}

// uploadMedia stores one photo or video. The request body is read as a
// stream: the file part is sniffed from its first bytes, cut off at the
// size cap, and written to storage without ever being held whole in memory.
func (s *Server) uploadMedia(c echo.Context) error {
	req := c.Request()
	ctx := req.Context()
	project := strings.TrimSpace(c.QueryParam("project"))
	if project == "" {
		return &StatusError{Status: http.StatusBadRequest, Message: "Please enter a project name before uploading."}
	}
	folder := media.FolderSlug(project)
	if folder == "" {
		return &StatusError{Status: http.StatusBadRequest, Message: "The project name needs at least one letter or digit."}
	}
	max := s.cfg.Admin.MaxUpload
	if req.ContentLength > max+1<<20 {
		return s.tooLarge()
	}
	mr, err := req.MultipartReader()
	if err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the file as multipart/form-data in a field named file.", Err: err}
	}
	var part interface {
		io.Reader
		FileName() string
		FormName() string
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return &StatusError{Status: http.StatusBadRequest, Message: "No file was sent (field name: file)."}
		}
		if err != nil {
			return &StatusError{Status: http.StatusBadRequest, Message: "The upload was interrupted.", Err: err}
		}
		if p.FormName() == "file" {
			part = p
			break
		}
	}
	original := part.FileName()
	body := bufio.NewReaderSize(&limitReader{r: part, n: max}, 64<<10)
	head, _ := body.Peek(512)
	t, err := media.Sniff(head)
	if err != nil {
		return &StatusError{Status: http.StatusUnsupportedMediaType, Message: fmt.Sprintf("%s: %s.", displayName(original), err.Error()), Err: err}
	}
	now := time.Now().UTC()
	name := media.StoredName(original, t.Ext, now)
	key := "projects/" + folder + "/" + name
	row := db.Media{ID: uuid.NewString(), Project: folder, Path: key, Name: name, Kind: t.Kind, MIME: t.MIME, CreatedAt: now}
	var stored []string
	cleanup := func() {
		for _, k := range stored {
			s.media.Delete(context.WithoutCancel(ctx), k)
		}
	}
	if t.Kind == "video" {
		n, err := s.media.Put(ctx, key, body, t.MIME)
		if errors.Is(err, errTooLarge) {
			return s.tooLarge()
		}
		if err != nil {
			return &StatusError{Status: http.StatusInternalServerError, Message: "The video could not be stored.", Err: err}
		}
		stored, row.Size = append(stored, key), n
	} else {
		if err := s.storeImage(ctx, body, t, key, &row, &stored); err != nil {
			cleanup()
			return err
		}
	}
	if err := s.store.CreateMedia(ctx, row); err != nil {
		cleanup()
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The upload could not be saved.", Err: err}
	}
	s.log.Info("media uploaded", "path", key, "bytes", row.Size, "kind", row.Kind)
	s.Invalidate("media uploaded")
	return c.JSON(http.StatusCreated, galleryItem(row))
}

// storeImage spools a photo to a temporary file (decoding needs random
// access), processes it, and stores the clean original and its variants.
// One photo is processed at a time to bound memory.
func (s *Server) storeImage(ctx context.Context, body io.Reader, t media.Type, key string, row *db.Media, stored *[]string) error {
	spool := filepath.Join(s.cfg.DataDir, "tmp")
	if err := os.MkdirAll(spool, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(spool, "upload-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	n, err := io.Copy(tmp, body)
	if errors.Is(err, errTooLarge) {
		return s.tooLarge()
	}
	if err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "The upload was interrupted.", Err: err}
	}
	s.imageSem <- struct{}{}
	p, err := media.ProcessImage(tmp, n, t)
	<-s.imageSem
	if errors.Is(err, media.ErrTooManyPixels) {
		return &StatusError{Status: http.StatusRequestEntityTooLarge, Message: "The photo is larger than 40 megapixels.", Err: err}
	}
	if err != nil {
		return &StatusError{Status: http.StatusUnprocessableEntity, Message: "The photo could not be read: the file may be damaged.", Err: err}
	}
	if _, err := s.media.Put(ctx, key, strings.NewReader(string(p.Original)), t.MIME); err != nil {
		return &StatusError{Status: http.StatusInternalServerError, Message: "The photo could not be stored.", Err: err}
	}
	*stored = append(*stored, key)
	base := strings.TrimSuffix(key, path.Ext(key))
	var vs []Variant
	for _, v := range p.Variants {
		vk := fmt.Sprintf("%s-%d.webp", base, v.Width)
		if _, err := s.media.Put(ctx, vk, strings.NewReader(string(v.Data)), "image/webp"); err != nil {
			return &StatusError{Status: http.StatusInternalServerError, Message: "The photo could not be stored.", Err: err}
		}
		*stored = append(*stored, vk)
		vs = append(vs, Variant{Width: v.Width, Path: vk})
	}
	vj, _ := json.Marshal(vs)
	row.Size, row.Width, row.Height, row.Variants = int64(len(p.Original)), p.Width, p.Height, string(vj)
	return nil
}

// deleteMedia removes a file, its variants and its record.
func (s *Server) deleteMedia(c echo.Context) error {
	ctx := c.Request().Context()
	m, err := s.store.GetMedia(ctx, c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusNotFound, Message: "This photo no longer exists.", Err: err}
	}
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The photo could not be deleted right now.", Err: err}
	}
	keys := []string{m.Path}
	var vs []Variant
	if json.Unmarshal([]byte(m.Variants), &vs) == nil {
		for _, v := range vs {
			keys = append(keys, v.Path)
		}
	}
	for _, k := range keys {
		if err := s.media.Delete(ctx, k); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return &StatusError{Status: http.StatusInternalServerError, Message: "The file could not be removed from storage.", Err: err}
		}
	}
	if err := s.store.DeleteMedia(ctx, m.ID); err != nil && !errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The photo could not be deleted right now.", Err: err}
	}
	s.log.Info("media deleted", "path", m.Path)
	s.Invalidate("media deleted")
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// serveMedia streams a stored file with Range support (video seeking).
// Stored names are unique, so they are cached for a year.
func (s *Server) serveMedia(c echo.Context) error {
	key := strings.TrimPrefix(c.Request().URL.Path, "/media/")
	if !storage.ValidKey(key) {
		return ErrNotFound
	}
	o, err := s.media.Open(c.Request().Context(), key)
	if errors.Is(err, storage.ErrNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	defer o.Close()
	h := c.Response().Header()
	ct := mime.TypeByExtension(path.Ext(key))
	if path.Ext(key) == ".mov" {
		ct = "video/quicktime"
	}
	if ct != "" {
		h.Set("Content-Type", ct)
	}
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(c.Response(), c.Request(), path.Base(key), o.ModTime(), o)
	return nil
}

func displayName(n string) string {
	n = path.Base(strings.ReplaceAll(n, "\\", "/"))
	if n == "." || n == "/" || n == "" {
		return "The file"
	}
	if len(n) > 80 {
		n = n[:80]
	}
	return n
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	default:
		return fmt.Sprintf("%d KB", n>>10)
	}
}
