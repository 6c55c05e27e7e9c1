package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/storage"
)

// mediaTextForm is PATCH /api/admin/media/:id's body. Both fields are
// required: a save always writes the pair the owner sees, so no save
// leaves one field of an earlier save behind.
type mediaTextForm struct {
	Caption *string `json:"caption"`
	Alt     *string `json:"alt"`
}

// saveMediaText saves a photo's or video's caption and alt text (ADR 024).
func (s *Server) saveMediaText(c echo.Context) error {
	var f mediaTextForm
	if err := c.Bind(&f); err != nil || f.Caption == nil || f.Alt == nil {
		return &StatusError{Status: http.StatusBadRequest, Message: `Send {"caption": "...", "alt": "..."} as JSON.`, Err: err}
	}
	caption, err := media.CleanCaption(*f.Caption)
	if err != nil {
		return textError(err)
	}
	alt, err := media.CleanAlt(*f.Alt)
	if err != nil {
		return textError(err)
	}
	m, err := s.store.SetMediaText(c.Request().Context(), c.Param("id"), caption, alt)
	if errors.Is(err, db.ErrNotFound) {
		return &StatusError{Status: http.StatusNotFound, Message: "This photo no longer exists.", Err: err}
	}
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The caption could not be saved right now. Try again.", Err: err}
	}
	s.Invalidate("media text saved")
	return c.JSON(http.StatusOK, media.ItemOf(m))
}

// putMediaPoster sets a video's poster: a frame the upload tool captured
// in the browser, or an image the owner picked (ADR 024). The image is
// untrusted: it must sniff as JPEG, PNG or WebP (415), stay within
// media.MaxPosterBytes (413) and the photo decode budget (413), and is
// decoded and re-encoded as a WebP stored beside the video.
func (s *Server) putMediaPoster(c echo.Context) error {
	req := c.Request()
	ctx := req.Context()
	m, err := s.store.GetMedia(ctx, c.Param("id"))
	if errors.Is(err, db.ErrNotFound) || (err == nil && m.Kind != "video") {
		return &StatusError{Status: http.StatusNotFound, Message: "There is no such video.", Err: err}
	}
	if err != nil {
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The poster could not be saved right now.", Err: err}
	}
	limit := min(int64(media.MaxPosterBytes), s.cfg.Admin.MaxUpload)
	tooBig := &StatusError{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("The poster is larger than the %s limit for posters.", humanBytes(limit))}
	if req.ContentLength > limit+1<<20 {
		return tooBig
	}
	mr, err := req.MultipartReader()
	if err != nil {
		return &StatusError{Status: http.StatusBadRequest, Message: "Send the poster as multipart/form-data in a field named file.", Err: err}
	}
	part, err := fileAfterTexts(mr, map[string]string{})
	if err != nil {
		return err
	}
	read := &bodyReader{r: &limitReader{r: part, n: limit}}
	spooled, size, t, err := s.spoolPoster(ctx, read)
	if spooled != "" {
		defer os.Remove(spooled)
	}
	if errors.Is(read.err, errTooLarge) {
		return tooBig
	}
	if err != nil {
		return err
	}
	p, err := s.processPoster(spooled, size, t)
	if err != nil {
		return err
	}
	key := media.PosterKey(m.Path)
	if _, err := s.media.Put(ctx, key, bytes.NewReader(p.Data), "image/webp"); err != nil {
		return &StatusError{Status: http.StatusInternalServerError, Message: "The poster could not be stored.", Err: err}
	}
	m, old, err := s.store.SetMediaPoster(ctx, m.ID, key, p.Width, p.Height)
	if err != nil {
		s.media.Delete(context.WithoutCancel(ctx), key)
		if errors.Is(err, db.ErrNotFound) {
			return &StatusError{Status: http.StatusNotFound, Message: "There is no such video.", Err: err}
		}
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "The poster could not be saved right now.", Err: err}
	}
	if old != "" {
		if err := s.media.Delete(ctx, old); err != nil && !errors.Is(err, storage.ErrNotFound) {
			s.log.Warn("replaced poster left in storage", "key", old, "err", err)
		}
	}
	s.log.Info("video poster saved", "video", m.Path, "poster", key, "bytes", len(p.Data))
	s.Invalidate("video poster saved")
	return c.JSON(http.StatusOK, media.ItemOf(m))
}

// spoolPoster types a poster from its first bytes and writes it to a
// temporary file (decoding needs random access). It returns the file's
// name (to remove, even on error), its size and its sniffed type.
func (s *Server) spoolPoster(ctx context.Context, read *bodyReader) (string, int64, media.Type, error) {
	body := bufio.NewReaderSize(read, 512)
	head, err := body.Peek(512)
	if err != nil && err != io.EOF {
		if rerr := s.uploadReadError(ctx, read); rerr != nil {
			return "", 0, media.Type{}, rerr
		}
		return "", 0, media.Type{}, &StatusError{Status: http.StatusBadRequest, Message: "The poster could not be read.", Err: err}
	}
	t, err := media.SniffPoster(head)
	var np *media.ErrNotPoster
	if errors.As(err, &np) {
		return "", 0, t, &StatusError{Status: http.StatusUnsupportedMediaType, Err: err,
			Message: fmt.Sprintf("A poster must be a JPEG, PNG or WebP image; this file is %s.", np.Detected)}
	}
	if err != nil {
		return "", 0, t, &StatusError{Status: http.StatusUnsupportedMediaType, Message: "This file cannot be a poster.", Err: err}
	}
	dir := filepath.Join(s.cfg.DataDir, "tmp")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", 0, t, err
	}
	tmp, err := os.CreateTemp(dir, "poster-*")
	if err != nil {
		return "", 0, t, err
	}
	defer tmp.Close()
	n, err := io.Copy(tmp, body)
	if err != nil {
		if rerr := s.uploadReadError(ctx, read); rerr != nil {
			return tmp.Name(), 0, t, rerr
		}
		return tmp.Name(), 0, t, &StatusError{Status: http.StatusInternalServerError, Message: "The poster could not be stored.", Err: err}
	}
	return tmp.Name(), n, t, nil
}

// processPoster decodes and re-encodes a spooled poster, one image at a
// time with photo uploads (they share the decode budget).
func (s *Server) processPoster(name string, size int64, t media.Type) (*media.Poster, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s.imageSem <- struct{}{}
	p, err := media.ProcessPoster(f, size, t)
	<-s.imageSem
	var tooBig *media.TooLargeError
	if errors.As(err, &tooBig) {
		return nil, &StatusError{Status: http.StatusRequestEntityTooLarge, Err: err, Message: fmt.Sprintf(
			"This poster is too large to process (%d×%d pixels). Images up to %g megapixels are accepted for this kind of file.",
			tooBig.Width, tooBig.Height, tooBig.MaxMegapixels)}
	}
	if err != nil {
		return nil, &StatusError{Status: http.StatusUnprocessableEntity, Message: "The poster could not be read: the image may be damaged.", Err: err}
	}
	return p, nil
}
