package ssr

import (
	"errors"
	"reflect"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// outSink is where the patched renderToString writes its output (see
// accumulatorPatches in patch.go): each chunk React flushes goes straight into a
// Go byte buffer as UTF-8, instead of into a JavaScript array that is
// joined into one string and then converted for Go. goja strings are
// either ASCII (a Go string, appended as it is) or UTF-16 (converted here,
// one code unit at a time, into the buffer), so the page is converted once
// and never held as UTF-16.
//
// renderToString calls begin, then push for every chunk, then done. Calls
// nest (a component may call renderToString while the outer render is in
// progress; the outer one only pushes after its render finishes), so the
// buffers form a stack and begin returns the depth done must pop back to.
//
// A renderToString whose options carry keepInGoOption leaves its output in
// Go: done returns "" and the bytes are taken by takePage (the page body,
// which would otherwise cross into JavaScript and back).
type outSink struct {
	rt     *goja.Runtime
	levels []sinkLevel
	free   [][]byte
	// page is the output of the last render begun with keepInGoOption.
	page []byte
	kept bool
	// concat is `a => "" + a`, for the rare chunk that is an object, so
	// that it is converted exactly as the accumulator's `g += a` did.
	concat goja.Callable
	yes    goja.Value
	// pushFn is push as the bundle sees it (a segment's flush checks its
	// destination is the sink).
	pushFn goja.Value
	// segs are the chunk lists made since the last reset; freeSegs are
	// buffers of earlier ones, for reuse.
	segs     []*segment
	freeSegs [][]byte
}

type sinkLevel struct {
	buf  []byte
	keep bool
	// hi is a high surrogate that ended the last chunk: its low half may
	// start the next one, as it would in the joined JavaScript string.
	hi uint16
}

// keepInGoOption is the renderToString option that keeps the output in Go.
const keepInGoOption = "ssrKeepInGo"

// sinkGlobal is the global the patched React build calls.
const sinkGlobal = "__ssrSink"

var (
	asciiStringType = reflect.TypeOf(goja.StringFromUTF16([]uint16{'a'}))
	errNoSink       = errors.New("ssr: renderToString pushed output outside begin/done")
)

// installSink defines the sink global in rt. Every runtime that runs the
// server bundle needs it (InstallNatives).
func installSink(rt *goja.Runtime, concat goja.Callable) (*outSink, error) {
	s := &outSink{rt: rt, yes: rt.ToValue(true), concat: concat}
	o := rt.NewObject()
	if err := o.Set("begin", s.begin); err != nil {
		return nil, err
	}
	s.pushFn = rt.ToValue(s.push)
	if err := o.Set("push", s.pushFn); err != nil {
		return nil, err
	}
	if err := o.Set("segment", s.newSegment); err != nil {
		return nil, err
	}
	if err := o.Set("done", s.done); err != nil {
		return nil, err
	}
	return s, rt.Set(sinkGlobal, o)
}

// reset drops any state a failed render left behind, and takes back the
// chunk lists of the renders before.
func (s *outSink) reset() {
	s.reclaimSegments()
	for len(s.levels) > 0 {
		s.pop()
	}
	s.page, s.kept = s.page[:0], false
}

func (s *outSink) pop() sinkLevel {
	l := s.levels[len(s.levels)-1]
	s.levels = s.levels[:len(s.levels)-1]
	if !l.keep {
		s.free = append(s.free, l.buf[:0])
	}
	return l
}

// begin(options) starts a renderToString and returns its depth.
func (s *outSink) begin(call goja.FunctionCall) goja.Value {
	keep := false
	if o, ok := call.Argument(0).(*goja.Object); ok {
		keep = o.Get(keepInGoOption) != nil && o.Get(keepInGoOption).ToBoolean()
	}
	for _, l := range s.levels {
		if l.keep {
			keep = false // only one page per render is kept in Go
		}
	}
	l := sinkLevel{keep: keep}
	if keep {
		l.buf = s.page[:0]
	} else if n := len(s.free); n > 0 {
		l.buf, s.free = s.free[n-1], s.free[:n-1]
	}
	s.levels = append(s.levels, l)
	return s.rt.ToValue(len(s.levels))
}

// push(...chunks) appends its arguments; null (React's end of stream) is
// ignored, as the accumulator did. It returns true: the destination never
// applies back-pressure. (A segment's chunks come by flushTo.)
func (s *outSink) push(call goja.FunctionCall) goja.Value {
	if len(s.levels) == 0 {
		panic(s.rt.NewGoError(errNoSink))
	}
	l := &s.levels[len(s.levels)-1]
	for _, a := range call.Arguments {
		if a == nil || goja.IsNull(a) {
			continue
		}
		if o, ok := a.(*goja.Object); ok {
			v, err := s.concat(goja.Undefined(), o)
			if err != nil {
				panic(err)
			}
			a = v
		}
		l.buf, l.hi = appendJSString(l.buf, l.hi, a)
	}
	return s.yes
}

// done(depth) ends the renderToString begun at depth and returns its
// output ("" when it was kept in Go).
func (s *outSink) done(call goja.FunctionCall) goja.Value {
	depth := int(call.Argument(0).ToInteger())
	if depth < 1 || depth > len(s.levels) {
		panic(s.rt.NewGoError(errNoSink))
	}
	for len(s.levels) > depth {
		s.pop()
	}
	l := &s.levels[depth-1]
	l.buf = flushSurrogate(l.buf, l.hi)
	l.hi = 0
	if l.keep {
		s.page, s.kept = l.buf, true
		s.pop()
		return s.rt.ToValue("")
	}
	out := s.rt.ToValue(string(l.buf))
	s.pop()
	return out
}

// takePage returns the output of the render kept in Go, if there was one.
func (s *outSink) takePage() (string, bool) {
	if !s.kept {
		return "", false
	}
	return string(s.page), true
}

// appendJSString appends the UTF-8 form of the JavaScript value v (a
// string, or a primitive converted as `"" + v` converts it) to b. hi is a
// high surrogate left over from the previous chunk; the returned one is
// this chunk's, if it ends with one. Unpaired surrogates become U+FFFD,
// exactly as goja's export of the joined string (utf16.Decode) makes them.
func appendJSString(b []byte, hi uint16, v goja.Value) ([]byte, uint16) {
	if reflect.TypeOf(v) == asciiStringType {
		if hi != 0 {
			b = utf8.AppendRune(b, utf8.RuneError)
		}
		return append(b, v.String()...), 0
	}
	str, ok := v.(goja.String)
	if !ok {
		// undefined, a number or a boolean: its JavaScript string form,
		// always ASCII.
		if hi != 0 {
			b = utf8.AppendRune(b, utf8.RuneError)
		}
		return append(b, v.String()...), 0
	}
	n := str.Length()
	for i := 0; i < n; i++ {
		c := str.CharAt(i)
		if hi != 0 {
			if utf16.IsSurrogate(rune(c)) && c >= 0xdc00 {
				b = utf8.AppendRune(b, utf16.DecodeRune(rune(hi), rune(c)))
				hi = 0
				continue
			}
			b = utf8.AppendRune(b, utf8.RuneError)
			hi = 0
		}
		switch {
		case c < utf8.RuneSelf:
			b = append(b, byte(c))
		case c >= 0xd800 && c < 0xdc00:
			hi = c
		case c >= 0xdc00 && c < 0xe000:
			b = utf8.AppendRune(b, utf8.RuneError)
		default:
			b = utf8.AppendRune(b, rune(c))
		}
	}
	return b, hi
}

// flushSurrogate ends a stream that stopped after a high surrogate.
func flushSurrogate(b []byte, hi uint16) []byte {
	if hi != 0 {
		return utf8.AppendRune(b, utf8.RuneError)
	}
	return b
}
