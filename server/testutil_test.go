package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/app"
	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/spool"
	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/storage"
)

var (
	quiet       = slog.New(slog.NewTextHandler(io.Discard, nil))
	engineOnce  sync.Once
	engine      *ssr.Engine
	engineErr   error
	siteOnce    sync.Once
	testContent *content.Set
)

const testBase = "https://www.example-restoration.test"

// testConfig is the default configuration with a fixed base URL.
func testConfig(t testing.TB, env map[string]string) *config.Config {
	t.Helper()
	root, err := ssr.FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]string{"BASE_URL": testBase, "SOURCE_DIR": root, "SSR_POOL_SIZE": "2"}
	for k, v := range env {
		vals[k] = v
	}
	cfg, err := config.LoadFrom(func(k string) string { return vals[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// newTestServer builds a server on a fresh SQLite store, sharing one SSR
// engine across tests (the build is the slow part).
func newTestServer(t testing.TB, env map[string]string) (*Server, *db.Store) {
	t.Helper()
	cfg := testConfig(t, env)
	store := db.NewTestSQLite(t)
	srv, err := buildServer(t, testParts{Config: cfg, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv, store
}

// loadTestContent loads the embedded content once for every test.
func loadTestContent() {
	siteOnce.Do(func() {
		var err error
		testContent, err = content.Load()
		if err != nil {
			panic(err)
		}
	})
}

// testEngine is the SSR engine every test shares (the build is the slow
// part).
func testEngine(t testing.TB, cfg *config.Config) *ssr.Engine {
	t.Helper()
	engineOnce.Do(func() {
		engine, engineErr = ssr.NewEngine(ssr.EngineOptions{Root: cfg.SourceDir, Kinds: site.PageKinds(), FullKinds: site.FullHydrationKinds, PoolSize: 2, Timeout: 20 * time.Second, Log: quiet})
	})
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	return engine
}

// testParts are what a test chooses about the server it builds; the rest
// is built as main builds it (app.Build, then New).
type testParts struct {
	Config *config.Config
	Store  *db.Store
	// Log is quiet unless a test reads it.
	Log *slog.Logger
	// Content seeds an empty store: the embedded content unless set.
	Content *content.Set
	// Engine is the tests' shared engine unless set.
	Engine *ssr.Engine
	// Media is a folder under DATA_DIR unless set.
	Media storage.Storage
	// Warm warms the render cache in the background after boot and
	// after each change, as the running site does.
	Warm bool
	// Leads and Notifier replace the intake and the notifier (a test's
	// own spool or channels).
	Leads    *spool.Intake
	Notifier *notify.Notifier
	// Jobs replace the store's published jobs (a test's own list).
	Jobs site.JobSource
}

// buildServer builds the application's services with app.Build and the
// server over them with New.
func buildServer(t testing.TB, p testParts) (*Server, error) {
	t.Helper()
	loadTestContent()
	if p.Log == nil {
		p.Log = quiet
	}
	if p.Content == nil {
		p.Content = testContent
	}
	if p.Engine == nil {
		p.Engine = testEngine(t, p.Config)
	}
	if p.Media == nil {
		m, err := app.MediaStorage(context.Background(), p.Config)
		if err != nil {
			t.Fatal(err)
		}
		p.Media = m
	}
	svc, err := app.Build(context.Background(), app.Inputs{Config: p.Config, Log: p.Log, Store: p.Store, Content: p.Content, Engine: p.Engine, Media: p.Media,
		Build: app.BuildInfo{Version: "test", Commit: "test"}, Jobs: p.Jobs})
	if err != nil {
		return nil, err
	}
	if p.Notifier != nil {
		svc.Notifier = p.Notifier
	}
	if p.Leads != nil {
		svc.Intake = p.Leads
	}
	return New(svc, Options{NoWarm: !p.Warm})
}

type response struct {
	*http.Response
	Body string
	Doc  *html.Node
}

func get(t testing.TB, h http.Handler, path string, hdr ...string) *response {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return do(t, h, req)
}

func do(t testing.TB, h http.Handler, req *http.Request) *response {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	r := &response{Response: res, Body: string(b)}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") && res.Header.Get("Content-Encoding") == "" {
		doc, err := html.Parse(strings.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		r.Doc = doc
	}
	return r
}

// find returns all elements matching pred, depth first.
func find(n *html.Node, pred func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && pred(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// text is the visible text of a node, whitespace folded.
func text(n *html.Node) string {
	var b strings.Builder
	inline := map[string]bool{"a": true, "span": true, "strong": true, "em": true, "b": true, "i": true, "time": true, "small": true}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style" || n.Data == "head") {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		block := n.Type == html.ElementNode && !inline[n.Data]
		if block {
			b.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if block {
			b.WriteString(" ")
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

func headOf(doc *html.Node) *html.Node { return find(doc, tag("head"))[0] }
func bodyOf(doc *html.Node) *html.Node { return find(doc, tag("body"))[0] }

// jsonLDBlocks parses every JSON-LD script in the document.
func jsonLDBlocks(t testing.TB, doc *html.Node) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, s := range find(doc, func(n *html.Node) bool { return n.Data == "script" && attr(n, "type") == "application/ld+json" }) {
		var m map[string]any
		if s.FirstChild == nil {
			t.Fatal("empty JSON-LD script")
		}
		if err := json.Unmarshal([]byte(s.FirstChild.Data), &m); err != nil {
			t.Fatalf("JSON-LD does not parse: %v\n%s", err, s.FirstChild.Data)
		}
		out = append(out, m)
	}
	return out
}

// ldTypes lists every @type in the blocks, looking inside @graph.
func ldTypes(blocks []map[string]any) map[string]bool {
	types := map[string]bool{}
	var add func(v any)
	add = func(v any) {
		switch x := v.(type) {
		case string:
			types[x] = true
		case []any:
			for _, e := range x {
				add(e)
			}
		}
	}
	for _, b := range blocks {
		add(b["@type"])
		if g, ok := b["@graph"].([]any); ok {
			for _, e := range g {
				if m, ok := e.(map[string]any); ok {
					add(m["@type"])
				}
			}
		}
	}
	return types
}
