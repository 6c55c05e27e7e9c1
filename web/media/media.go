// Package media (web/media) is the HTTP side of the photo and video upload
// tool (spec 2.4, 4, 5; ADR 008, ADR 024) and of /media/*, where stored
// files are served. Uploads stream: the file is sniffed from its first
// bytes, cut off at its cap and written to storage without being held
// whole in memory. The routes and their guards are in server/install.go.
package media

import (
	"context"
	"log/slog"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/storage"
)

// Store is what uploads read and write (db.Store).
type Store interface {
	ListMedia(ctx context.Context) ([]db.Media, error)
	MediaPage(ctx context.Context, q db.MediaQuery) ([]db.Media, int, error)
	CreateMedia(ctx context.Context, m db.Media) error
	GetMedia(ctx context.Context, id string) (db.Media, error)
	DeleteMedia(ctx context.Context, id string) (db.Media, error)
	SetMediaText(ctx context.Context, id, caption, alt string) (db.Media, error)
	SetMediaPortfolio(ctx context.Context, id string, on bool, project string) (db.Media, error)
	SetMediaPoster(ctx context.Context, id, key string, width, height int) (db.Media, string, error)
	IsPoster(ctx context.Context, key string) (bool, error)
	MediaTypeByPath(ctx context.Context, key string) (string, error)
	VariantsOf(ctx context.Context, paths []string) ([]string, error)
	GetJob(ctx context.Context, id string) (db.Job, error)
	AttachMedia(ctx context.Context, jobID, mediaID, phase string) error
}

// Handler serves uploads and stored media.
type Handler struct {
	Store Store
	Files storage.Storage
	// MaxUpload is MAX_UPLOAD_BYTES.
	MaxUpload int64
	// TempDir holds upload spools (DATA_DIR/tmp).
	TempDir string
	// Changed re-renders the pages that show media (home, /portfolio).
	Changed func(reason string)
	// NotFound is the site's not-found answer for /media/*.
	NotFound error
	Log      *slog.Logger

	// sem lets one photo be decoded at a time.
	sem chan struct{}
}

// Deleted is a delete's answer.
type Deleted struct {
	OK bool `json:"ok"`
}

// New returns the upload handler.
func New(h Handler) *Handler {
	h.sem = make(chan struct{}, 1)
	return &h
}
