package site

import (
	"context"
	"errors"
	"strings"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
)

// Media is the media library as pages read it (db.Store): the portfolio,
// and the photo a page's hero or a post's cover names.
type Media interface {
	media.GalleryStore
	GetMedia(ctx context.Context, id string) (db.Media, error)
}

// HeroImage is a page's hero or a post's cover photo as the page shows
// it: the smallest WebP variant as src, every variant in srcset, the
// photo's size (width and height hold its place before it loads), and
// the alt text and caption the page gives it. It is the page's LCP
// candidate: the page loads it eagerly, at high priority.
type HeroImage struct {
	Src     string `json:"src"`
	Srcset  string `json:"srcset"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Alt     string `json:"alt"`
	Caption string `json:"caption"`
	// Large is the largest rendition, the page's Open Graph image.
	Large string `json:"-"`
}

// heroImage reads a record's photo from the media library. A photo that
// is gone (deleted since) or is not a photo shows no image: the hero is
// the blue gradient again.
func (s *Site) heroImage(ctx context.Context, im *content.Image) *HeroImage {
	if im == nil || im.Media == "" {
		return nil
	}
	m, err := s.media.GetMedia(ctx, im.Media)
	if err != nil {
		if !errors.Is(err, db.ErrNotFound) {
			s.log.Error("hero photo unavailable", "media", im.Media, "err", err)
		}
		return nil
	}
	it := media.ItemOf(m)
	if it.Type != "image" || it.Width == 0 || it.Height == 0 {
		return nil
	}
	h := &HeroImage{Src: it.URL, Srcset: it.Srcset, Width: it.Width, Height: it.Height, Alt: im.Alt, Caption: im.Caption, Large: media.URL(m.Path)}
	if parts := strings.Split(it.Srcset, ", "); it.Srcset != "" {
		h.Large, _, _ = strings.Cut(parts[len(parts)-1], " ")
	}
	return h
}

// ogImage is the page's Open Graph image: its hero photo, else the site's.
func (s *Site) ogImage(h *HeroImage) string {
	if h == nil {
		return ""
	}
	return s.Abs(h.Large)
}
