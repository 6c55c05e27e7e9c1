// Package leadfiles (web/leadfiles) is the HTTP side of a lead's files
// and the homeowner's messages (issue 34, ADR 067): the documents the
// owner attaches to a lead and the crew photos the owner shares, listed
// and downloaded from the homeowner's page (/my/{token}) and the
// adjuster's (/claim/{token}); the photos and message the homeowner sends
// from their page; and the owner's side on the lead's screen. Every file
// is sniffed, bounded and re-encoded as the media library's uploads are,
// stored under a key no media row lists (so /media/ never serves it), and
// served only through a live link of its own lead. The routes and their
// guards are in server/install.go.
package leadfiles

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Store is what the room reads and writes (db.Store).
type Store interface {
	GetLead(ctx context.Context, id string) (db.Lead, error)
	LeadFiles(ctx context.Context, leadID string) ([]db.LeadFile, error)
	LeadFileOf(ctx context.Context, leadID, id string) (db.LeadFile, error)
	AddLeadDocument(ctx context.Context, f db.LeadFile, by db.Actor, now time.Time) (db.LeadFile, error)
	AddHomeownerPost(ctx context.Context, leadID string, p db.HomeownerSent, now time.Time) ([]db.LeadFile, error)
	ShareCrewPhoto(ctx context.Context, leadID, mediaID string, by db.Actor, now time.Time) (db.LeadFile, error)
	RemoveLeadFile(ctx context.Context, leadID, id string, now time.Time) (db.LeadFile, error)
	LeadFilePaths(ctx context.Context, leadID string) ([]string, error)
	JobsOfLead(ctx context.Context, leadID string) ([]db.Job, error)
	JobMedia(ctx context.Context, jobID string) ([]db.Media, error)
}

// Links finds a live private link by its token's hash (db.Store, once
// the links' store methods land; ErrNotFound when it is unknown, revoked
// or expired at now).
type Links interface {
	LeadLinkByHash(ctx context.Context, hash string, now time.Time) (db.LeadLink, error)
}

// The bounds of one file, under MAX_UPLOAD_BYTES: a phone's photo is a
// few MB, a scanned estimate or moisture log a few more.
const (
	MaxPhotoBytes    = 15 << 20
	MaxDocumentBytes = 25 << 20
)

// Handler serves a lead's files on the private pages and in the admin.
type Handler struct {
	Store Store
	Links Links
	// Hash hashes a token from a URL ("" for a malformed one): portal.Hash.
	Hash func(token string) string
	// Files is the media storage (a folder or an S3 bucket).
	Files storage.Storage
	// TempDir is where a photo is spooled while it is re-encoded.
	TempDir string
	// MaxPhoto bounds one photo (the homeowner's or the owner's) and
	// MaxDocument one PDF, in bytes.
	MaxPhoto, MaxDocument int64
	// Lookups limits token lookups per client (downloads); Posts the
	// homeowner's posts per client.
	Lookups, Posts *guard.Limiter
	// PagePath is where the homeowner's section is shown, after
	// /my/{token}: "" for the homeowner's page itself.
	PagePath string
	// Render renders the section's own page (GET /my/{token}/files and
	// /claim/{token}/files, never cached).
	Render func(ctx context.Context, d site.FilesPageData) ([]byte, error)
	Log    *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// sem lets one photo be decoded at a time (media.DecodeBudget).
	sem chan struct{}
}

// New returns the room with its decoding semaphore.
func New(h Handler) *Handler {
	h.sem = make(chan struct{}, 1)
	return &h
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now().UTC()
	}
	return time.Now().UTC()
}

// Paths of the private pages: the homeowner's and the adjuster's.
const (
	HomeownerPath = "/my/"
	AdjusterPath  = "/claim/"
)

// link resolves the request's token to a live link of kind: the 404
// screen for an unknown, revoked or expired token, and for a link of the
// other kind (an adjuster's token never opens the homeowner's routes).
func (h *Handler) link(c echo.Context, kind string) (db.LeadLink, error) {
	hash := h.Hash(c.Param("token"))
	if hash == "" {
		return db.LeadLink{}, site.ErrNotFound
	}
	l, err := h.Links.LeadLinkByHash(c.Request().Context(), hash, h.now())
	if errors.Is(err, db.ErrNotFound) || err == nil && l.Kind != kind {
		return db.LeadLink{}, site.ErrNotFound
	}
	if err != nil {
		return l, httperr.Unavailable("This page could not be loaded. Please try again later.", err)
	}
	return l, nil
}

// limited answers a client over a limit with 429 and Retry-After.
func limited(c echo.Context, l *guard.Limiter, now time.Time) error {
	ok, retry := l.Allow(guard.ClientKey(c.RealIP()), now)
	if ok {
		return nil
	}
	s := int(retry.Round(time.Second) / time.Second)
	c.Response().Header().Set("Retry-After", strconv.Itoa(max(s, 1)))
	return httperr.New(http.StatusTooManyRequests, "Too many attempts. Please wait a few minutes and try again.")
}

// private marks an answer as the private pages' are: never stored, never
// indexed, never sending its address (which holds the token) elsewhere.
func private(c echo.Context) {
	hd := c.Response().Header()
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Robots-Tag", "noindex, nofollow")
	hd.Set("Referrer-Policy", "no-referrer")
}
