package server

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/benchdata"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/ssr"
)

// scaleServer is a server whose content is the embedded content with
// extra generated cities (benchdata), imported as `site content import`
// would, rendering on demand.
func scaleServer(b testing.TB, cities int, warm bool, env map[string]string) *Server {
	b.Helper()
	loadTestContent()
	set, err := benchdata.WithCities(testContent, cities)
	if err != nil {
		b.Fatal(err)
	}
	srv, err := buildServer(b, testParts{Config: testConfig(b, env), Store: db.NewTestSQLite(b), Content: set, Warm: warm})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkWarm is one complete warm-up of the render cache, at the
// shipped 78 cities and at 500 and 2,000 (issue 35):
//
//	go test ./server -run '^$' -bench BenchmarkWarm -benchtime 1x -count 1
// cpuTime is the CPU time this process has used (user and system): on a
// shared machine it says what a warm-up costs when wall time cannot.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkWarm(b *testing.B) {
	for _, n := range []int{78, 500, 2000} {
		b.Run(fmt.Sprintf("cities=%d", n), func(b *testing.B) {
			// The collector as the site runs it (main calls TuneGC).
			gogc := debug.SetGCPercent(-1)
			limit := debug.SetMemoryLimit(-1)
			debug.SetGCPercent(gogc)
			ssr.TuneGC()
			defer func() { debug.SetGCPercent(gogc); debug.SetMemoryLimit(limit) }()
			var pages, gcs int
			var cpu time.Duration
			for range b.N {
				// A fresh server each time: its cache is empty, as at boot.
				b.StopTimer()
				srv := scaleServer(b, n-78, true, nil)
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				c0 := cpuTime()
				b.StartTimer()
				srv.Cache().WarmSync(context.Background())
				b.StopTimer()
				cpu += cpuTime() - c0
				runtime.ReadMemStats(&after)
				gcs += int(after.NumGC - before.NumGC)
				pages = srv.Cache().Len()
				b.StartTimer()
			}
			b.ReportMetric(float64(pages), "pages")
			b.ReportMetric(float64(gcs)/float64(b.N), "GCs/op")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N*pages), "cpu-ms/page")
		})
	}
}
