package server

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
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

// bodyReader remembers the first error met reading the upload itself, so
// a failed upload can be put down to the client (cut off, too large, gone:
// a 4xx, logged at info) or to the storage (a 5xx).
type bodyReader struct {
	r   io.Reader
	err error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF && b.err == nil {
		b.err = err
	}
	return n, err
}

// uploadReadError is the answer for an upload that failed while its body
// was read or the client went away: 413 past the size cap, 408 when the
// body stalled, 400 when it was cut off. It is nil when the client did
// nothing wrong, and the failure is the server's.
func (s *Server) uploadReadError(ctx context.Context, body *bodyReader) error {
	if body.err == nil && ctx.Err() == nil {
		return nil
	}
	var tooBig *http.MaxBytesError
	if errors.Is(body.err, errTooLarge) || errors.As(body.err, &tooBig) {
		return s.tooLarge()
	}
	err := body.err
	if err == nil {
		err = ctx.Err()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &StatusError{Status: http.StatusRequestTimeout, Message: "The upload stopped arriving. Please try again.", Err: err}
	}
	return &StatusError{Status: http.StatusBadRequest, Message: "The upload was interrupted before the whole file arrived. Please try again.", Err: err}
}

// maxProjectName caps a project name (characters, after trimming): the
// folder name made from it must stay a valid storage key and file name.
const maxProjectName = 100

