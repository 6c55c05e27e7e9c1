package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/config"
)

// `site content export` writes the live content as files; edited and
// imported, they are published; a file with a hard problem is refused
// whole, with the record and field named.
func TestContentExportImport(t *testing.T) {
	data := t.TempDir()
	cfg, err := config.LoadFrom(func(k string) string { return map[string]string{"DATA_DIR": data}[k] })
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var out, errw bytes.Buffer
		code := contentCommand(cfg, args, &out, &errw)
		return code, out.String(), errw.String()
	}
	dir := filepath.Join(t.TempDir(), "content")
	if code, out, errs := run("export", dir); code != 0 || !strings.Contains(out, "exported") {
		t.Fatalf("export: %d %s %s", code, out, errs)
	}
	post := filepath.Join(dir, "blog", "preventing-water-damage-atlanta-homes.md")
	b, err := os.ReadFile(post)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "title: Preventing Water Damage in Atlanta Homes", "title: Preventing Water Damage in Metro Atlanta Homes", 1)
	os.WriteFile(post, []byte(edited), 0o644)
	if code, out, errs := run("import", dir); code != 0 || !strings.Contains(out, "published 1 records") {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	again := filepath.Join(t.TempDir(), "again")
	run("export", again)
	if b, _ := os.ReadFile(filepath.Join(again, "blog", "preventing-water-damage-atlanta-homes.md")); !strings.Contains(string(b), "Metro Atlanta Homes") {
		t.Error("the imported edit is not live")
	}
	// A hard problem: nothing is published.
	os.WriteFile(post, []byte(strings.Replace(edited, "category: prevention", "category: nowhere", 1)), 0o644)
	code, _, errs := run("import", dir)
	if code != 1 || !strings.Contains(errs, "article preventing-water-damage-atlanta-homes: field category") {
		t.Errorf("import with a hard problem: %d %s", code, errs)
	}
	os.WriteFile(post, []byte(edited), 0o644)
	// A 1.1 MB post (the admin answers 413) is refused, and so is a
	// symbolic link in the folder: nothing is published.
	big := filepath.Join(dir, "blog", "what-to-do-immediately-after-water-damage.md")
	b, _ = os.ReadFile(big)
	os.WriteFile(big, append(b, []byte("\n"+strings.Repeat("A long line of text. ", 1100<<10/21))...), 0o644)
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("---\ntitle: x\n---\nsecret"), 0o644)
	os.Remove(filepath.Join(dir, "pages", "about.md"))
	if err := os.Symlink(outside, filepath.Join(dir, "pages", "about.md")); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run("import", dir)
	if code != 1 || !strings.Contains(errs, "pages/about.md: is a symbolic link") {
		t.Errorf("import with a link: %d %s", code, errs)
	}
	os.Remove(filepath.Join(dir, "pages", "about.md"))
	os.WriteFile(filepath.Join(dir, "pages", "about.md"), []byte("---\ntitle: About\nseoTitle: About\nmetaDescription: About us.\n---\nAbout us."), 0o644)
	code, _, errs = run("import", dir)
	if code != 1 || !strings.Contains(errs, "article what-to-do-immediately-after-water-damage: is 1") || !strings.Contains(errs, "nothing was imported") {
		t.Errorf("import of a 1.1 MB post: %d %s", code, errs)
	}
	// A symbolic link as the export's target is refused.
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(t.TempDir(), link)
	if code, _, errs := run("export", link); code != 1 || !strings.Contains(errs, "is a symbolic link") {
		t.Errorf("export to a link: %d %s", code, errs)
	}
	if code, _, _ := run("frobnicate", dir); code != 2 {
		t.Errorf("unknown subcommand: %d", code)
	}
}

