package media

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/media"
)

// libraryUpload uploads a photo as the content editor's photo field does:
// for the library only (portfolio=false), with alt text and no project.
func (r *room) libraryUpload(query, filename string, content []byte, alt string) *response {
	return r.form("POST", "/api/admin/media?"+query, [][2]string{{"caption", ""}, {"alt", alt}}, filename, content)
}

func (r *room) library(t testing.TB) []media.GalleryItem {
	t.Helper()
	res := r.get("/api/admin/media?perPage=200")
	var lib Library
	if err := json.Unmarshal([]byte(res.Body), &lib); err != nil || res.StatusCode != 200 || lib.Total != len(lib.Items) {
		t.Fatalf("library: %d %s", res.StatusCode, res.Body)
	}
	return lib.Items
}

// A photo uploaded from the content editor is in the library, not in the
// portfolio; a photo of the Photo Upload screen is project work. A photo
// of no project needs a name to be marked; marking and unmarking answer
// the item as it now is, and re-render the pages. (What the home page
// and /portfolio then show is tested in server/.)
func TestLibraryUploadIsNotProjectWork(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	r := mr.libraryUpload("portfolio=false", "cover.jpg", testJPEG(t, 800, 600), "Dry wall cut open after a leak")
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("library upload: %d %s", r.StatusCode, r.Body)
	}
	cover := item(t, r)
	if cover.Portfolio || cover.Project != "" || cover.Alt != "Dry wall cut open after a leak" || !strings.HasPrefix(cover.Path, "projects/library/") {
		t.Fatalf("library upload = %+v, want no project, not project work, the alt text, under projects/library/", cover)
	}
	if rows, _ := mr.store.ListPortfolio(t.Context()); len(rows) != 0 {
		t.Errorf("%d rows in the portfolio after a library upload", len(rows))
	}
	if r := mr.get(cover.URL); r.StatusCode != http.StatusOK {
		t.Errorf("library photo served: %d", r.StatusCode)
	}
	if lib := mr.library(t); len(lib) != 1 || lib[0].ID != cover.ID || lib[0].Portfolio {
		t.Errorf("library = %+v", lib)
	}

	// The Photo Upload screen's upload is project work.
	r = mr.upload(t, "Kitchen Fire Repair", "k.jpg", testJPEG(t, 640, 480))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("project upload: %d %s", r.StatusCode, r.Body)
	}
	work := item(t, r)
	if !work.Portfolio || work.Project != "kitchen-fire-repair" {
		t.Fatalf("project upload = %+v", work)
	}

	mark := func(id string, body map[string]any) *response {
		return mr.json(t, "PUT", "/api/admin/media/"+id+"/portfolio", body)
	}
	if r := mark(cover.ID, map[string]any{"portfolio": true}); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "Give the project a name") {
		t.Errorf("mark without a project: %d %s", r.StatusCode, r.Body)
	}
	if r := mark(cover.ID, map[string]any{"project": "x"}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("mark without portfolio: %d %s", r.StatusCode, r.Body)
	}
	if r := mark("no-such-photo", map[string]any{"portfolio": true, "project": "x"}); r.StatusCode != http.StatusNotFound {
		t.Errorf("mark a missing photo: %d %s", r.StatusCode, r.Body)
	}
	before := mr.changed.Load()
	r = mark(cover.ID, map[string]any{"portfolio": true, "project": "Basement Leak"})
	if got := item(t, r); r.StatusCode != http.StatusOK || !got.Portfolio || got.ProjectName != "Basement Leak" {
		t.Fatalf("mark with a project: %d %s", r.StatusCode, r.Body)
	}
	r = mark(work.ID, map[string]any{"portfolio": false})
	if got := item(t, r); r.StatusCode != http.StatusOK || got.Portfolio || got.Project != "kitchen-fire-repair" {
		t.Fatalf("unmark: %d %s", r.StatusCode, r.Body)
	}
	if n := mr.changed.Load() - before; n != 2 {
		t.Errorf("the pages were re-rendered %d times for a mark and an unmark", n)
	}
	if rows, _ := mr.store.ListPortfolio(t.Context()); len(rows) != 1 || rows[0].ID != cover.ID {
		t.Errorf("portfolio after marking and unmarking: %+v", rows)
	}
	if lib := mr.library(t); len(lib) != 2 {
		t.Errorf("library after unmarking: %d items, want 2", len(lib))
	}
}

// A library upload is checked as every upload is: a file that is not a
// photo or video is refused (415) and nothing is stored; a portfolio value
// that is neither true nor false is a 400.
func TestLibraryUploadRefusals(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	cases := []struct {
		name, query, file string
		content           []byte
		status            int
		msg               string
	}{
		{"text as a photo", "portfolio=false", "notes.jpg", []byte("this is a text file pretending to be a photo" + strings.Repeat(".", 600)), 415, "notes.jpg: this file is not a photo or video we accept"},
		{"svg", "portfolio=false", "logo.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), 415, "SVG"},
		{"bad flag", "portfolio=maybe", "a.jpg", testJPEG(t, 10, 10), 400, "portfolio must be true or false"},
		{"project work without a project", "portfolio=true", "a.jpg", testJPEG(t, 10, 10), 400, "Please enter a project name before uploading."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mr.libraryUpload(c.query, c.file, c.content, "A photo")
			if r.StatusCode != c.status || !strings.Contains(r.Body, c.msg) {
				t.Errorf("%d %s, want %d %q", r.StatusCode, r.Body, c.status, c.msg)
			}
		})
	}
	if rows, _ := mr.store.ListMedia(t.Context()); len(rows) != 0 {
		t.Errorf("%d refused uploads stored", len(rows))
	}
}
