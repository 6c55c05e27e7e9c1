package db

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

// media105 runs migration 105 again on a store whose media table is put
// back to how it was before it (no portfolio column).
func media105(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	body, err := migrations.ReadFile("migrations/105_media_portfolio.sql")
	if err != nil {
		t.Fatal(err)
	}
	err = s.Transact(ctx, func(tx *sqlx.Tx) error {
		for _, stmt := range []string{`DROP INDEX media_portfolio`, `ALTER TABLE media DROP COLUMN portfolio`} {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("%s: %w", stmt, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Rows uploaded before the migration, in the columns they had.
	for i, p := range []string{"kitchen-fire", "roof-storm"} {
		_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO media (id, project, path, name, kind, mime, size, created_at)
			VALUES (?, ?, ?, ?, 'image', 'image/jpeg', 10, ?)`), fmt.Sprint("old", i), p, fmt.Sprintf("projects/%s/%d.jpg", p, i), fmt.Sprintf("%d.jpg", i),
			time.Date(2026, 10, 1, 9, i, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
	}
	err = s.Transact(ctx, func(tx *sqlx.Tx) error {
		for _, stmt := range splitSQL(string(body)) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Migration 105: everything uploaded before it was uploaded to the
// portfolio, and stays there; a row added after it is library only
// unless it says otherwise.
func TestMediaPortfolioMigration(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		media105(t, s)
		if err := s.CreateMedia(ctx, Media{ID: "new", Project: "", Path: "projects/library/new.jpg", Name: "new.jpg", Kind: "image", MIME: "image/jpeg", CreatedAt: time.Now().UTC()}); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := s.db.GetContext(ctx, &n, `SELECT COUNT(*) FROM media WHERE portfolio = TRUE`); err != nil || n != 2 {
			t.Fatalf("%d rows in the portfolio (%v), want the 2 uploaded before", n, err)
		}
		list, err := s.ListPortfolio(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || list[0].ID != "old1" || list[1].ID != "old0" || !list[0].Portfolio {
			t.Errorf("portfolio after the migration = %+v, want old1, old0", list)
		}
		lib, err := s.ListMedia(ctx)
		if err != nil || len(lib) != 3 || lib[0].ID != "new" || lib[0].Portfolio {
			t.Errorf("library after the migration = %+v (%v), want new (not project work) first, 3 in all", lib, err)
		}
	})
}

// The portfolio lists project work only; the library lists everything;
// marking and unmarking move a photo in and out of the portfolio.
func TestMediaPortfolioFlag(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
		rows := []Media{
			{ID: "work", Project: "kitchen-fire", Portfolio: true},
			{ID: "cover", Project: ""},
			{ID: "aside", Project: "roof-storm"},
		}
		for i, m := range rows {
			m.Path, m.Name, m.Kind, m.MIME = fmt.Sprintf("projects/x/%d.jpg", i), fmt.Sprintf("%d.jpg", i), "image", "image/jpeg"
			m.CreatedAt = now.Add(time.Duration(i) * time.Minute)
			if err := s.CreateMedia(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		ids := func(ms []Media) (out []string) {
			for _, m := range ms {
				out = append(out, m.ID)
			}
			return out
		}
		port, err := s.ListPortfolio(ctx)
		if err != nil || fmt.Sprint(ids(port)) != "[work]" {
			t.Fatalf("portfolio = %v (%v), want [work]", ids(port), err)
		}
		lib, err := s.ListMedia(ctx)
		if err != nil || fmt.Sprint(ids(lib)) != "[aside cover work]" {
			t.Fatalf("library = %v (%v), want all three, newest first", ids(lib), err)
		}
		// A photo with a project is marked with one tap.
		m, err := s.SetMediaPortfolio(ctx, "aside", true, "")
		if err != nil || !m.Portfolio || m.Project != "roof-storm" {
			t.Fatalf("mark aside = %+v, %v", m, err)
		}
		// A photo with no project needs one to be named.
		if _, err := s.SetMediaPortfolio(ctx, "cover", true, ""); !errors.Is(err, ErrNoProject) {
			t.Errorf("mark cover without a project: err %v, want ErrNoProject", err)
		}
		if got, _ := s.GetMedia(ctx, "cover"); got.Portfolio {
			t.Error("cover was marked without a project")
		}
		if m, err := s.SetMediaPortfolio(ctx, "cover", true, "basement-flood"); err != nil || !m.Portfolio || m.Project != "basement-flood" {
			t.Errorf("mark cover with a project = %+v, %v", m, err)
		}
		port, _ = s.ListPortfolio(ctx)
		if fmt.Sprint(ids(port)) != "[aside cover work]" {
			t.Errorf("portfolio after marking = %v", ids(port))
		}
		// Unmarking keeps the project; the photo stays in the library.
		if m, err := s.SetMediaPortfolio(ctx, "work", false, ""); err != nil || m.Portfolio || m.Project != "kitchen-fire" {
			t.Errorf("unmark work = %+v, %v", m, err)
		}
		port, _ = s.ListPortfolio(ctx)
		lib, _ = s.ListMedia(ctx)
		if fmt.Sprint(ids(port)) != "[aside cover]" || len(lib) != 3 {
			t.Errorf("after unmarking: portfolio %v, library %v", ids(port), ids(lib))
		}
		if _, err := s.SetMediaPortfolio(ctx, "gone", true, "x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("mark a missing row: err %v, want ErrNotFound", err)
		}
	})
}

// The portfolio keeps spec 7's limits (100 per project folder); the
// library is not cut at 100 photos of one folder.
func TestMediaPortfolioLimits(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
		for i := 0; i < GalleryFilesPerFolder+5; i++ {
			m := Media{ID: fmt.Sprint("p", i), Project: "big-job", Path: fmt.Sprintf("projects/big-job/%d.jpg", i), Name: fmt.Sprintf("%d.jpg", i),
				Kind: "image", MIME: "image/jpeg", CreatedAt: now.Add(time.Duration(i) * time.Second), Portfolio: true}
			if err := s.CreateMedia(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		port, err := s.ListPortfolio(ctx)
		if err != nil || len(port) != GalleryFilesPerFolder || port[0].ID != fmt.Sprint("p", GalleryFilesPerFolder+4) {
			t.Errorf("portfolio: %d items (%v), want the newest %d", len(port), err, GalleryFilesPerFolder)
		}
		lib, err := s.ListMedia(ctx)
		if err != nil || len(lib) != GalleryFilesPerFolder+5 {
			t.Errorf("library: %d items (%v), want %d", len(lib), err, GalleryFilesPerFolder+5)
		}
	})
}
