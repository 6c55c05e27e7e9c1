package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// TestDocsNameWhatExists reads README.md and every guide under docs/ and
// fails for each name the repository does not have. What is checked is
// written at checkText. docs/decisions/NNN-*.md are left out: an ADR
// records what was true when it was decided, and a later ADR renames
// what an earlier one named (ADR 056 names web/leadsmanager on purpose).
// Their index, docs/decisions/README.md, describes the present and is
// checked.
func TestDocsNameWhatExists(t *testing.T) {
	ix := repoIndex(t)
	docs := docFiles(t, ix.root)
	if len(docs) < 20 {
		t.Fatalf("found %d docs under %s: the walk is wrong", len(docs), ix.root)
	}
	for _, rel := range docs {
		b, err := os.ReadFile(filepath.Join(ix.root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, miss := range ix.checkText(rel, string(b)) {
			t.Error(miss)
		}
	}
}

// TestCheckerFindsStaleNames plants names in text held in memory, so the
// checker itself is tested: a checker that finds nothing passes every doc.
func TestCheckerFindsStaleNames(t *testing.T) {
	ix := repoIndex(t)
	for _, c := range []struct {
		name, text string
		want       []string // the names reported, in order
	}{
		{"method that exists", "`Server.Changed` drops every page.", nil},
		{"method renamed away", "`Server.Invalidate` drops every page.", []string{"Server.Invalidate"}},
		{"package function", "`notify.VerifySignature` and `server.New`", nil},
		{"package function that is gone", "`notify.CheckSignature`", []string{"notify.CheckSignature"}},
		{"package, type and method", "`db.Store.ChangeLeadStatus`, `db.Store.ChangeStatus`", []string{"db.Store.ChangeStatus"}},
		{"struct field", "`site.HeadSpec` has `HeadSpec.Title` but not `HeadSpec.Heading`", []string{"HeadSpec.Heading"}},
		{"file that exists", "see `site/table.go` and `tests/e2e/lib.mjs`", nil},
		{"file that is gone", "a port of `admin/seo-audit-rules.ts`", []string{"admin/seo-audit-rules.ts"}},
		{"folder", "`web/leads/` holds it; `web/leadsmanager/` held it", []string{"web/leadsmanager/"}},
		{"bare file name", "`install.go` lists the routes; `admin_auth.go` did", []string{"admin_auth.go"}},
		{"placeholders", "`pages/{kind}.tsx`, `site/<group>.go`, `notify/*_test.go`, `nothing/<x>.go`", nil},
		{"placeholder matching nothing", "`web/<room>/missing.go`", []string{"web/<room>/missing.go"}},
		{"test and benchmark names", "`TestCrawlWholeSite`; `go test -run TestNoSuchTest ./server/`; `BenchmarkHomeRenderCold`",
			[]string{"TestNoSuchTest"}},
		{"routes, URLs, outside names", "`/api/admin/leads`, `/admin`, `https://example.com/a.go`, `DATA_DIR/spool`, `text/event-stream`, `navigator.sendBeacon`, `site.phone`, `goja.StartProfile`, `manifest.json`", nil},
		{"code span over two lines", "run `go test -run\nTestGone ./x/` now", []string{"TestGone"}},
		{"fenced block is not read", "```go\nServer.Invalidate()\n```\n`Server.Invalid`", []string{"Server.Invalid"}},
		{"double backticks", "``a `Server.Gone` b``", nil},
		{"relative link", "[API](docs/leads-api.md), [gone](docs/gone.md), [web](https://x.y/z.md), [here](#top)", []string{"docs/gone.md"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, miss := range ix.checkText("README.md", c.text) {
				got = append(got, miss.name)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("reported %q, want %q", got, c.want)
			}
		})
	}
	// A miss names its file and line.
	misses := ix.checkText("docs/x.md", "one\ntwo `Server.Invalidate`\n")
	if len(misses) != 1 || misses[0].String() != "docs/x.md:2: names Server.Invalidate, which does not exist" {
		t.Errorf("got %v", misses)
	}
}

// miss is one name a doc gives that does not exist.
type miss struct {
	file string
	line int
	name string
}

func (m miss) String() string {
	return fmt.Sprintf("%s:%d: names %s, which does not exist", m.file, m.line, m.name)
}

// index is what the repository holds: its files, and the Go names its
// source declares, read with go/parser (no type-checking).
type index struct {
	root     string
	top      map[string]bool            // top-level files and folders
	bases    []string                   // base names of every file
	packages map[string]map[string]bool // package name -> package-level names
	members  map[string]map[string]bool // type name -> methods and fields
	tests    map[string]bool            // Test*, Benchmark*, Fuzz*, Example* functions
}

// skipDirs are folders the repository does not hold (build output,
// installed packages, data of a local run).
var skipDirs = map[string]bool{".git": true, "node_modules": true, "bin": true, "data": true}

var (
	indexOnce sync.Once
	theIndex  *index
	indexErr  error
)

func repoIndex(t *testing.T) *index {
	t.Helper()
	indexOnce.Do(func() { theIndex, indexErr = buildIndex() })
	if indexErr != nil {
		t.Fatal(indexErr)
	}
	return theIndex
}

func buildIndex() (*index, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	ix := &index{root: root, top: map[string]bool{}, packages: map[string]map[string]bool{},
		members: map[string]map[string]bool{}, tests: map[string]bool{}}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !skipDirs[e.Name()] && !strings.HasPrefix(e.Name(), ".") {
			ix.top[e.Name()] = true
		}
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		ix.bases = append(ix.bases, d.Name())
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ix.add(f)
		return nil
	})
	return ix, err
}

