package ssr

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// After a collection, the memory limit leaves the collector its garbage
// room above the live heap and above everything else the runtime holds
// (stacks, its metadata, the unused part of spans): the limit counts all
// of it. A limit of the live heap plus the room alone left the collector
// a few megabytes once the site's live heap passed ~40 MB, and it ran two
// or three times per render (ADR 070, amended).
func TestMemoryLimitLeavesGarbageRoom(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	// A live heap well above RenderHeadroom, so the limit follows it.
	ballast := make([][]byte, 128)
	for i := range ballast {
		ballast[i] = make([]byte, 1<<20)
		ballast[i][0] = byte(i)
	}
	runtime.GC()
	followLiveHeap()
	metrics.Read(memKeys)
	v := func(i int) int64 { return int64(memKeys[i].Value.Uint64()) }
	live, beside := v(0), v(1)-v(2)-v(3)-v(4)
	limit := debug.SetMemoryLimit(-1)
	if live < 128<<20 {
		t.Fatalf("live heap %d MiB, want the ballast's 128 MiB in it", live>>20)
	}
	if beside <= 0 {
		t.Fatalf("the runtime holds %d bytes beside the heap's objects: the measure is wrong", beside)
	}
	// The limit is set when it moves by more than a megabyte.
	if room := limit - beside - live; room < garbageRoom(live)-(1<<20) {
		t.Errorf("limit %d MiB leaves %d MiB of garbage above the live heap (%d MiB) and the runtime's own %d MiB, want %d MiB",
			limit>>20, room>>20, live>>20, beside>>20, garbageRoom(live)>>20)
	}
	runtime.KeepAlive(ballast)
}

// A small site keeps the fixed floor.
func TestMemoryLimitFloor(t *testing.T) {
	for _, c := range []struct{ live, beside, want int64 }{
		{10 << 20, 8 << 20, RenderHeadroom},
		{0, 0, RenderHeadroom},
		{40 << 20, 20 << 20, 40<<20 + 24<<20 + 10<<20 + 20<<20},
		{200 << 20, -1, 200<<20 + 24<<20 + 50<<20},
	} {
		if got := limitFor(c.live, c.beside); got != c.want {
			t.Errorf("limitFor(%d MiB, %d MiB) = %d MiB, want %d MiB", c.live>>20, c.beside>>20, got>>20, c.want>>20)
		}
	}
}
