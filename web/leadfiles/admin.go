package leadfiles

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// The owner's side, on the lead's screen (capability leads.files):
// admins on every lead; staff on the leads assigned to them, as they see
// those leads' street addresses. An editor and the PIN see no lead.

// LeadFiles is a lead's files as the lead's screen lists them.
type LeadFiles struct {
	Files []LeadFileItem `json:"files"`
	// JobPhotos are the photos of the lead's jobs the owner may share.
	JobPhotos []ShareablePhoto `json:"jobPhotos"`
	// Kinds are the kinds of document the owner may attach.
	Kinds []FileKind `json:"kinds"`
	// MaxPhoto and MaxDocument are the bounds in words.
	MaxPhoto    string `json:"maxPhoto"`
	MaxDocument string `json:"maxDocument"`
}

// LeadFileItem is one file of a lead.
type LeadFileItem struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind" tstype:"'estimate' | 'authorization' | 'moisture_log' | 'completion' | 'homeowner_photo' | 'crew_photo'"`
	Label     string    `json:"label"`
	Name      string    `json:"name"`
	Photo     bool      `json:"photo"`
	Size      int64     `json:"size"`
	By        string    `json:"by"`
	CreatedAt time.Time `json:"createdAt"`
	// Href downloads it (the admin's own route).
	Href string `json:"href"`
	// MediaID is a shared job photo's ("" for the others).
	MediaID string `json:"mediaId"`
}

// ShareablePhoto is a photo of one of the lead's jobs, shared or not.
type ShareablePhoto struct {
	MediaID string `json:"mediaId"`
	JobID   string `json:"jobId"`
	Job     string `json:"job"`
	URL     string `json:"url"`
	Alt     string `json:"alt"`
	Shared  bool   `json:"shared"`
	// Published is true when the job is on the public site (with the
	// homeowner's consent, issue 33's rule): sharing with the homeowner
	// changes nothing there.
	Published bool `json:"published"`
}

// FileKind is a kind of document and its label.
type FileKind struct {
	Kind  string `json:"kind"`
	Label string `json:"label"`
}

// FileRemoved answers a removal.
type FileRemoved struct {
	OK bool `json:"ok"`
}

var (
	errNoLead  = httperr.New(http.StatusNotFound, "This lead no longer exists.")
	errNoFile  = httperr.New(http.StatusNotFound, "This file is no longer on the lead.")
	errNotYour = httperr.New(http.StatusForbidden, "Only admins and the crew member this lead is assigned to see its files.")
	msgBusy    = "The lead's files could not be loaded right now. Try again."
)

// lead is the request's lead if the caller may see its files.
func (h *Handler) lead(c echo.Context) (db.Lead, error) {
	l, err := h.Store.GetLead(c.Request().Context(), c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return l, errNoLead
	}
	if err != nil {
		return l, httperr.Unavailable(msgBusy, err)
	}
	p := auth.From(c)
	if !p.Can(accounts.LeadsFiles) {
		return l, errNotYour
	}
	if p.Can(accounts.LeadsFull) {
		return l, nil
	}
	if l.AssignedTo == nil || p.User == nil || *l.AssignedTo != p.User.ID {
		return l, errNotYour
	}
	return l, nil
}

func actor(c echo.Context) db.Actor {
	u := auth.From(c).Account()
	name := u.Name
	if name == "" {
		name = u.Email
	}
	return db.Actor{UserID: u.ID, Name: name}
}

