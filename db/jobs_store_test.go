package db

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

func ptr[T any](v T) *T { return &v }

// jobMedia stores a photo row, with a rounded place when lat is not nil.
func jobMedia(t *testing.T, s *Store, id string, lat, lng *float64, at time.Time) {
	t.Helper()
	err := s.CreateMedia(context.Background(), Media{ID: id, Path: "projects/library/" + id + ".jpg", Name: id + ".jpg", Kind: "image",
		MIME: "image/jpeg", Size: 10, Width: 800, Height: 600, CreatedAt: at, Alt: "alt " + id, GeoLat: lat, GeoLng: lng, TakenMonth: "2026-10"})
	if err != nil {
		t.Fatal(err)
	}
}

func TestJobsCreateEditConflict(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		a, err := s.CreateJob(ctx, JobFields{Title: "Flooded basement, Marietta!", Month: "2026-10"})
		if err != nil {
			t.Fatal(err)
		}
		if a.Slug != "flooded-basement-marietta" || a.Status != JobDraft || a.Version != 1 || a.Lat != nil || a.Photos != 0 {
			t.Fatalf("created %+v", a)
		}
		b, err := s.CreateJob(ctx, JobFields{Title: "Flooded basement - Marietta"})
		if err != nil || b.Slug != "flooded-basement-marietta-2" {
			t.Fatalf("second job with the same title: %+v, %v", b, err)
		}
		f := JobFields{Title: "Renamed", CityID: "city-1", Month: "2026-09", Service: "svc-1", Story: "A story.", LeadID: "lead-1", CustomerName: "Pat", NameConsent: true}
		got, err := s.UpdateJob(ctx, a.ID, 1, f)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != 2 || got.Title != "Renamed" || got.Slug != a.Slug || got.CityID != "city-1" || got.Service != "svc-1" || got.LeadID != "lead-1" || !got.NameConsent {
			t.Errorf("updated %+v", got)
		}
		if _, err := s.UpdateJob(ctx, a.ID, 1, JobFields{Title: "Stale"}); !errors.Is(err, ErrJobConflict) {
			t.Errorf("edit from version 1 after version 2: %v, want ErrJobConflict", err)
		}
		if _, err := s.UpdateJob(ctx, "nope", 1, f); !errors.Is(err, ErrNotFound) {
			t.Errorf("edit of a missing job: %v", err)
		}
		if j, _ := s.GetJob(ctx, a.ID); j.Title != "Renamed" {
			t.Errorf("a refused edit changed the job: %+v", j)
		}
		list, total, err := s.ListJobs(ctx, 1, 1)
		if err != nil || total != 2 || len(list) != 1 || list[0].ID != b.ID {
			t.Errorf("page 1 of 1 = %+v, %d, %v; want the newest, 2 in all", list, total, err)
		}
		list, _, _ = s.ListJobs(ctx, 2, 1)
		if len(list) != 1 || list[0].ID != a.ID {
			t.Errorf("page 2 = %+v", list)
		}
	})
}

func TestJobsMediaAndPlace(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		j, _ := s.CreateJob(ctx, JobFields{Title: "Kitchen fire"})
		now := time.Now().UTC().Truncate(time.Second)
		jobMedia(t, s, "nogps", nil, nil, now)
		jobMedia(t, s, "gps", ptr(33.95), ptr(-84.55), now.Add(time.Second))
		jobMedia(t, s, "gps2", ptr(34.0), ptr(-84.0), now.Add(2*time.Second))
		if err := s.AttachMedia(ctx, j.ID, "nogps", "sideways"); !errors.Is(err, ErrBadPhase) {
			t.Errorf("phase sideways: %v", err)
		}
		if err := s.AttachMedia(ctx, "nope", "nogps", PhaseBefore); !errors.Is(err, ErrNotFound) {
			t.Errorf("attach to a missing job: %v", err)
		}
		if err := s.AttachMedia(ctx, j.ID, "missing", PhaseBefore); !errors.Is(err, ErrNotFound) {
			t.Errorf("attach a missing photo: %v", err)
		}
		for _, a := range [][2]string{{"gps2", PhaseAfter}, {"nogps", PhaseBefore}, {"gps", PhaseDuring}} {
			if err := s.AttachMedia(ctx, j.ID, a[0], a[1]); err != nil {
				t.Fatal(err)
			}
		}
		got, _ := s.GetJob(ctx, j.ID)
		// The first photo with a place gave the job its place; later ones don't move it.
		if got.Photos != 3 || got.Lat == nil || *got.Lat != 34.0 || *got.Lng != -84.0 || got.Version != 1 {
			t.Errorf("job after three photos: %+v (lat %v)", got, got.Lat)
		}
		ms, err := s.JobMedia(ctx, j.ID)
		if err != nil || len(ms) != 3 || ms[0].ID != "nogps" || ms[1].ID != "gps" || ms[2].ID != "gps2" || ms[0].Phase != PhaseBefore {
			t.Errorf("job media order = %+v, %v", ms, err)
		}
		if err := s.DetachMedia(ctx, j.ID, "gps"); err != nil {
			t.Fatal(err)
		}
		if err := s.DetachMedia(ctx, j.ID, "gps"); !errors.Is(err, ErrNotFound) {
			t.Errorf("detach twice: %v", err)
		}
		if m, _ := s.GetMedia(ctx, "gps"); m.JobID != nil || m.Phase != "" {
			t.Errorf("detached photo %+v", m)
		}
		if _, err := s.DeleteJob(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetJob(ctx, j.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted job read back: %v", err)
		}
		lib, _ := s.ListMedia(ctx)
		if len(lib) != 3 {
			t.Fatalf("library after the job's delete has %d, want all 3", len(lib))
		}
		for _, m := range lib {
			if m.JobID != nil || m.Phase != "" {
				t.Errorf("photo still attached after the job's delete: %+v", m)
			}
		}
		if _, err := s.DeleteJob(ctx, j.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("delete twice: %v", err)
		}
	})
}