// add records a file's package-level declarations, its methods by
// receiver type, and its struct fields and interface methods by type.
func (ix *index) add(f *ast.File) {
	pkg := strings.TrimSuffix(f.Name.Name, "_test")
	names := ix.packages[pkg]
	if names == nil {
		names = map[string]bool{}
		ix.packages[pkg] = names
	}
	member := func(typ, name string) {
		if ix.members[typ] == nil {
			ix.members[typ] = map[string]bool{}
		}
		ix.members[typ][name] = true
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
				if testFunc.MatchString(d.Name.Name) {
					ix.tests[d.Name.Name] = true
				}
				continue
			}
			if typ := receiverType(d.Recv.List[0].Type); typ != "" {
				member(typ, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				case *ast.TypeSpec:
					names[s.Name.Name] = true
					var fields *ast.FieldList
					switch tt := s.Type.(type) {
					case *ast.StructType:
						fields = tt.Fields
					case *ast.InterfaceType:
						fields = tt.Methods
					}
					if fields == nil {
						continue
					}
					for _, fld := range fields.List {
						for _, n := range fld.Names {
							member(s.Name.Name, n.Name)
						}
						if len(fld.Names) == 0 { // embedded: the type's name is the field's
							if typ := receiverType(fld.Type); typ != "" {
								member(s.Name.Name, typ)
							}
						}
					}
				}
			}
		}
	}
}

// receiverType is T for T, *T, T[K], pkg.T.
func receiverType(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.StarExpr:
		return receiverType(x.X)
	case *ast.IndexExpr:
		return receiverType(x.X)
	case *ast.IndexListExpr:
		return receiverType(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}

// docFiles lists README.md and docs/**/*.md, without the ADRs (see
// TestDocsNameWhatExists for why), slash-separated from the root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	docs := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "docs/decisions/") && rel != "docs/decisions/README.md" {
			return nil
		}
		docs = append(docs, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(docs)
	return docs
}

