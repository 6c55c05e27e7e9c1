package app

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/ssr"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func testConfig(t *testing.T) *config.Config {
	t.Helper()
	root, err := ssr.FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]string{"BASE_URL": "https://www.example-restoration.test", "SOURCE_DIR": root, "DATA_DIR": t.TempDir(), "SSR_POOL_SIZE": "1"}
	cfg, err := config.LoadFrom(func(k string) string { return vals[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Build refuses to start without what it cannot make, and names each
// missing input, rather than building a stand-in.
func TestBuildNamesMissingInputs(t *testing.T) {
	_, err := Build(context.Background(), Inputs{Config: testConfig(t), Log: quiet})
	if err == nil {
		t.Fatal("Build without a store, content, engine or media: no error")
	}
	for _, name := range []string{"Store", "Content", "Engine", "Media"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
	if strings.Contains(err.Error(), "Config") || strings.Contains(err.Error(), "Log") {
		t.Errorf("error %q names an input that was given", err)
	}
}

// Build makes every service once, on the store it is handed: the
// content is seeded and live, the editor's page list is the site's, and
// one settings service serves the site and the notifier.
func TestBuildWiresEveryService(t *testing.T) {
	cfg := testConfig(t)
	store := db.NewTestSQLite(t)
	embedded, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	engine, err := NewEngine(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	media, err := MediaStorage(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := Build(context.Background(), Inputs{Config: cfg, Log: quiet, Store: store, Content: embedded, Engine: engine, Media: media,
		Build: BuildInfo{Version: "v1", Commit: "abc"}})
	if err != nil {
		t.Fatal(err)
	}
	for name, missing := range map[string]bool{"Settings": svc.Settings == nil, "Reviews": svc.Reviews == nil, "Editor": svc.Editor == nil,
		"NotFound": svc.NotFound == nil, "Site": svc.Site == nil, "Notifier": svc.Notifier == nil, "Intake": svc.Intake == nil,
		"Backups": svc.Backups == nil, "Retention": svc.Retention == nil, "Sync": svc.Sync == nil} {
		if missing {
			t.Errorf("Services.%s was not built", name)
		}
	}
	if svc.Locker != nil {
		t.Error("a job lock on SQLite, where one instance owns the database")
	}
	if svc.Build.Version != "v1" || svc.Engine != engine || svc.Media != media || svc.Store != store {
		t.Error("Build did not keep the inputs it was handed")
	}
	// The database was seeded: its live content is what the site serves.
	live, _, err := LoadContent(context.Background(), svc.Editor)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(live.Records()), len(embedded.Records()); got != want {
		t.Errorf("live content has %d records, the embedded content %d", got, want)
	}
	paths := svc.Editor.Paths()
	if len(paths) == 0 || len(paths) != len(svc.Site.AllPaths()) {
		t.Errorf("the editor's page list (%d) is not the site's (%d)", len(paths), len(svc.Site.AllPaths()))
	}
	// A second Build on the same store does not seed twice.
	again, err := Build(context.Background(), Inputs{Config: cfg, Log: quiet, Store: store, Content: embedded, Engine: engine, Media: media})
	if err != nil {
		t.Fatal(err)
	}
	live2, _, err := LoadContent(context.Background(), again.Editor)
	if err != nil {
		t.Fatal(err)
	}
	if len(live2.Records()) != len(live.Records()) {
		t.Errorf("after a second boot: %d records, want %d", len(live2.Records()), len(live.Records()))
	}
}
