package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Media is an uploaded photo or video of the media library. The file
// itself lives in the storage backend under Path; the row is its
// metadata. Portfolio marks project work: only those rows are shown in
// the public portfolio (ListPortfolio); the rest are the library's
// (a post's cover, a page's hero).
type Media struct {
	ID string `db:"id" json:"id"`
	// Project is the project folder ("" for a library photo that belongs
	// to no project); a photo in the portfolio always has one.
	Project   string    `db:"project" json:"project"`
	Path      string    `db:"path" json:"path"`
	Name      string    `db:"name" json:"name"`
	Kind      string    `db:"kind" json:"kind"`
	MIME      string    `db:"mime" json:"mime"`
	Size      int64     `db:"size" json:"size"`
	Width     int       `db:"width" json:"width"`
	Height    int       `db:"height" json:"height"`
	Variants  string    `db:"variants" json:"variants"`
	CreatedAt time.Time `db:"created_at" json:"createdAt"`
	// Caption and Alt are the owner's words for the picture; Alt empty
	// means the default alt text (media.DefaultAlt).
	Caption string `db:"caption" json:"caption"`
	Alt     string `db:"alt" json:"alt"`
	// Poster is the storage key of a video's poster image, "" for none.
	// A video's Width and Height are its poster's.
	Poster string `db:"poster" json:"poster"`
	// Portfolio is true for project work, shown in the public portfolio.
	Portfolio bool `db:"portfolio" json:"portfolio"`
	// JobID is the job the photo or video belongs to (nil for none) and
	// Phase its place in the job: "before", "during", "after" or "".
	JobID *string `db:"job_id" json:"jobId"`
	Phase string  `db:"phase" json:"phase"`
	// GeoLat and GeoLng are where the photo was taken, from its EXIF,
	// rounded to 0.01 degree (about 1 km) before they were kept; nil
	// when unknown. Private: never sent to a browser (ADR 061).
	GeoLat *float64 `db:"geo_lat" json:"-"`
	GeoLng *float64 `db:"geo_lng" json:"-"`
	// TakenMonth is the month the photo was taken ('YYYY-MM', from its
	// EXIF), "" when unknown.
	TakenMonth string `db:"taken_month" json:"takenMonth"`
}

const mediaColumns = `id, project, path, name, kind, mime, size, width, height, variants, created_at, caption, alt, poster, portfolio, job_id, phase, geo_lat, geo_lng, taken_month`

// GalleryFolders and GalleryFilesPerFolder are spec 9's listing limits.
const (
	GalleryFolders        = 1000
	GalleryFilesPerFolder = 100
)

// MaxLibrary caps the media library's listing (the admin's library and
// the content editor's photo picker), newest first.
const MaxLibrary = 5000

// ListMedia returns the media library: every photo and video, project
// work or not, newest first (at most MaxLibrary).
func (s *Store) ListMedia(ctx context.Context) ([]Media, error) {
	rows := []Media{}
	if err := s.db.SelectContext(ctx, &rows, s.q(`SELECT `+mediaColumns+` FROM media ORDER BY created_at DESC, id LIMIT ?`), MaxLibrary); err != nil {
		return nil, fmt.Errorf("list media: %w", err)
	}
	return rows, nil
}

// MediaQuery selects a page of the media library: Kind "image" or
// "video" keeps that kind only ("" both).
type MediaQuery struct {
	Kind string
	Page
}

// MediaPage returns one page of the media library, newest first
// (created_at, then id: the index media_created_id, migration 112), and
// how many match in all. The folder placeholder files upload keeps are
// never listed. q.Q matches, ignoring case, the file's name, its project
// folder, its caption and its alt text.
func (s *Store) MediaPage(ctx context.Context, q MediaQuery) ([]Media, int, error) {
	where := ` WHERE name <> ?`
	args := []any{PlaceholderName}
	if q.Kind != "" {
		where += ` AND kind = ?`
		args = append(args, q.Kind)
	}
	if cond, cargs := Contains(q.Q, "name", "project", "caption", "alt"); cond != "" {
		where += ` AND ` + cond
		args = append(args, cargs...)
	}
	var total int
	if err := s.db.GetContext(ctx, &total, s.q(`SELECT COUNT(*) FROM media`+where), args...); err != nil {
		return nil, 0, fmt.Errorf("count media: %w", err)
	}
	rows := []Media{}
	if err := s.db.SelectContext(ctx, &rows, s.q(`SELECT `+mediaColumns+` FROM media`+where+` ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`),
		append(args, q.Limit, q.Offset)...); err != nil {
		return nil, 0, fmt.Errorf("list media: %w", err)
	}
	return rows, total, nil
}

