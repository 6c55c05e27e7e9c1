package ssr

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/andybalholm/brotli"
	"github.com/evanw/esbuild/pkg/api"
)

// BuildOptions says where the React sources are and which page kinds get a
// client entry.
type BuildOptions struct {
	// Root is the project directory holding pages/, components/, client/,
	// styles/ and node_modules/.
	Root string
	// Kinds are the page kinds; each is pages/{kind}.tsx with a default
	// export. Each gets its own inlined CSS.
	Kinds []string
	// FullKinds hydrate the whole page from its props (the admin app).
	// Every other kind loads the shared islands entry, which hydrates only
	// the page's interactive parts.
	FullKinds []string
	// Dev adds inline source maps so errors name the original file and line.
	Dev bool
}

// Bundle is the result of one build: the server program for goja and the
// client assets, keyed by URL path.
type Bundle struct {
	Server  string
	Assets  map[string]*Asset
	Entries map[string]Entry
}

// Entry is what a page kind's document needs: its module script, the chunks
// to modulepreload, the CSS to inline, and whether the script needs the
// page's props (full hydration) or only the islands' own.
type Entry struct {
	Script   string
	Preloads []string
	CSS      string
	Props    bool
}

// Asset is one hashed client file, pre-compressed.
type Asset struct {
	ContentType string
	Body        []byte
	Gzip        []byte
	Brotli      []byte
	ETag        string
}

// BuildError carries esbuild's messages with file and line.
type BuildError struct{ Messages []string }

func (e *BuildError) Error() string {
	return "ssr build failed:\n" + strings.Join(e.Messages, "\n")
}

const assetPrefix = "/assets/"

// Build bundles the server program and the client entries with esbuild.
func Build(opts BuildOptions) (*Bundle, error) {
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, err
	}
	server, err := buildServer(root, opts.Kinds, opts.Dev, false)
	if err != nil {
		return nil, err
	}
	assets, entries, err := buildClient(root, opts.Kinds, opts.FullKinds, opts.Dev)
	if err != nil {
		return nil, err
	}
	return &Bundle{Server: server, Assets: assets, Entries: entries}, nil
}

func commonOptions(root string) api.BuildOptions {
	return api.BuildOptions{
		AbsWorkingDir:     root,
		Bundle:            true,
		Write:             false,
		Platform:          api.PlatformBrowser,
		JSX:               api.JSXAutomatic,
		MinifySyntax:      true,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		LegalComments:     api.LegalCommentsNone,
		Define:            map[string]string{"process.env.NODE_ENV": `"production"`},
		LogLevel:          api.LogLevelSilent,
	}
}

// serverEntry imports every page kind and exposes render for goja.
func serverEntry(kinds []string) string {
	var b strings.Builder
	b.WriteString("import { renderPage } from \"./pages/server\";\n")
	for i, k := range kinds {
		fmt.Fprintf(&b, "import p%d from \"./pages/%s\";\n", i, k)
	}
	b.WriteString("const pages = {")
	for i, k := range kinds {
		fmt.Fprintf(&b, "%q: p%d, ", k, i)
	}
	b.WriteString("};\nexport function render(kind, props) { return renderPage(pages, kind, props); }\n")
	return b.String()
}

// buildServer bundles the server program. unpatched leaves React as it
// is published (the tests' reference for what the patches must not
// change); such a bundle needs no natives.
func buildServer(root string, kinds []string, dev, unpatched bool) (string, error) {
	var patched, jsxPatched atomic.Int32
	o := commonOptions(root)
	entry := serverEntry(kinds)
	o.Stdin = &api.StdinOptions{Contents: entry, ResolveDir: root, Sourcefile: "server-entry.tsx", Loader: api.LoaderTSX}
	o.Format = api.FormatIIFE
	o.GlobalName = "SSR"
	o.Target = api.ES2017
	// goja runs object spread and rest as they are; lowered to es2017 they
	// become esbuild's helpers, a for-in loop per object. react-helmet-async
	// spreads props and tag objects at every step of the head (ADR 055):
	// 46.2k -> 43.9k allocations per home render.
	o.Supported = map[string]bool{"object-rest-spread": true}
	o.Outfile = "server.js"
	o.Loader = map[string]api.Loader{".css": api.LoaderEmpty}
	if dev {
		o.Sourcemap = api.SourceMapInline
		o.MinifyIdentifiers = false
	}
	o.Plugins = []api.Plugin{{
		Name: "react-render-accumulator",
		Setup: func(b api.PluginBuild) {
			// react-dom's package exports hide cjs/, so resolve the legacy
			// renderToString build by path.
			b.OnResolve(api.OnResolveOptions{Filter: `^react-dom/server$`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: filepath.Join(root, "node_modules", filepath.FromSlash(reactServerFile))}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `react-dom-server-legacy\.browser\.production\.min\.js$`},
				func(args api.OnLoadArgs) (api.OnLoadResult, error) {
					data, err := os.ReadFile(args.Path)
					if err != nil {
						return api.OnLoadResult{}, err
					}
					src, err := PatchReactServer(string(data))
					if unpatched {
						src, err = string(data), nil
					}
					if err != nil {
						return api.OnLoadResult{}, err
					}
					patched.Add(1)
					return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
				})
			b.OnLoad(api.OnLoadOptions{Filter: `react-jsx-runtime\.production\.min\.js$`},
				func(args api.OnLoadArgs) (api.OnLoadResult, error) {
					data, err := os.ReadFile(args.Path)
					if err != nil {
						return api.OnLoadResult{}, err
					}
					src, err := PatchJSXRuntime(string(data))
					if unpatched {
						src, err = string(data), nil
					}
					if err != nil {
						return api.OnLoadResult{}, err
					}
					jsxPatched.Add(1)
					return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
				})
		},
	}}
	res := api.Build(o)
	if len(res.Errors) > 0 {
		return "", buildError(res.Errors)
	}
	if jsxPatched.Load() != 1 {
		return "", fmt.Errorf("ssr: jsx fast path was applied %d times, want 1: %s is no longer what react/jsx-runtime bundles", jsxPatched.Load(), jsxRuntimeFile)
	}
	if patched.Load() != 1 {
		return "", fmt.Errorf("ssr: renderToString accumulator patch was applied %d times, want 1: %s is no longer what react-dom/server bundles", patched.Load(), reactServerFile)
	}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			return string(f.Contents), nil
		}
	}
	return "", fmt.Errorf("ssr: server build produced no JavaScript")
}

