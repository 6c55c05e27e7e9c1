package site

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/settings"
)

const testBase = "https://www.example-restoration.test"

// fixed are settings, reviews and media that never change: the site's
// loaders read them, and these tests look at what the loaders build from
// the content.
type fixed struct{ b config.Business }

func (f fixed) Business(context.Context) config.Business { return f.b }
func (f fixed) Availability(context.Context) settings.Availability {
	h, _ := settings.ParseHours(settings.DefaultHours)
	return settings.Availability{EmergencyMode: true, Hours: h}
}
func (fixed) OfficePhone(context.Context) string   { return "" }
func (fixed) Top(context.Context) []reviews.Review { return []reviews.Review{} }
func (fixed) Figures(context.Context) reviews.Figures {
	return reviews.FromOwner(reviews.DefaultOwner())
}
func (fixed) Configured() bool                                   { return false }
func (fixed) ListPortfolio(context.Context) ([]db.Media, error)  { return nil, nil }
func (fixed) GetMedia(context.Context, string) (db.Media, error) { return db.Media{}, db.ErrNotFound }

func newTestSite(t *testing.T) *Site {
	t.Helper()
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadFrom(func(k string) string {
		if k == "BASE_URL" {
			return testBase
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	f := fixed{b: cfg.Business}
	return New(Options{BaseURL: testBase, Content: c, Settings: f, Reviews: f, Media: f, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// Every concrete path of the table loads, and every one is found by
// Lookup as the route that lists it.
func TestEveryPathLoads(t *testing.T) {
	s := newTestSite(t)
	for _, r := range s.Routes() {
		for _, p := range r.Paths(s.Content()) {
			got, pg, err := s.Load(context.Background(), p)
			if err != nil {
				t.Errorf("%s: %v", p, err)
				continue
			}
			if got.Pattern != r.Pattern {
				t.Errorf("%s: found by %s, listed by %s", p, got.Pattern, r.Pattern)
			}
			if pg.Head.Title == "" || pg.Head.Path == "" {
				t.Errorf("%s: head %+v", p, pg.Head)
			}
			if !r.Indexable && !pg.Head.NoIndex {
				t.Errorf("%s: not indexable but not noindex", p)
			}
		}
	}
	if _, _, err := s.Load(context.Background(), "/no-such-page"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown path: %v", err)
	}
}
