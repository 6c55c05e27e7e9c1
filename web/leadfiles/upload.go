package leadfiles

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/storage"
)

// Folder is where a lead's own files are stored: under the media
// storage's projects/ (so backups carry them), in a folder no project can
// have (a project's folder is letters, digits and hyphens), and listed by
// no media row, so /media/ never serves them.
const Folder = "projects/lead-files.private/"

// PDFMIME is an attached document's type when it is a PDF.
const PDFMIME = "application/pdf"

// refusal is an upload the room refuses: Code is what the homeowner's
// page says (site.FilesView.Notice), Status and Message the admin's answer.
type refusal struct {
	Code    string
	Status  int
	Message string
	Err     error
}

func (r *refusal) Error() string { return r.Message }
func (r *refusal) Unwrap() error { return r.Err }

func refuse(code string, status int, msg string, err error) *refusal {
	return &refusal{Code: code, Status: status, Message: msg, Err: err}
}

// errTooLarge is returned by limitReader past its bound.
var errTooLarge = errors.New("file over the size limit")

// limitReader fails once more than n bytes were read: a file is cut off
// at its bound while it streams, not after it is stored.
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

// readErr turns an error met reading an upload into its refusal.
func readErr(err error, max int64) *refusal {
	var mb *http.MaxBytesError
	if errors.Is(err, errTooLarge) || errors.As(err, &mb) {
		return refuse("size", http.StatusRequestEntityTooLarge, fmt.Sprintf("The file is larger than the %s limit.", humanBytes(max)), err)
	}
	return refuse("broken", http.StatusBadRequest, "The upload was interrupted before the whole file arrived. Please try again.", err)
}

// sniffed types the first bytes of an upload: a PDF by its magic bytes
// when pdf is allowed, else a photo as the media library sniffs it (a
// video, an SVG, HTML or anything else is refused, whatever its name).
func sniffed(head []byte, pdf bool) (media.Type, *refusal) {
	if pdf && bytes.HasPrefix(head, []byte("%PDF-")) {
		return media.Type{MIME: PDFMIME, Kind: "pdf", Ext: "pdf"}, nil
	}
	t, err := media.Sniff(head)
	if err == nil && t.Kind != "image" {
		err = fmt.Errorf("a video is not accepted here")
	}
	if err != nil {
		what := "a photo (JPEG, PNG, WebP or GIF)"
		if pdf {
			what = "a PDF or a photo (JPEG, PNG, WebP or GIF)"
		}
		return t, refuse("type", http.StatusUnsupportedMediaType, "This file is not "+what+".", err)
	}
	return t, nil
}

// put stores one uploaded file read from r: sniffed from its first
// bytes, cut off at its bound (MaxDocument for a PDF, MaxPhoto for a
// photo), a photo re-encoded without its metadata (media.ProcessImage),
// a PDF stored as sent (it is only ever downloaded, as an attachment).
// The returned file has its Path, MIME and Size; on a refusal nothing is
// left in storage.
func (h *Handler) put(ctx context.Context, r io.Reader, pdf bool) (db.LeadFile, error) {
	bound := max(h.MaxPhoto, h.MaxDocument)
	if !pdf {
		bound = h.MaxPhoto
	}
	lr := &limitReader{r: r, n: bound}
	body := bufio.NewReaderSize(lr, media.SniffLen)
	head, err := body.Peek(media.SniffLen)
	if err != nil && err != io.EOF {
		return db.LeadFile{}, readErr(err, bound)
	}
	if len(head) == 0 {
		return db.LeadFile{}, refuse("empty", http.StatusBadRequest, "The file is empty.", nil)
	}
	t, rf := sniffed(head, pdf)
	if rf != nil {
		return db.LeadFile{}, rf
	}
	key := Folder + media.StoredName(t.Ext, h.now())
	f := db.LeadFile{Path: key, MIME: t.MIME}
	if t.MIME == PDFMIME {
		lr.n = h.MaxDocument - (bound - lr.n) // the PDF's own bound
		n, err := h.Files.Put(ctx, key, body, t.MIME)
		if err != nil {
			if errors.Is(err, errTooLarge) || ctx.Err() != nil {
				return f, readErr(err, h.MaxDocument)
			}
			return f, fmt.Errorf("store %s: %w", key, err)
		}
		f.Size = n
		return f, nil
	}
	lr.n = h.MaxPhoto - (bound - lr.n) // the photo's own bound
	n, err := h.putPhoto(ctx, body, t, key)
	if err != nil {
		return f, err
	}
	f.Size = n
	return f, nil
}

// putPhoto spools a photo (decoding needs random access), re-encodes it
// and stores the clean original. One photo is decoded at a time.
func (h *Handler) putPhoto(ctx context.Context, body io.Reader, t media.Type, key string) (int64, error) {
	if err := os.MkdirAll(h.TempDir, 0o700); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(h.TempDir, "leadfile-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	n, err := io.Copy(tmp, body)
	if err != nil {
		return 0, readErr(err, h.MaxPhoto)
	}
	clean, err := os.CreateTemp(h.TempDir, "leadfile-clean-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(clean.Name())
	defer clean.Close()
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	_, err = media.ProcessImage(tmp, n, t, clean)
	<-h.sem
	var big *media.TooLargeError
	if errors.As(err, &big) {
		return 0, refuse("size", http.StatusRequestEntityTooLarge, fmt.Sprintf("This photo is too large to process (%d×%d pixels).", big.Width, big.Height), err)
	}
	if err != nil {
		return 0, refuse("damaged", http.StatusUnprocessableEntity, "The photo could not be read: the file may be damaged.", err)
	}
	if _, err := clean.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	size, err := h.Files.Put(ctx, key, clean, t.MIME)
	if err != nil {
		return 0, fmt.Errorf("store %s: %w", key, err)
	}
	return size, nil
}

// remove deletes stored files, as a failed post leaves nothing behind.
func (h *Handler) remove(ctx context.Context, fs []db.LeadFile) {
	for _, f := range fs {
		if f.Path == "" {
			continue
		}
		if err := h.Files.Delete(context.WithoutCancel(ctx), f.Path); err != nil && !errors.Is(err, storage.ErrNotFound) {
			h.Log.Warn("lead file left in storage", "key", f.Path, "err", err)
		}
	}
}

// cleanName is a file's name as the pages show it: the base of the
// client's name without its extension (the stored one is the sniffed
// type's), printable characters only, at most 80; def when nothing is left.
func cleanName(n, def string) string {
	n = path.Base(strings.ReplaceAll(n, "\\", "/"))
	n = strings.TrimSuffix(n, path.Ext(n))
	n = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) && !unicode.Is(unicode.Bidi_Control, r) {
			return r
		}
		return -1
	}, n)
	n = strings.TrimSpace(n)
	if r := []rune(n); len(r) > 80 {
		n = string(r[:80])
	}
	if n == "" || n == "." || n == "/" {
		return def
	}
	return n
}

func humanBytes(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", max(n>>10, 1))
}

// stamp is a file's date as the pages show it.
func stamp(t time.Time) string { return t.In(atlanta).Format("Jan 2, 2006") }

var atlanta = func() *time.Location {
	l, err := time.LoadLocation("America/New_York")
	if err != nil {
		return time.UTC
	}
	return l
}()
