package media

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// The gallery's model (spec 3): what the public carousel and the upload
// tool show of each stored photo and video.

// GalleryItem is a portfolio photo or video (spec 3).
type GalleryItem struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	URL         string `json:"url"`
	Type        string `json:"type" tstype:"'image' | 'video'"`
	ProjectName string `json:"projectName"`
	Project     string `json:"project"`
	UploadedAt  string `json:"uploadedAt"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Srcset      string `json:"srcset"`
	// Poster is the URL of a video's poster image, "" when it has none.
	Poster string `json:"poster"`
	Path   string `json:"path"`
	// Caption is the owner's caption, shown under the picture ("" for
	// none). Alt is the alt text to show: the owner's, or when they wrote
	// none (AltDefault) one naming the project, never the file name.
	Caption    string `json:"caption"`
	Alt        string `json:"alt"`
	AltDefault bool   `json:"altDefault,omitempty"`
	// Portfolio is true for project work, shown in the public portfolio;
	// false for a photo of the library only (a post's cover).
	Portfolio bool `json:"portfolio"`
}

// Gallery is the portfolio block's data.
type Gallery struct {
	Items        []GalleryItem `json:"items"`
	ProjectCount int           `json:"projectCount"`
}

// PlaceholderFile is the storage placeholder that is never shown (spec 5).
const PlaceholderFile = db.PlaceholderName

// ProjectDisplayName turns a folder name into a title: dashes become
// spaces and each word is capitalised (spec 5).
func ProjectDisplayName(folder string) string {
	words := strings.Fields(strings.ReplaceAll(folder, "-", " "))
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// IsVideoName reports whether a file name is a video by extension (spec 5).
func IsVideoName(name string) bool {
	switch strings.ToLower(strings.TrimPrefix(path.Ext(name), ".")) {
	case "mp4", "mov", "avi", "mkv", "webm":
		return true
	}
	return false
}

// StoredVariant is one resized WebP rendition as a media row lists it.
type StoredVariant struct {
	Width int    `json:"w"`
	Path  string `json:"p"`
}

// URL is where a stored file is served.
func URL(p string) string { return "/media/" + p }

// ItemOf is how a stored file shows in the gallery and the upload tool.
func ItemOf(m db.Media) GalleryItem {
	kind := "image"
	if m.Kind == "video" || IsVideoName(m.Name) {
		kind = "video"
	}
	it := GalleryItem{
		ID: m.ID, Name: m.Name, URL: URL(m.Path), Type: kind, Project: m.Project,
		ProjectName: ProjectDisplayName(m.Project), UploadedAt: m.CreatedAt.UTC().Format(time.RFC3339),
		Width: m.Width, Height: m.Height, Path: m.Path, Caption: m.Caption, Alt: m.Alt, Portfolio: m.Portfolio,
	}
	if it.Alt == "" {
		it.Alt, it.AltDefault = DefaultAlt(kind, it.ProjectName), true
	}
	if m.Poster != "" {
		it.Poster = URL(m.Poster)
	}
	var vs []StoredVariant
	if m.Variants != "" && json.Unmarshal([]byte(m.Variants), &vs) == nil && len(vs) > 0 {
		parts := make([]string, 0, len(vs))
		for _, v := range vs {
			parts = append(parts, fmt.Sprintf("%s %dw", URL(v.Path), v.Width))
		}
		it.Srcset = strings.Join(parts, ", ")
		// The smallest variant is the default src: phones fetch least.
		it.URL = URL(vs[0].Path)
	}
	return it
}

// GalleryStore lists the portfolio: the media marked as project work
// (db.Store). The public pages read nothing else of the library.
type GalleryStore interface {
	ListPortfolio(ctx context.Context) ([]db.Media, error)
}

// LoadGallery reads the portfolio from the database: project work only. A failure is logged
// and shows the empty state (spec 4: load failure shows empty).
func LoadGallery(ctx context.Context, store GalleryStore, log *slog.Logger) *Gallery {
	g := &Gallery{Items: []GalleryItem{}}
	rows, err := store.ListPortfolio(ctx)
	if err != nil {
		log.Error("gallery load failed", "err", err)
		return g
	}
	projects := map[string]bool{}
	for _, m := range rows {
		if m.Name == PlaceholderFile || !m.Portfolio || m.Project == "" {
			continue
		}
		g.Items = append(g.Items, ItemOf(m))
		projects[m.Project] = true
	}
	g.ProjectCount = len(projects)
	return g
}