var (
	testFunc = regexp.MustCompile(`^(Test|Benchmark|Fuzz|Example)([A-Z0-9_]|$)`)
	// testName finds test names inside a span, also inside a command.
	testName = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])((?:Test|Benchmark|Fuzz)[A-Z0-9_][A-Za-z0-9_]*)`)
	// goName is X.Y or X.Y.Z, optionally called: `server.New()`.
	goName = regexp.MustCompile(`^([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?(?:\(\))?$`)
	// link is a Markdown link's target.
	link       = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	inlineCode = regexp.MustCompile("`[^`]*`")
	// placeholder is what a path names by pattern: {slug}, <group>, ..., *.
	placeholder = regexp.MustCompile(`\{[^}/]*\}|<[^>/]*>|\.\.\.|…`)
)

// fileExts are the endings that make a backticked token a file name.
var fileExts = []string{".go", ".ts", ".tsx", ".mjs", ".md", ".sh", ".json", ".yml", ".sql", ".css"}

// codeExts are the endings a bare file name (no folder) is checked for:
// bare .md, .json and .yml names in the docs mostly name files the site
// writes (manifest.json, words.json), not files of the repository.
var codeExts = []string{".go", ".ts", ".tsx", ".mjs", ".sh", ".sql", ".css"}

// checkText returns what one doc names that does not exist. The rules:
//
//   - Code spans (text in backticks, also across a line break) are read;
//     fenced code blocks are not.
//   - A span that looks like a path (it has a slash, or ends in one of
//     fileExts) is checked as a file or folder when its first segment is
//     a top-level file or folder of the repository; then it must exist.
//     {slug}, <group>, ... and * are patterns that must match something.
//     A span starting with / is a route or an absolute path, and one with
//     :// a URL: neither is checked; nor is DATA_DIR/spool or text/csv,
//     whose first segment the repository does not have.
//   - A bare file name ending in one of codeExts must be the name of some
//     file in the repository.
//   - pkg.Name, where pkg is a package of this module and Name starts
//     with a capital, must be declared at pkg's top level (in any folder
//     of that name). Type.Member, where Type is a type this module
//     declares, must be its method or field; pkg.Type.Member both.
//     Lower-case names after the dot (site.phone, a prop of the pages'
//     TypeScript) are not checked.
//   - Test, Benchmark and Fuzz function names, also inside a command,
//     must be declared in some Go file.
//   - A relative Markdown link must point at a file of the repository.
func (ix *index) checkText(file, text string) []miss {
	var misses []miss
	text = blankFences(text)
	for _, sp := range codeSpans(text) {
		for _, name := range ix.missing(sp.text) {
			misses = append(misses, miss{file, sp.line, name})
		}
	}
	for _, lk := range links(text) {
		if !ix.linkExists(file, lk.text) {
			misses = append(misses, miss{file, lk.line, lk.text})
		}
	}
	sort.SliceStable(misses, func(i, j int) bool { return misses[i].line < misses[j].line })
	return misses
}

// missing returns the names in one code span that do not exist.
func (ix *index) missing(span string) []string {
	var out []string
	for _, m := range testName.FindAllStringSubmatch(span, -1) {
		if !ix.tests[m[1]] {
			out = append(out, m[1])
		}
	}
	if strings.ContainsAny(span, " \t") || testFunc.MatchString(span) {
		return out // a command or a phrase: only its test names are checked
	}
	if strings.Contains(span, "://") || strings.HasPrefix(span, "/") {
		return out
	}
	if looksLikeFile(span) {
		if !ix.fileExists(span) {
			out = append(out, span)
		}
		return out
	}
	if m := goName.FindStringSubmatch(span); m != nil && !ix.goNameExists(m[1], m[2], m[3]) {
		out = append(out, span)
	}
	return out
}

func looksLikeFile(s string) bool {
	if strings.Contains(s, "/") {
		return true
	}
	for _, ext := range fileExts {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return false
}

// fileExists applies the path rules of checkText; a path it does not
// check counts as existing.
func (ix *index) fileExists(s string) bool {
	s = strings.TrimPrefix(s, "./")
	if !strings.Contains(s, "/") {
		for _, ext := range codeExts {
			if strings.HasSuffix(s, ext) {
				return ix.baseExists(s)
			}
		}
		return true
	}
	first, _, _ := strings.Cut(s, "/")
	if !ix.top[first] {
		return true
	}
	pattern := placeholder.ReplaceAllString(strings.TrimSuffix(s, "/"), "*")
	if !strings.ContainsAny(pattern, "*?[") {
		_, err := os.Stat(filepath.Join(ix.root, filepath.FromSlash(pattern)))
		return err == nil
	}
	matches, err := filepath.Glob(filepath.Join(ix.root, filepath.FromSlash(pattern)))
	return err == nil && len(matches) > 0
}

func (ix *index) baseExists(name string) bool {
	pattern := placeholder.ReplaceAllString(name, "*")
	for _, b := range ix.bases {
		if ok, _ := path.Match(pattern, b); ok {
			return true
		}
	}
	return false
}

func (ix *index) goNameExists(x, y, z string) bool {
	capital := func(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }
	if decls, ok := ix.packages[x]; ok && x != "main" {
		if !capital(y) {
			return true // a TypeScript prop such as site.phone
		}
		if !decls[y] {
			return false
		}
		return z == "" || !capital(z) || ix.members[y][z]
	}
	if members, ok := ix.members[x]; ok && capital(x) && capital(y) {
		return members[y] && (z == "" || !capital(z) || ix.members[y][z])
	}
	return true // not this module's name
}

// linkExists says whether a relative link of a doc points at a file of
// the repository. Links to other sites, to anchors and outside the
// repository are not checked.
func (ix *index) linkExists(doc, target string) bool {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
		return true
	}
	target, _, _ = strings.Cut(target, "#")
	p := path.Join(path.Dir(doc), target)
	if strings.HasPrefix(p, "../") || p == ".." {
		return true
	}
	_, err := os.Stat(filepath.Join(ix.root, filepath.FromSlash(p)))
	return err == nil
}

// span is a piece of a doc with the line it starts on.
type span struct {
	line int
	text string
}

// blankFences empties the lines of fenced code blocks, keeping the line
// count, so what they hold is not read as code spans.
func blankFences(text string) string {
	lines := strings.Split(text, "\n")
	fence := ""
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if fence == "" {
			if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				fence = t[:3]
				lines[i] = ""
			}
			continue
		}
		if strings.HasPrefix(t, fence) {
			fence = ""
		}
		lines[i] = ""
	}
	return strings.Join(lines, "\n")
}

