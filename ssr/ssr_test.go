package ssr

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"github.com/atlanta-restoration/site/content"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func root(t testing.TB) string {
	t.Helper()
	r, err := FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestPatchReactServerOnRealBuild(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root(t), "node_modules", reactServerFile))
	if err != nil {
		t.Fatalf("read React server build (run npm ci): %v", err)
	}
	out, err := PatchReactServer(string(src))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "g+=a") || !strings.Contains(out, `g=__ssrSink.begin(b),h={push:__ssrSink.push,destroy:`) || !strings.Contains(out, `e=d.flushTo(b,e,f.index)`) || !strings.Contains(out, `return __ssrSink.done(g)}`) {
		t.Error("patched source does not write to the Go sink")
	}
	if strings.Contains(out, "chunks:[]") || !strings.Contains(out, "chunks:__ssrSink.segment()") {
		t.Error("segment chunk lists are JavaScript arrays")
	}
	if strings.Contains(out, "na.exec(a)") || !strings.Contains(out, "var v=__ssrEscape;") {
		t.Error("escapeTextForBrowser is not the native one")
	}
	if strings.Contains(out, "t.hasOwnProperty(c)?t[c]:null,null!==b") || !strings.Contains(out, "function $ssrAttrOf(c)") {
		t.Error("pushAttribute does not look its decisions up by name")
	}
	if strings.Contains(out, "gb(e,d,f)") || strings.Count(out, "$ssrTC(") != 7 {
		t.Errorf("tree contexts are not lazy (%d $ssrTC)", strings.Count(out, "$ssrTC("))
	}
	// A React build that reads the tree context somewhere new must fail.
	if _, err := PatchReactServer(string(src) + ";x.treeContext"); err == nil || !strings.Contains(err.Error(), "treeContext named 14 times") {
		t.Errorf("an extra treeContext use must fail the build: %v", err)
	}
	if ownPropLoop.MatchString(out) || strings.Count(out, "Object.keys(") < ownPropLoops {
		t.Error("patched source still loops over own properties with for-in")
	}
}

func TestPatchJSXRuntimeOnRealBuild(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root(t), "node_modules", jsxRuntimeFile))
	if err != nil {
		t.Fatalf("read the JSX runtime (run npm ci): %v", err)
	}
	out, err := PatchJSXRuntime(string(src))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "props:a,") {
		t.Error("jsx() has no fast path")
	}
	if _, err := PatchJSXRuntime("function q(c,a,g){}"); err == nil || !strings.Contains(err.Error(), "want exactly 1") {
		t.Errorf("a changed runtime must fail the build: %v", err)
	}
}