// PlaceholderName is the file upload keeps in an empty project folder
// (media.PlaceholderFile): a row of the table, never a photo.
const PlaceholderName = ".emptyFolderPlaceholder"

// ListPortfolio returns the portfolio: the media marked as project work,
// newest first, at most 100 per project folder and 1000 folders (spec
// 7's listing limits). Every public list of media reads this, never
// ListMedia.
func (s *Store) ListPortfolio(ctx context.Context) ([]Media, error) {
	var rows []Media
	if err := s.db.SelectContext(ctx, &rows, `SELECT `+mediaColumns+` FROM media WHERE portfolio = TRUE AND project <> '' ORDER BY created_at DESC, id`); err != nil {
		return nil, fmt.Errorf("list portfolio: %w", err)
	}
	perFolder := map[string]int{}
	out := rows[:0]
	for _, m := range rows {
		if _, seen := perFolder[m.Project]; !seen && len(perFolder) == GalleryFolders {
			continue
		}
		if perFolder[m.Project] == GalleryFilesPerFolder {
			continue
		}
		perFolder[m.Project]++
		out = append(out, m)
	}
	return out, nil
}

// CreateMedia records an uploaded file.
func (s *Store) CreateMedia(ctx context.Context, m Media) error {
	_, err := s.db.NamedExecContext(ctx, `INSERT INTO media (`+mediaColumns+`)
		VALUES (:id, :project, :path, :name, :kind, :mime, :size, :width, :height, :variants, :created_at, :caption, :alt, :poster, :portfolio, :job_id, :phase, :geo_lat, :geo_lng, :taken_month)`, m)
	if err != nil {
		return fmt.Errorf("create media %s: %w", m.Path, err)
	}
	return nil
}

// GetMedia returns one media row by id.
func (s *Store) GetMedia(ctx context.Context, id string) (Media, error) {
	var m Media
	err := s.db.GetContext(ctx, &m, s.q(`SELECT `+mediaColumns+` FROM media WHERE id = ?`), id)
	if err != nil {
		return m, fmt.Errorf("media %s: %w", id, notFound(err))
	}
	return m, nil
}

// DeleteMedia removes a media row and returns it as it was when removed
// (a poster set since the caller read it included); ErrNotFound if there
// was none.
func (s *Store) DeleteMedia(ctx context.Context, id string) (Media, error) {
	var m Media
	err := s.db.GetContext(ctx, &m, s.q(`DELETE FROM media WHERE id = ? RETURNING `+mediaColumns), id)
	if err != nil {
		return m, fmt.Errorf("delete media %s: %w", id, notFound(err))
	}
	return m, nil
}

// SetMediaText saves a photo's or video's caption and alt text together,
// in one statement, so concurrent saves leave one save's pair, never a
// mix; it returns the updated row.
func (s *Store) SetMediaText(ctx context.Context, id, caption, alt string) (Media, error) {
	var m Media
	err := s.db.GetContext(ctx, &m, s.q(`UPDATE media SET caption = ?, alt = ? WHERE id = ? RETURNING `+mediaColumns), caption, alt, id)
	if err != nil {
		return m, fmt.Errorf("media %s text: %w", id, notFound(err))
	}
	return m, nil
}

// ErrNoProject is SetMediaPortfolio's answer for a photo with no project
// that would be shown in the portfolio without one being named.
var ErrNoProject = errors.New("project work needs a project name")

