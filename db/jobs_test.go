package db

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestJobRuns(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, err := s.LastJobRun(ctx, "health"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("LastJobRun before any run: %v, want ErrNotFound", err)
		}
		base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
		runs := []JobRun{
			{Job: "health", StartedAt: base.Add(-40 * 24 * time.Hour), FinishedAt: base.Add(-40 * 24 * time.Hour), Outcome: OutcomeOK, Summary: "old"},
			{Job: "health", StartedAt: base, FinishedAt: base.Add(time.Second), Outcome: OutcomeOK, Summary: "117 URLs, 0 issues"},
			{Job: "indexnow", StartedAt: base.Add(time.Minute), FinishedAt: base.Add(time.Minute), Outcome: OutcomeSkipped, Summary: "off"},
			{Job: "indexnow", StartedAt: base.Add(2 * time.Minute), FinishedAt: base.Add(2 * time.Minute), Outcome: OutcomeFailed, Summary: "HTTP 500"},
		}
		for _, r := range runs {
			if err := s.RecordJobRun(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		last, err := s.LastJobRun(ctx, "health")
		if err != nil || last.Summary != "117 URLs, 0 issues" || !last.StartedAt.Equal(base) || last.ID == "" {
			t.Errorf("LastJobRun = %+v, %v", last, err)
		}
		all, err := s.RecentJobRuns(ctx, 10, true)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range all {
			got = append(got, r.Job+":"+r.Outcome)
		}
		// The 40-day-old run was pruned when the newer health run was recorded.
		if diff := cmp.Diff([]string{"indexnow:failed", "indexnow:skipped", "health:ok"}, got); diff != "" {
			t.Errorf("RecentJobRuns (-want, +got):\n%s", diff)
		}
		some, _ := s.RecentJobRuns(ctx, 10, false)
		if len(some) != 2 {
			t.Errorf("without skipped: %d runs, want 2", len(some))
		}
	})
}

func TestIndexNowStore(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		sent, err := s.IndexNowSent(ctx)
		if err != nil || len(sent) != 0 {
			t.Fatalf("empty table: %v %v", sent, err)
		}
		now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
		if err := s.MarkIndexNowSent(ctx, map[string]string{"/": `"a"`, "/portfolio": `"b"`}, now); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkIndexNowSent(ctx, map[string]string{"/": `"c"`}, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		sent, _ = s.IndexNowSent(ctx)
		if diff := cmp.Diff(map[string]string{"/": `"c"`, "/portfolio": `"b"`}, sent); diff != "" {
			t.Errorf("IndexNowSent (-want, +got):\n%s", diff)
		}
		for i := 0; i < 5; i++ {
			sub := IndexNowSubmission{CreatedAt: now.Add(time.Duration(i) * time.Minute), TriggeredBy: "auto", URLs: `["https://x.test/"]`, URLCount: 1,
				StatusCode: 200, Outcome: "ok", Response: fmt.Sprint("answer ", i)}
			if i == 4 {
				sub.Response = "\x00\xff" + strings.Repeat("é", 2500)
			}
			if err := s.CreateIndexNowSubmission(ctx, sub); err != nil {
				t.Fatal(err)
			}
		}
		page, total, err := s.ListIndexNowSubmissions(ctx, 2, 1)
		if err != nil || total != 5 || len(page) != 2 {
			t.Fatalf("list: %d of %d, %v", len(page), total, err)
		}
		if page[0].Response != "answer 3" || page[1].Response != "answer 2" || page[0].URLs != `["https://x.test/"]` {
			t.Errorf("page = %+v", page)
		}
		first, _, _ := s.ListIndexNowSubmissions(ctx, 1, 0)
		if r := first[0].Response; len(r) > 1000 || len(r) < 995 || !utf8.ValidString(r) || strings.Contains(r, "\x00") {
			t.Errorf("response kept %d bytes, want 1000", len(first[0].Response))
		}
	})
}

func TestHealthRuns(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, _, err := s.LatestHealthRun(ctx); !errors.Is(err, ErrNotFound) {
			t.Fatalf("before any run: %v, want ErrNotFound", err)
		}
		base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
		for i := 0; i < HealthRunsKept+2; i++ {
			at := base.Add(time.Duration(i) * time.Hour)
			results := []HealthResult{
				{URL: "/", Status: "active", StatusCode: 200, CanonicalOK: true, CheckedAt: at},
				{URL: "/broken", Status: "404", StatusCode: 404, Error: "HTTP 404", CanonicalOK: true, CheckedAt: at},
				{URL: "/moved", Status: "redirect", StatusCode: 301, RedirectTo: "/new", CanonicalOK: true, CheckedAt: at},
				{URL: "/odd", Status: "active", StatusCode: 200, CanonicalOK: false, Error: "canonical is https://x.test/other", CheckedAt: at},
			}
			if _, err := s.SaveHealthRun(ctx, HealthRun{StartedAt: at, FinishedAt: at.Add(time.Second), TriggeredBy: "schedule", Checked: 4, Issues: 3 + i}, results); err != nil {
				t.Fatal(err)
			}
		}
		run, results, err := s.LatestHealthRun(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if run.Issues != HealthRunsKept+4 || !run.StartedAt.Equal(base.Add(time.Duration(HealthRunsKept+1)*time.Hour)) {
			t.Errorf("latest run = %+v", run)
		}
		var got []string
		for _, r := range results {
			got = append(got, fmt.Sprintf("%s %s %d %s %v", r.URL, r.Status, r.StatusCode, r.RedirectTo, r.CanonicalOK))
		}
		want := []string{"/ active 200  true", "/broken 404 404  true", "/moved redirect 301 /new true", "/odd active 200  false"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("results (-want, +got):\n%s", diff)
		}
		var runs, rows int
		s.db.Get(&runs, `SELECT COUNT(*) FROM health_runs`)
		s.db.Get(&rows, `SELECT COUNT(*) FROM health_results`)
		if runs != HealthRunsKept || rows != HealthRunsKept*4 {
			t.Errorf("kept %d runs and %d results, want %d and %d", runs, rows, HealthRunsKept, HealthRunsKept*4)
		}
	})
}

func TestRecentMedia(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
		for i := 0; i < 4; i++ {
			m := Media{ID: fmt.Sprint("r", i), Project: "roof", Path: fmt.Sprintf("projects/roof/%d.jpg", i), Name: fmt.Sprintf("%d.jpg", i),
				Kind: "image", MIME: "image/jpeg", Size: 1, CreatedAt: now.Add(time.Duration(i) * time.Minute)}
			if err := s.CreateMedia(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.RecentMedia(ctx, 2)
		if err != nil || len(got) != 2 || got[0].ID != "r3" || got[1].ID != "r2" {
			t.Errorf("RecentMedia = %+v, %v", got, err)
		}
	})
}