// The fast path must not change what React renders: keys, refs and
// defaultProps take the copying path, everything else shares the props
// object. Rendered through the real bundle, a keyed list, a component
// with defaultProps and a spread of props all come out as React 18 would.
// miniProject is a project folder with the real node_modules, a plain
// pages/server.tsx that renders one page kind with renderToString, and
// each of pages (file name without ".tsx", source) under pages/.
func miniProject(t *testing.T, pages map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pages"), 0o755)
	os.MkdirAll(filepath.Join(dir, "client"), 0o755)
	os.WriteFile(filepath.Join(dir, "client", "islands.tsx"), []byte("export function hydrateIslands(..._: unknown[]) {}\n"), 0o644)
	os.Symlink(filepath.Join(root(t), "node_modules"), filepath.Join(dir, "node_modules"))
	pages["server"] = `import { renderToString } from "react-dom/server";
export function renderPage(pages: any, kind: string, props: string) {
  const P = pages[kind];
  return [renderToString(<P {...JSON.parse(props)} />), "", ""];
}
`
	for name, src := range pages {
		if err := os.WriteFile(filepath.Join(dir, "pages", name+".tsx"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestJSXFastPathRendersTheSame(t *testing.T) {
	dir := miniProject(t, map[string]string{"t": `function Item({ label, tone }: { label: string; tone?: string }) { return <li className={tone}>{label}</li>; }
(Item as any).defaultProps = { tone: "plain" };
export default function T({ items, extra }: { items: string[]; extra: Record<string, string> }) {
  return <ul {...extra}>{items.map((s, i) => <Item key={s} label={s} tone={i === 1 ? "loud" : undefined} />)}<li key="k" data-x="y">z</li></ul>;
}
`})
	b, err := Build(BuildOptions{Root: dir, Kinds: []string{"t"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPool(b.Server, 1, 5*time.Second, quiet)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Render(context.Background(), "t", []byte(`{"items":["a","b"],"extra":{"id":"list","title":"T"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `<ul id="list" title="T"><li class="plain">a</li><li class="loud">b</li><li data-x="y">z</li></ul>`; res.HTML != want {
		t.Errorf("got  %s\nwant %s", res.HTML, want)
	}
}

// Every pattern a patch rewrites must be found exactly as often as
// expected in the React build: a release that changes any of them fails
// the build, naming the pattern, instead of rendering unpatched.
func TestPatchReactServerFailsLoudly(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root(t), "node_modules", reactServerFile))
	if err != nil {
		t.Fatalf("read React server build (run npm ci): %v", err)
	}
	real := string(data)
	anchors := []string{escapePatch.from, attributePatch.from}
	for _, p := range accumulatorPatches {
		anchors = append(anchors, p.from)
	}
	for _, p := range segmentPatches {
		anchors = append(anchors, p.from)
	}
	for _, p := range treeContextPatches {
		anchors = append(anchors, p.from)
	}
	cases := map[string]string{
		"unrelated source":      "function Tb(){var g='';return g}",
		"twice":                 real + ";" + accumulatorPatches[0].from,
		"no own-property loops": ownPropLoop.ReplaceAllString(real, "for(;;)"),
	}
	for i, a := range anchors {
		if !strings.Contains(real, a) {
			t.Fatalf("anchor %d is not in the real build: %q", i, a)
		}
		cases[fmt.Sprintf("anchor %d changed", i)] = strings.Replace(real, a, a[:len(a)/2]+" "+a[len(a)/2:], 1)
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := PatchReactServer(src)
			if err == nil || !strings.Contains(err.Error(), "update ssr/patch.go") {
				t.Fatalf("err = %v, want a pattern error", err)
			}
		})
	}
}

func TestBuildProjectBundles(t *testing.T) {
	b, err := Build(BuildOptions{Root: root(t), Kinds: []string{"home", "not-found", "admin"}, FullKinds: []string{"admin"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Server, `__ssrSink.begin(`) {
		t.Error("server bundle lacks the patched accumulator")
	}
	if strings.Contains(b.Server, "react.development") || strings.Contains(b.Server, "react-dom.development") {
		t.Error("server bundle includes React's development build")
	}
	if b.Entries["home"].Script != b.Entries["not-found"].Script || !strings.HasPrefix(b.Entries["home"].Script, "/assets/islands-") {
		t.Error("public kinds do not share the islands entry")
	}
	if !strings.HasPrefix(b.Entries["admin"].Script, "/assets/admin-") || !b.Entries["admin"].Props || b.Entries["home"].Props {
		t.Error("admin is not a full-hydration entry")
	}
	if b.Entries["home"].CSS == b.Entries["admin"].CSS {
		t.Error("admin and public pages share CSS")
	}
	for _, k := range []string{"home", "not-found", "admin"} {
		e := b.Entries[k]
		if b.Assets[e.Script] == nil {
			t.Errorf("entry %s script %q not among assets", k, e.Script)
		}
		if e.CSS == "" {
			t.Errorf("entry %s has no CSS", k)
		}
		for _, p := range e.Preloads {
			if b.Assets[p] == nil {
				t.Errorf("entry %s preloads missing asset %s", k, p)
			}
		}
	}
}

func TestBuildErrorNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pages"), 0o755)
	os.WriteFile(filepath.Join(dir, "pages", "server.tsx"), []byte("export function renderPage() {\n  const x = ;\n}\n"), 0o644)
	_, err := Build(BuildOptions{Root: dir})
	var be *BuildError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "pages/server.tsx:2:") {
		t.Fatalf("err = %v, want a BuildError naming pages/server.tsx:2", err)
	}
}

// testServerJS is a stand-in server bundle that exercises the pool's
// failure paths without React.
const testServerJS = `var SSR = { render: function (kind, props) {
  if (kind === "throw") throw new Error("boom");
  if (kind === "loop") { for (;;) {} }
  var p = JSON.parse(props);
  return ["<p>" + kind + ":" + p.n + "</p>", "<title>t</title>", ""];
} };`

func TestPoolConcurrentRenders(t *testing.T) {
	p, err := NewPool(testServerJS, 2, time.Second, quiet)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var bad atomic.Int32
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res, err := p.Render(context.Background(), "ok", []byte(`{"n":7}`))
			if err != nil || res.HTML != "<p>ok:7</p>" {
				bad.Add(1)
			}
		}(i)
	}
	wg.Wait()
	if bad.Load() != 0 {
		t.Fatalf("%d renders failed", bad.Load())
	}
}

func TestPoolRecoversFromThrowAndTimeout(t *testing.T) {
	p, err := NewPool(testServerJS, 1, 200*time.Millisecond, quiet)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Render(context.Background(), "throw", []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("throw: err = %v", err)
	}
	if _, err := p.Render(context.Background(), "ok", []byte(`{"n":1}`)); err != nil {
		t.Fatalf("render after throw: %v", err)
	}
	start := time.Now()
	if _, err := p.Render(context.Background(), "loop", []byte(`{}`)); !errors.Is(err, ErrRenderTimeout) {
		t.Fatalf("loop: err = %v, want ErrRenderTimeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("interrupt took %v", d)
	}
	res, err := p.Render(context.Background(), "ok", []byte(`{"n":2}`))
	if err != nil || res.HTML != "<p>ok:2</p>" {
		t.Fatalf("render after timeout: %v %v", res, err)
	}
}

func TestPoolWaitsForContext(t *testing.T) {
	p, _ := NewPool(testServerJS, 1, time.Second, quiet)
	v, _ := p.acquire(context.Background()) // occupy the only runtime
	defer p.release(v)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := p.Render(ctx, "ok", []byte(`{"n":1}`)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want deadline", err)
	}
}

func TestMarshalPropsCannotBreakOut(t *testing.T) {
	b, err := MarshalProps(map[string]string{"x": "</script><script>alert(1)</script><!-- \u2028 & >"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, bad := range []string{"</script", "<!--", "<script", "\u2028"} {
		if strings.Contains(s, bad) {
			t.Errorf("props contain %q: %s", bad, s)
		}
	}
	doc := Assemble(Entry{Script: "/assets/x.js", Props: true}, &Result{HTML: "<p></p>"}, b, DocumentOptions{Hydrate: true})
	if n := strings.Count(string(doc), "</script>"); n != 2 {
		t.Errorf("document has %d </script>, want 2 (props and module)", n)
	}
}

func TestCacheSharesConcurrentMisses(t *testing.T) {
	var renders atomic.Int32
	release := make(chan struct{})
	c := NewCache(func(ctx context.Context, key string) (*Page, error) {
		renders.Add(1)
		<-release
		return NewPage(200, []byte("page "+key)), nil
	}, func() []string { return nil }, 1, quiet)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p, err := c.Get(context.Background(), "/"); err != nil || string(p.Body) != "page /" {
				t.Errorf("get: %v", err)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := renders.Load(); n != 1 {
		t.Fatalf("renders = %d, want 1", n)
	}
	c.Get(context.Background(), "/")
	if n := renders.Load(); n != 1 {
		t.Fatalf("hit rendered again: %d", n)
	}
	c.Invalidate("test")
	c.Get(context.Background(), "/")
	if n := renders.Load(); n != 2 {
		t.Fatalf("after invalidate renders = %d, want 2", n)
	}
}

func TestCacheWarmRendersEveryKey(t *testing.T) {
	var renders atomic.Int32
	c := NewCache(func(ctx context.Context, key string) (*Page, error) {
		renders.Add(1)
		return NewPage(200, []byte(key)), nil
	}, func() []string { return []string{"/a", "/b", "/c"} }, 2, quiet)
	c.WarmSync(context.Background())
	if c.Len() != 3 || renders.Load() != 3 {
		t.Fatalf("len %d renders %d, want 3 and 3", c.Len(), renders.Load())
	}
}

func TestCacheOnWarmReportsETags(t *testing.T) {
	var mu sync.Mutex
	content := map[string]string{"/a": "a", "/b": "b", "/c": "c"}
	c := NewCache(func(ctx context.Context, key string) (*Page, error) {
		mu.Lock()
		defer mu.Unlock()
		return NewPage(200, []byte(content[key])), nil
	}, func() []string { return []string{"/a", "/b", "/c"} }, 2, quiet)
	got := make(chan map[string]string, 4)
	c.OnWarm(func(etags map[string]string) { got <- etags })
	c.WarmSync(context.Background())
	first := <-got
	if len(first) != 3 || first["/a"] != NewPage(200, []byte("a")).ETag {
		t.Fatalf("first warm-up reported %v", first)
	}
	// Same content, same ETags; changed content, a new ETag for that key only.
	mu.Lock()
	content["/b"] = "b2"
	mu.Unlock()
	c.Invalidate("test")
	second := <-got
	for k, e := range second {
		if changed := e != first[k]; changed != (k == "/b") {
			t.Errorf("%s: ETag %s -> %s", k, first[k], e)
		}
	}
	if len(second) != 3 {
		t.Errorf("second warm-up reported %v", second)
	}
}

func TestServeNegotiatesAndRevalidates(t *testing.T) {
	p := NewPage(200, []byte(strings.Repeat("hello world ", 100)))
	cases := []struct {
		accept, inm string
		status      int
		enc         string
	}{
		{"gzip, deflate, br", "", 200, "br"},
		{"gzip", "", 200, "gzip"},
		{"br;q=0, gzip", "", 200, "gzip"},
		{"", "", 200, ""},
		{"gzip", p.ETag, 304, ""},
		{"gzip", `W/` + p.ETag, 304, ""},
		{"gzip", `"other"`, 200, "gzip"},
	}
	for _, tc := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", tc.accept)
		if tc.inm != "" {
			r.Header.Set("If-None-Match", tc.inm)
		}
		w := httptest.NewRecorder()
		Serve(w, r, p, "text/html", "")
		if w.Code != tc.status || w.Header().Get("Content-Encoding") != tc.enc {
			t.Errorf("accept %q inm %q: status %d enc %q, want %d %q", tc.accept, tc.inm, w.Code, w.Header().Get("Content-Encoding"), tc.status, tc.enc)
		}
		if w.Code == 200 && w.Header().Get("ETag") != p.ETag {
			t.Errorf("missing ETag")
		}
	}
}

func TestEngineRendersHomeWithinTimeout(t *testing.T) {
	e, err := NewEngine(EngineOptions{Root: root(t), Kinds: []string{"not-found"}, PoolSize: 1, Timeout: 10 * time.Second, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	props := map[string]any{
		"head":   map[string]any{"title": "T </script>", "description": "d", "keywords": []string{}, "canonical": "https://x.test/", "robots": "noindex", "ogType": "website", "image": "", "jsonLd": []string{}, "geo": map[string]string{"region": "", "placename": "", "position": ""}},
		"site":   testSite(),
		"chrome": map[string]any{"services": []any{}, "counties": []any{}},
		"path":   "/x",
		"data":   map[string]string{"title": "", "message": "", "linkHref": "", "linkText": ""},
	}
	doc, err := e.Render(context.Background(), "not-found", props, DocumentOptions{Hydrate: true})
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	head := s[:strings.Index(s, "</head>")]
	if !strings.Contains(head, "<title") || !strings.Contains(head, `rel="canonical"`) {
		t.Error("title or canonical not in <head>")
	}
	if strings.Contains(head, "T </script>") {
		t.Error("title text not escaped")
	}
	if !strings.Contains(s, "Oops! Page not found") {
		t.Error("404 text missing")
	}
	_ = http.StatusOK
}

func testSite() map[string]any {
	m := map[string]any{"year": 2026}
	for _, k := range []string{"name", "phone", "tel", "street", "city", "state", "zip", "county", "license", "email", "facebook", "instagram", "youtube", "yelp", "reviewUrl", "leadFormUrl", "leadFormScript", "baseUrl", "themeColor"} {
		m[k] = "x"
	}
	m["leadFormUrl"] = ""
	// The wording the chrome shows (every page gets it; site.Props).
	m["words"] = content.DefaultWords().Fill("", content.Facts{Name: "x", Phone: "x"})
	return m
}

func TestServeWithoutVariantsSendsIdentity(t *testing.T) {
	p := &Page{Status: 422, Body: []byte("<p>form again</p>")}
	r := httptest.NewRequest("POST", "/estimate", nil)
	r.Header.Set("Accept-Encoding", "gzip, deflate, br")
	w := httptest.NewRecorder()
	Serve(w, r, p, "text/html", "no-store")
	if w.Code != 422 || w.Header().Get("Content-Encoding") != "" || w.Body.String() != "<p>form again</p>" {
		t.Fatalf("%d %q %q", w.Code, w.Header().Get("Content-Encoding"), w.Body.String())
	}
}

func TestCompactPageServesIdentityFromGzip(t *testing.T) {
	body := []byte(strings.Repeat("<p>compact me</p>", 500))
	p := NewPage(200, body).Compact()
	if p.Body != nil {
		t.Fatal("Compact kept the body")
	}
	for _, enc := range []string{"", "identity", "br;q=0, gzip;q=0"} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", enc)
		w := httptest.NewRecorder()
		Serve(w, r, p, "text/html", "")
		if w.Body.String() != string(body) || w.Header().Get("Content-Length") != "8500" || w.Header().Get("Content-Encoding") != "" {
			t.Errorf("accept %q: %d bytes, length %q, encoding %q", enc, w.Body.Len(), w.Header().Get("Content-Length"), w.Header().Get("Content-Encoding"))
		}
	}
}

// Refresh re-renders exactly the pages whose source changed: the others
// keep their bytes, the warm-up that follows renders only the dropped
// ones, and it still reports every page's ETag.
func TestCacheRefreshKeepsUnchangedPages(t *testing.T) {
	var mu sync.Mutex
	source := map[string]string{"/a": "a", "/b": "b", "/c": "c"}
	var renders sync.Map
	c := NewCache(func(ctx context.Context, key string) (*Page, error) {
		mu.Lock()
		defer mu.Unlock()
		n, _ := renders.LoadOrStore(key, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		p := NewPage(200, []byte(source[key]))
		p.Tag = source[key]
		return p, nil
	}, func() []string { return []string{"/a", "/b", "/c"} }, 2, quiet)
	got := make(chan map[string]string, 4)
	c.OnWarm(func(etags map[string]string) { got <- etags })
	c.WarmSync(context.Background())
	<-got
	before := c.Peek("/a")
	v := c.Version()
	mu.Lock()
	source["/b"] = "b2"
	mu.Unlock()
	kept, dropped := c.Refresh("test", func(key string, p *Page) bool {
		mu.Lock()
		defer mu.Unlock()
		return p.Tag == source[key]
	})
	if kept != 2 || dropped != 1 {
		t.Errorf("kept %d dropped %d, want 2 and 1", kept, dropped)
	}
	etags := <-got
	if len(etags) != 3 || c.Version() != v+1 {
		t.Errorf("after refresh: %d ETags, version %d (was %d)", len(etags), c.Version(), v)
	}
	if c.Peek("/a") != before {
		t.Error("an unchanged page was re-rendered")
	}
	for key, want := range map[string]int32{"/a": 1, "/b": 2, "/c": 1} {
		n, _ := renders.Load(key)
		if got := n.(*atomic.Int32).Load(); got != want {
			t.Errorf("%s rendered %d times, want %d", key, got, want)
		}
	}
	if p := c.Peek("/b"); p == nil || string(p.Body) != "b2" {
		t.Error("the changed page was not re-rendered")
	}
}

// The compressors are shared through pools: pages compressed at the same
// time on many goroutines each come back as their own bytes, and a
// compressor that ends one page starts the next clean (no bytes of the
// page before in the output, nothing held from it).
func TestPooledCompressorsConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				// Different sizes and contents on each goroutine and turn,
				// an empty page among them.
				body := []byte(strings.Repeat(fmt.Sprintf("<p>goroutine %d page %d</p>", g, i), (g*7+i*13)%300))
				gz, err := gzip.NewReader(bytes.NewReader(Gzip(body)))
				if err != nil {
					errs <- fmt.Errorf("gzip %d/%d: %v", g, i, err)
					return
				}
				if got, err := io.ReadAll(gz); err != nil || !bytes.Equal(got, body) {
					errs <- fmt.Errorf("gzip %d/%d: %d bytes back of %d (%v)", g, i, len(got), len(body), err)
					return
				}
				if got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(Brotli(body)))); err != nil || !bytes.Equal(got, body) {
					errs <- fmt.Errorf("brotli %d/%d: %d bytes back of %d (%v)", g, i, len(got), len(body), err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
