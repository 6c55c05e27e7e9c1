package ssr

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// RenderHeadroom is the least memory limit TuneGC sets: what the site
// needs with its shipped content (72 MiB gave ~100 MB RSS with 133 pages
// cached and under load, the binary's code ~36 MB of it; 96 MiB gave
// 124 MB).
const RenderHeadroom = 72 << 20

// garbageRoom is the garbage the collector lets accumulate above the live
// heap once the limit follows it: a few renders' worth (each allocates
// ~10 MiB) plus a quarter of the live heap, so a large cache does not
// make it collect every render.
func garbageRoom(live int64) int64 { return 24<<20 + live/4 }

// TuneGC applies the collector settings the render path is measured with,
// unless GOGC or GOMEMLIMIT are set. Each goja render allocates ~10 MiB
// while the live heap is small, so a higher GOGC removes most collections
// from the render (measured: cold home render 31 ms at GOGC=100, 24 ms at
// 400). The memory limit keeps RSS bounded: RenderHeadroom, or the live
// heap after the last collection plus garbageRoom when that is more
// (ADR 070). A fixed limit falls below the live heap as the site grows
// (2,000 city pages cache ~70 MB on their own): the collector then runs
// back to back, up to half the CPU, each run marking a larger heap, so a
// warm-up grew faster than its page count (68-103 s for 2,000 cities)
// and RSS went over the limit anyway.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		follow.Do(func() {
			debug.SetMemoryLimit(RenderHeadroom)
			armGCWatch()
		})
	}
}

var (
	follow  sync.Once
	limitMu sync.Mutex
)

// gcSentinel is collected by every garbage collection: its finalizer
// runs after each cycle and re-arms itself (the documented way to be
// told of each collection).
type gcSentinel struct{ _ *int }

func armGCWatch() {
	runtime.SetFinalizer(&gcSentinel{}, afterGC)
}

func afterGC(s *gcSentinel) {
	followLiveHeap()
	runtime.SetFinalizer(s, afterGC)
}

// followLiveHeap sets the memory limit from the live heap the last
// collection found.
func followLiveHeap() {
	limitMu.Lock()
	defer limitMu.Unlock()
	metrics.Read(memKeys)
	for _, k := range memKeys {
		if k.Value.Kind() != metrics.KindUint64 {
			return
		}
	}
	v := func(i int) int64 { return int64(memKeys[i].Value.Uint64()) }
	want := limitFor(v(0), v(1)-v(2)-v(3)-v(4))
	// Setting the limit takes the heap's lock: not for a change under a
	// megabyte.
	if cur := debug.SetMemoryLimit(-1); want > cur+(1<<20) || want < cur-(1<<20) {
		debug.SetMemoryLimit(want)
	}
}

// memKeys are what followLiveHeap reads: the live heap, and what the
// memory limit counts beside the heap's objects (all the runtime maps,
// less what it has released, the objects and the free pages).
var memKeys = []metrics.Sample{
	{Name: "/gc/heap/live:bytes"},
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/memory/classes/heap/free:bytes"},
}

// limitFor is the memory limit for a live heap, given what the runtime
// holds beside the heap's objects (stacks, the collector's metadata, the
// unused part of spans). The limit counts all the memory the runtime
// holds, not the heap alone: leaving that out left the collector a few
// megabytes of garbage instead of garbageRoom once the live heap passed
// ~40 MB, and it ran two or three times per render.
func limitFor(live, beside int64) int64 {
	return max(RenderHeadroom, live+garbageRoom(live)+max(beside, 0))
}
