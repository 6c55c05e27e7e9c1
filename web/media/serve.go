package media

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Serve streams a stored photo or video with Range support (video
// seeking). Only files the media table lists are served, as the type
// sniffed at upload (media.mime), never one guessed from the name; a
// variant is image/webp, which is what it was made as. Anything else is a
// 404, so nothing but a photo or video is ever served from /media/, and
// never as HTML or script. nosniff and a sandboxing CSP make sure a
// browser treats the bytes as that type and nothing else. Stored names are
// unique, so they are cached for a year.
func (h *Handler) Serve(c echo.Context) error {
	ctx := c.Request().Context()
	key := strings.TrimPrefix(c.Request().URL.Path, "/media/")
	if !storage.ValidKey(key) {
		return h.NotFound
	}
	ct, err := h.storedMediaType(ctx, key)
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "This file cannot be served right now.", Err: err}
	}
	if !media.Servable(ct) {
		return h.NotFound
	}
	o, err := h.Files.Open(ctx, key)
	if errors.Is(err, storage.ErrNotFound) {
		return h.NotFound
	}
	if err != nil {
		return err
	}
	defer o.Close()
	hdr := c.Response().Header()
	hdr.Set("Content-Type", ct)
	hdr.Set("X-Content-Type-Options", "nosniff")
	// Opened on its own, the file is a sandboxed document with no origin
	// that may load nothing but itself.
	if strings.HasPrefix(ct, "video/") {
		hdr.Set("Content-Security-Policy", "sandbox; default-src 'none'; media-src 'self'")
	} else {
		hdr.Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self'")
	}
	hdr.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(c.Response(), c.Request(), path.Base(key), o.ModTime(), o)
	return nil
}

// variantKey matches a variant's key: the original's without its
// extension, then "-{width}.webp".
var variantKey = regexp.MustCompile(`^(.+)-[0-9]+\.webp$`)

// storedMediaType is the type recorded for the file at key: the media
// row's sniffed type for an original, image/webp for a variant its row
// lists or a video's poster; "" when no row has it.
func (h *Handler) storedMediaType(ctx context.Context, key string) (string, error) {
	mimeType, err := h.Store.MediaTypeByPath(ctx, key)
	if err != nil || mimeType != "" {
		return mimeType, err
	}
	if media.IsPosterKey(key) {
		if ok, err := h.Store.IsPoster(ctx, key); err != nil || !ok {
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
	var originals []string
	for _, ext := range []string{"jpg", "jpeg", "png", "gif", "webp"} {
		originals = append(originals, m[1]+"."+ext)
	}
	raws, err := h.Store.VariantsOf(ctx, originals)
	if err != nil {
		return "", err
	}
	for _, raw := range raws {
		var vs []media.StoredVariant
		json.Unmarshal([]byte(raw), &vs)
		for _, v := range vs {
			if v.Path == key {
				return "image/webp", nil
			}
		}
	}
	return "", nil
}
