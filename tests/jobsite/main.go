// Command jobsite serves the site with a fixed set of published jobs, for
// the browser test of the public jobs pages (tests/e2e/jobs-public.test.mjs):
// the real server, content, pages and media, with the jobs read from the
// list below instead of the store (the store half of issue 33 is built
// apart; once it is in, a browser test can publish its jobs through the
// admin instead). Configuration as the site's (PORT, BASE_URL, DATA_DIR).
//
//	go run ./tests/jobsite
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/atlanta-restoration/site/app"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/server"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// jobs are the published jobs: one in Marietta with a page (a before, an
// after and a during photo, a story of 60+ words), one in Smyrna without
// (one photo), one in Kennesaw and one in Douglasville with a page. The
// Marietta page shows three (make lighthouse measures it).
type jobs []db.PublishedJob

func (j jobs) PublishedJobs(context.Context) ([]db.PublishedJob, error) { return j, nil }

const story = "A supply line under the kitchen sink failed while the family was away for the weekend. " +
	"Water ran for hours and reached the hallway and the finished basement below. Our crew extracted the standing water, " +
	"opened the toe kicks, set air movers and dehumidifiers, and logged moisture readings every day until the cabinets and " +
	"subfloor were dry. We documented everything for the adjuster and rebuilt the base cabinets the following week."

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	store, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer store.Close()
	files, err := app.MediaStorage(ctx, cfg)
	if err != nil {
		return err
	}
	photo := func(id, phase string, tint color.RGBA) (db.PublishedJobMedia, error) {
		key := "jobs/" + id + ".jpg"
		var buf bytes.Buffer
		img := image.NewRGBA(image.Rect(0, 0, 1200, 900))
		for y := 0; y < 900; y++ {
			for x := 0; x < 1200; x++ {
				img.Set(x, y, color.RGBA{uint8(int(tint.R) * x / 1200), uint8(int(tint.G) * y / 900), tint.B, 255})
			}
		}
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 70}); err != nil {
			return db.PublishedJobMedia{}, err
		}
		if _, err := files.Put(ctx, key, bytes.NewReader(buf.Bytes()), "image/jpeg"); err != nil {
			return db.PublishedJobMedia{}, err
		}
		if err := store.CreateMedia(ctx, db.Media{ID: id, Path: key, Name: id + ".jpg", Kind: "image", MIME: "image/jpeg", Size: int64(buf.Len()),
			Width: 1200, Height: 900, CreatedAt: time.Now().UTC()}); err != nil {
			return db.PublishedJobMedia{}, err
		}
		return db.PublishedJobMedia{ID: id, Kind: "image", Phase: phase, Width: 1200, Height: 900, Path: key,
			Alt: phase + " photo of the kitchen"}, nil
	}
	var ms []db.PublishedJobMedia
	for _, p := range []struct {
		id, phase string
		tint      color.RGBA
	}{{"fixture-before", "before", color.RGBA{200, 60, 20, 255}}, {"fixture-after", "after", color.RGBA{20, 160, 220, 255}},
		{"fixture-during", "during", color.RGBA{120, 200, 40, 255}}, {"fixture-smyrna", "after", color.RGBA{220, 200, 40, 255}}} {
		m, err := photo(p.id, p.phase, p.tint)
		if err != nil {
			return err
		}
		ms = append(ms, m)
	}
	published := time.Date(2026, 4, 2, 15, 0, 0, 0, time.UTC)
	list := jobs{
		{ID: "j1", Slug: "marietta-kitchen-leak", Title: "Kitchen leak dried in two days", CityID: "cobb/marietta", Month: "2026-03",
			Service: "water-damage", Story: story, Lat: 33.96, Lng: -84.53, HasPlace: true, Media: ms[:3], PublishedAt: published},
		{ID: "j2", Slug: "smyrna-storm-tarp", Title: "Storm tarp in Smyrna", CityID: "cobb/smyrna", Month: "2026-02",
			Service: "storm-damage", Lat: 33.88, Lng: -84.51, HasPlace: true, Media: ms[3:], PublishedAt: published.Add(-time.Hour)},
		{ID: "j4", Slug: "kennesaw-laundry-leak", Title: "Laundry room leak in Kennesaw", CityID: "cobb/kennesaw", Month: "2025-12",
			Service: "water-damage", Story: story, Lat: 34.02, Lng: -84.62, HasPlace: true, Media: ms[:2], PublishedAt: published.Add(-90 * time.Minute)},
		{ID: "j3", Slug: "douglasville-basement", Title: "Basement flood in Douglasville", CityID: "douglas/douglasville", Month: "2026-01",
			Service: "water-damage", Story: story, Lat: 33.74, Lng: -84.76, HasPlace: true, Media: ms[:2], PublishedAt: published.Add(-2 * time.Hour)},
	}
	embedded, err := content.Load()
	if err != nil {
		return err
	}
	engine, err := app.NewEngine(cfg, log)
	if err != nil {
		return err
	}
	svc, err := app.Build(ctx, app.Inputs{Config: cfg, Log: log, Store: store, Content: embedded, Engine: engine, Media: files,
		Build: app.BuildInfo{Version: "jobsite", Commit: "jobsite"}, Jobs: list})
	if err != nil {
		return err
	}
	srv, err := server.New(svc, server.Options{})
	if err != nil {
		return err
	}
	srv.Warm()
	hs := srv.HTTPServer(cfg.Addr)
	ln, err := srv.Listen(cfg.Addr)
	if err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	log.Info("listening", "base_url", cfg.BaseURL)
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
