package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/atlanta-restoration/site/app"
	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/server"
)

// backupCommand runs `site backup [--to DIR|s3://bucket/prefix]`: one
// backup of the configured site while it runs, checked and recorded as
// the scheduled job's are (the dashboard shows it). It does not prune:
// retention is the scheduled job's.
func backupCommand(cfg *config.Config, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	to := fs.String("to", cfg.Backup.To, "a folder or s3://bucket/prefix (default BACKUP_TO)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "backup: unexpected argument %q\n%s\n", fs.Arg(0), usage)
		return 2
	}
	ctx, store, done, ok := openStore(cfg, stderr)
	if !ok {
		return 1
	}
	defer done()
	media, err := app.MediaStorage(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "error: media storage:", err)
		return 1
	}
	target, err := backup.Open(*to, cfg.Storage)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	v, _ := buildInfo()
	svc := backup.New(backup.Options{Store: store, DatabaseURL: cfg.DatabaseURL, DataDir: cfg.DataDir, Media: media, Target: target,
		PGBinDir: cfg.Backup.PGBinDir, Version: v, Log: cmdLogger(cfg, stderr), Locker: app.Locker(store)})
	res, err := svc.Run(ctx, backup.TriggerCommand)
	if err != nil {
		fmt.Fprintln(stderr, "backup failed:", err)
		return 1
	}
	fmt.Fprintln(stdout, res.Summary())
	fmt.Fprintln(stdout, "restore it with: site restore", res.Location)
	return 0
}

// restoreCommand runs `site restore [--check] FROM`: FROM is checked
// against its manifest (every checksum, the database's integrity and row
// counts) and then restored, unless --check; refused while an instance
// holds the database.
func restoreCommand(cfg *config.Config, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "verify the backup and restore nothing")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "restore: name one backup\n%s\n", usage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	from, name, err := backup.Resolve(ctx, fs.Arg(0), func(loc string) (*backup.Target, error) { return backup.Open(loc, cfg.Storage) })
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	media, err := app.MediaStorage(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "error: media storage:", err)
		return 1
	}
	rep, err := backup.Restore(ctx, backup.RestoreOptions{From: from, Name: name, DatabaseURL: cfg.DatabaseURL, DataDir: cfg.DataDir, Media: media,
		PGBinDir: cfg.Backup.PGBinDir, CheckOnly: *check, Log: cmdLogger(cfg, stderr)})
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		if errors.Is(err, db.ErrInUse) {
			fmt.Fprintln(stderr, "stop the site (every instance), then run the restore again")
		}
		return 1
	}
	for _, l := range rep.Lines() {
		fmt.Fprintln(stdout, l)
	}
	return 0
}

// cmdLogger is a command's log: warnings and errors only, on stderr, in
// LOG_FORMAT, secrets redacted.
func cmdLogger(cfg *config.Config, stderr io.Writer) *slog.Logger {
	return server.NewFormatLogger(stderr, cfg.Secrets(), cfg.Log.Format, slog.LevelWarn)
}
