// Package ssr renders the React pages on the server: esbuild bundles the
// sources at startup, a pool of goja runtimes renders them, and a render cache
// keeps every public page in memory, pre-compressed.
package ssr

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"
)

// EngineOptions configure an Engine.
type EngineOptions struct {
	Root      string
	Kinds     []string
	FullKinds []string
	PoolSize  int
	Timeout   time.Duration
	Dev       bool
	Log       *slog.Logger
}

// Engine owns the current bundle and runtime pool. In dev mode Reload swaps
// both without a restart; readers never see a half-swapped state.
type Engine struct {
	opts EngineOptions

	mu       sync.RWMutex
	bundle   *Bundle
	pool     *Pool
	buildErr error
	onReload map[int]func()
	nextHook int
	// onRender are the render observers (OnRender), by id.
	onRender map[int]RenderObserver
}

// RenderObserver hears of every render: the page kind, how long it
// waited for a runtime, how long the runtime took, and its error. It
// runs on the render's goroutine and must be quick (a metric).
type RenderObserver func(kind string, wait, render time.Duration, err error)

// NewEngine builds the bundles and starts the pool. In production a build
// error stops the boot. In dev mode it is kept and shown on every page until
// the next successful build.
func NewEngine(opts EngineOptions) (*Engine, error) {
	e := &Engine{opts: opts}
	if err := e.Reload(); err != nil && !opts.Dev {
		return nil, err
	}
	return e, nil
}

// Reload rebuilds the bundles and swaps in a new runtime pool.
func (e *Engine) Reload() error {
	start := time.Now()
	b, err := Build(BuildOptions{Root: e.opts.Root, Kinds: e.opts.Kinds, FullKinds: e.opts.FullKinds, Dev: e.opts.Dev})
	var p *Pool
	if err == nil {
		p, err = NewPool(b.Server, e.opts.PoolSize, e.opts.Timeout, e.opts.Log)
	}
	e.mu.Lock()
	if err != nil {
		e.buildErr = err
		e.mu.Unlock()
		e.opts.Log.Error("ssr build failed", "err", err)
		return err
	}
	e.bundle, e.pool, e.buildErr = b, p, nil
	hooks := make([]func(), 0, len(e.onReload))
	for _, h := range e.onReload {
		hooks = append(hooks, h)
	}
	e.mu.Unlock()
	// esbuild's working memory is garbage now; hand it back to the OS so
	// the steady-state RSS reflects the server, not the build.
	debug.FreeOSMemory()
	e.opts.Log.Info("ssr bundles built", "took", time.Since(start).Round(time.Millisecond).String(), "assets", len(b.Assets))
	for _, h := range hooks {
		h()
	}
	return nil
}

// OnReload registers a hook run after every successful rebuild (the server
// invalidates its render cache there). The returned func removes it: a
// hook holds its server, so an engine shared by several servers (tests,
// benchmarks) would otherwise keep every closed one alive.
func (e *Engine) OnReload(f func()) (remove func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.onReload == nil {
		e.onReload = map[int]func(){}
	}
	id := e.nextHook
	e.nextHook++
	e.onReload[id] = f
	return func() {
		e.mu.Lock()
		delete(e.onReload, id)
		e.mu.Unlock()
	}
}

// OnRender registers f for every render (the server's metrics). The
// engine may be shared by several servers (tests): each removes its own
// observer when it closes.
func (e *Engine) OnRender(f RenderObserver) (remove func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.onRender == nil {
		e.onRender = map[int]RenderObserver{}
	}
	id := e.nextHook
	e.nextHook++
	e.onRender[id] = f
	return func() {
		e.mu.Lock()
		delete(e.onRender, id)
		e.mu.Unlock()
	}
}

// BuildErr is the last build error in dev mode, or nil.
func (e *Engine) BuildErr() error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.buildErr
}

// Render renders kind with props and assembles the full document.
func (e *Engine) Render(ctx context.Context, kind string, props any, o DocumentOptions) ([]byte, error) {
	data, err := MarshalProps(props)
	if err != nil {
		return nil, fmt.Errorf("ssr: props for %s: %w", kind, err)
	}
	return e.RenderJSON(ctx, kind, data, o)
}

// RenderJSON renders kind with props already serialised by MarshalProps.
func (e *Engine) RenderJSON(ctx context.Context, kind string, data []byte, o DocumentOptions) ([]byte, error) {
	e.mu.RLock()
	b, p, berr := e.bundle, e.pool, e.buildErr
	var observers []RenderObserver
	for _, f := range e.onRender {
		observers = append(observers, f)
	}
	e.mu.RUnlock()
	if berr != nil {
		return nil, berr
	}
	entry, ok := b.Entries[kind]
	if !ok {
		return nil, fmt.Errorf("ssr: unknown page kind %q", kind)
	}
	start := time.Now()
	res, wait, err := p.RenderTimed(ctx, kind, data)
	total := time.Since(start)
	for _, f := range observers {
		f(kind, wait, total-wait, err)
	}
	if err != nil {
		return nil, err
	}
	return Assemble(entry, res, data, o), nil
}

// Asset returns a hashed client asset by URL path.
func (e *Engine) Asset(url string) *Asset {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.bundle == nil {
		return nil
	}
	return e.bundle.Assets[url]
}

// BuildID identifies the current client build: a hash of the hashed
// asset names, so it changes exactly when a client file does. It is empty
// before the first successful build.
func (e *Engine) BuildID() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.bundle == nil {
		return ""
	}
	names := make([]string, 0, len(e.bundle.Assets))
	for n := range e.bundle.Assets {
		names = append(names, n)
	}
	sort.Strings(names)
	sum := sha256.Sum256([]byte(strings.Join(names, "\n")))
	return hex.EncodeToString(sum[:8])
}

// Entry returns a page kind's client entry (for size reports).
func (e *Engine) Entry(kind string) (Entry, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.bundle == nil {
		return Entry{}, false
	}
	en, ok := e.bundle.Entries[kind]
	return en, ok
}

// PoolSize is the number of runtimes.
func (e *Engine) PoolSize() int { return e.opts.PoolSize }

// Watch polls the source folders and rebuilds when a file changes. It is for
// dev mode: polling needs no extra dependency and the tree is small.
func (e *Engine) Watch(ctx context.Context, interval time.Duration) {
	dirs := []string{"pages", "components", "client", "styles", "admin"}
	last := e.snapshot(dirs)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			cur := e.snapshot(dirs)
			if cur != last {
				last = cur
				e.opts.Log.Info("source changed, rebuilding")
				_ = e.Reload()
			}
		}
	}
}

func (e *Engine) snapshot(dirs []string) string {
	var sb strings.Builder
	for _, d := range dirs {
		filepath.WalkDir(filepath.Join(e.opts.Root, d), func(p string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() {
				return nil
			}
			if info, err := de.Info(); err == nil {
				fmt.Fprintf(&sb, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
			}
			return nil
		})
	}
	return sb.String()
}

// FindRoot walks up from dir to the folder holding package.json and
// pages/server.tsx, so tests and tools work from any package directory.
func FindRoot(dir string) (string, error) {
	dir, _ = filepath.Abs(dir)
	for {
		if _, err := os.Stat(filepath.Join(dir, "pages", "server.tsx")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("ssr: no project root (pages/server.tsx) above the working directory")
		}
		dir = parent
	}
}
