package server

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/html"

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
//
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

// A visitor asking for a page the warm-up has not reached gets it
// rendered at once, correct, while the warm-up is still under way: it
// does not wait for the warm-up to finish. The warm-up is held before
// its first render (OnWarmRender), so it cannot finish meanwhile.
func TestColdPageDuringWarmUp(t *testing.T) {
	srv := scaleServer(t, 22, true, nil) // 100 cities
	held, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv.Cache().OnWarmRender(func(ctx context.Context, key string) {
		once.Do(func() { close(held) })
		select {
		case <-release:
		case <-ctx.Done():
		}
	})
	warmed := make(chan struct{})
	srv.Cache().OnWarm(func(map[string]string) { close(warmed) })
	t.Cleanup(func() { close(release) })
	srv.Warm()
	<-held
	set, err := benchdata.WithCities(testContent, 22)
	if err != nil {
		t.Fatal(err)
	}
	c := set.Cities[len(set.Cities)-1] // the last city: the warm-up's far end
	path := "/areas/" + c.County + "/" + c.Slug
	if srv.Cache().Peek(path) != nil {
		t.Fatalf("%s is cached before it was asked for", path)
	}
	r := get(t, srv, path)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", path, r.StatusCode)
	}
	h1 := find(r.Doc, func(n *html.Node) bool { return n.Data == "h1" })
	if len(h1) != 1 || !strings.Contains(text(h1[0]), c.City) {
		t.Fatalf("%s: the page's heading does not name %s", path, c.City)
	}
	select {
	case <-warmed:
		t.Fatal("the warm-up finished while it was held")
	default:
	}
	if srv.Cache().Peek(path) == nil {
		t.Errorf("%s was not cached by its visitor's render", path)
	}
}
