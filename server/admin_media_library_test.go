package server

import (
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"
	"time"

	mediaweb "github.com/atlanta-restoration/site/web/media"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
)

// libraryUpload uploads a photo as the content editor's photo field does:
// for the library only (portfolio=false), with alt text and no project.
func libraryUpload(t *testing.T, h http.Handler, token, query, filename string, content []byte, alt string) *response {
	t.Helper()
	body, ct := multipartWith([][2]string{{"caption", ""}, {"alt", alt}}, filename, content)
	req := httptest.NewRequest("POST", "/api/admin/media?"+query, body)
	req.Header.Set("Content-Type", ct)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, h, req)
}

// shows reports whether a page's HTML names a stored file (its original
// or any of its variants).
func shows(page *response, it media.GalleryItem) bool {
	return strings.Contains(page.Body, strings.TrimSuffix(it.Path, path.Ext(it.Path)))
}

// A photo uploaded from the content editor, by an editor, is in the
// library, not in the portfolio: the home page and /portfolio keep their
// empty state. A photo of the Photo Upload screen is project work, as
// before. Marking and unmarking move a photo in and out of the public
// lists at once. (What the room stores and answers, and its refusals, are
// tested in web/media/library_test.go.)
func TestLibraryPhotosOnPublicPages(t *testing.T) {
	srv, store := adminServer(t, nil)
	editor := editorToken(t, srv, store)
	r := libraryUpload(t, srv, editor, "portfolio=false", "cover.jpg", testJPEG(t, 800, 600), "Dry wall cut open after a leak")
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("library upload: %d %s", r.StatusCode, r.Body)
	}
	cover := decode[media.GalleryItem](t, r)
	for _, p := range []string{"/", "/portfolio"} {
		pg := get(t, srv, p)
		if shows(pg, cover) || !strings.Contains(text(bodyOf(pg.Doc)), "No projects yet") {
			t.Errorf("%s shows the library photo, or lost its empty state", p)
		}
	}
	// The library (the editor's picker) lists it for the editor.
	lib := decode[mediaweb.Library](t, jsonReq(t, srv, "GET", "/api/admin/media", editor, nil)).Items
	if len(lib) != 1 || lib[0].ID != cover.ID {
		t.Errorf("library = %+v", lib)
	}

	// The Photo Upload screen's upload is project work.
	pin := unlock(t, srv)
	r = uploadWithText(t, srv, pin, "Kitchen Fire Repair", "k.jpg", testJPEG(t, 640, 480), "", "")
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("project upload: %d %s", r.StatusCode, r.Body)
	}
	work := decode[media.GalleryItem](t, r)
	for _, p := range []string{"/", "/portfolio"} {
		pg := get(t, srv, p)
		if !shows(pg, work) || shows(pg, cover) || !strings.Contains(text(bodyOf(pg.Doc)), "1 photo from 1 project") {
			t.Errorf("%s after a project upload: want the project photo only", p)
		}
	}

	mark := func(id string, body map[string]any) *response {
		return jsonReq(t, srv, "PUT", "/api/admin/media/"+id+"/portfolio", editor, body)
	}
	r = mark(cover.ID, map[string]any{"portfolio": true, "project": "Basement Leak"})
	if r.StatusCode != http.StatusOK {
		t.Fatalf("mark with a project: %d %s", r.StatusCode, r.Body)
	}
	if pg := get(t, srv, "/portfolio"); !shows(pg, cover) || !strings.Contains(text(bodyOf(pg.Doc)), "2 photos from 2 projects") {
		t.Error("/portfolio does not show the photo just marked as project work")
	}
	// One tap takes project work off the home gallery.
	r = mark(work.ID, map[string]any{"portfolio": false})
	if r.StatusCode != http.StatusOK {
		t.Fatalf("unmark: %d %s", r.StatusCode, r.Body)
	}
	if pg := get(t, srv, "/"); shows(pg, work) || !shows(pg, cover) {
		t.Error("the home gallery still shows the photo taken out of the portfolio")
	}
}

// Marking needs media.write: no session is a 401, an account without the
// capability a 403, and nothing changes.
func TestMarkingNeedsMediaWrite(t *testing.T) {
	srv, store := adminServer(t, nil)
	pin := unlock(t, srv)
	r := uploadWithText(t, srv, pin, "Roof Storm", "r.jpg", testJPEG(t, 320, 240), "", "")
	it := decode[media.GalleryItem](t, r)
	addUser(t, store, "norole@example.com", "a role-less passphrase", "", "No Role")
	roleless := attackSession(t, store, "u-norole", db.StageFull, time.Now().UTC().Add(time.Hour))
	for _, c := range []struct {
		token  string
		status int
	}{{"", http.StatusUnauthorized}, {roleless, http.StatusForbidden}} {
		r := jsonReq(t, srv, "PUT", "/api/admin/media/"+it.ID+"/portfolio", c.token, map[string]any{"portfolio": false})
		if r.StatusCode != c.status {
			t.Errorf("mark with %q: %d, want %d", c.token, r.StatusCode, c.status)
		}
	}
	if m, _ := store.GetMedia(t.Context(), it.ID); !m.Portfolio {
		t.Error("a refused request took the photo out of the portfolio")
	}
	// Uploading for the library needs it too.
	if r := libraryUpload(t, srv, roleless, "portfolio=false", "a.jpg", testJPEG(t, 10, 10), "A roof"); r.StatusCode != http.StatusForbidden {
		t.Errorf("library upload without media.write: %d", r.StatusCode)
	}
}
