// Command site serves the restoration company's website: the public pages,
// rendered by React inside goja, and the admin area.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/server"
	"github.com/atlanta-restoration/site/ssr"
)

func main() {
	ssr.TuneGC()
	out := server.NewLogWriter(os.Stderr, 200*time.Millisecond)
	log := slog.New(slog.NewTextHandler(out, nil))
	err := run(log)
	out.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(log *slog.Logger) error {
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	site, err := content.Load()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer store.Close()
	srv, err := server.New(server.Options{Config: cfg, Log: log, Store: store, Content: site})
	if err != nil {
		return err
	}
	if cfg.Dev() {
		go srv.Engine().Watch(ctx, 500*time.Millisecond)
	}
	srv.Warm()
	hs := &http.Server{Addr: cfg.Addr, Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	errc := make(chan error, 1)
	go func() {
		log.Info("listening", "addr", cfg.Addr, "base_url", cfg.BaseURL, "db", store.Dialect(), "env", cfg.Env)
		errc <- hs.ListenAndServe()
	}()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
		log.Info("shutting down")
		sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		return hs.Shutdown(sctx)
	}
	return nil
}