func TestJobsPublished(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Second)
		a, _ := s.CreateJob(ctx, JobFields{Title: "A", CustomerName: "Pat Doe", NameConsent: false, Story: "s"})
		b, _ := s.CreateJob(ctx, JobFields{Title: "B", CustomerName: "Sam Roe", NameConsent: true})
		c, _ := s.CreateJob(ctx, JobFields{Title: "C draft"})
		jobMedia(t, s, "a-after", ptr(33.95), ptr(-84.55), now)
		jobMedia(t, s, "a-before", nil, nil, now.Add(time.Second))
		jobMedia(t, s, "c1", nil, nil, now)
		s.AttachMedia(ctx, a.ID, "a-after", PhaseAfter)
		s.AttachMedia(ctx, a.ID, "a-before", PhaseBefore)
		s.AttachMedia(ctx, c.ID, "c1", PhaseBefore)
		if _, err := s.PublishJob(ctx, a.ID, 5); !errors.Is(err, ErrJobConflict) {
			t.Errorf("publish from a stale version: %v", err)
		}
		pa, err := s.PublishJob(ctx, a.ID, a.Version)
		if err != nil || pa.Status != JobPublished || pa.PublishedAt == nil || pa.Version != 2 {
			t.Fatalf("publish: %+v, %v", pa, err)
		}
		time.Sleep(10 * time.Millisecond) // published_at orders the list: b's must be later
		if _, err := s.PublishJob(ctx, b.ID, b.Version); err != nil {
			t.Fatal(err)
		}
		list, err := s.PublishedJobs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || list[0].ID != b.ID || list[1].ID != a.ID {
			t.Fatalf("published = %+v, want b then a, no draft", list)
		}
		if list[0].CustomerName != "Sam Roe" || list[1].CustomerName != "" {
			t.Errorf("names: %q with consent, %q without", list[0].CustomerName, list[1].CustomerName)
		}
		pj := list[1]
		if !pj.HasPlace || pj.Lat != 33.95 || pj.Lng != -84.55 || list[0].HasPlace {
			t.Errorf("places: %+v / %+v", pj, list[0])
		}
		if len(pj.Media) != 2 || pj.Media[0].ID != "a-before" || pj.Media[1].Phase != PhaseAfter || pj.Media[0].Alt != "alt a-before" || pj.Media[0].Width != 800 {
			t.Errorf("media of a: %+v", pj.Media)
		}
		if pj.PublishedAt.IsZero() || pj.Story != "s" {
			t.Errorf("a = %+v", pj)
		}
		first := *pa.PublishedAt
		un, err := s.UnpublishJob(ctx, a.ID, pa.Version)
		if err != nil || un.Status != JobDraft {
			t.Fatalf("unpublish: %+v, %v", un, err)
		}
		re, _ := s.PublishJob(ctx, a.ID, un.Version)
		if !re.PublishedAt.Equal(first) {
			t.Errorf("published again at %v, want the first publish's %v kept", re.PublishedAt, first)
		}
	})
}