// codeSpans finds `code` and “code“: a run of backticks closed by the
// next run of the same length in the same paragraph.
func codeSpans(text string) []span {
	var out []span
	line := 1
	for i := 0; i < len(text); {
		c := text[i]
		if c == '\n' {
			line++
			i++
			continue
		}
		if c != '`' {
			i++
			continue
		}
		n := run(text, i)
		start := i + n
		end := -1
		for j := start; j < len(text); {
			if text[j] == '`' {
				m := run(text, j)
				if m == n {
					end = j
					break
				}
				j += m
				continue
			}
			if strings.HasPrefix(text[j:], "\n\n") {
				break
			}
			j++
		}
		if end < 0 {
			i = start
			continue
		}
		body := text[start:end]
		out = append(out, span{line, strings.TrimSpace(strings.ReplaceAll(body, "\n", " "))})
		line += strings.Count(body, "\n")
		i = end + n
	}
	return out
}

func run(text string, i int) int {
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	return n
}

// links finds Markdown link targets outside code spans.
func links(text string) []span {
	var out []span
	for i, l := range strings.Split(text, "\n") {
		l = inlineCode.ReplaceAllString(l, "") // `a](b)` is not a link
		for _, m := range link.FindAllStringSubmatch(l, -1) {
			out = append(out, span{i + 1, m[1]})
		}
	}
	return out
}
