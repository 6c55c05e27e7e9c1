package editor_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/benchdata"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/editor"
)

// scaleEditor is an editor over a store seeded with the embedded content
// and extra generated cities (benchdata), as `site content import` sees
// it.
func scaleEditor(t testing.TB, s *db.Store, extra int) *editor.Service {
	t.Helper()
	ed := &editor.Service{Store: contentdb.New(s), Audit: s, Changed: func(string) {}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ed.Seed(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if extra > 0 {
		if _, err := benchdata.AddCities(context.Background(), ed, extra); err != nil {
			t.Fatal(err)
		}
	}
	return ed
}

// BenchmarkImportPerCity is the cost of importing one new city (the
// whole content folder with it, as `site content import` reads it) into a
// site of 78, 500 and 2,000 cities (issue 35), in wall and CPU time per
// city. It grows with the site only as the folder does: the import reads,
// checks and converts every record of the folder, while the work after
// the publish follows what the import published (ADR 070, amendment of
// 2026-11-29: 0.11-0.18 ms a record). Raise batch (20) to see the cost
// per record of a larger import; the import is labelled for the profile:
//
//	go test ./editor -run '^$' -bench BenchmarkImportPerCity -benchtime 3x -count 1 -cpuprofile /tmp/imp.prof
//	go tool pprof -top -tagfocus=phase=import editor.test /tmp/imp.prof
func BenchmarkImportPerCity(b *testing.B) {
	const batch = 1
	for _, n := range []int{78, 500, 2000} {
		b.Run(fmt.Sprintf("cities=%d", n), func(b *testing.B) {
			ctx := context.Background()
			var cpu time.Duration
			for range b.N {
				b.StopTimer()
				ed := scaleEditor(b, db.NewTestSQLite(b), n-78)
				live, err := ed.Load(ctx)
				if err != nil {
					b.Fatal(err)
				}
				set, err := benchdata.WithCities(live, batch)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				c0 := cpuTime()
				var rep editor.ImportReport
				pprof.Do(ctx, pprof.Labels("phase", "import"), func(ctx context.Context) {
					rep, err = ed.Import(ctx, set, editor.Actor{Name: "benchmark"})
				})
				cpu += cpuTime() - c0
				if err != nil || rep.Published != batch {
					b.Fatalf("published %d, %v", rep.Published, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*batch), "ms/city")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N*batch), "cpu-ms/city")
		})
	}
}

// cpuTime is the CPU time this process has used (user and system): on a
// shared machine it says what an import costs when wall time cannot.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