// islandsEntry is the script of every public page.
const islandsEntry = "islands"

func buildClient(root string, kinds, full []string, dev bool) (map[string]*Asset, map[string]Entry, error) {
	css, err := buildCSS(root, kinds)
	if err != nil {
		return nil, nil, err
	}
	isFull := map[string]bool{}
	for _, k := range full {
		isFull[k] = true
	}
	o := commonOptions(root)
	o.EntryPointsAdvanced = []api.EntryPoint{{InputPath: "entry:" + islandsEntry, OutputPath: islandsEntry}}
	for _, k := range full {
		o.EntryPointsAdvanced = append(o.EntryPointsAdvanced, api.EntryPoint{InputPath: "entry:" + k, OutputPath: k})
	}
	o.Format = api.FormatESModule
	o.Splitting = true
	o.Target = api.ES2020
	o.Outdir = filepath.Join(root, ".build")
	o.EntryNames = "[name]-[hash]"
	o.ChunkNames = "c-[hash]"
	o.AssetNames = "[name]-[hash]"
	o.Metafile = true
	// CSS is inlined from the CSS build; the JS build drops it.
	o.Loader = map[string]api.Loader{".css": api.LoaderEmpty, ".woff2": api.LoaderFile, ".svg": api.LoaderFile}
	if dev {
		o.Sourcemap = api.SourceMapLinked
	}
	o.Plugins = []api.Plugin{{
		Name: "page-entries",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: `^entry:`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: strings.TrimPrefix(args.Path, "entry:"), Namespace: "entry"}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "entry"}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				src := "import { hydrateIslands } from \"./client/islands\";\nhydrateIslands();\n"
				if args.Path != islandsEntry {
					src = fmt.Sprintf("import { hydratePage } from \"./client/hydrate\";\nimport Page from \"./pages/%s\";\nhydratePage(Page);\n", args.Path)
				}
				return api.OnLoadResult{Contents: &src, ResolveDir: root, Loader: api.LoaderTSX}, nil
			})
		},
	}}
	res := api.Build(o)
	if len(res.Errors) > 0 {
		return nil, nil, buildError(res.Errors)
	}
	outDir := filepath.Join(root, ".build")
	assets := map[string]*Asset{}
	byFile := map[string]string{} // metafile output path -> URL
	for _, f := range res.OutputFiles {
		rel, err := filepath.Rel(outDir, f.Path)
		if err != nil {
			return nil, nil, err
		}
		url := assetPrefix + filepath.ToSlash(rel)
		assets[url] = NewAsset(url, f.Contents)
		relRoot, _ := filepath.Rel(root, f.Path)
		byFile[filepath.ToSlash(relRoot)] = url
	}
	var meta struct {
		Outputs map[string]struct {
			EntryPoint string `json:"entryPoint"`
			Imports    []struct {
				Path string `json:"path"`
				Kind string `json:"kind"`
			} `json:"imports"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return nil, nil, fmt.Errorf("ssr: metafile: %w", err)
	}
	scripts := map[string]Entry{}
	for out, info := range meta.Outputs {
		if !strings.HasPrefix(info.EntryPoint, "entry:") {
			continue
		}
		e := Entry{Script: byFile[out]}
		// Preload every chunk reachable through static imports, so the
		// browser fetches them in parallel instead of as a waterfall.
		seen := map[string]bool{}
		var walk func(string)
		walk = func(p string) {
			for _, imp := range meta.Outputs[p].Imports {
				if imp.Kind != "import-statement" || seen[imp.Path] {
					continue
				}
				seen[imp.Path] = true
				e.Preloads = append(e.Preloads, byFile[imp.Path])
				walk(imp.Path)
			}
		}
		walk(out)
		sort.Strings(e.Preloads)
		scripts[strings.TrimPrefix(info.EntryPoint, "entry:")] = e
	}
	entries := map[string]Entry{}
	for _, k := range kinds {
		name := islandsEntry
		if isFull[k] {
			name = k
		}
		e, ok := scripts[name]
		if !ok || e.Script == "" {
			return nil, nil, fmt.Errorf("ssr: no client entry was built for page kind %q", k)
		}
		e.CSS, e.Props = css[k], isFull[k]
		entries[k] = e
	}
	return assets, entries, nil
}

// buildCSS bundles each page kind's stylesheets (everything its module
// graph imports) into one CSS text to inline in its documents.
func buildCSS(root string, kinds []string) (map[string]string, error) {
	o := commonOptions(root)
	for _, k := range kinds {
		o.EntryPointsAdvanced = append(o.EntryPointsAdvanced, api.EntryPoint{InputPath: "./pages/" + k + ".tsx", OutputPath: k})
	}
	o.Format = api.FormatESModule
	o.Outdir = filepath.Join(root, ".build", "css")
	o.Metafile = true
	o.Loader = map[string]api.Loader{".css": api.LoaderCSS, ".woff2": api.LoaderFile, ".svg": api.LoaderDataURL}
	res := api.Build(o)
	if len(res.Errors) > 0 {
		return nil, buildError(res.Errors)
	}
	files := map[string][]byte{}
	for _, f := range res.OutputFiles {
		rel, _ := filepath.Rel(root, f.Path)
		files[filepath.ToSlash(rel)] = f.Contents
	}
	var meta struct {
		Outputs map[string]struct {
			EntryPoint string `json:"entryPoint"`
			CSSBundle  string `json:"cssBundle"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return nil, fmt.Errorf("ssr: css metafile: %w", err)
	}
	out := map[string]string{}
	for _, info := range meta.Outputs {
		if info.CSSBundle == "" {
			continue
		}
		kind := strings.TrimSuffix(strings.TrimPrefix(info.EntryPoint, "pages/"), ".tsx")
		out[kind] = string(files[info.CSSBundle])
	}
	return out, nil
}

