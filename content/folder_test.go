package content

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exported is the embedded content exported to a fresh folder.
func exported(t *testing.T) string {
	t.Helper()
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "content")
	if err := s.Export(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func folderProblems(t *testing.T, err error) []string {
	t.Helper()
	var fe *FolderError
	if !errors.As(err, &fe) {
		t.Fatalf("want a *FolderError, got %v", err)
	}
	return fe.Problems
}

func TestReadFolder(t *testing.T) {
	dir := exported(t)
	s, err := ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if embedded, _ := Load(); len(s.Records()) != len(embedded.Records()) {
		t.Errorf("%d records read, %d exported", len(s.Records()), len(embedded.Records()))
	}
}

// Symbolic links are refused wherever they are in an import folder, and
// the folder named may not be one; nothing they point at is read.
func TestReadFolderRefusesLinks(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.md")
	os.WriteFile(secret, []byte("---\ntitle: x\n---\nsecret"), 0o644)

	dir := exported(t)
	os.Remove(filepath.Join(dir, "pages", "about.md"))
	must(t, os.Symlink(secret, filepath.Join(dir, "pages", "about.md")))
	must(t, os.Symlink(outside, filepath.Join(dir, "blog", "more")))
	_, err := ReadFolder(dir)
	got := strings.Join(folderProblems(t, err), "\n")
	for _, want := range []string{"pages/about.md: is a symbolic link", "blog/more: is a symbolic link"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems %q lack %q", got, want)
		}
	}

	link := filepath.Join(t.TempDir(), "link")
	must(t, os.Symlink(exported(t), link))
	if _, err := ReadFolder(link); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("a linked folder: %v", err)
	}
}

// Every file's problem is listed at once: a broken JSON file does not
// hide a broken post.
func TestReadFolderListsEveryProblem(t *testing.T) {
	dir := exported(t)
	os.WriteFile(filepath.Join(dir, "home.json"), []byte(`{"headline": `), 0o644)
	os.WriteFile(filepath.Join(dir, "faqs.json"), []byte(`{"home": [{"question": "Q?", "answer": "A.", "evil": 1}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "pages", "terms.md"), []byte("no front matter"), 0o644)
	os.WriteFile(filepath.Join(dir, "pages", "privacy.md"), []byte("---\ntitle: P\n---\nbad \xff byte"), 0o644)
	_, err := ReadFolder(dir)
	got := folderProblems(t, err)
	if len(got) != 4 {
		t.Errorf("%d problems, want 4:\n%s", len(got), strings.Join(got, "\n"))
	}
	for _, want := range []string{"home.json", "faqs.json", "pages/terms.md", "pages/privacy.md: is not text"} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("no problem names %s:\n%s", want, strings.Join(got, "\n"))
		}
	}

	// A file over MaxFileBytes is not read.
	dir = exported(t)
	posts, _ := filepath.Glob(filepath.Join(dir, "blog", "*.md"))
	os.WriteFile(posts[0], []byte(strings.Repeat("x", MaxFileBytes+1)), 0o644)
	_, err = ReadFolder(dir)
	if got := folderProblems(t, err); len(got) != 1 || !strings.Contains(got[0], "a file can be at most 4 MB") {
		t.Errorf("a 4 MB file: %q", got)
	}
}

// An export refuses a target that is a link or holds one, and writes
// nothing through it.
func TestExportRefusesLinks(t *testing.T) {
	s, _ := Load()
	outside := t.TempDir()

	link := filepath.Join(t.TempDir(), "link")
	must(t, os.Symlink(outside, link))
	if err := s.Export(link); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("a linked target: %v", err)
	}

	dir := t.TempDir()
	must(t, os.Symlink(outside, filepath.Join(dir, "blog")))
	must(t, os.Symlink(filepath.Join(outside, "home.json"), filepath.Join(dir, "home.json")))
	err := s.Export(dir)
	got := strings.Join(folderProblems(t, err), "\n")
	if !strings.Contains(got, "blog: is a symbolic link") || !strings.Contains(got, "home.json: is a symbolic link") {
		t.Errorf("problems: %s", got)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside the folder: %v", entries)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
