package media

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/paging"
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
func (h *Handler) uploadReadError(ctx context.Context, body *bodyReader) error {
	if body.err == nil && ctx.Err() == nil {
		return nil
	}
	var tooBig *http.MaxBytesError
	if errors.Is(body.err, errTooLarge) || errors.As(body.err, &tooBig) {
		return h.tooLarge()
	}
	err := body.err
	if err == nil {
		err = ctx.Err()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &httperr.Error{Status: http.StatusRequestTimeout, Message: "The upload stopped arriving. Please try again.", Err: err}
	}
	return &httperr.Error{Status: http.StatusBadRequest, Message: "The upload was interrupted before the whole file arrived. Please try again.", Err: err}
}

// maxProjectName caps a project name (characters, after trimming): the
// folder name made from it must stay a valid storage key and file name.
const maxProjectName = 100

// Library is GET /api/admin/media: one page of the photo library, newest
// first (q, page, perPage: web/paging; type=image or video keeps one kind).
type Library struct {
	Items []media.GalleryItem `json:"items"`
	paging.Info
}

// List answers one page of the photo library; q matches the file's name,
// its project, its caption and its alt text.
func (h *Handler) List(c echo.Context) error {
	pg, err := paging.From(c, paging.DefaultPerPage)
	if err != nil {
		return err
	}
	kind := c.QueryParam("type")
	if kind != "" && kind != "image" && kind != "video" {
		return httperr.New(http.StatusBadRequest, "Type must be image or video.")
	}
	rows, total, err := h.Store.MediaPage(c.Request().Context(), db.MediaQuery{Kind: kind, Page: db.Page{Q: pg.Q, Limit: pg.Limit(), Offset: pg.Offset()}})
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "Failed to load existing photos", Err: err}
	}
	out := Library{Items: make([]media.GalleryItem, 0, len(rows)), Info: pg.Info(total)}
	for _, m := range rows {
		out.Items = append(out.Items, media.ItemOf(m))
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) tooLarge() error {
	return &httperr.Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("The file is larger than the %s upload limit.", humanBytes(h.MaxUpload))}
}

// Upload stores one photo or video. The request body is read as a
// stream: the file part is sniffed from its first bytes, cut off at the
// size cap, and written to storage without ever being held whole in memory.
func (h *Handler) Upload(c echo.Context) error {
	req := c.Request()
	ctx := req.Context()
	job, err := h.uploadJob(ctx, c.QueryParam("job"), c.QueryParam("phase"), auth.From(c).Can(accounts.ContentEdit))
	if err != nil {
		return err
	}
	portfolio := c.QueryParam("portfolio")
	if job != nil && portfolio == "" {
		portfolio = "false" // a job's photo is the job's, not a portfolio project's
	}
	work, err := uploadIsProjectWork(portfolio)
	if err != nil {
		return err
	}
	folder, err := projectFolder(c.QueryParam("project"), work)
	if err != nil {
		return err
	}
	max := h.MaxUpload
	if req.ContentLength > max+1<<20 {
		return h.tooLarge()
	}
	mr, err := req.MultipartReader()
	if err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send the file as multipart/form-data in a field named file.", Err: err}
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
		if rerr := h.uploadReadError(ctx, read); rerr != nil {
			return rerr
		}
		return &httperr.Error{Status: http.StatusBadRequest, Message: "The upload could not be read.", Err: err}
	}
	t, err := media.Sniff(head)
	if err == nil && t.Kind == "video" {
		err = media.CheckVideo(t, head, len(head) < media.SniffLen)
	}
	if err != nil {
		return &httperr.Error{Status: http.StatusUnsupportedMediaType, Message: fmt.Sprintf("%s: %s.", displayName(original), err.Error()), Err: err}
	}
	// The stored name's extension, and so everything the file is later
	// served as, comes from the sniffed type, never from the client.
	now := time.Now().UTC()
	name := media.StoredName(t.Ext, now)
	key := "projects/" + cmp.Or(folder, LibraryFolder) + "/" + name
	row := db.Media{ID: uuid.NewString(), Project: folder, Path: key, Name: name, Kind: t.Kind, MIME: t.MIME, CreatedAt: now, Caption: caption, Alt: alt, Portfolio: work}
	var stored []string
	cleanup := func() {
		for _, k := range stored {
			h.Files.Delete(context.WithoutCancel(ctx), k)
		}
	}
	if t.Kind == "video" {
		// On failure Put leaves nothing under key (nor an empty folder).
		n, err := h.Files.Put(ctx, key, body, t.MIME)
		if err != nil {
			if rerr := h.uploadReadError(ctx, read); rerr != nil {
				return rerr
			}
			return &httperr.Error{Status: http.StatusInternalServerError, Message: "The video could not be stored.", Err: err}
		}
		stored, row.Size = append(stored, key), n
	} else {
		if err := h.storeImage(ctx, body, read, t, key, &row, &stored); err != nil {
			cleanup()
			return err
		}
	}
	if err := h.Store.CreateMedia(ctx, row); err != nil {
		cleanup()
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The upload could not be saved.", Err: err}
	}
	// Whether the photo said where it was taken is logged, never where.
	h.Log.Info("media uploaded", "path", key, "bytes", row.Size, "kind", row.Kind, "portfolio", row.Portfolio, "place", row.GeoLat != nil)
	if job != nil {
		if err := h.Store.AttachMedia(ctx, job.id, row.ID, job.phase); err != nil {
			// The photo is stored and stays in the library.
			return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The photo was saved to the library, but could not be added to the job. Add it from the job's screen.", Err: err}
		}
		row.JobID, row.Phase = &job.id, job.phase
	}
	if row.Portfolio || job != nil && job.published {
		h.Changed("media uploaded")
	}
	return c.JSON(http.StatusCreated, media.ItemOf(row))
}

