package media

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media/exiftest"
	"github.com/atlanta-restoration/site/web/auth"
)

// A photo uploaded into a job keeps where and when it was taken, rounded
// to 0.01 degree, on the server only: the stored file, its variants and
// the answer carry no EXIF and no coordinate. The job takes the photo's
// place; a published job's pages are re-rendered.
func TestUploadIntoJobReadsPlace(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	ctx := context.Background()
	job, err := mr.store.CreateJob(ctx, db.JobFields{Title: "Burst pipe"})
	if err != nil {
		t.Fatal(err)
	}
	photo := exiftest.JPEG(640, 480, exiftest.EXIF{Lat: 33.952614, Lng: -84.549934, Taken: "2026:10:14 15:04:05"})
	before := mr.changed.Load()
	r := mr.libraryUpload("job="+job.ID+"&phase=before", "IMG_0001.jpg", photo, "Wet floor")
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("upload into a job: %d %s", r.StatusCode, r.Body)
	}
	for _, leak := range []string{"33.95", "84.5", "geo", "lat", "lng"} {
		if strings.Contains(strings.ToLower(r.Body), leak) {
			t.Errorf("the answer carries %q: %s", leak, r.Body)
		}
	}
	it := item(t, r)
	m, err := mr.store.GetMedia(ctx, it.ID)
	if err != nil {
		t.Fatal(err)
	}
	if m.GeoLat == nil || *m.GeoLat != 33.95 || *m.GeoLng != -84.55 || m.TakenMonth != "2026-10" {
		t.Errorf("stored place %v,%v %q, want 33.95,-84.55 2026-10", m.GeoLat, m.GeoLng, m.TakenMonth)
	}
	if m.JobID == nil || *m.JobID != job.ID || m.Phase != db.PhaseBefore || m.Portfolio {
		t.Errorf("stored row %+v: want in the job, before, not portfolio", m)
	}
	j, _ := mr.store.GetJob(ctx, job.ID)
	if j.Lat == nil || *j.Lat != 33.95 || *j.Lng != -84.55 || j.Photos != 1 {
		t.Errorf("job after the upload: %+v", j)
	}
	if mr.changed.Load() != before {
		t.Error("a draft job's photo re-rendered the pages")
	}
	// Every stored file: no EXIF block, no GPS.
	filepath.Walk(filepath.Join(mr.dir, "media"), func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		if bytes.Contains(b, []byte("Exif\x00")) || bytes.Contains(b, []byte("EXIF")) {
			t.Errorf("%s carries an EXIF block", p)
		}
		return nil
	})
	served := mr.get(it.URL)
	if served.StatusCode != http.StatusOK || strings.Contains(served.Body, "Exif") {
		t.Errorf("served %s: %d, EXIF in it: %v", it.URL, served.StatusCode, strings.Contains(served.Body, "Exif"))
	}

	// Into a published job: the pages that show it are drawn again.
	if _, err := mr.store.PublishJob(ctx, job.ID, j.Version); err != nil {
		t.Fatal(err)
	}
	after := exiftest.JPEG(64, 48, exiftest.EXIF{NoGPS: true})
	// The PIN may add photos to a draft job, not to one on the site.
	if r := mr.libraryUpload("job="+job.ID+"&phase=after", "after.jpg", after, "Dry"); r.StatusCode != http.StatusForbidden || !strings.Contains(r.Body, "on the site") {
		t.Fatalf("the PIN's upload into a published job: %d %s", r.StatusCode, r.Body)
	}
	mr.Caller("", auth.Principal{Role: accounts.RoleEditor})
	if r := mr.libraryUpload("job="+job.ID+"&phase=after", "after.jpg", after, "Dry"); r.StatusCode != http.StatusCreated {
		t.Fatalf("upload into a published job: %d %s", r.StatusCode, r.Body)
	}
	if mr.changed.Load() != before+1 {
		t.Errorf("Changed called %d times for a published job's photo, want 1", mr.changed.Load()-before)
	}
}

func TestUploadIntoJobRefusals(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	job, _ := mr.store.CreateJob(context.Background(), db.JobFields{Title: "Roof"})
	photo := testJPEG(t, 32, 32)
	for _, c := range []struct {
		query string
		code  int
		msg   string
	}{
		{"job=" + job.ID + "&phase=sideways", 400, "before, during or after"},
		{"phase=before&portfolio=false", 400, "needs a job"},
		{"job=gone&phase=after", 404, "no longer exists"},
	} {
		r := mr.libraryUpload(c.query, "x.jpg", photo, "")
		if r.StatusCode != c.code || !strings.Contains(r.Body, c.msg) {
			t.Errorf("%s: %d %s, want %d %q", c.query, r.StatusCode, r.Body, c.code, c.msg)
		}
	}
	if lib := mr.library(t); len(lib) != 0 {
		t.Errorf("refused uploads stored %d files", len(lib))
	}
}