func (s *Server) listMedia(c echo.Context) error {
	rows, err := s.store.ListMedia(c.Request().Context())
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Failed to load existing photos", Err: err}
	}
	out := []media.GalleryItem{}
	for _, m := range rows {
		if m.Name != media.PlaceholderFile {
			out = append(out, media.ItemOf(m))
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
	if utf8.RuneCountInString(project) > maxProjectName {
		return &StatusError{Status: http.StatusBadRequest, Message: fmt.Sprintf("The project name can be at most %d characters.", maxProjectName)}
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
	texts := map[string]string{"caption": "", "alt": ""}
	part, err := fileAfterTexts(mr, texts)
	if err != nil {
		return err
	}
	caption, err := media.CleanCaption(texts["caption"])
	if err != nil {
		return textError(err)
	}
	alt, err := media.CleanAlt(texts["alt"])
	if err != nil {
		return textError(err)
	}
	original := part.FileName()
	// The first SniffLen bytes are peeked to type the file and check a
	// video's container; the rest streams.
	read := &bodyReader{r: &limitReader{r: part, n: max}}
	body := bufio.NewReaderSize(read, media.SniffLen)
	head, err := body.Peek(media.SniffLen)
	if err != nil && err != io.EOF {
		if rerr := s.uploadReadError(ctx, read); rerr != nil {
			return rerr
		}
		return &StatusError{Status: http.StatusBadRequest, Message: "The upload could not be read.", Err: err}
	}
	t, err := media.Sniff(head)
	if err == nil && t.Kind == "video" {
		err = media.CheckVideo(t, head, len(head) < media.SniffLen)
	}
	if err != nil {
		return &StatusError{Status: http.StatusUnsupportedMediaType, Message: fmt.Sprintf("%s: %s.", displayName(original), err.Error()), Err: err}
	}
	// The stored name's extension, and so everything the file is later
	// served as, comes from the sniffed type, never from the client.
	now := time.Now().UTC()
	name := media.StoredName(t.Ext, now)
	key := "projects/" + folder + "/" + name
	row := db.Media{ID: uuid.NewString(), Project: folder, Path: key, Name: name, Kind: t.Kind, MIME: t.MIME, CreatedAt: now, Caption: caption, Alt: alt}
	var stored []string
	cleanup := func() {
		for _, k := range stored {
			s.media.Delete(context.WithoutCancel(ctx), k)
		}
	}
	if t.Kind == "video" {
		// On failure Put leaves nothing under key (nor an empty folder).
		n, err := s.media.Put(ctx, key, body, t.MIME)
		if err != nil {
			if rerr := s.uploadReadError(ctx, read); rerr != nil {
				return rerr
			}
			return &StatusError{Status: http.StatusInternalServerError, Message: "The video could not be stored.", Err: err}
		}
		stored, row.Size = append(stored, key), n
	} else {
		if err := s.storeImage(ctx, body, read, t, key, &row, &stored); err != nil {
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
	return c.JSON(http.StatusCreated, media.ItemOf(row))
}

// storeImage spools a photo to a temporary file (decoding needs random
// access), processes it, and stores the clean original and its variants.
// One photo is processed at a time, within media.DecodeBudget.
func (s *Server) storeImage(ctx context.Context, body io.Reader, read *bodyReader, t media.Type, key string, row *db.Media, stored *[]string) error {
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
	if err != nil {
		if rerr := s.uploadReadError(ctx, read); rerr != nil {
			return rerr
		}
		return &StatusError{Status: http.StatusInternalServerError, Message: "The photo could not be stored.", Err: err}
	}
	// The cleaned original goes to a second file, not memory: a
	// re-encoded PNG can be as large as its pixels.
	clean, err := os.CreateTemp(spool, "clean-*")
	if err != nil {
		return err
	}
	defer os.Remove(clean.Name())
	defer clean.Close()
	s.imageSem <- struct{}{}
	p, err := media.ProcessImage(tmp, n, t, clean)
	<-s.imageSem
	var tooBig *media.TooLargeError
	if errors.As(err, &tooBig) {
		return &StatusError{Status: http.StatusRequestEntityTooLarge, Err: err, Message: fmt.Sprintf(
			"This photo is too large to process (%d×%d pixels). Photos up to %g megapixels are accepted for this kind of file.",
			tooBig.Width, tooBig.Height, tooBig.MaxMegapixels)}
	}
	if err != nil {
		return &StatusError{Status: http.StatusUnprocessableEntity, Message: "The photo could not be read: the file may be damaged.", Err: err}
	}
	if _, err := clean.Seek(0, io.SeekStart); err != nil {
		return err
	}
	size, err := s.media.Put(ctx, key, clean, t.MIME)
	if err != nil {
		if rerr := s.uploadReadError(ctx, read); rerr != nil {
			return rerr
		}
		return &StatusError{Status: http.StatusInternalServerError, Message: "The photo could not be stored.", Err: err}
	}
	*stored = append(*stored, key)
	base := strings.TrimSuffix(key, path.Ext(key))
	var vs []media.StoredVariant
	for _, v := range p.Variants {
		vk := fmt.Sprintf("%s-%d.webp", base, v.Width)
		if _, err := s.media.Put(ctx, vk, bytes.NewReader(v.Data), "image/webp"); err != nil {
			if rerr := s.uploadReadError(ctx, read); rerr != nil {
				return rerr
			}
			return &StatusError{Status: http.StatusInternalServerError, Message: "The photo could not be stored.", Err: err}
		}
		*stored = append(*stored, vk)
		vs = append(vs, media.StoredVariant{Width: v.Width, Path: vk})
	}
	vj, _ := json.Marshal(vs)
	row.Size, row.Width, row.Height, row.Variants = size, p.Width, p.Height, string(vj)
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
	keys := mediaKeys(m)
	for _, k := range keys {
		if err := s.media.Delete(ctx, k); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return &StatusError{Status: http.StatusInternalServerError, Message: "The file could not be removed from storage.", Err: err}
		}
	}
	gone, err := s.store.DeleteMedia(ctx, m.ID)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The photo could not be deleted right now.", Err: err}
	}
	// A poster saved while the files above were deleted is on the row
	// that was deleted, and goes with it.
	if gone.Poster != "" && gone.Poster != m.Poster {
		if err := s.media.Delete(ctx, gone.Poster); err != nil && !errors.Is(err, storage.ErrNotFound) {
			s.log.Warn("poster left in storage", "key", gone.Poster, "err", err)
		}
	}
	s.log.Info("media deleted", "path", m.Path)
	s.Invalidate("media deleted")
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// mediaKeys are the storage keys of a media row's files: the original,
// its WebP variants and a video's poster.
func mediaKeys(m db.Media) []string {
	keys := []string{m.Path}
	var vs []media.StoredVariant
	if json.Unmarshal([]byte(m.Variants), &vs) == nil {
		for _, v := range vs {
			keys = append(keys, v.Path)
		}
	}
	if m.Poster != "" {
		keys = append(keys, m.Poster)
	}
	return keys
}

// serveMedia streams a stored photo or video with Range support (video
// seeking). Only files the media table lists are served, as the type
// sniffed at upload (media.mime), never one guessed from the name; a
// variant is image/webp, which is what it was made as. Anything else is a
// 404, so nothing but a photo or video is ever served from /media/, and
// never as HTML or script. nosniff and a sandboxing CSP make sure a
// browser treats the bytes as that type and nothing else. Stored names are
// unique, so they are cached for a year.
func (s *Server) serveMedia(c echo.Context) error {
	ctx := c.Request().Context()
	key := strings.TrimPrefix(c.Request().URL.Path, "/media/")
	if !storage.ValidKey(key) {
		return ErrNotFound
	}
	ct, err := s.storedMediaType(ctx, key)
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "This file cannot be served right now.", Err: err}
	}
	if !media.Servable(ct) {
		return ErrNotFound
	}
	o, err := s.media.Open(ctx, key)
	if errors.Is(err, storage.ErrNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	defer o.Close()
	h := c.Response().Header()
	h.Set("Content-Type", ct)
	h.Set("X-Content-Type-Options", "nosniff")
	// Opened on its own, the file is a sandboxed document with no origin
	// that may load nothing but itself.
	if strings.HasPrefix(ct, "video/") {
		h.Set("Content-Security-Policy", "sandbox; default-src 'none'; media-src 'self'")
	} else {
		h.Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self'")
	}
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(c.Response(), c.Request(), path.Base(key), o.ModTime(), o)
	return nil
}

// variantKey matches a variant's key: the original's without its
// extension, then "-{width}.webp".
var variantKey = regexp.MustCompile(`^(.+)-[0-9]+\.webp$`)

// storedMediaType is the type recorded for the file at key: the media
// row's sniffed type for an original, image/webp for a variant its row
// lists or a video's poster; "" when no row has it.
//
// The queries go through the store's SQL handle because the db package
// has no lookup by path yet (it would belong in db/media.go).
func (s *Server) storedMediaType(ctx context.Context, key string) (string, error) {
	q := func(query string) string { return sqlx.Rebind(sqlx.BindType(s.store.Dialect()), query) }
	var mimeType string
	err := s.store.SQL().QueryRowContext(ctx, q(`SELECT mime FROM media WHERE path = ?`), key).Scan(&mimeType)
	if err == nil {
		return mimeType, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	if media.IsPosterKey(key) {
		if ok, err := s.store.IsPoster(ctx, key); err != nil || !ok {
			return "", err
		}
		return "image/webp", nil
	}
	m := variantKey.FindStringSubmatch(key)
	if m == nil {
		return "", nil
	}
	// The original's extension is its sniffed type's (older uploads may
	// have kept "jpeg"); its row lists the variant's exact key.
	var originals []any
	for _, ext := range []string{"jpg", "jpeg", "png", "gif", "webp"} {
		originals = append(originals, m[1]+"."+ext)
	}
	rows, err := s.store.SQL().QueryContext(ctx, q(`SELECT variants FROM media WHERE path IN (?, ?, ?, ?, ?)`), originals...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return "", err
		}
		var vs []media.StoredVariant
		json.Unmarshal([]byte(raw), &vs)
		for _, v := range vs {
			if v.Path == key {
				return "image/webp", nil
			}
		}
	}
	return "", rows.Err()
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

// maxTextPart bounds a caption or alt part of an upload before it is
// cleaned and counted (media.MaxCaption characters, whitespace and all).
const maxTextPart = 16 << 10

// fileAfterTexts reads multipart parts up to the one named file, which it
// returns unread for streaming. Text parts named in texts that come
// before it are read into texts (at most maxTextPart bytes each); other
// parts are skipped.
func fileAfterTexts(mr *multipart.Reader, texts map[string]string) (*multipart.Part, error) {
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil, &StatusError{Status: http.StatusBadRequest, Message: "No file was sent (field name: file)."}
		}
		if err != nil {
			return nil, &StatusError{Status: http.StatusBadRequest, Message: "The upload was interrupted.", Err: err}
		}
		name := p.FormName()
		if name == "file" {
			return p, nil
		}
		if _, wanted := texts[name]; !wanted {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(p, maxTextPart+1))
		if err != nil {
			return nil, &StatusError{Status: http.StatusBadRequest, Message: "The upload was interrupted.", Err: err}
		}
		if len(b) > maxTextPart {
			return nil, &StatusError{Status: http.StatusBadRequest, Message: fmt.Sprintf("The %s is far too long: keep it under %d characters.", textLabel(name), media.MaxCaption)}
		}
		texts[name] = string(b)
	}
}

func textLabel(field string) string {
	if field == "alt" {
		return "alt text"
	}
	return field
}

// textError is the answer for a caption or alt text media refuses.
func textError(err error) error {
	var te *media.TextError
	if errors.As(err, &te) {
		return &StatusError{Status: http.StatusBadRequest, Message: te.Message, Err: err}
	}
	return err
}

// posterPath is the poster endpoint's URL path.
var posterPath = regexp.MustCompile(`^/api/admin/media/[^/]+/poster$`)

// isUploadRequest reports a request whose body is a file: a photo or
// video upload, or a video poster. Such bodies stream under their own
// caps (MAX_UPLOAD_BYTES, media.MaxPosterBytes) and UPLOAD_IDLE_TIMEOUT,
// not BODY_LIMIT and BODY_READ_TIMEOUT.
func isUploadRequest(method, urlPath string) bool {
	return method == http.MethodPost && urlPath == "/api/admin/media" ||
		method == http.MethodPut && posterPath.MatchString(urlPath)
}
