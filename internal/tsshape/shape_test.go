package tsshape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The limits of docs/adding-an-admin-screen.md: a screen that grows gets
// a folder named for it, with a file per subject.
const (
	maxFileLines      = 400 // a file under admin/
	maxComponentLines = 200 // a component anywhere below
)

// trees hold the React code whose components are measured; only admin/
// has the file limit (the public pages' type files are long lists).
var trees = []string{"admin", "components", "pages", "client"}

// generated marks a file written by a tool (admin/api.gen.ts): its length
// is the Go types', not anyone's to split.
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

type component struct {
	Name  string `json:"name"`
	Line  int    `json:"line"`
	Lines int    `json:"lines"`
}

type file struct {
	Path        string      `json:"path"`
	Lines       int         `json:"lines"`
	ParseErrors int         `json:"parseErrors"`
	Components  []component `json:"components"`
}

// TestFilesAndComponentsStaySmall measures every .ts and .tsx file of the
// trees. A parse error fails too: a file the parser misreads could hide
// a component.
func TestFilesAndComponentsStaySmall(t *testing.T) {
	root := moduleRoot(t)
	var rels []string
	for _, tree := range trees {
		err := filepath.WalkDir(filepath.Join(root, tree), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) {
				rel, _ := filepath.Rel(root, p)
				rels = append(rels, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	files := measure(t, root, rels)
	// A walk or a parser that finds next to nothing would pass every
	// limit: 149 files and 231 components when this test was written.
	count := 0
	for _, f := range files {
		count += len(f.Components)
	}
	if len(files) < 120 || count < 180 {
		t.Fatalf("measured %d files and %d components: the walk or the parser is wrong", len(files), count)
	}
	for _, f := range files {
		if f.ParseErrors > 0 {
			t.Errorf("%s: %d parse errors: the measure cannot be trusted", f.Path, f.ParseErrors)
		}
		if strings.HasPrefix(f.Path, "admin/") && f.Lines > maxFileLines {
			b, err := os.ReadFile(filepath.Join(root, f.Path))
			if err != nil {
				t.Fatal(err)
			}
			if !generated.Match(b) {
				t.Errorf("%s: %d lines, over %d: split it by subject (docs/adding-an-admin-screen.md)", f.Path, f.Lines, maxFileLines)
			}
		}
		for _, c := range f.Components {
			if c.Lines > maxComponentLines {
				t.Errorf("%s:%d: component %s is %d lines, over %d: move a part into a component or a hook of its own", f.Path, c.Line, c.Name, c.Lines, maxComponentLines)
			}
		}
	}
}

// TestMeasureReadsEveryForm runs the measure on testdata/sample.tsx,
// which writes a component in each form the code base uses, beside a
// hook, a render helper, a capitalised constant and an object member that
// renders nothing, which are not components: a measure that missed a
// form would pass a long component.
func TestMeasureReadsEveryForm(t *testing.T) {
	files := measure(t, ".", []string{"testdata/sample.tsx"})
	if len(files) != 1 {
		t.Fatalf("measured %d files, want 1", len(files))
	}
	f := files[0]
	var got []string
	for _, c := range f.Components {
		got = append(got, fmt.Sprintf("%s:%d+%d", c.Name, c.Line, c.Lines))
	}
	want := []string{"Declared:6+3", "Arrow:10+3", "Memoised:14+3", "Forwarded:18+3", "Boundary:22+3", "default:31+3", "Member:38+1", "Method:39+1"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("components (name:line+lines) = %v, want %v", got, want)
	}
	if f.Lines != 41 || f.ParseErrors != 0 {
		t.Errorf("file: %d lines, %d parse errors; want 41, 0", f.Lines, f.ParseErrors)
	}
}

// measure runs measure.mjs over rels (relative to root). node and the
// repository's typescript package (npm ci, which make test runs first)
// are required: without them the test fails rather than passing unmeasured.
func measure(t *testing.T, root string, rels []string) []file {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not on PATH: the components cannot be measured (make test needs Node.js 20)")
	}
	script, err := filepath.Abs("measure.mjs")
	if err != nil {
		t.Fatal(err)
	}
	repo := moduleRoot(t)
	cmd := exec.Command(node, append([]string{script, repo, root}, rels...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node measure.mjs: %v\n%s(npm ci installs typescript)", err, stderr.String())
	}
	var files []file
	if err := json.Unmarshal(out, &files); err != nil {
		t.Fatalf("measure.mjs answered %q: %v", out, err)
	}
	if len(files) != len(rels) {
		t.Fatalf("measured %d files of %d", len(files), len(rels))
	}
	return files
}

// moduleRoot finds go.mod above the test's folder.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above the test's folder")
		}
		dir = parent
	}
}