// Migration 106 makes each portfolio project a published job with its
// photos attached; library photos stay out of every job.
func TestJobsMigrationFromPortfolio(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		err := s.Transact(ctx, func(tx *sqlx.Tx) error {
			for _, stmt := range []string{`DROP INDEX media_job`, `DROP TABLE jobs`, `ALTER TABLE media DROP COLUMN job_id`, `ALTER TABLE media DROP COLUMN phase`,
				`ALTER TABLE media DROP COLUMN geo_lat`, `ALTER TABLE media DROP COLUMN geo_lng`, `ALTER TABLE media DROP COLUMN taken_month`} {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("%s: %w", stmt, err)
				}
			}
			for i, r := range [][3]string{{"kitchen-fire", "TRUE", "k1"}, {"kitchen-fire", "TRUE", "k2"}, {"roof-storm", "TRUE", "r1"}, {"", "FALSE", "lib"}, {"old-cover", "FALSE", "cov"}} {
				_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO media (id, project, path, name, kind, mime, size, created_at, portfolio)
					VALUES (?, ?, ?, ?, 'image', 'image/jpeg', 10, ?, `+r[1]+`)`), r[2], r[0], "projects/x/"+r[2]+".jpg", r[2]+".jpg",
					time.Date(2026, 10, 1, 9, i, 0, 0, time.UTC))
				if err != nil {
					return err
				}
			}
			body, err := migrations.ReadFile("migrations/106_jobs.sql")
			if err != nil {
				return err
			}
			for _, stmt := range splitSQL(string(body)) {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("%s: %w", stmt, err)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		list, total, err := s.ListJobs(ctx, 1, 50)
		if err != nil || total != 2 {
			t.Fatalf("jobs after the migration: %+v, %v", list, err)
		}
		by := map[string]Job{}
		for _, j := range list {
			by[j.Slug] = j
		}
		k, r := by["kitchen-fire"], by["roof-storm"]
		if k.Title != "Kitchen fire" || k.Photos != 2 || k.Status != JobPublished || k.PublishedAt == nil || k.CityID != "" || r.Title != "Roof storm" || r.Photos != 1 {
			t.Errorf("migrated jobs: %+v", by)
		}
		lib, _ := s.ListMedia(ctx)
		if len(lib) != 5 {
			t.Fatalf("%d files after the migration, want all 5", len(lib))
		}
		for _, m := range lib {
			attached := m.JobID != nil
			if attached != (m.ID == "k1" || m.ID == "k2" || m.ID == "r1") {
				t.Errorf("%s attached = %v", m.ID, attached)
			}
		}
		pub, _ := s.PublishedJobs(ctx)
		if len(pub) != 2 {
			t.Errorf("published after the migration: %+v", pub)
		}
		port, _ := s.ListPortfolio(ctx)
		if len(port) != 3 {
			t.Errorf("portfolio after the migration has %d, want the 3 it had", len(port))
		}
	})
}

// Erasing a lead (a privacy request) erases the homeowner's name from the
// job that came from it; the job stays.
func TestJobsForgetAnErasedLead(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		if err := s.CreateLead(ctx, Lead{ID: "l1", CreatedAt: now, UpdatedAt: now, FirstName: "Pat", Phone: "4045550101", Status: "new", Source: "website"}); err != nil {
			t.Fatal(err)
		}
		j, _ := s.CreateJob(ctx, JobFields{Title: "Kitchen", LeadID: "l1", CustomerName: "Pat Doe", NameConsent: true})
		other, _ := s.CreateJob(ctx, JobFields{Title: "Other", CustomerName: "Sam Roe", NameConsent: true})
		// A privacy export finds the lead's jobs, and only them.
		if of, err := s.JobsOfLead(ctx, "l1"); err != nil || len(of) != 1 || of[0].ID != j.ID {
			t.Errorf("jobs of the lead: %+v %v", of, err)
		}
		if err := s.DeleteLead(ctx, "l1", AuditEntry{At: now, Actor: "admin"}); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetJob(ctx, j.ID)
		if err != nil || got.LeadID != "" || got.CustomerName != "" || got.NameConsent || got.Version != 2 {
			t.Errorf("job of an erased lead: %+v, %v", got, err)
		}
		if o, _ := s.GetJob(ctx, other.ID); o.CustomerName != "Sam Roe" {
			t.Errorf("another job lost its name: %+v", o)
		}
		if of, _ := s.JobsOfLead(ctx, "l1"); len(of) != 0 {
			t.Errorf("an erased lead still has jobs: %+v", of)
		}
	})
}
