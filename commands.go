package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
)

// The command line: `site` serves; every other first word is a
// command, and a word that is not one prints the usage and exits 2
// (`site versoin` used to start the whole site).

// version and commit are set at build time:
//
//	go build -ldflags "-X main.version=1.4.0 -X main.commit=$(git rev-parse --short HEAD)"
//
// Without them, the module's build information is used.
var (
	version = ""
	commit  = ""
)

const usage = `usage: site [command]

  (no command)       serve the site (configuration from the environment; see docs/configuration.md)
  migrate            apply the database migrations and exit
  backup [--to DIR|s3://bucket/prefix]
                     back up the database, the media and the lead spool (default: BACKUP_TO)
  restore [--check] FROM
                     restore a backup (FROM is its folder, e.g. /backups/20261125-031500,
                     or s3://bucket/prefix/20261125-031500); --check only verifies it.
                     Refused while an instance of the site runs on the database.
  healthcheck [--url URL] [--ready]
                     exit 0 when the site answers /healthz, 1 otherwise (for a container
                     HEALTHCHECK; default URL http://127.0.0.1:$PORT/healthz)
  version            print the version and commit
  user ...           manage accounts (site user help)
  content export DIR | content import DIR
                     the live content as files, and back
  help               print this`

// command runs the command args name and returns the exit code.
func command(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "serve" {
		return serve()
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprintln(stdout, usage)
		return 0
	case "version", "--version":
		fmt.Fprintln(stdout, versionLine())
		return 0
	case "healthcheck":
		return healthcheckCommand(args[1:], os.Getenv, stdout, stderr)
	}
	cfg, err := config.Load()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	switch args[0] {
	case "migrate":
		return migrateCommand(cfg, stdout, stderr)
	case "backup":
		return backupCommand(cfg, args[1:], stdout, stderr)
	case "restore":
		return restoreCommand(cfg, args[1:], stdout, stderr)
	case "user":
		return userCommand(cfg, args[1:])
	case "content":
		return contentCommand(cfg, args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "site: unknown command %q\n\n%s\n", args[0], usage)
	return 2
}

// buildInfo is the version and commit: the -ldflags values, else the
// module's build information (a tagged module version, the VCS revision).
func buildInfo() (string, string) {
	v, c := version, commit
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && c == "" {
				c = s.Value
				if len(c) > 12 {
					c = c[:12]
				}
			}
		}
	}
	if v == "" {
		v = "dev"
	}
	if c == "" {
		c = "unknown"
	}
	return v, c
}

func versionLine() string {
	v, c := buildInfo()
	return fmt.Sprintf("site %s (commit %s, %s, %s/%s)", v, c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// openStore opens the configured database for a command, as the server
// would, under a context that an interrupt or SIGTERM cancels. On failure
// it says why on errw and ok is false; done closes the store and stops
// listening for signals.
func openStore(cfg *config.Config, errw io.Writer) (ctx context.Context, store *db.Store, done func(), ok bool) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	store, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		stop()
		fmt.Fprintln(errw, "error:", err)
		return nil, nil, nil, false
	}
	return ctx, store, func() { store.Close(); stop() }, true
}

// migrateCommand applies the migrations (opening the store does) and
// says where the database stands.
func migrateCommand(cfg *config.Config, stdout, stderr io.Writer) int {
	ctx, store, done, ok := openStore(cfg, stderr)
	if !ok {
		return 1
	}
	defer done()
	counts, err := store.RowCounts(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	fmt.Fprintf(stdout, "migrated: %s database at schema %d (%d tables)\n", store.Dialect(), db.LatestMigration(), len(counts))
	return 0
}

// healthcheckCommand asks the site's /healthz and exits 0 when it answers
// up (1 otherwise): a distroless container has no curl. Without --ready it
// is liveness: a running site whose database is down still serves its
// pages and keeps its leads, so it is healthy ("degraded" in the
// details). With --ready it is readiness (warmed up, not draining).
func healthcheckCommand(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := getenv("PORT")
	if port == "" {
		port = "8080"
	}
	target := fs.String("url", "http://127.0.0.1:"+port+"/healthz", "address of the site's /healthz")
	ready := fs.Bool("ready", false, "check readiness (/healthz?ready=1) instead of liveness")
	timeout := fs.Duration("timeout", 5*time.Second, "longest wait for the answer")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "healthcheck: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	u := *target
	if *ready {
		if strings.Contains(u, "?") {
			u += "&ready=1"
		} else {
			u += "?ready=1"
		}
	}
	client := &http.Client{Timeout: *timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(u)
	if err != nil {
		fmt.Fprintln(stderr, "unhealthy:", err)
		return 1
	}
	defer res.Body.Close()
	var body struct {
		Status string `json:"status"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&body); err != nil {
		fmt.Fprintf(stderr, "unhealthy: %s answered %d without a health report\n", u, res.StatusCode)
		return 1
	}
	healthy := res.StatusCode == http.StatusOK && (body.Status == "up" || body.Status == "ok" || body.Status == "degraded")
	if !*ready && res.StatusCode == http.StatusServiceUnavailable && body.Status == "degraded" {
		healthy = true // the database is down; the site serves and spools
	}
	if !healthy {
		fmt.Fprintf(stderr, "unhealthy: %s answered %d %q\n", u, res.StatusCode, body.Status)
		return 1
	}
	fmt.Fprintf(stdout, "healthy: %s answered %d %q\n", u, res.StatusCode, body.Status)
	return 0
}
