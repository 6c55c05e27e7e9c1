package metrics

import (
	"testing"
	"time"
)

// The cached fast path's metrics cost no allocation: its series are
// resolved once, so a hit is an atomic add and a histogram observation.
func TestObserveCachedDoesNotAllocate(t *testing.T) {
	m := New(Sources{Version: "test", Commit: "test"})
	for _, status := range []int{200, 304, 404} {
		if n := testing.AllocsPerRun(1000, func() { m.ObserveCached(status, 40*time.Microsecond) }); n != 0 {
			t.Errorf("ObserveCached(%d): %v allocations per call", status, n)
		}
	}
}

func BenchmarkObserveCached(b *testing.B) {
	m := New(Sources{})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m.ObserveCached(200, 40*time.Microsecond)
	}
}