// storeImage spools a photo to a temporary file (decoding needs random
// access), processes it, and stores the clean original and its variants.
// One photo is processed at a time, within media.DecodeBudget.
func (h *Handler) storeImage(ctx context.Context, body io.Reader, read *bodyReader, t media.Type, key string, row *db.Media, stored *[]string) error {
	spool := h.TempDir
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
		if rerr := h.uploadReadError(ctx, read); rerr != nil {
			return rerr
		}
		return &httperr.Error{Status: http.StatusInternalServerError, Message: "The photo could not be stored.", Err: err}
	}
	// The cleaned original goes to a second file, not memory: a
	// re-encoded PNG can be as large as its pixels.
	clean, err := os.CreateTemp(spool, "clean-*")
	if err != nil {
		return err
	}
	defer os.Remove(clean.Name())
	defer clean.Close()
	h.sem <- struct{}{}
	// Where and when the photo was taken is read before its metadata is
	// stripped, and only rounded (ADR 061).
	place := media.ReadPlace(tmp, n, t)
	if place.HasPosition {
		row.GeoLat, row.GeoLng = &place.Lat, &place.Lng
	}
	row.TakenMonth = place.Month
	p, err := media.ProcessImage(tmp, n, t, clean)
	<-h.sem
	var tooBig *media.TooLargeError
	if errors.As(err, &tooBig) {
		return &httperr.Error{Status: http.StatusRequestEntityTooLarge, Err: err, Message: fmt.Sprintf(
			"This photo is too large to process (%d×%d pixels). Photos up to %g megapixels are accepted for this kind of file.",
			tooBig.Width, tooBig.Height, tooBig.MaxMegapixels)}
	}
	if err != nil {
		return &httperr.Error{Status: http.StatusUnprocessableEntity, Message: "The photo could not be read: the file may be damaged.", Err: err}
	}
	if _, err := clean.Seek(0, io.SeekStart); err != nil {
		return err
	}
	size, err := h.Files.Put(ctx, key, clean, t.MIME)
	if err != nil {
		if rerr := h.uploadReadError(ctx, read); rerr != nil {
			return rerr
		}
		return &httperr.Error{Status: http.StatusInternalServerError, Message: "The photo could not be stored.", Err: err}
	}
	*stored = append(*stored, key)
	base := strings.TrimSuffix(key, path.Ext(key))
	var vs []media.StoredVariant
	for _, v := range p.Variants {
		vk := fmt.Sprintf("%s-%d.webp", base, v.Width)
		if _, err := h.Files.Put(ctx, vk, bytes.NewReader(v.Data), "image/webp"); err != nil {
			if rerr := h.uploadReadError(ctx, read); rerr != nil {
				return rerr
			}
			return &httperr.Error{Status: http.StatusInternalServerError, Message: "The photo could not be stored.", Err: err}
		}
		*stored = append(*stored, vk)
		vs = append(vs, media.StoredVariant{Width: v.Width, Path: vk})
	}
	vj, _ := json.Marshal(vs)
	row.Size, row.Width, row.Height, row.Variants = size, p.Width, p.Height, string(vj)
	return nil
}

