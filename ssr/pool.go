package ssr

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// Result is what the server bundle returns for one render.
type Result struct {
	// HTML is the page body, placed inside <div id="root">.
	HTML string `json:"html"`
	// Head holds the head tags collected by react-helmet-async.
	Head string `json:"head"`
	// HTMLAttrs are the <html> attributes Helmet collected (lang, ...).
	HTMLAttrs string `json:"htmlAttributes"`
}

// ErrRenderTimeout is returned when a render runs longer than the pool's
// timeout; the runtime that ran it is discarded.
var ErrRenderTimeout = errors.New("ssr: render timed out")

// Pool renders pages in a fixed set of goja runtimes. goja runtimes are not
// goroutine-safe, so each is owned by one render at a time; a runtime that
// throws or times out is thrown away and replaced from the compiled program.
//
// A request's render goes before background work (Background: the
// render cache's warm-up, the audits that read pages through the site's
// own handler): a free runtime goes to the longest-waiting request first,
// and to background work only when no request waits (ADR 070). So a
// visitor asking for a page the warm-up has not reached yet waits for at
// most the renders already running, never for the warm-up's queue.
type Pool struct {
	program *goja.Program
	timeout time.Duration
	log     *slog.Logger
	size    int

	mu   sync.Mutex
	free []*vm
	// live and background are the waiting renders, oldest first.
	live, background []chan *vm
}

type bgKey struct{}

// Background marks ctx as background work: its renders wait until no
// request's render does.
func Background(ctx context.Context) context.Context {
	return context.WithValue(ctx, bgKey{}, true)
}

// IsBackground reports whether ctx was marked by Background.
func IsBackground(ctx context.Context) bool {
	b, _ := ctx.Value(bgKey{}).(bool)
	return b
}

// acquire takes a free runtime, or waits its turn for one: requests
// before background work, each in arrival order.
func (p *Pool) acquire(ctx context.Context) (*vm, error) {
	bg := IsBackground(ctx)
	p.mu.Lock()
	if n := len(p.free); n > 0 && (!bg || len(p.live) == 0) {
		v := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return v, nil
	}
	ch := make(chan *vm, 1)
	if bg {
		p.background = append(p.background, ch)
	} else {
		p.live = append(p.live, ch)
	}
	p.mu.Unlock()
	select {
	case v := <-ch:
		return v, nil
	case <-ctx.Done():
		p.mu.Lock()
		removed := remove(&p.live, ch) || remove(&p.background, ch)
		p.mu.Unlock()
		if !removed {
			// A runtime was handed over as ctx ended: pass it on.
			p.release(<-ch)
		}
		return nil, ctx.Err()
	}
}

func remove(q *[]chan *vm, ch chan *vm) bool {
	for i, c := range *q {
		if c == ch {
			*q = append((*q)[:i], (*q)[i+1:]...)
			return true
		}
	}
	return false
}

// release gives a runtime to the next waiting render, a request's first.
func (p *Pool) release(v *vm) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case len(p.live) > 0:
		ch := p.live[0]
		p.live = p.live[1:]
		ch <- v
	case len(p.background) > 0:
		ch := p.background[0]
		p.background = p.background[1:]
		ch <- v
	default:
		p.free = append(p.free, v)
	}
}

// Waiting is how many renders wait for a runtime: requests' and
// background work's.
func (p *Pool) Waiting() (live, background int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.live), len(p.background)
}

type vm struct {
	rt     *goja.Runtime
	render goja.Callable
	nat    *Natives
}

// Natives are the Go functions the server bundle calls in one runtime:
// the output sink of the patched renderToString and its HTML escaping.
type Natives struct {
	rt   *goja.Runtime
	sink *outSink
}

// InstallNatives defines the natives in rt. A runtime that runs the
// bundle outside a Pool (a test) must call it before running the bundle,
// Reset them before each render and read each render with Result.
func InstallNatives(rt *goja.Runtime) (*Natives, error) {
	fn, err := rt.RunString(`(function(a){return ""+a})`)
	if err != nil {
		return nil, err
	}
	concat, _ := goja.AssertFunction(fn)
	s, err := installSink(rt, concat)
	if err != nil {
		return nil, fmt.Errorf("ssr: install the output sink: %w", err)
	}
	if err := installEscape(rt, concat); err != nil {
		return nil, fmt.Errorf("ssr: install the escape: %w", err)
	}
	return &Natives{rt: rt, sink: s}, nil
}

// Reset drops what an earlier (possibly failed) render left behind.
func (n *Natives) Reset() { n.sink.reset() }

