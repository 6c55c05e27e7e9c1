package contentdb

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNotFoundHits(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		add := func(day string, hits map[string]int, min, max int) {
			t.Helper()
			if err := c.AddNotFoundHits(ctx, day, hits, at(min).In(newYork), max); err != nil {
				t.Fatal(err)
			}
		}
		add("2026-11-29", map[string]int{"/old": 5, "/gone": 1}, 0, 10)
		add("2026-11-30", map[string]int{"/old": 2, "/wp-admin": 4, "/zero": 0}, 10, 10)
		add("2026-12-01", map[string]int{"/gone": 3, "/wp-admin": 1}, 20, 10)
		add("2026-12-01", map[string]int{"/gone": 1}, 15, 10) // an older flush: last_seen keeps the newest
		add("2026-12-01", nil, 30, 10)

		top := func(from string, limit int) []NotFoundRow {
			t.Helper()
			rows, err := c.TopNotFound(ctx, from, limit)
			if err != nil {
				t.Fatal(err)
			}
			return rows
		}
		want := []NotFoundRow{
			{Path: "/old", Hits: 7, LastSeen: at(10)},
			{Path: "/gone", Hits: 5, LastSeen: at(20)},
			{Path: "/wp-admin", Hits: 5, LastSeen: at(20)}, // tied with /gone: by path
		}
		if diff := cmp.Diff(want, top("2026-11-29", 10)); diff != "" {
			t.Errorf("top over three days (-want, +got):\n%s", diff)
		}
		if diff := cmp.Diff(want[:2], top("2026-11-29", 2)); diff != "" {
			t.Errorf("top 2 (-want, +got):\n%s", diff)
		}
		want = []NotFoundRow{
			{Path: "/wp-admin", Hits: 5, LastSeen: at(20)},
			{Path: "/gone", Hits: 4, LastSeen: at(20)},
			{Path: "/old", Hits: 2, LastSeen: at(10)},
		}
		if diff := cmp.Diff(want, top("2026-11-30", 10)); diff != "" {
			t.Errorf("top from the 30th (-want, +got):\n%s", diff)
		}

		// A path that now redirects leaves the list, every day of it.
		if err := c.DeleteNotFound(ctx, "/old"); err != nil {
			t.Fatal(err)
		}
		if got := top("2000-01-01", 10); len(got) != 2 || got[0].Path != "/gone" {
			t.Errorf("after deleting /old: %+v", got)
		}

		// Pruning drops the days before the given one.
		n, err := c.PruneNotFound(ctx, "2026-12-01")
		if err != nil || n != 2 {
			t.Errorf("prune: %d %v, want 2 rows", n, err)
		}
		want = []NotFoundRow{{Path: "/gone", Hits: 4, LastSeen: at(20)}, {Path: "/wp-admin", Hits: 1, LastSeen: at(20)}}
		if diff := cmp.Diff(want, top("2000-01-01", 10)); diff != "" {
			t.Errorf("after pruning (-want, +got):\n%s", diff)
		}
		if n, err := c.PruneNotFound(ctx, "2026-12-01"); err != nil || n != 0 {
			t.Errorf("prune again: %d %v", n, err)
		}
		if rows := top("2027-01-01", 10); len(rows) != 0 {
			t.Errorf("top of days without hits: %+v", rows)
		}
	})
}

func TestNotFoundHitsBounded(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		const day, max = "2026-12-01", 40
		// Fifty writers at once, each with five paths nobody else sends
		// (no shared row whose lock would line them up by chance).
		var wg sync.WaitGroup
		errs := make([]error, 50)
		start := make(chan struct{})
		for w := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				hits := map[string]int{}
				for p := range 5 {
					hits[fmt.Sprintf("/bot/%d/%d", w, p)] = 1
				}
				<-start
				errs[w] = c.AddNotFoundHits(ctx, day, hits, at(1), max)
			}()
		}
		close(start)
		wg.Wait()
		for w, err := range errs {
			if err != nil {
				t.Errorf("writer %d: %v", w, err)
			}
		}
		rows, err := c.TopNotFound(ctx, day, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != max {
			t.Fatalf("%d paths stored for the day, want exactly %d", len(rows), max)
		}

		// Known paths keep counting once the day is full.
		known := rows[len(rows)-1].Path
		if err := c.AddNotFoundHits(ctx, day, map[string]int{known: 10}, at(2), max); err != nil {
			t.Fatal(err)
		}
		if rows, _ := c.TopNotFound(ctx, day, 1); len(rows) != 1 || rows[0].Path != known || rows[0].Hits != 11 || !rows[0].LastSeen.Equal(at(2)) {
			t.Errorf("a known path on a full day: %+v, want %s with 11 hits", rows, known)
		}

		// A full day takes no new path, however often it is hit, but
		// another day starts empty.
		if err := c.AddNotFoundHits(ctx, day, map[string]int{"/late": 1000, known: 1}, at(3), max); err != nil {
			t.Fatal(err)
		}
		if rows, _ := c.TopNotFound(ctx, day, 1000); len(rows) != max || rows[0].Path != known || rows[0].Hits != 12 {
			t.Errorf("full day: %d paths, first %+v", len(rows), rows[0])
		}
		hits := map[string]int{"/a": 1, "/b": 3, "/c": 2}
		if err := c.AddNotFoundHits(ctx, "2026-12-02", hits, at(3), 2); err != nil {
			t.Fatal(err)
		}
		rows, _ = c.TopNotFound(ctx, "2026-12-02", 10)
		want := []NotFoundRow{{Path: "/b", Hits: 3, LastSeen: at(3)}, {Path: "/c", Hits: 2, LastSeen: at(3)}}
		if diff := cmp.Diff(want, rows); diff != "" {
			t.Errorf("new day capped at 2, the most hit first (-want, +got):\n%s", diff)
		}
		if err := c.AddNotFoundHits(ctx, "2026-12-03", hits, at(3), 0); err != nil {
			t.Fatal(err)
		}
		if rows, _ := c.TopNotFound(ctx, "2026-12-03", 10); len(rows) != 0 {
			t.Errorf("a cap of 0 stored %+v", rows)
		}
	})
}

// A path with a control or bidi character is never stored: it could not
// be redirected, and it could disguise how the list reads.
func TestNotFoundHiddenCharacters(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		hits := map[string]int{"/kept": 1, "/a\r\nb": 3, "/tab\there": 2, "/invoice\u202Egpj.exe": 4, "/zero\u200Bwidth": 1, "/nul\x00": 1}
		if err := c.AddNotFoundHits(ctx, "2026-11-29", hits, at(0), 100); err != nil {
			t.Fatal(err)
		}
		rows, err := c.TopNotFound(ctx, "2026-11-01", 10)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]NotFoundRow{{Path: "/kept", Hits: 1, LastSeen: at(0)}}, rows); diff != "" {
			t.Errorf("stored (-want, +got):\n%s", diff)
		}
	})
}
