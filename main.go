// Command site serves the restoration company's website: the public pages,
// rendered by React inside goja, and the admin area. Its other commands
// (migrate, backup, restore, healthcheck, version, user, content) are
// listed in commands.go.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/app"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/contentsync"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/editor"
	"github.com/atlanta-restoration/site/server"
	"github.com/atlanta-restoration/site/ssr"
)

func main() {
	os.Exit(command(os.Args[1:], os.Stdout, os.Stderr))
}

// serve runs the site until SIGTERM (commands.go lists the others).
func serve() int {
	ssr.TuneGC()
	cfg, err := config.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	out := server.NewLogWriter(os.Stderr, 200*time.Millisecond)
	log := server.NewFormatLogger(out, cfg.Secrets(), cfg.Log.Format, cfg.Log.Level)
	err = run(cfg, log)
	out.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func run(cfg *config.Config, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer store.Close()
	// This instance holds the database while it runs: site restore
	// refuses to replace it under us.
	release, err := store.HoldInstance(ctx, cfg.DataDir)
	if err != nil {
		return err
	}
	defer release()
	svc, srv, err := build(ctx, cfg, log, store)
	if err != nil {
		return err
	}
	notifier, leads, v, c := svc.Notifier, svc.Intake, svc.Build.Version, svc.Build.Commit
	// The notification sender and the spool replay run until the HTTP
	// server has stopped, so leads taken while draining are announced.
	bg, stopBg := context.WithCancel(context.Background())
	var bgDone sync.WaitGroup
	defer func() { stopBg(); bgDone.Wait() }()
	bgDone.Go(func() { notifier.Run(bg) })
	bgDone.Go(func() { leads.Run(bg) })
	if cfg.Dev() {
		log.Info("development mode: watching pages/, components/, admin/, client/ and styles/ for changes")
		go srv.Engine().Watch(ctx, 500*time.Millisecond)
	}
	srv.Warm()
	go srv.RunSync(ctx)
	go srv.RunLive(ctx)
	srv.StartJobs()
	hs := srv.HTTPServer(cfg.Addr)
	ln, err := srv.Listen(cfg.Addr)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() {
		log.Info("listening: open "+cfg.BaseURL+"/", "addr", cfg.Addr, "base_url", cfg.BaseURL, "db", store.Dialect(), "env", cfg.Env, "version", v, "commit", c)
		errc <- hs.Serve(ln)
	}()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
		// Fail readiness at once and keep serving for SHUTDOWN_DRAIN, so a
		// load balancer moves new requests elsewhere; then stop accepting
		// and let in-flight requests (uploads included) finish for up to
		// SHUTDOWN_TIMEOUT.
		srv.Drain()
		log.Info("shutting down: readiness fails now", "drain", cfg.Limits.ShutdownDrain.String(), "timeout", cfg.Limits.ShutdownTimeout.String())
		time.Sleep(cfg.Limits.ShutdownDrain)
		sctx, cancel := context.WithTimeout(context.Background(), cfg.Limits.ShutdownTimeout)
		defer cancel()
		err := hs.Shutdown(sctx)
		srv.StopJobs(sctx) // running jobs are cancelled and record their run
		log.Info("stopped", "err", err)
		return err
	}
	return nil
}

// build makes the application: every service once (package app), from
// the inputs this process opens (the embedded content, the render
// engine, the media storage, the lead spool), and the HTTP server over
// them. It is the one place the site is wired; the commands use app's
// constructors for the parts they need.
func build(ctx context.Context, cfg *config.Config, log *slog.Logger, store *db.Store) (*app.Services, *server.Server, error) {
	embedded, err := content.Load()
	if err != nil {
		return nil, nil, err
	}
	engine, err := app.NewEngine(cfg, log)
	if err != nil {
		return nil, nil, err
	}
	media, err := app.MediaStorage(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	sp, err := app.OpenSpool(cfg, log)
	if err != nil {
		return nil, nil, err
	}
	v, c := buildInfo()
	svc, err := app.Build(ctx, app.Inputs{Config: cfg, Log: log, Store: store, Content: embedded, Engine: engine, Media: media, Spool: sp,
		Build: app.BuildInfo{Version: v, Commit: c}})
	if err != nil {
		return nil, nil, err
	}
	srv, err := server.New(svc, server.Options{})
	if err != nil {
		return nil, nil, err
	}
	return svc, srv, nil
}

// userCommand runs `site user ...` against the configured database
// (DATABASE_URL, or SQLite under DATA_DIR), as the server would open it.
func userCommand(cfg *config.Config, args []string) int {
	ctx, store, done, ok := openStore(cfg, os.Stderr)
	if !ok {
		return 1
	}
	defer done()
	cli := &accounts.CLI{Store: store, In: os.Stdin, Out: os.Stdout, Err: os.Stderr}
	if fd := int(os.Stdin.Fd()); term.IsTerminal(fd) {
		cli.ReadPassword = func() (string, error) {
			b, err := term.ReadPassword(fd)
			return string(b), err
		}
	}
	return cli.Run(ctx, args)
}

// contentCommand runs `site content export DIR` (the live content as the
// files of content/, for git) and `site content import DIR` (those files
// published, validated as a publish is; the running site follows within
// its poll).
func contentCommand(cfg *config.Config, args []string, out, errw io.Writer) int {
	if len(args) != 2 || (args[0] != "export" && args[0] != "import") {
		fmt.Fprintln(errw, "usage: site content export DIR | site content import DIR")
		return 2
	}
	ctx, store, done, ok := openStore(cfg, errw)
	if !ok {
		return 1
	}
	defer done()
	log := slog.New(slog.NewTextHandler(errw, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// The running site follows by the content version it polls.
	versions := contentsync.New(store, "", nil, log)
	ed := app.NewEditor(store, log)
	ed.Changed = func(reason string) { versions.Publish(context.Background(), reason) }
	embedded, err := content.Load()
	if err != nil {
		fmt.Fprintln(errw, "error:", err)
		return 1
	}
	if _, err := ed.Seed(ctx, embedded); err != nil {
		fmt.Fprintln(errw, "error:", err)
		return 1
	}
	dir := args[1]
	if args[0] == "export" {
		c, err := ed.Load(ctx)
		if err == nil {
			err = c.Export(dir)
		}
		if err != nil {
			fmt.Fprintln(errw, "error:", err)
			return 1
		}
		fmt.Fprintf(out, "exported %d records to %s\n", len(c.Records()), dir)
		return 0
	}
	c, err := content.ReadFolder(dir)
	if err != nil {
		fmt.Fprintln(errw, "error: nothing was imported:", err)
		return 1
	}
	rep, err := ed.Import(ctx, c, editor.Actor{Name: "site content import"})
	if err != nil {
		fmt.Fprintln(errw, "error:", err)
		return 1
	}
	fmt.Fprintf(out, "published %d records, %d unchanged\n", rep.Published, rep.Unchanged)
	for _, p := range rep.Guidance {
		fmt.Fprintln(out, "guidance:", p.String())
	}
	for _, k := range rep.NotInFiles {
		fmt.Fprintln(out, "left as it is (not in the files):", k)
	}
	return 0
}
