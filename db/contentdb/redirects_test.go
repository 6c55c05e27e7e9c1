package contentdb

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestChangeRedirects(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		if rs, err := c.Redirects(ctx); err != nil || rs == nil || len(rs) != 0 {
			t.Fatalf("redirects on a new database: %#v %v", rs, err)
		}
		a := Redirect{From: "/old-a", To: "/a", Source: SourceManual, CreatedAt: at(1).In(newYork), CreatedBy: "Ann"}
		b := Redirect{From: "/old-b", To: "https://example.com/b", Source: SourceAuto, CreatedAt: at(2), CreatedBy: "Bob"}
		err := c.ChangeRedirects(ctx, func(cur []Redirect) ([]Redirect, []string, error) {
			if len(cur) != 0 {
				t.Errorf("current: %+v", cur)
			}
			return []Redirect{b, a}, nil, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		a.CreatedAt = at(1)
		rs, err := c.Redirects(ctx)
		if diff := cmp.Diff([]Redirect{a, b}, rs); err != nil || diff != "" {
			t.Errorf("redirects %v (-want, +got):\n%s", err, diff)
		}

		// An upsert replaces the row with the same from-path; removals
		// run first; an unknown from-path is no error.
		a2 := Redirect{From: "/old-a", To: "/a-2", Source: SourceManual, CreatedAt: at(3), CreatedBy: "Bob"}
		err = c.ChangeRedirects(ctx, func(cur []Redirect) ([]Redirect, []string, error) {
			if diff := cmp.Diff([]Redirect{a, b}, cur); diff != "" {
				t.Errorf("plan's current set (-want, +got):\n%s", diff)
			}
			return []Redirect{a2}, []string{"/old-b", "/old-a", "/never"}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if rs, _ := c.Redirects(ctx); !cmp.Equal([]Redirect{a2}, rs) {
			t.Errorf("after upsert and removal: %+v", rs)
		}

		// A plan's error aborts everything it asked for.
		refused := errors.New("would loop")
		err = c.ChangeRedirects(ctx, func([]Redirect) ([]Redirect, []string, error) {
			return []Redirect{b}, []string{"/old-a"}, refused
		})
		if !errors.Is(err, refused) {
			t.Errorf("refusing plan: %v", err)
		}
		// So does a row the table refuses, after the removals it made.
		err = c.ChangeRedirects(ctx, func([]Redirect) ([]Redirect, []string, error) {
			return []Redirect{b, {From: "/x", To: "/y", Source: "other", CreatedAt: at(4)}}, []string{"/old-a"}, nil
		})
		if err == nil {
			t.Error("a redirect with an unknown source was stored")
		}
		if rs, _ := c.Redirects(ctx); !cmp.Equal([]Redirect{a2}, rs) {
			t.Errorf("after failed changes: %+v", rs)
		}
		if err := c.ChangeRedirects(ctx, nil); err == nil {
			t.Error("a nil plan was accepted")
		}
	})
}

var errLoop = errors.New("loop")

// addUnlessLoop is a plan that adds from -> to unless the redirects,
// followed from to, lead back to from. It sleeps between reading and
// answering so that unserialised changes would interleave.
func addUnlessLoop(from, to string) func([]Redirect) ([]Redirect, []string, error) {
	return func(cur []Redirect) ([]Redirect, []string, error) {
		next := map[string]string{}
		for _, r := range cur {
			next[r.From] = r.To
		}
		time.Sleep(3 * time.Millisecond)
		for p, hops := to, 0; hops <= len(cur); hops++ {
			if p == from {
				return nil, nil, errLoop
			}
			n, ok := next[p]
			if !ok {
				break
			}
			p = n
		}
		return []Redirect{{From: from, To: to, Source: SourceManual, CreatedAt: t0}}, nil, nil
	}
}

// checkNoLoop fails when following the redirects from any path comes
// back to it.
func checkNoLoop(t *testing.T, rs []Redirect) {
	t.Helper()
	next := map[string]string{}
	for _, r := range rs {
		next[r.From] = r.To
	}
	for start := range next {
		p := start
		for hops := 0; hops <= len(next); hops++ {
			n, ok := next[p]
			if !ok {
				break
			}
			if n == start {
				t.Errorf("redirect loop through %s", start)
				break
			}
			p = n
		}
	}
}

func TestChangeRedirectsRace(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		run := func(plans []func([]Redirect) ([]Redirect, []string, error)) (landed, loops int) {
			t.Helper()
			var wg sync.WaitGroup
			errs := make([]error, len(plans))
			start := make(chan struct{})
			for i, p := range plans {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					errs[i] = c.ChangeRedirects(ctx, p)
				}()
			}
			close(start)
			wg.Wait()
			for _, err := range errs {
				switch {
				case err == nil:
					landed++
				case errors.Is(err, errLoop):
					loops++
				default:
					t.Errorf("change: %v", err)
				}
			}
			return landed, loops
		}

		// Ten pairs A->B and B->A, twenty editors at once: exactly one of
		// each pair lands.
		var plans []func([]Redirect) ([]Redirect, []string, error)
		for k := range 10 {
			a, b := fmt.Sprintf("/a%d", k), fmt.Sprintf("/b%d", k)
			plans = append(plans, addUnlessLoop(a, b), addUnlessLoop(b, a))
		}
		if landed, loops := run(plans); landed != 10 || loops != 10 {
			t.Errorf("pairs: %d landed, %d refused as loops; want 10 and 10", landed, loops)
		}
		rs, _ := c.Redirects(ctx)
		checkNoLoop(t, rs)
		if len(rs) != 10 {
			t.Errorf("pairs: %d redirects stored, want 10", len(rs))
		}

		// A ring of twenty: every edge alone is fine, all twenty make a
		// loop, so exactly one must be refused.
		plans = nil
		for i := range 20 {
			plans = append(plans, addUnlessLoop(fmt.Sprintf("/r%d", i), fmt.Sprintf("/r%d", (i+1)%20)))
		}
		if landed, loops := run(plans); landed != 19 || loops != 1 {
			t.Errorf("ring: %d landed, %d refused as loops; want 19 and 1", landed, loops)
		}
		rs, _ = c.Redirects(ctx)
		checkNoLoop(t, rs)
		if len(rs) != 29 {
			t.Errorf("%d redirects stored, want 29", len(rs))
		}
	})
}
