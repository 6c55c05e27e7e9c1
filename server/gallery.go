package server

import (
	"context"

	"github.com/atlanta-restoration/site/media"
)

// gallery reads the portfolio from the database. A failure is logged and
// shows the empty state (spec 4: load failure shows empty).
func (s *Server) gallery(ctx context.Context) *media.Gallery {
	g := &media.Gallery{Items: []media.GalleryItem{}}
	if s.store == nil {
		return g
	}
	rows, err := s.store.ListMedia(ctx)
	if err != nil {
		s.log.Error("gallery load failed", "err", err)
		return g
	}
	projects := map[string]bool{}
	for _, m := range rows {
		if m.Name == media.PlaceholderFile {
			continue
		}
		g.Items = append(g.Items, media.ItemOf(m))
		projects[m.Project] = true
	}
	g.ProjectCount = len(projects)
	return g
}
