package content

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/atlanta-restoration/site/guard"
)

// A content folder (`site content export DIR`, `site content import DIR`)
// is read and written without following a symbolic link, in or out: a
// link could make an import read a file from anywhere on the machine, or
// an export overwrite one. Every problem of a folder is reported at once.

// MaxFileBytes bounds one file of a content folder: the largest holds a
// few tens of kilobytes, and a record is at most MaxRecordBytes anyway.
const MaxFileBytes = 4 << 20

// FolderError lists every problem found in a content folder.
type FolderError struct {
	Dir      string
	Problems []string
}

func (e *FolderError) Error() string {
	return fmt.Sprintf("%s has %d problem(s):\n  %s", e.Dir, len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// links lists the symbolic links and other non-regular files under dir
// (dir itself excluded), as problems; WalkDir never follows a link.
func links(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case p == dir:
		case d.Type()&fs.ModeSymlink != 0:
			out = append(out, rel+": is a symbolic link; links are never followed (copy the file or folder in instead)")
		case d.IsDir():
		case !d.Type().IsRegular():
			out = append(out, rel+": is not a regular file")
		}
		return nil
	})
	return out, err
}

// realFolder refuses a path that is a symbolic link or not a folder.
func realFolder(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("content: %s is a symbolic link; name the folder itself", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("content: %s is not a folder", dir)
	}
	return nil
}

// ReadFolder reads a content folder for `site content import`: no
// symbolic link (the folder's own name included), no file over
// MaxFileBytes, every file valid text (UTF-8 without NUL) and readable
// as its kind. A *FolderError lists every problem found. What the records
// say (Check, MaxRecordBytes, what the database holds) is the importer's
// to judge (editor.Import).
func ReadFolder(dir string) (*Set, error) {
	root, err := openFolder(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fsys := root.FS()
	if problems := checkFiles(fsys); len(problems) > 0 {
		return nil, &FolderError{Dir: dir, Problems: problems}
	}
	s, err := ReadFS(fsys)
	if err != nil {
		return nil, &FolderError{Dir: dir, Problems: []string{strings.TrimPrefix(err.Error(), "content: ")}}
	}
	return s, nil
}

// checkFiles reads every file ReadFS reads, each on its own, so that one
// bad file does not hide the next.
func checkFiles(fsys fs.FS) []string {
	var out []string
	text := func(name string) bool {
		fi, err := fs.Stat(fsys, name)
		if err != nil {
			out = append(out, fmt.Sprintf("%s: %v", name, unwrapPath(err)))
			return false
		}
		if fi.Size() > MaxFileBytes {
			out = append(out, fmt.Sprintf("%s: is %d MB; a file can be at most %d MB", name, (fi.Size()+1<<20-1)>>20, MaxFileBytes>>20))
			return false
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			out = append(out, fmt.Sprintf("%s: %v", name, unwrapPath(err)))
			return false
		}
		if !guard.ValidText(string(b)) {
			out = append(out, name+": is not text (UTF-8 without NUL characters)")
			return false
		}
		return true
	}
	add := func(err error) {
		if err != nil {
			out = append(out, strings.TrimPrefix(err.Error(), "content: "))
		}
	}
	var counties []County
	for _, f := range []struct {
		name string
		v    any
	}{
		{"services.json", &[]Service{}}, {"counties.json", &counties}, {"city-profiles.json", &map[string]*CityProfile{}},
		{"faqs.json", &map[string][]FAQ{}}, {"home.json", &Home{}}, {"blog/categories.json", &[]Category{}},
	} {
		if text(f.name) {
			add(readJSON(fsys, f.name, f.v))
		}
	}
	for _, c := range counties {
		if name := "cities/" + c.Slug + ".json"; ValidSlug(c.Slug) && text(name) {
			add(readJSON(fsys, name, &[]City{}))
		}
	}
	text("updated.txt")
	posts, _ := fs.Glob(fsys, "blog/*.md")
	for _, p := range posts {
		if text(p) {
			_, err := readArticle(fsys, p)
			add(err)
		}
	}
	pages, _ := fs.Glob(fsys, "pages/*.md")
	for _, p := range pages {
		if text(p) {
			_, _, err := readFrontMatter(fsys, p)
			add(err)
		}
	}
	return out
}

// unwrapPath drops the operation and path a *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// exportRoot opens the folder an export writes to, creating it: refused
// when it is a symbolic link or holds one, so every file written stays
// inside it (the *os.Root keeps it so).
func exportRoot(dir string) (*os.Root, error) {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("content: %w", err)
		}
	}
	return openFolder(dir)
}

// openFolder opens dir as an *os.Root when it is a real folder holding no
// symbolic link; a link anywhere in it is a *FolderError naming each.
func openFolder(dir string) (*os.Root, error) {
	if err := realFolder(dir); err != nil {
		return nil, err
	}
	problems, err := links(dir)
	if err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	if len(problems) > 0 {
		return nil, &FolderError{Dir: dir, Problems: problems}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	return root, nil
}

// writeIn writes a file of an export inside root, creating its folder.
func writeIn(root *os.Root, name string, data []byte) error {
	p := filepath.FromSlash(name)
	if d := path.Dir(name); d != "." {
		if err := root.MkdirAll(filepath.FromSlash(d), 0o755); err != nil {
			return fmt.Errorf("content: %w", err)
		}
	}
	if err := root.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("content: %w", err)
	}
	return nil
}