// List is GET /api/admin/leads/{id}/files.
func (h *Handler) List(c echo.Context) error {
	l, err := h.lead(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	fs, err := h.Store.LeadFiles(ctx, l.ID)
	if err != nil {
		return httperr.Unavailable(msgBusy, err)
	}
	out := LeadFiles{Files: []LeadFileItem{}, JobPhotos: []ShareablePhoto{}, MaxPhoto: humanBytes(h.MaxPhoto), MaxDocument: humanBytes(h.MaxDocument)}
	shared := map[string]bool{}
	for _, f := range fs {
		out.Files = append(out.Files, itemOf(l.ID, f))
		if f.MediaID != "" {
			shared[f.MediaID] = true
		}
	}
	for _, k := range db.DocumentKinds {
		out.Kinds = append(out.Kinds, FileKind{Kind: k, Label: kindLabels[k]})
	}
	jobs, err := h.Store.JobsOfLead(ctx, l.ID)
	if err != nil {
		return httperr.Unavailable(msgBusy, err)
	}
	for _, j := range jobs {
		ms, err := h.Store.JobMedia(ctx, j.ID)
		if err != nil {
			return httperr.Unavailable(msgBusy, err)
		}
		for _, m := range ms {
			if m.Kind != "image" {
				continue
			}
			out.JobPhotos = append(out.JobPhotos, ShareablePhoto{MediaID: m.ID, JobID: j.ID, Job: j.Title, URL: "/media/" + m.Path,
				Alt: m.Alt, Shared: shared[m.ID], Published: j.Status == db.JobPublished})
		}
	}
	return c.JSON(http.StatusOK, out)
}

func itemOf(leadID string, f db.LeadFile) LeadFileItem {
	return LeadFileItem{ID: f.ID, Kind: f.Kind, Label: kindLabels[f.Kind], Name: f.Name, Photo: f.IsPhoto(), Size: f.Size,
		By: f.Actor, CreatedAt: f.CreatedAt, Href: "/api/admin/leads/" + leadID + "/files/" + f.ID, MediaID: f.MediaID}
}

// Upload is POST /api/admin/leads/{id}/files (multipart: "kind", then
// "file"): a PDF or a photo, sniffed and bounded, a photo re-encoded.
func (h *Handler) Upload(c echo.Context) error {
	l, err := h.lead(c)
	if err != nil {
		return err
	}
	req := c.Request()
	bound := max(h.MaxPhoto, h.MaxDocument) + 64<<10
	if req.ContentLength > bound {
		return httperr.New(http.StatusRequestEntityTooLarge, "The file is larger than the "+humanBytes(h.MaxDocument)+" limit.")
	}
	req.Body = http.MaxBytesReader(c.Response(), req.Body, bound)
	mr, err := req.MultipartReader()
	if err != nil {
		return httperr.New(http.StatusBadRequest, "Send the file as multipart/form-data: a field named kind, then one named file.")
	}
	kind := ""
	for {
		p, err := mr.NextPart()
		if err != nil {
			return httperr.New(http.StatusBadRequest, "No file was sent (field name: file).")
		}
		switch p.FormName() {
		case "kind":
			b, _ := io.ReadAll(io.LimitReader(p, 64))
			kind = string(b)
			continue
		case "file":
		default:
			continue
		}
		if kindLabels[kind] == "" || kind == db.FileHomeownerPhoto || kind == db.FileCrewPhoto {
			return httperr.New(http.StatusBadRequest, "Choose what the document is: an estimate, a work authorization, a moisture log or a certificate of completion.")
		}
		ctx := req.Context()
		f, err := h.put(ctx, p, true)
		if err != nil {
			h.remove(ctx, []db.LeadFile{f})
			var rf *refusal
			if errors.As(err, &rf) {
				return &httperr.Error{Status: rf.Status, Message: rf.Message, Err: rf.Err}
			}
			return &httperr.Error{Status: http.StatusInternalServerError, Message: "The file could not be stored.", Err: err}
		}
		f.LeadID, f.Kind, f.Name = l.ID, kind, cleanName(p.FileName(), kindLabels[kind])
		saved, err := h.Store.AddLeadDocument(ctx, f, actor(c), h.now())
		if err != nil {
			h.remove(ctx, []db.LeadFile{f})
			if errors.Is(err, db.ErrTooManyFiles) {
				return httperr.New(http.StatusConflict, "This lead has too many documents. Remove one first.")
			}
			if errors.Is(err, db.ErrNotFound) {
				return errNoLead
			}
			return httperr.Unavailable("The document could not be saved right now. Try again.", err)
		}
		h.Log.Info("lead document attached", "lead", l.ID, "kind", kind, "bytes", saved.Size)
		return c.JSON(http.StatusCreated, itemOf(l.ID, saved))
	}
}

// Share is PUT /api/admin/leads/{id}/files/shared/{media}: one of the
// lead's job photos shown on the homeowner's and the adjuster's pages.
func (h *Handler) Share(c echo.Context) error {
	l, err := h.lead(c)
	if err != nil {
		return err
	}
	f, err := h.Store.ShareCrewPhoto(c.Request().Context(), l.ID, c.Param("media"), actor(c), h.now())
	if errors.Is(err, db.ErrNotSharable) {
		return httperr.New(http.StatusBadRequest, "Only the photos of this lead's jobs can be shared with the homeowner.")
	}
	if err != nil {
		return httperr.Unavailable("The photo could not be shared right now. Try again.", err)
	}
	return c.JSON(http.StatusOK, itemOf(l.ID, f))
}

// Remove is DELETE /api/admin/leads/{id}/files/{file}: the file leaves
// the pages; an attached or sent file leaves storage, a shared job photo
// stays in its job.
func (h *Handler) Remove(c echo.Context) error {
	l, err := h.lead(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	f, err := h.Store.RemoveLeadFile(ctx, l.ID, c.Param("file"), h.now())
	if errors.Is(err, db.ErrNotFound) {
		return errNoFile
	}
	if err != nil {
		return httperr.Unavailable("The file could not be removed right now. Try again.", err)
	}
	h.remove(ctx, []db.LeadFile{f})
	return c.JSON(http.StatusOK, FileRemoved{OK: true})
}

// Download is GET /api/admin/leads/{id}/files/{file}.
func (h *Handler) Download(c echo.Context) error {
	l, err := h.lead(c)
	if err != nil {
		return err
	}
	err = h.serve(c, l.ID, c.Param("file"))
	if err != nil && errors.Is(err, site.ErrNotFound) {
		return errNoFile
	}
	return err
}

// StoredFiles lists the storage keys of lead leadID's own files (an
// erased lead's, read before its rows go).
func (h *Handler) StoredFiles(ctx context.Context, leadID string) ([]string, error) {
	return h.Store.LeadFilePaths(ctx, leadID)
}

// DeleteStored deletes stored files by key (an erased lead's).
func (h *Handler) DeleteStored(ctx context.Context, keys []string) {
	fs := make([]db.LeadFile, len(keys))
	for i, k := range keys {
		fs[i].Path = k
	}
	h.remove(ctx, fs)
}
