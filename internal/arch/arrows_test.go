package arch

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// shared are the HTTP pieces every room may use: the one error type, the
// Run button, the session checker (web/auth's From and Require), and the
// one shape of a list's page and search (web/paging, ADR 069).
// Anything else under web/ is a room, and a room never imports another.
var shared = map[string]bool{"web/httperr": true, "web/runjob": true, "web/auth": true, "web/paging": true}

// TestArrowsPointDown checks the layering docs/architecture.md draws: routes
// (server/) lead to rooms (web/), rooms call domain packages, domain
// packages call db. So:
//   - only main, server/ and the build tools under cmd/ (cmd/tsgen reads
//     the rooms' answer types) import anything under web/: a domain or
//     data package never imports the HTTP layer;
//   - nothing under web/ imports server/, and only main imports server/
//     (and a test's own main under tests/, which wires a site the same
//     way: tests/jobsite);
//   - a room imports no other room, only the shared pieces.
//
// Test files count: a domain package's test that needs a room is a sign
// the code it tests sits in the wrong layer.
func TestArrowsPointDown(t *testing.T) {
	root, module := moduleRoot(t)
	imports := packageImports(t, root, module)
	if len(imports["web/pages"]) == 0 || len(imports["server"]) == 0 {
		t.Fatalf("read %d packages under %s: web/pages or server missing, the walk is wrong", len(imports), root)
	}
	var bad []string
	for pkg, deps := range imports {
		for _, dep := range deps {
			if why := arrow(pkg, dep); why != "" {
				bad = append(bad, pkg+" imports "+dep+": "+why)
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// arrow says what is wrong with pkg importing dep (both relative to the
// module, "" for its root: main), or "" when the arrow points down.
func arrow(pkg, dep string) string {
	// roomOf is the room a package under web/ belongs to: web/<name>.
	roomOf := func(p string) string {
		if parts := strings.SplitN(p, "/", 3); len(parts) >= 2 && parts[0] == "web" && !shared[parts[0]+"/"+parts[1]] {
			return parts[0] + "/" + parts[1]
		}
		return ""
	}
	switch {
	case under(dep, "web") && pkg != "" && !under(pkg, "web") && !under(pkg, "server") && !under(pkg, "cmd"):
		return "only main, server/ and cmd/ import the HTTP layer (web/)"
	case under(dep, "server") && pkg != "" && !under(pkg, "server") && !under(pkg, "tests"):
		return "only main (and the tests' own mains under tests/) imports server/, the wiring and the HTTP edge"
	case roomOf(pkg) != "" && roomOf(dep) != "" && roomOf(pkg) != roomOf(dep):
		return "a room imports no other room (only " + strings.Join(sortedKeys(shared), ", ") + ")"
	}
	return ""
}

// TestArrowRules pins what arrow allows, so a loosened rule shows here.
func TestArrowRules(t *testing.T) {
	for _, c := range []struct {
		pkg, dep string
		ok       bool
	}{
		{"", "server", true},
		{"", "web/pages", true},
		{"server", "web/leads", true},
		{"web/leads", "leads", true},
		{"web/leads", "web/auth", true},
		{"web/leads", "web/httperr", true},
		{"web/leads/sub", "web/leads", true},
		{"web/auth", "web/httperr", true},
		{"web/leads/sub", "web/pages/sub", false},
		{"site", "web/estimate", false},
		{"leads", "web/leads", false},
		{"db", "web/httperr", false},
		{"web/leads", "server", false},
		{"server", "server", true}, // server's own external tests
		{"site", "server", false},
		{"tests/jobsite", "server", true},
		{"testsuite", "server", false},
		{"web/pages", "web/estimate", false},
		{"webhooks", "web/leads", false},
		{"webhooks", "web", false},
		{"website", "server", false},
		{"serverless", "web/leads", false},
		{"cmd/tsgen", "web/leads", true},
		{"cmd/tsgen", "server", false},
		{"cmdline", "web/leads", false},
	} {
		if got := arrow(c.pkg, c.dep) == ""; got != c.ok {
			t.Errorf("arrow(%q, %q) allowed = %v, want %v", c.pkg, c.dep, got, c.ok)
		}
	}
	// The prefix is a folder, not a string: "webhooks" is not under web/.
	if under("webhooks", "web") || !under("web", "web") || !under("web/x", "web") {
		t.Error("under matches by string, not by folder")
	}
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// moduleRoot finds go.mod above the test's folder and returns its folder
// and module path.
func moduleRoot(t *testing.T) (string, string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			mod := ""
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
					mod = strings.Trim(f[1], `"`)
				}
			}
			if mod == "" {
				t.Fatalf("%s/go.mod names no module", dir)
			}
			return dir, mod
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// packageImports reads the imports of every Go file in the module, test
// files included, as folder (relative to the root, "" for the root) ->
// the module's packages it imports (relative too).
func packageImports(t *testing.T, root, module string) map[string][]string {
	t.Helper()
	seen := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "node_modules" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if p != root {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if pkg == "." {
			pkg = ""
		}
		if seen[pkg] == nil {
			seen[pkg] = map[string]bool{}
		}
		for _, im := range f.Imports {
			ip, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				return err
			}
			if ip == module {
				seen[pkg][""] = true
			} else if rest, ok := strings.CutPrefix(ip, module+"/"); ok {
				seen[pkg][path.Clean(rest)] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for pkg, deps := range seen {
		out[pkg] = sortedKeys(deps)
	}
	return out
}