// Result reads what SSR.render returned. The bundle returns [html, head,
// htmlAttributes]: three strings read straight from the runtime.
// (Returning them as JSON made goja quote the whole page and Go parse it
// back: ~5% of a render.) The page's own renderToString keeps its output
// in Go (keepInGoOption): then html is "" and the body is the sink's.
func (n *Natives) Result(out goja.Value) (*Result, error) {
	var parts []string
	if err := n.rt.ExportTo(out, &parts); err != nil || len(parts) != 3 {
		return nil, fmt.Errorf("the bundle must return [html, head, htmlAttributes], got %v (%v)", out, err)
	}
	html := parts[0]
	if page, ok := n.sink.takePage(); ok {
		if html != "" {
			return nil, errors.New("the page was kept in Go and also returned")
		}
		html = page
	}
	return &Result{HTML: html, Head: parts[1], HTMLAttrs: parts[2]}, nil
}

// NewPool compiles the server bundle once and starts size runtimes.
func NewPool(serverJS string, size int, timeout time.Duration, log *slog.Logger) (*Pool, error) {
	prog, err := goja.Compile("server.js", serverJS, false)
	if err != nil {
		return nil, fmt.Errorf("ssr: compile server bundle: %w", err)
	}
	if size < 1 {
		size = 1
	}
	p := &Pool{program: prog, size: size, timeout: timeout, log: log}
	for i := 0; i < size; i++ {
		v, err := p.newVM()
		if err != nil {
			return nil, err
		}
		p.free = append(p.free, v)
	}
	return p, nil
}

func (p *Pool) newVM() (*vm, error) {
	rt := goja.New()
	console := rt.NewObject()
	logf := func(level slog.Level) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			args := make([]any, len(c.Arguments))
			for i, a := range c.Arguments {
				args[i] = a.String()
			}
			p.log.Log(context.Background(), level, "ssr console", "args", args)
			return goja.Undefined()
		}
	}
	console.Set("log", logf(slog.LevelInfo))
	console.Set("info", logf(slog.LevelInfo))
	console.Set("warn", logf(slog.LevelWarn))
	console.Set("error", logf(slog.LevelError))
	rt.Set("console", console)
	nat, err := InstallNatives(rt)
	if err != nil {
		return nil, err
	}
	if _, err := rt.RunProgram(p.program); err != nil {
		return nil, fmt.Errorf("ssr: run server bundle: %w", err)
	}
	ssr := rt.Get("SSR")
	if ssr == nil || goja.IsUndefined(ssr) {
		return nil, errors.New("ssr: server bundle does not define the global SSR")
	}
	fn, ok := goja.AssertFunction(ssr.ToObject(rt).Get("render"))
	if !ok {
		return nil, errors.New("ssr: SSR.render is not a function")
	}
	return &vm{rt: rt, render: fn, nat: nat}, nil
}

// Render renders page kind with props (JSON). It blocks until a runtime is
// free for it (Background work waits for requests) or ctx ends.
func (p *Pool) Render(ctx context.Context, kind string, props []byte) (*Result, error) {
	res, _, err := p.RenderTimed(ctx, kind, props)
	return res, err
}

// RenderTimed is Render, also saying how long it waited for a runtime
// (the pool wait /metrics reports).
func (p *Pool) RenderTimed(ctx context.Context, kind string, props []byte) (*Result, time.Duration, error) {
	start := time.Now()
	v, err := p.acquire(ctx)
	if err != nil {
		return nil, time.Since(start), err
	}
	wait := time.Since(start)
	res, err := p.run(v, kind, props)
	if err != nil {
		// The runtime may hold half-built state or an interrupt flag:
		// replace it rather than reuse it.
		nv, nerr := p.newVM()
		if nerr != nil {
			p.log.Error("ssr: replace runtime", "err", nerr)
			nv = v
			v.rt.ClearInterrupt()
		}
		p.release(nv)
		return nil, wait, err
	}
	p.release(v)
	return res, wait, nil
}

func (p *Pool) run(v *vm, kind string, props []byte) (res *Result, err error) {
	timer := time.AfterFunc(p.timeout, func() { v.rt.Interrupt(ErrRenderTimeout) })
	defer timer.Stop()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("ssr: render %s panicked: %v", kind, r)
		}
	}()
	v.nat.Reset()
	out, err := v.render(goja.Undefined(), v.rt.ToValue(kind), v.rt.ToValue(string(props)))
	if err != nil {
		var ie *goja.InterruptedError
		if errors.As(err, &ie) {
			return nil, fmt.Errorf("ssr: render %s: %w", kind, ErrRenderTimeout)
		}
		var ex *goja.Exception
		if errors.As(err, &ex) {
			return nil, fmt.Errorf("ssr: render %s: %s", kind, ex.String())
		}
		return nil, fmt.Errorf("ssr: render %s: %w", kind, err)
	}
	res, err = v.nat.Result(out)
	if err != nil {
		return nil, fmt.Errorf("ssr: render %s: %w", kind, err)
	}
	return res, nil
}

// Size is the number of runtimes.
func (p *Pool) Size() int { return p.size }