// SetMediaPortfolio marks (on) or unmarks a photo or video as project
// work, and returns the updated row. project, when not "", becomes its
// project folder. A row with no project cannot be marked without one
// (ErrNoProject): the portfolio names every item's project. The check
// and the change are one statement. ErrNotFound if the row is gone.
func (s *Store) SetMediaPortfolio(ctx context.Context, id string, on bool, project string) (Media, error) {
	var m Media
	err := s.db.GetContext(ctx, &m, s.q(`UPDATE media SET portfolio = ?, project = CASE WHEN ? <> '' THEN ? ELSE project END
		WHERE id = ? AND (? = FALSE OR ? <> '' OR project <> '') RETURNING `+mediaColumns), on, project, project, id, on, project)
	if errors.Is(err, sql.ErrNoRows) {
		if _, gerr := s.GetMedia(ctx, id); gerr != nil {
			return m, gerr
		}
		return m, fmt.Errorf("media %s: %w", id, ErrNoProject)
	}
	if err != nil {
		return m, fmt.Errorf("media %s portfolio: %w", id, err)
	}
	return m, nil
}

// SetMediaPoster makes key the poster of the video id, sized width x
// height, and returns the updated row and the key of the poster it
// replaced ("" for none), which the caller deletes from storage. The
// swap is conditional on the poster read just before, and retried if
// another save won in between, so every replaced poster is returned to
// exactly one caller and none is left in storage unreferenced.
// ErrNotFound if the row is gone or is not a video.
func (s *Store) SetMediaPoster(ctx context.Context, id, key string, width, height int) (Media, string, error) {
	for {
		var old string
		err := s.db.GetContext(ctx, &old, s.q(`SELECT poster FROM media WHERE id = ? AND kind = 'video'`), id)
		if err != nil {
			return Media{}, "", fmt.Errorf("media %s poster: %w", id, notFound(err))
		}
		var m Media
		err = s.db.GetContext(ctx, &m, s.q(`UPDATE media SET poster = ?, width = ?, height = ?
			WHERE id = ? AND kind = 'video' AND poster = ? RETURNING `+mediaColumns), key, width, height, id, old)
		if err == nil {
			return m, old, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return Media{}, "", fmt.Errorf("media %s poster: %w", id, err)
		}
		if err := ctx.Err(); err != nil {
			return Media{}, "", err
		}
	}
}

// IsPoster reports whether key is some video's poster (serving /media/).
func (s *Store) IsPoster(ctx context.Context, key string) (bool, error) {
	var n int
	if err := s.db.GetContext(ctx, &n, s.q(`SELECT COUNT(*) FROM media WHERE poster = ?`), key); err != nil {
		return false, fmt.Errorf("poster %s: %w", key, err)
	}
	return n > 0, nil
}

// RecentMedia returns the latest uploads, newest first (the dashboard's
// recent activity).
func (s *Store) RecentMedia(ctx context.Context, limit int) ([]Media, error) {
	out := []Media{}
	if err := s.db.SelectContext(ctx, &out, s.q(`SELECT `+mediaColumns+` FROM media ORDER BY created_at DESC, id LIMIT ?`), limit); err != nil {
		return nil, fmt.Errorf("recent media: %w", err)
	}
	return out, nil
}

// MediaTypeByPath is the sniffed type recorded for the original stored at
// key, "" when no row has that path.
func (s *Store) MediaTypeByPath(ctx context.Context, key string) (string, error) {
	var mimeType string
	err := s.db.GetContext(ctx, &mimeType, s.q(`SELECT mime FROM media WHERE path = ?`), key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("media type of %s: %w", key, err)
	}
	return mimeType, nil
}

// VariantsOf returns the variants column (JSON) of the rows stored at any
// of paths: the originals a variant key may belong to.
func (s *Store) VariantsOf(ctx context.Context, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	q, args, err := sqlx.In(`SELECT variants FROM media WHERE path IN (?)`, paths)
	if err != nil {
		return nil, err
	}
	var out []string
	if err := s.db.SelectContext(ctx, &out, s.q(q), args...); err != nil {
		return nil, fmt.Errorf("media variants: %w", err)
	}
	return out, nil
}