// An unknown or misspelt command prints the usage and exits 2; it never
// starts the site. help prints the usage and exits 0.
func TestUnknownCommandPrintsUsage(t *testing.T) {
	t.Setenv("DATA_DIR", t.TempDir())
	for _, args := range [][]string{{"versoin"}, {"serv"}, {"backups"}, {"--port=9000"}, {""}, {"Restore"}} {
		var out, errw bytes.Buffer
		if code := command(args, &out, &errw); code != 2 || !strings.Contains(errw.String(), "unknown command") || !strings.Contains(errw.String(), "usage: site") {
			t.Errorf("%q: %d %q %q", args, code, out.String(), errw.String())
		}
	}
	var out, errw bytes.Buffer
	if code := command([]string{"help"}, &out, &errw); code != 0 || !strings.Contains(out.String(), "healthcheck") {
		t.Errorf("help: %d %q", code, out.String())
	}
}

// site version prints the version and commit: from -ldflags when given,
// and never needs the configuration.
func TestVersionCommand(t *testing.T) {
	t.Setenv("PORT", "not a port") // a broken configuration does not matter
	var out, errw bytes.Buffer
	if code := command([]string{"version"}, &out, &errw); code != 0 || !strings.HasPrefix(out.String(), "site dev (commit ") {
		t.Errorf("version: %d %q %q", code, out.String(), errw.String())
	}
	version, commit = "1.4.0", "abc1234"
	defer func() { version, commit = "", "" }()
	out.Reset()
	command([]string{"version"}, &out, &errw)
	if !strings.HasPrefix(out.String(), "site 1.4.0 (commit abc1234, go") {
		t.Errorf("with ldflags: %q", out.String())
	}
}

// site migrate applies the migrations and says where the database
// stands.
func TestMigrateCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DATA_DIR", dir)
	var out, errw bytes.Buffer
	if code := command([]string{"migrate"}, &out, &errw); code != 0 || !strings.Contains(out.String(), "migrated: sqlite database at schema") {
		t.Fatalf("migrate: %d %q %q", code, out.String(), errw.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "site.db")); err != nil {
		t.Error(err)
	}
}

// site healthcheck exits 0 when /healthz answers up (or degraded: the
// database is down but the site serves), 1 when it is down, not ready,
// not there or answers something else.
func TestHealthcheckCommand(t *testing.T) {
	answer := func(code int, body string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/healthz" {
				http.NotFound(w, r)
				return
			}
			if r.URL.Query().Get("ready") == "1" && strings.Contains(body, "degraded") {
				code = 503
			}
			w.WriteHeader(code)
			io.WriteString(w, body)
		}))
	}
	run := func(args ...string) int {
		var out, errw bytes.Buffer
		return healthcheckCommand(args, func(string) string { return "" }, &out, &errw)
	}
	up := answer(200, `{"status":"up"}`)
	defer up.Close()
	dbDown := answer(503, `{"status":"degraded","db":"unavailable"}`)
	defer dbDown.Close()
	down := answer(503, `{"status":"down"}`)
	defer down.Close()
	html := answer(200, `<html>not the site</html>`)
	defer html.Close()
	gone := answer(200, "")
	gone.Close()
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"--url", up.URL + "/healthz"}, 0},
		{[]string{"--url", up.URL + "/healthz", "--ready"}, 0},
		{[]string{"--url", dbDown.URL + "/healthz"}, 0},
		{[]string{"--url", dbDown.URL + "/healthz", "--ready"}, 1},
		{[]string{"--url", down.URL + "/healthz"}, 1},
		{[]string{"--url", html.URL + "/healthz"}, 1},
		{[]string{"--url", gone.URL + "/healthz", "--timeout", "1s"}, 1},
		{[]string{"--url", up.URL + "/elsewhere"}, 1},
		{[]string{"extra"}, 2},
	} {
		if got := run(c.args...); got != c.want {
			t.Errorf("%v: %d, want %d", c.args, got, c.want)
		}
	}
	// The default address is this machine's PORT.
	var out, errw bytes.Buffer
	u, _ := url.Parse(up.URL)
	if code := healthcheckCommand(nil, func(k string) string { return map[string]string{"PORT": u.Port()}[k] }, &out, &errw); code != 0 {
		t.Errorf("default URL on PORT %s: %d %s", u.Port(), code, errw.String())
	}
}
