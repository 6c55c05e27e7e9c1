package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// filesLead stores a lead for the lead_files tests.
func filesLead(t *testing.T, s *Store, id string) {
	t.Helper()
	now := time.Now().UTC()
	if err := s.CreateLead(context.Background(), Lead{ID: id, CreatedAt: now, UpdatedAt: now, FirstName: "Ann", Email: id + "@example.com", City: "Smyrna", Status: "new", Source: "website"}); err != nil {
		t.Fatal(err)
	}
}

// crewPhoto stores a job of lead leadID ("" for none) with one photo, and
// returns the photo's id.
func crewPhoto(t *testing.T, s *Store, leadID, name string) string {
	t.Helper()
	ctx := context.Background()
	j, err := s.CreateJob(ctx, JobFields{Title: "Kitchen " + name, LeadID: leadID})
	if err != nil {
		t.Fatal(err)
	}
	m := Media{ID: "m-" + name, Path: "projects/library/" + name + ".jpg", Name: name + ".jpg", Kind: "image", MIME: "image/jpeg", Size: 10, Variants: "[]", CreatedAt: time.Now().UTC(), Caption: "Wet drywall"}
	if err := s.CreateMedia(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := s.AttachMedia(ctx, j.ID, m.ID, PhaseBefore); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

// A lead's files: documents with their timeline entries and live
// announcement, a lead's file never found through another lead, the
// homeowner's bounds, crew photos shared only while in the lead's job.
func TestLeadFiles(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		filesLead(t, s, "LA")
		filesLead(t, s, "LB")
		var heard []LeadChange
		var mu sync.Mutex
		s.OnLeadChange(func(c LeadChange) { mu.Lock(); heard = append(heard, c); mu.Unlock() })
		now := time.Now().UTC()
		owner := Actor{UserID: "", Name: "Owner"}
		doc, err := s.AddLeadDocument(ctx, LeadFile{LeadID: "LA", Kind: FileEstimate, Path: "projects/lead-files.private/a.pdf", MIME: "application/pdf", Size: 9, Name: "Estimate.pdf"}, owner, now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddLeadDocument(ctx, LeadFile{LeadID: "LA", Kind: "invoice", Path: "x", MIME: "application/pdf"}, owner, now); err == nil {
			t.Error("an unknown kind was stored")
		}
		if _, err := s.AddLeadDocument(ctx, LeadFile{LeadID: "nope", Kind: FileEstimate, Path: "x", MIME: "application/pdf"}, owner, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown lead: %v", err)
		}
		got, err := s.LeadFileOf(ctx, "LA", doc.ID)
		if err != nil || got.Name != "Estimate.pdf" || got.MIME != "application/pdf" || got.Path != doc.Path {
			t.Fatalf("own file: %+v %v", got, err)
		}
		if _, err := s.LeadFileOf(ctx, "LB", doc.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("another lead's file: %v", err)
		}
		// The homeowner: photos and a message, bounded.
		photos := []LeadFile{{Path: "projects/lead-files.private/p1.jpg", MIME: "image/jpeg", Size: 5, Name: "Photo 1"}, {Path: "projects/lead-files.private/p2.jpg", MIME: "image/jpeg", Size: 5, Name: "Photo 2"}}
		if _, err := s.AddHomeownerPost(ctx, "LA", HomeownerSent{Photos: photos, Message: "The ceiling is sagging."}, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddHomeownerPost(ctx, "LA", HomeownerSent{Message: "  "}, now); err == nil {
			t.Error("an empty post was stored")
		}
		many := make([]LeadFile, MaxHomeownerPhotos-1)
		for i := range many {
			many[i] = LeadFile{Path: fmt.Sprintf("projects/lead-files.private/m%d.jpg", i), MIME: "image/jpeg", Name: "Photo"}
		}
		if _, err := s.AddHomeownerPost(ctx, "LA", HomeownerSent{Photos: many}, now); !errors.Is(err, ErrTooManyFiles) {
			t.Errorf("past the photo bound: %v", err)
		}
		tl, err := s.LeadTimeline(ctx, "LA")
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, e := range tl {
			kinds = append(kinds, e.Kind+":"+e.To)
			if e.Kind == EventHomeowner && (e.Body != "The ceiling is sagging." || e.From != "2") {
				t.Errorf("homeowner entry: %+v", e)
			}
		}
		if fmt.Sprint(kinds) != "[created: document:estimate homeowner:photos]" {
			t.Errorf("timeline: %v", kinds)
		}
		// Crew photos: only a photo in a job of this lead is shared, once,
		// and stops being shared when it leaves the job.
		mine := crewPhoto(t, s, "LA", "mine")
		theirs := crewPhoto(t, s, "LB", "theirs")
		if _, err := s.ShareCrewPhoto(ctx, "LA", theirs, owner, now); !errors.Is(err, ErrNotSharable) {
			t.Errorf("another lead's job photo: %v", err)
		}
		sh, err := s.ShareCrewPhoto(ctx, "LA", mine, owner, now.Add(2*time.Minute))
		if err != nil || sh.Name != "Wet drywall" || sh.MIME != "image/jpeg" || sh.Path != "projects/library/mine.jpg" {
			t.Fatalf("share: %+v %v", sh, err)
		}
		again, err := s.ShareCrewPhoto(ctx, "LA", mine, owner, now.Add(3*time.Minute))
		if err != nil || again.ID != sh.ID {
			t.Errorf("shared twice: %+v %v", again, err)
		}
		fs, _ := s.LeadFiles(ctx, "LA")
		if len(fs) != 4 || fs[0].ID != doc.ID || fs[3].Kind != FileCrewPhoto {
			t.Fatalf("files: %+v", fs)
		}
		job := ""
		if m, err := s.GetMedia(ctx, mine); err == nil && m.JobID != nil {
			job = *m.JobID
		}
		if err := s.DetachMedia(ctx, job, mine); err != nil {
			t.Fatal(err)
		}
		if _, err := s.LeadFileOf(ctx, "LA", sh.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("a detached photo is still shared: %v", err)
		}
		// Removal: the owner's file goes, and another lead cannot remove it.
		if _, err := s.RemoveLeadFile(ctx, "LB", doc.ID, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("removed through another lead: %v", err)
		}
		gone, err := s.RemoveLeadFile(ctx, "LA", doc.ID, now)
		if err != nil || gone.Path != doc.Path {
			t.Fatalf("remove: %+v %v", gone, err)
		}
		paths, _ := s.LeadFilePaths(ctx, "LA")
		if len(paths) != 2 {
			t.Errorf("paths left: %v", paths)
		}
		mu.Lock()
		defer mu.Unlock()
		var hk []string
		for _, c := range heard {
			hk = append(hk, c.Kind)
		}
		if fmt.Sprint(hk) != "[document homeowner document document]" {
			t.Errorf("announced: %v", hk)
		}
	})
}

// Racing posts cannot pass the homeowner's photo bound.
func TestHomeownerPhotoBoundUnderRace(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		filesLead(t, s, "LR")
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ps := make([]LeadFile, 5)
				for k := range ps {
					ps[k] = LeadFile{Path: fmt.Sprintf("projects/lead-files.private/r%d-%d.jpg", i, k), MIME: "image/jpeg", Name: "Photo"}
				}
				s.AddHomeownerPost(ctx, "LR", HomeownerSent{Photos: ps}, time.Now())
			}()
		}
		wg.Wait()
		paths, _ := s.LeadFilePaths(ctx, "LR")
		if len(paths) != MaxHomeownerPhotos {
			t.Errorf("%d photos stored; want %d", len(paths), MaxHomeownerPhotos)
		}
	})
}