// Delete removes a file, its variants and its record.
func (h *Handler) Delete(c echo.Context) error {
	ctx := c.Request().Context()
	m, err := h.Store.GetMedia(ctx, c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return &httperr.Error{Status: http.StatusNotFound, Message: "This photo no longer exists.", Err: err}
	}
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The photo could not be deleted right now.", Err: err}
	}
	keys := mediaKeys(m)
	for _, k := range keys {
		if err := h.Files.Delete(ctx, k); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return &httperr.Error{Status: http.StatusInternalServerError, Message: "The file could not be removed from storage.", Err: err}
		}
	}
	gone, err := h.Store.DeleteMedia(ctx, m.ID)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The photo could not be deleted right now.", Err: err}
	}
	// A poster saved while the files above were deleted is on the row
	// that was deleted, and goes with it.
	if gone.Poster != "" && gone.Poster != m.Poster {
		if err := h.Files.Delete(ctx, gone.Poster); err != nil && !errors.Is(err, storage.ErrNotFound) {
			h.Log.Warn("poster left in storage", "key", gone.Poster, "err", err)
		}
	}
	h.Log.Info("media deleted", "path", m.Path)
	h.Changed("media deleted")
	return c.JSON(http.StatusOK, Deleted{OK: true})
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
			return nil, &httperr.Error{Status: http.StatusBadRequest, Message: "No file was sent (field name: file)."}
		}
		if err != nil {
			return nil, &httperr.Error{Status: http.StatusBadRequest, Message: "The upload was interrupted.", Err: err}
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
			return nil, &httperr.Error{Status: http.StatusBadRequest, Message: "The upload was interrupted.", Err: err}
		}
		if len(b) > maxTextPart {
			return nil, &httperr.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("The %s is far too long: keep it under %d characters.", textLabel(name), media.MaxCaption)}
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
		return &httperr.Error{Status: http.StatusBadRequest, Message: te.Message, Err: err}
	}
	return err
}

// posterPath is the poster endpoint's URL path.
var posterPath = regexp.MustCompile(`^/api/admin/media/[^/]+/poster$`)

// IsUploadRequest reports a request whose body is a file: a photo or
// video upload, or a video poster. Such bodies stream under their own
// caps (MAX_UPLOAD_BYTES, media.MaxPosterBytes) and UPLOAD_IDLE_TIMEOUT,
// not BODY_LIMIT and BODY_READ_TIMEOUT.
func IsUploadRequest(method, urlPath string) bool {
	return method == http.MethodPost && urlPath == "/api/admin/media" ||
		method == http.MethodPut && posterPath.MatchString(urlPath)
}

// mediaTextForm is PATCH /api/admin/media/:id's body. Both fields are
// required: a save always writes the pair the owner sees, so no save
// leaves one field of an earlier save behind.
type mediaTextForm struct {
	Caption *string `json:"caption"`
	Alt     *string `json:"alt"`
}

// SaveText saves a photo's or video's caption and alt text (ADR 024).
func (h *Handler) SaveText(c echo.Context) error {
	var f mediaTextForm
	if err := c.Bind(&f); err != nil || f.Caption == nil || f.Alt == nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: `Send {"caption": "...", "alt": "..."} as JSON.`, Err: err}
	}
	caption, err := media.CleanCaption(*f.Caption)
	if err != nil {
		return textError(err)
	}
	alt, err := media.CleanAlt(*f.Alt)
	if err != nil {
		return textError(err)
	}
	m, err := h.Store.SetMediaText(c.Request().Context(), c.Param("id"), caption, alt)
	if errors.Is(err, db.ErrNotFound) {
		return &httperr.Error{Status: http.StatusNotFound, Message: "This photo no longer exists.", Err: err}
	}
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The caption could not be saved right now. Try again.", Err: err}
	}
	h.Changed("media text saved")
	return c.JSON(http.StatusOK, media.ItemOf(m))
}
