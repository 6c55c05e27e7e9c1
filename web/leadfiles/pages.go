package leadfiles

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/web/httperr"
)

// PerPost is how many photos the homeowner sends in one post; MaxMessage
// bounds a message in characters (db.MaxHomeownerMessageLn in bytes
// holds any message of this many characters up to 4 bytes each only
// when shorter, so both are checked).
const (
	PerPost    = 5
	MaxMessage = 500
)

// kindLabels are the documents' kinds as the pages and the admin name them.
var kindLabels = map[string]string{
	db.FileEstimate:       "Estimate",
	db.FileAuthorization:  "Work authorization",
	db.FileMoistureLog:    "Moisture log",
	db.FileCompletion:     "Certificate of completion",
	db.FileHomeownerPhoto: "Photo",
	db.FileCrewPhoto:      "Photo",
}

// notices are the codes a post's answer may carry back to the page.
var notices = map[string]bool{"sent": true, "type": true, "size": true, "count": true, "full": true, "empty": true, "damaged": true, "broken": true, "busy": true, "toolong": true}

// View is the files section of lead leadID's page at base ("/my/{token}"
// or "/claim/{token}"): the form only on the homeowner's page (send), and
// notice shown only when it is a code the room sends.
func (h *Handler) View(ctx context.Context, leadID, base string, send bool, notice string) (site.FilesView, error) {
	fs, err := h.Store.LeadFiles(ctx, leadID)
	if err != nil {
		return site.FilesView{}, err
	}
	v := site.FilesView{Documents: []site.FileView{}, Photos: []site.FileView{}, Yours: []site.FileView{}}
	yours := 0
	for _, f := range fs {
		fv := site.FileView{Href: base + "/files/" + f.ID, Label: kindLabels[f.Kind], Name: f.Name, Date: stamp(f.CreatedAt), Photo: f.IsPhoto()}
		if !fv.Photo {
			fv.Size = humanBytes(f.Size)
		}
		switch f.Kind {
		case db.FileCrewPhoto:
			v.Photos = append(v.Photos, fv)
		case db.FileHomeownerPhoto:
			yours++
			v.Yours = append(v.Yours, fv)
		default:
			v.Documents = append(v.Documents, fv)
		}
	}
	if send {
		v.Send = &site.FilesForm{PhotosAction: base + "/photos", MessageAction: base + "/messages", PerPost: PerPost,
			Left: max(db.MaxHomeownerPhotos-yours, 0), MaxSize: humanBytes(h.MaxPhoto), MaxMessage: MaxMessage}
	}
	if notices[notice] {
		v.Notice = notice
	}
	return v, nil
}

// HomeownerPage is GET /my/{token}/files: the section on a page of its
// own, with its form.
func (h *Handler) HomeownerPage(c echo.Context) error { return h.page(c, db.LinkHomeowner) }

// AdjusterPage is GET /claim/{token}/files: the section, read only.
func (h *Handler) AdjusterPage(c echo.Context) error { return h.page(c, db.LinkAdjuster) }

func (h *Handler) page(c echo.Context, kind string) error {
	if err := limited(c, h.Lookups, h.now()); err != nil {
		return err
	}
	l, err := h.link(c, kind)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	base := linkBase(kind, c.Param("token"))
	v, err := h.View(ctx, l.LeadID, base, kind == db.LinkHomeowner, c.QueryParam("files"))
	if err != nil {
		return httperr.Unavailable("This page could not be loaded. Please try again later.", err)
	}
	body, err := h.Render(ctx, site.FilesPageData{Files: v})
	if err != nil {
		return err
	}
	private(c)
	return c.HTMLBlob(http.StatusOK, body)
}

func linkBase(kind, token string) string {
	if kind == db.LinkAdjuster {
		return strings.TrimSuffix(AdjusterPath, "/") + "/" + token
	}
	return strings.TrimSuffix(HomeownerPath, "/") + "/" + token
}

// HomeownerFile is GET /my/{token}/files/{id}.
func (h *Handler) HomeownerFile(c echo.Context) error { return h.file(c, db.LinkHomeowner) }

// AdjusterFile is GET /claim/{token}/files/{id}.
func (h *Handler) AdjusterFile(c echo.Context) error { return h.file(c, db.LinkAdjuster) }

// file serves one of the link's lead's files: a photo inline as the
// type sniffed at upload, a PDF always as an attachment (a PDF's script
// never runs in the site's origin); nosniff and a sandboxing CSP either
// way. Another lead's file id is the 404 screen, as an unknown one is.
func (h *Handler) file(c echo.Context, kind string) error {
	if err := limited(c, h.Lookups, h.now()); err != nil {
		return err
	}
	l, err := h.link(c, kind)
	if err != nil {
		return err
	}
	return h.serve(c, l.LeadID, c.Param("id"))
}

// serve streams file id of leadID (the private pages and the admin).
func (h *Handler) serve(c echo.Context, leadID, id string) error {
	ctx := c.Request().Context()
	f, err := h.Store.LeadFileOf(ctx, leadID, id)
	if errors.Is(err, db.ErrNotFound) {
		return site.ErrNotFound
	}
	if err != nil {
		return httperr.Unavailable("This file cannot be served right now.", err)
	}
	if f.MIME != PDFMIME && !(media.Servable(f.MIME) && strings.HasPrefix(f.MIME, "image/")) {
		return site.ErrNotFound
	}
	o, err := h.Files.Open(ctx, f.Path)
	if errors.Is(err, storage.ErrNotFound) {
		return site.ErrNotFound
	}
	if err != nil {
		return httperr.Unavailable("This file cannot be served right now.", err)
	}
	defer o.Close()
	hd := c.Response().Header()
	private(c)
	hd.Set("Content-Type", f.MIME)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self'")
	disposition := "inline"
	if f.MIME == PDFMIME {
		disposition = "attachment"
	}
	hd.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": downloadName(f, exts[f.MIME])}))
	http.ServeContent(c.Response(), c.Request(), "", o.ModTime(), o)
	return nil
}

// exts are the extensions of the types a lead file is stored as.
var exts = map[string]string{PDFMIME: "pdf", "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp"}

// downloadName is the name a download is saved as: the file's label and
// name, with the sniffed type's extension.
func downloadName(f db.LeadFile, ext string) string {
	n := kindLabels[f.Kind]
	if f.Name != "" && f.Name != n {
		n += " - " + f.Name
	}
	return n + "." + ext
}

// readText reads a text part of at most max bytes.
func readText(r io.Reader, max int) (string, bool) {
	b, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil || len(b) > max || !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}

// cleanMessage trims a message and drops control and direction-changing
// characters, keeping line breaks. ok is false past MaxMessage characters.
func cleanMessage(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r', r < 0x20, r == 0x7f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	return s, utf8.RuneCountInString(s) <= MaxMessage
}
