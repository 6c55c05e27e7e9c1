package main

import (
	"context"
	"io"
	"log/slog"
	"reflect"
	"testing"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/site"
)

// Every page kind's data is listed in propTypes, so its page imports a
// generated type: a new page whose data is not listed fails here instead
// of getting a hand copy. The pages outside the route table (404, 500, a
// search, the estimate form answered) are checked too.
func TestEveryPageDataIsListed(t *testing.T) {
	listed := map[reflect.Type]bool{}
	for _, pt := range propTypes {
		listed[pt.Go] = true
	}
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := site.New(site.Options{BaseURL: "https://www.example-restoration.test", Content: c,
		Settings: sources{}, Reviews: sources{}, Media: sources{}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	pages := map[string]site.Page{
		"404": site.NotFoundPage(&site.NotFoundError{}), "500": site.ErrorPage(),
		"a search": s.SearchPage("water"), "the estimate form answered": s.EstimatePage("/estimate", nil),
	}
	for _, p := range s.AllPaths() {
		_, pg, err := s.Load(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		pages[p] = pg
	}
	kinds := map[reflect.Type]bool{}
	for name, pg := range pages {
		dt := reflect.TypeOf(pg.Data)
		if !kinds[dt] && !listed[dt] {
			t.Errorf("%s (and any other page of its kind): its data, %v, is not in propTypes (cmd/tsgen/props.go)", name, dt)
		}
		kinds[dt] = true
	}
	if len(kinds) < 15 {
		t.Fatalf("only %d data types seen: the walk is wrong", len(kinds))
	}
}

// sources are the settings, reviews and media a site loads pages from,
// none of them stored.
type sources struct{}

func (sources) Business(context.Context) config.Business { return config.Business{Name: "Test"} }
func (sources) Availability(context.Context) settings.Availability {
	return settings.Availability{EmergencyMode: true}
}
func (sources) OfficePhone(context.Context) string   { return "" }
func (sources) Top(context.Context) []reviews.Review { return []reviews.Review{} }
func (sources) Figures(context.Context) reviews.Figures {
	return reviews.FromOwner(reviews.DefaultOwner())
}
func (sources) Configured() bool                                   { return false }
func (sources) ListPortfolio(context.Context) ([]db.Media, error)  { return nil, nil }
func (sources) GetMedia(context.Context, string) (db.Media, error) { return db.Media{}, db.ErrNotFound }
