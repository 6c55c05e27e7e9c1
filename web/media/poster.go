package media

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/web/httperr"
)

// PutPoster sets a video's poster: a frame the upload tool captured
// in the browser, or an image the owner picked (ADR 024). The image is
// untrusted: it must sniff as JPEG, PNG or WebP (415), stay within
// media.MaxPosterBytes (413) and the photo decode budget (413), and is
// decoded and re-encoded as a WebP stored beside the video.
func (h *Handler) PutPoster(c echo.Context) error {
	req := c.Request()
	ctx := req.Context()
	m, err := h.Store.GetMedia(ctx, c.Param("id"))
	if errors.Is(err, db.ErrNotFound) || (err == nil && m.Kind != "video") {
		return &httperr.Error{Status: http.StatusNotFound, Message: "There is no such video.", Err: err}
	}
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The poster could not be saved right now.", Err: err}
	}
	limit := min(int64(media.MaxPosterBytes), h.MaxUpload)
	tooBig := &httperr.Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("The poster is larger than the %s limit for posters.", humanBytes(limit))}
	if req.ContentLength > limit+1<<20 {
		return tooBig
	}
	mr, err := req.MultipartReader()
	if err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send the poster as multipart/form-data in a field named file.", Err: err}
	}
	part, err := fileAfterTexts(mr, map[string]string{})
	if err != nil {
		return err
	}
	read := &bodyReader{r: &limitReader{r: part, n: limit}}
	spooled, size, t, err := h.spoolPoster(ctx, read)
	if spooled != "" {
		defer os.Remove(spooled)
	}
	if errors.Is(read.err, errTooLarge) {
		return tooBig
	}
	if err != nil {
		return err
	}
	p, err := h.processPoster(spooled, size, t)
	if err != nil {
		return err
	}
	key := media.PosterKey(m.Path)
	if _, err := h.Files.Put(ctx, key, bytes.NewReader(p.Data), "image/webp"); err != nil {
		return &httperr.Error{Status: http.StatusInternalServerError, Message: "The poster could not be stored.", Err: err}
	}
	m, old, err := h.Store.SetMediaPoster(ctx, m.ID, key, p.Width, p.Height)
	if err != nil {
		h.Files.Delete(context.WithoutCancel(ctx), key)
		if errors.Is(err, db.ErrNotFound) {
			return &httperr.Error{Status: http.StatusNotFound, Message: "There is no such video.", Err: err}
		}
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The poster could not be saved right now.", Err: err}
	}
	if old != "" {
		if err := h.Files.Delete(ctx, old); err != nil && !errors.Is(err, storage.ErrNotFound) {
			h.Log.Warn("replaced poster left in storage", "key", old, "err", err)
		}
	}
	h.Log.Info("video poster saved", "video", m.Path, "poster", key, "bytes", len(p.Data))
	h.Changed("video poster saved")
	return c.JSON(http.StatusOK, media.ItemOf(m))
}

// spoolPoster types a poster from its first bytes and writes it to a
// temporary file (decoding needs random access). It returns the file's
// name (to remove, even on error), its size and its sniffed type.
func (h *Handler) spoolPoster(ctx context.Context, read *bodyReader) (string, int64, media.Type, error) {
	body := bufio.NewReaderSize(read, 512)
	head, err := body.Peek(512)
	if err != nil && err != io.EOF {
		if rerr := h.uploadReadError(ctx, read); rerr != nil {
			return "", 0, media.Type{}, rerr
		}
		return "", 0, media.Type{}, &httperr.Error{Status: http.StatusBadRequest, Message: "The poster could not be read.", Err: err}
	}
	t, err := media.SniffPoster(head)
	var np *media.ErrNotPoster
	if errors.As(err, &np) {
		return "", 0, t, &httperr.Error{Status: http.StatusUnsupportedMediaType, Err: err,
			Message: fmt.Sprintf("A poster must be a JPEG, PNG or WebP image; this file is %s.", np.Detected)}
	}
	if err != nil {
		return "", 0, t, &httperr.Error{Status: http.StatusUnsupportedMediaType, Message: "This file cannot be a poster.", Err: err}
	}
	dir := h.TempDir
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
		if rerr := h.uploadReadError(ctx, read); rerr != nil {
			return tmp.Name(), 0, t, rerr
		}
		return tmp.Name(), 0, t, &httperr.Error{Status: http.StatusInternalServerError, Message: "The poster could not be stored.", Err: err}
	}
	return tmp.Name(), n, t, nil
}

// processPoster decodes and re-encodes a spooled poster, one image at a
// time with photo uploads (they share the decode budget).
func (h *Handler) processPoster(name string, size int64, t media.Type) (*media.Poster, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h.sem <- struct{}{}
	p, err := media.ProcessPoster(f, size, t)
	<-h.sem
	var tooBig *media.TooLargeError
	if errors.As(err, &tooBig) {
		return nil, &httperr.Error{Status: http.StatusRequestEntityTooLarge, Err: err, Message: fmt.Sprintf(
			"This poster is too large to process (%d×%d pixels). Images up to %g megapixels are accepted for this kind of file.",
			tooBig.Width, tooBig.Height, tooBig.MaxMegapixels)}
	}
	if err != nil {
		return nil, &httperr.Error{Status: http.StatusUnprocessableEntity, Message: "The poster could not be read: the image may be damaged.", Err: err}
	}
	return p, nil
}
