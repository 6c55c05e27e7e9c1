package main

import (
	"bytes"
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
	if code, _, _ := run("frobnicate", dir); code != 2 {
		t.Errorf("unknown subcommand: %d", code)
	}
}
