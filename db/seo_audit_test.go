package db

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSEOAuditStore(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, _, err := s.LatestSEOAudit(ctx); !errors.Is(err, ErrNotFound) {
			t.Fatalf("before any run: %v, want ErrNotFound", err)
		}
		base := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
		var last SEOAuditRun
		for i := 0; i < SEOAuditRunsKept+2; i++ {
			run := SEOAuditRun{StartedAt: base.Add(time.Duration(i) * time.Hour), FinishedAt: base.Add(time.Duration(i)*time.Hour + time.Second),
				TriggeredBy: "content", BaseURL: "https://www.example.com", Pages: 2, Errors: 1, Passed: 12, Warnings: 1, Failed: 0, Score: 92 + i%2}
			pages := []SEOAuditPage{
				{Path: "/", StatusCode: 200, Score: 92, Passed: 12, Warnings: 1, Checks: `[{"check":"Title tag","status":"pass"}]`},
				{Path: "/gone", StatusCode: 404, Checks: "[]", Error: "HTTP 404"},
			}
			saved, err := s.SaveSEOAudit(ctx, run, pages)
			if err != nil {
				t.Fatal(err)
			}
			last = saved
		}
		run, pages, err := s.LatestSEOAudit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(last, run); diff != "" {
			t.Errorf("latest run (-want, +got):\n%s", diff)
		}
		got := []string{}
		for _, p := range pages {
			got = append(got, fmt.Sprintf("%d %s %d %s %s", p.Seq, p.Path, p.StatusCode, p.Checks, p.Error))
		}
		want := []string{`0 / 200 [{"check":"Title tag","status":"pass"}] `, "1 /gone 404 [] HTTP 404"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("pages (-want, +got):\n%s", diff)
		}
		var runs, rows int
		s.db.GetContext(ctx, &runs, `SELECT COUNT(*) FROM seo_audit_runs`)
		s.db.GetContext(ctx, &rows, `SELECT COUNT(*) FROM seo_audit_pages`)
		if runs != SEOAuditRunsKept || rows != 2*SEOAuditRunsKept {
			t.Errorf("kept %d runs, %d pages; want %d and %d", runs, rows, SEOAuditRunsKept, 2*SEOAuditRunsKept)
		}
		only, err := s.LatestSEOAuditRun(ctx)
		if err != nil || only.ID != last.ID {
			t.Errorf("LatestSEOAuditRun = %+v, %v", only, err)
		}
	})
}
