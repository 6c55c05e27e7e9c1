package pages

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/content"
)

// Heading ids are made unique with a count per heading text, so a body's
// render time grows with its length, not with its square (counting up
// from 2 for each repeat took about 2 s per 1,000 here, 18 s or a
// timeout for 3,000). Measured as a ratio within one run, not against a
// clock: four times the headings take about four times as long, where
// the quadratic ids took sixteen; each size's fastest of three runs, the
// sizes alternating, so a busy machine slows both alike. The rules
// refuse such a body long before (content/limits.go); the renderer must
// not depend on that.
func TestRepeatedHeadingsRenderInLinearTime(t *testing.T) {
	h, _ := newTestHandler(t)
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	a := c.Articles[0]
	render := func(n int) (time.Duration, string) {
		a.Content = strings.Repeat("## Same heading\n", n)
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		rs := c.Records()
		for i := range rs {
			if rs[i].Kind == content.KindArticle && rs[i].Slug == a.Slug {
				rs[i].JSON = b
			}
		}
		site, _, err := content.FromRecords(rs, c.Updated)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC() // a collection left over from the last render is not this one's
		start := cpuTime(t)
		body, err := h.Preview(context.Background(), site, "/blog/"+a.Slug)
		took := cpuTime(t) - start
		if err != nil {
			t.Fatalf("render of %d headings: %v (%v)", n, err, took)
		}
		return took, string(body)
	}
	// 8x the headings: linear work takes 6.5x the CPU here (the page
	// around them is the same), the old count-up-from-2 took 27x. The
	// bar sits at 16x. Renders are timed in this process's CPU time, not
	// on the clock: beside two CPU hogs the clock's ratio for 4x the
	// headings once came out at 8.5x, twice linear.
	const small, large = 150, 1200
	render(small) // warm the runtime
	best := map[int]time.Duration{}
	var body string
	for i := 0; i < 3; i++ {
		for _, n := range []int{small, large} {
			took, b := render(n)
			if best[n] == 0 || took < best[n] {
				best[n] = took
			}
			if n == large {
				body = b
			}
		}
	}
	ratio := float64(best[large]) / float64(best[small])
	t.Logf("%d repeated headings rendered in %v, %d in %v: %.1fx for 8x the headings", small, best[small], large, best[large], ratio)
	if ratio > 16 {
		t.Errorf("8x the headings took %.1fx as long (%v against %v): not linear", ratio, best[large], best[small])
	}
	for _, id := range []string{`id="same-heading"`, `id="same-heading-2"`, `id="same-heading-1200"`} {
		if !strings.Contains(body, id) {
			t.Errorf("no %s in the page", id)
		}
	}
	if strings.Contains(body, `id="same-heading-1201"`) {
		t.Error("ids count past the number of headings")
	}
}

// cpuTime is the CPU time this process has used: unlike the clock, it
// does not grow while other processes have the CPU.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