// NewAsset pre-compresses a file's bytes and gives it a strong ETag.
func NewAsset(name string, body []byte) *Asset {
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	if strings.HasPrefix(ct, "text/javascript") {
		ct = "text/javascript; charset=utf-8"
	}
	sum := sha256.Sum256(body)
	return &Asset{
		ContentType: ct,
		Body:        body,
		Gzip:        Gzip(body),
		Brotli:      Brotli(body),
		ETag:        `"` + hex.EncodeToString(sum[:12]) + `"`,
	}
}

// Gzip compresses at the best level; it runs once per cached item.
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	w := gzipWriters.Get().(*gzip.Writer)
	w.Reset(&buf)
	w.Write(b)
	w.Close()
	w.Reset(nil)
	gzipWriters.Put(w)
	return buf.Bytes()
}

// Brotli compresses once per cached item. Level 6 is measured at 10.5 ms
// for the home page against 24 ms at level 9, for output 0.9% larger: the
// difference decides whether warming every route fits in 10 s on 2 cores.
func Brotli(b []byte) []byte {
	var buf bytes.Buffer
	w := brotliWriters.Get().(*brotli.Writer)
	w.Reset(&buf)
	w.Write(b)
	w.Close()
	w.Reset(nil)
	brotliWriters.Put(w)
	return buf.Bytes()
}

// The compressors are reused: a new brotli writer allocates about 8 MB
// of tables (a new gzip writer about 0.8 MB) that a reset one keeps.
// For five pages of 57-100 KB, brotli took 24.1 ms and allocated 41 MB
// new, 6.8 ms and 79 KB reused; gzip 6.5 ms and 4.3 MB new, 5.6 ms and
// 0.26 MB reused; the output is the same bytes. A warm-up compresses
// every page twice, so the writers were a third of its CPU and most of
// its garbage.
var (
	gzipWriters = sync.Pool{New: func() any {
		w, _ := gzip.NewWriterLevel(nil, gzip.BestCompression)
		return w
	}}
	brotliWriters = sync.Pool{New: func() any { return brotli.NewWriterLevel(nil, 6) }}
)

func buildError(msgs []api.Message) error {
	e := &BuildError{}
	for _, m := range msgs {
		if m.Location != nil {
			e.Messages = append(e.Messages, fmt.Sprintf("%s:%d:%d: %s\n    %s", m.Location.File, m.Location.Line, m.Location.Column, m.Text, m.Location.LineText))
		} else {
			e.Messages = append(e.Messages, m.Text)
		}
	}
	return e
}
