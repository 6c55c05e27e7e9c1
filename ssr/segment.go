package ssr

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"
)

// segment is a React segment's chunk list kept in Go (segmentPatches in
// patch.go). React builds every piece of markup into its segment's
// `chunks` array with push, and flushes the array to the destination when
// the render is done. In goja each push into an array boxes the new length
// and grows the array's backing slice (a page has ~20,000 chunks); here
// push converts its arguments straight into the segment's UTF-8 buffer.
//
// React uses a chunk list in three ways only, and the segment answers
// exactly those: push(...chunks); length, read to place a child segment
// (a Suspense boundary) between chunks, or to see whether the list is
// empty; and the flush, which the patch turns into flushTo(destination,
// from, to). A length that was read is remembered with the buffer offset
// at that moment, so flushTo can copy whole runs of chunks by offset.
// Any other property is the Object.prototype's; setting one throws.
type segment struct {
	s    *outSink
	rt   *goja.Runtime
	buf  []byte
	hi   uint16
	n    int
	dead bool
	// marks are the offsets at the chunk counts length returned.
	marks []segMark
	// push and flushTo are this segment's natives.
	push, flushTo goja.Value
	obj           *goja.Object
}

type segMark struct{ n, off int }

var errDeadSegment = errors.New("ssr: a chunk list of a finished render was used")

// newSegment is __ssrSink.segment(): a new chunk list.
func (s *outSink) newSegment(goja.FunctionCall) goja.Value {
	g := &segment{s: s, rt: s.rt}
	if n := len(s.freeSegs); n > 0 {
		g.buf, s.freeSegs = s.freeSegs[n-1], s.freeSegs[:n-1]
	}
	g.push = s.rt.ToValue(g.pushChunks)
	g.flushTo = s.rt.ToValue(g.flush)
	g.obj = s.rt.NewDynamicObject(g)
	s.segs = append(s.segs, g)
	return g.obj
}

// reclaimSegments takes back the buffers of every segment of the renders
// before (called between renders, when no segment is in use).
func (s *outSink) reclaimSegments() {
	for _, g := range s.segs {
		if cap(g.buf) > 0 {
			s.freeSegs = append(s.freeSegs, g.buf[:0])
		}
		*g = segment{rt: g.rt, dead: true}
	}
	s.segs = s.segs[:0]
}

// Get answers push, length and flushTo; nil sends any other name to the
// prototype.
func (g *segment) Get(key string) goja.Value {
	switch key {
	case "push":
		return g.push
	case "length":
		g.live()
		g.mark()
		return g.s.rt.ToValue(g.n)
	case "flushTo":
		return g.flushTo
	}
	return nil
}

func (g *segment) Set(string, goja.Value) bool { return false }
func (g *segment) Has(key string) bool {
	return key == "push" || key == "length" || key == "flushTo"
}
func (g *segment) Delete(string) bool { return false }
func (g *segment) Keys() []string     { return nil }

// live throws in JavaScript if the segment's render is over (its buffer
// was taken back).
func (g *segment) live() {
	if g.dead {
		panic(g.rt.NewGoError(errDeadSegment))
	}
}

func (g *segment) mark() {
	if k := len(g.marks); k > 0 && g.marks[k-1].n == g.n {
		return
	}
	g.marks = append(g.marks, segMark{g.n, len(g.buf)})
}

// offset is the buffer offset after n chunks: 0, the end, or a mark.
func (g *segment) offset(n int) int {
	switch {
	case n <= 0:
		return 0
	case n >= g.n:
		return len(g.buf)
	}
	for _, m := range g.marks {
		if m.n == n {
			return m.off
		}
	}
	panic(g.s.rt.NewGoError(fmt.Errorf("ssr: flush of a chunk list at %d, a length never read (React changed? update ssr/patch.go)", n)))
}

// pushChunks appends every argument as Array.prototype.push would append
// it, converted as the flush will write it (null is written as nothing, as
// the accumulator skipped it). It returns true: React ignores what a
// chunk push returns.
func (g *segment) pushChunks(call goja.FunctionCall) goja.Value {
	g.live()
	for _, a := range call.Arguments {
		g.n++
		if goja.IsNull(a) {
			continue
		}
		if o, ok := a.(*goja.Object); ok {
			v, err := g.s.concat(goja.Undefined(), o)
			if err != nil {
				panic(err)
			}
			a = v
		}
		g.buf, g.hi = appendJSString(g.buf, g.hi, a)
	}
	return g.s.yes
}

// flush is flushTo(destination, from, to): it writes chunks [from, to) to
// the destination, which must be the sink of the renderToString in
// progress, and returns the index after the last chunk written.
func (g *segment) flush(call goja.FunctionCall) goja.Value {
	g.live()
	if d, ok := call.Argument(0).(*goja.Object); !ok || d.Get("push") != g.s.pushFn || len(g.s.levels) == 0 {
		panic(g.s.rt.NewTypeError("ssr: a chunk list flushed to something other than the output sink"))
	}
	from, to := int(call.Argument(1).ToInteger()), int(call.Argument(2).ToInteger())
	if from >= to {
		return call.Argument(1)
	}
	l := &g.s.levels[len(g.s.levels)-1]
	l.buf = flushSurrogate(l.buf, l.hi)
	l.hi = 0
	end := g.offset(to)
	if to >= g.n {
		g.buf = flushSurrogate(g.buf, g.hi)
		g.hi = 0
		end = len(g.buf)
	}
	l.buf = append(l.buf, g.buf[g.offset(from):end]...)
	return call.Argument(2)
}
