package db

import (
	"context"
	"fmt"
	"time"
)

// Media is an uploaded portfolio photo or video. The file itself lives in
// the storage backend under Path; the row is its metadata.
type Media struct {
	ID        string    `db:"id" json:"id"`
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
}

const mediaColumns = `id, project, path, name, kind, mime, size, width, height, variants, created_at`

// GalleryFolders and GalleryFilesPerFolder are spec 9's listing limits.
const (
	GalleryFolders        = 1000
	GalleryFilesPerFolder = 100
)

// ListMedia returns all media, newest first, at most 100 per project folder
// and 1000 folders (spec 7's listing limits).
func (s *Store) ListMedia(ctx context.Context) ([]Media, error) {
	var rows []Media
	if err := s.db.SelectContext(ctx, &rows, `SELECT `+mediaColumns+` FROM media ORDER BY created_at DESC, id`); err != nil {
		return nil, fmt.Errorf("list media: %w", err)
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
		VALUES (:id, :project, :path, :name, :kind, :mime, :size, :width, :height, :variants, :created_at)`, m)
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

// DeleteMedia removes a media row; ErrNotFound if there was none.
func (s *Store) DeleteMedia(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM media WHERE id = ?`), id)
	if err != nil {
		return fmt.Errorf("delete media %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("delete media %s: %w", id, ErrNotFound)
	}
	return nil
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
