package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSchemaCheckStore(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, _, err := s.LatestSchemaCheck(ctx); !errors.Is(err, ErrNotFound) {
			t.Fatalf("before any run: %v, want ErrNotFound", err)
		}
		base := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
		var last SchemaCheckRun
		for i := 0; i < SchemaCheckRunsKept+2; i++ {
			run := SchemaCheckRun{StartedAt: base.Add(time.Duration(i) * time.Hour), FinishedAt: base.Add(time.Duration(i)*time.Hour + time.Second),
				TriggeredBy: "manual", BaseURL: "https://www.example.com", Pages: 2, Covered: 1, Unreadable: 1, Items: 4, Valid: 3, Errors: 1, Warnings: 2, Score: 75}
			pages := []SchemaCheckPage{
				{Path: "/", Kind: "home", StatusCode: 200, Result: `{"types":["LocalBusiness"]}`},
				{Path: "/gone", Kind: "info", StatusCode: 404, Result: "{}", Error: "HTTP 404"},
			}
			saved, err := s.SaveSchemaCheck(ctx, run, pages)
			if err != nil {
				t.Fatal(err)
			}
			last = saved
		}
		run, pages, err := s.LatestSchemaCheck(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(last, run); diff != "" {
			t.Errorf("latest run (-want, +got):\n%s", diff)
		}
		got := []string{}
		for _, p := range pages {
			got = append(got, fmt.Sprintf("%d %s %s %d %s %s", p.Seq, p.Path, p.Kind, p.StatusCode, p.Result, p.Error))
		}
		want := []string{`0 / home 200 {"types":["LocalBusiness"]} `, "1 /gone info 404 {} HTTP 404"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("pages (-want, +got):\n%s", diff)
		}
		var runs, rows int
		s.db.GetContext(ctx, &runs, `SELECT COUNT(*) FROM schema_check_runs`)
		s.db.GetContext(ctx, &rows, `SELECT COUNT(*) FROM schema_check_pages`)
		if runs != SchemaCheckRunsKept || rows != 2*SchemaCheckRunsKept {
			t.Errorf("kept %d runs, %d pages; want %d and %d", runs, rows, SchemaCheckRunsKept, 2*SchemaCheckRunsKept)
		}
	})
}

// TestSchemaCheckStoreParallel: runs saved at once are each stored whole
// (every run has all its pages) and the latest is one of them.
func TestSchemaCheckStoreParallel(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		const n, perRun = 8, 40
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				now := time.Now().UTC()
				pages := make([]SchemaCheckPage, perRun)
				for j := range pages {
					pages[j] = SchemaCheckPage{Path: fmt.Sprintf("/run%d/page%d", i, j), Kind: "city", StatusCode: 200, Result: "{}"}
				}
				_, err := s.SaveSchemaCheck(ctx, SchemaCheckRun{StartedAt: now, FinishedAt: now, TriggeredBy: "manual", Pages: perRun, Score: i}, pages)
				errs <- err
			}(i)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		var bad int
		s.db.GetContext(ctx, &bad, `SELECT COUNT(*) FROM schema_check_runs r WHERE r.pages <> (SELECT COUNT(*) FROM schema_check_pages p WHERE p.run_id = r.id)`)
		if bad != 0 {
			t.Errorf("%d runs are not stored whole", bad)
		}
		run, pages, err := s.LatestSchemaCheck(ctx)
		if err != nil || len(pages) != perRun {
			t.Fatalf("latest %+v with %d pages: %v", run, len(pages), err)
		}
		prefix := pages[0].Path[:len("/runN/")]
		for _, p := range pages {
			if p.Path[:len(prefix)] != prefix {
				t.Fatalf("latest run mixes pages of two runs: %s and %s", pages[0].Path, p.Path)
			}
		}
	})
}
