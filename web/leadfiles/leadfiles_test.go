package leadfiles

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/media/exiftest"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The homeowner sends a photo and a message: the photo is re-encoded
// (its EXIF block, with where it was taken, is gone), everything is one
// entry on the lead's timeline, the owner's screens hear it live, and the
// page lists the photo under its own link only.
func TestHomeownerSendsPhotoAndMessage(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		r := newRoom(t, store)
		tok := r.lead(t, "LA", db.LinkHomeowner)
		heard := make(chan db.LeadChange, 4)
		store.OnLeadChange(func(c db.LeadChange) { heard <- c })
		photo := exiftest.JPEG(64, 48, exiftest.EXIF{Lat: 33.8839, Lng: -84.5144, Taken: "2026:11:01 10:00:00"})
		res := r.post(t, "/my/"+tok+"/photos", "", part{"message", "", []byte("Water under the sink.\u202e")}, part{"photos", "kitchen.jpg", photo})
		if res.StatusCode != 303 || res.Header.Get("Location") != "/my/"+tok+"?files=sent#files" {
			t.Fatalf("post: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
		if c := <-heard; c.Kind != db.LeadHomeowner || c.LeadID != "LA" {
			t.Errorf("announced %+v", c)
		}
		fs, _ := store.LeadFiles(context.Background(), "LA")
		if len(fs) != 1 || fs[0].Kind != db.FileHomeownerPhoto || fs[0].MIME != "image/jpeg" || !strings.HasPrefix(fs[0].Path, Folder) {
			t.Fatalf("files: %+v", fs)
		}
		got, err := os.ReadFile(filepath.Join(r.dir, fs[0].Path))
		if err != nil || bytes.Contains(got, []byte("Exif")) || bytes.Equal(got, photo) {
			t.Errorf("stored as sent, EXIF and all (%v)", err)
		}
		tl, _ := store.LeadTimeline(context.Background(), "LA")
		last := tl[len(tl)-1]
		if last.Kind != db.EventHomeowner || last.Body != "Water under the sink." || last.To != "photos" {
			t.Errorf("timeline: %+v", last)
		}
		// A message alone.
		res = r.Serve(form("/my/"+tok+"/messages", url.Values{"message": {"  Can you come Tuesday?  "}}))
		if res.StatusCode != 303 || !strings.Contains(res.Header.Get("Location"), "files=sent") {
			t.Fatalf("message: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
		// The photo through the homeowner's link: inline, as its sniffed type.
		v, err := r.h.View(context.Background(), "LA", "/my/"+tok, true, "sent")
		if err != nil || len(v.Yours) != 1 || v.Send == nil || v.Send.Left != db.MaxHomeownerPhotos-1 || v.Notice != "sent" {
			t.Fatalf("view: %+v %v", v, err)
		}
		res = r.get(v.Yours[0].Href)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/jpeg" || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "inline") ||
			res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("photo: %d %v", res.StatusCode, res.Header)
		}
		// The lead file is no media row: /media/ never serves it.
		if mt, _ := store.MediaTypeByPath(context.Background(), fs[0].Path); mt != "" {
			t.Errorf("a lead file is listed as media: %q", mt)
		}
		// A notice from the address is shown only when it is one of ours.
		if v, _ := r.h.View(context.Background(), "LA", "/my/"+tok, true, "<script>"); v.Notice != "" {
			t.Errorf("notice echoed: %q", v.Notice)
		}
	})
}

// form is a urlencoded post, as the page's form sends it.
func form(path string, v url.Values) *http.Request {
	req := httptest.NewRequest("POST", path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = "192.0.2.10:4000"
	return req
}

// Hostile uploads are refused and leave nothing behind: a web page named
// .jpg, an SVG, a PDF where photos go, a photo over the bound, more
// photos than a post takes, more than the job takes, a message too long.
func TestHostileHomeownerUploads(t *testing.T) {
	t.Parallel()
	store := db.NewTestSQLite(t)
	r := newRoom(t, store)
	tok := r.lead(t, "LH", db.LinkHomeowner)
	jpg := exiftest.JPEG(16, 16, exiftest.EXIF{NoGPS: true})
	six := []part{}
	for range PerPost + 1 {
		six = append(six, part{"photos", "p.jpg", jpg})
	}
	big := append(bytes.Clone(jpg[:len(jpg)-2]), make([]byte, 300<<10)...)
	for _, c := range []struct {
		name  string
		parts []part
		want  string
	}{
		{"html named jpg", []part{{"photos", "photo.jpg", []byte("<!DOCTYPE html><html><script>alert(1)</script></html>")}}, "type"},
		{"svg", []part{{"photos", "photo.svg", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`)}}, "type"},
		{"pdf", []part{{"photos", "scan.pdf", []byte("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n%%EOF")}}, "type"},
		{"video", []part{{"photos", "clip.jpg", append([]byte{0, 0, 0, 0x18, 'f', 't', 'y', 'p', 'i', 's', 'o', 'm'}, make([]byte, 600)...)}}, "type"},
		{"too big", []part{{"photos", "big.jpg", big}}, "size"},
		{"too many", six, "count"},
		{"good then bad", []part{{"photos", "a.jpg", jpg}, {"photos", "b.jpg", []byte("MZ\x90\x00 not a photo")}}, "type"},
		{"nothing", []part{{"message", "", []byte("   ")}}, "empty"},
		{"message too long", []part{{"message", "", []byte(strings.Repeat("a", MaxMessage+1))}}, "toolong"},
	} {
		res := r.post(t, "/my/"+tok+"/photos", "", c.parts...)
		if loc := res.Header.Get("Location"); res.StatusCode != 303 || loc != "/my/"+tok+"?files="+c.want+"#files" {
			t.Errorf("%s: %d %s; want files=%s", c.name, res.StatusCode, loc, c.want)
		}
	}
	if s := r.stored(t); len(s) != 0 {
		t.Errorf("refused uploads left files: %v", s)
	}
	if fs, _ := store.LeadFiles(context.Background(), "LH"); len(fs) != 0 {
		t.Errorf("refused uploads left rows: %+v", fs)
	}
	// The job's bound: photos past it are refused and removed from storage.
	var many []db.LeadFile
	for i := range db.MaxHomeownerPhotos - 1 {
		many = append(many, db.LeadFile{Path: fmt.Sprintf("projects/lead-files.private/f%d.jpg", i), MIME: "image/jpeg", Name: "Photo"})
	}
	if _, err := store.AddHomeownerPost(context.Background(), "LH", db.HomeownerSent{Photos: many}, time.Now()); err != nil {
		t.Fatal(err)
	}
	res := r.post(t, "/my/"+tok+"/photos", "", part{"photos", "a.jpg", jpg}, part{"photos", "b.jpg", jpg})
	if loc := res.Header.Get("Location"); !strings.Contains(loc, "files=full") {
		t.Errorf("past the job's bound: %d %s", res.StatusCode, loc)
	}
	if s := r.stored(t); len(s) != 0 {
		t.Errorf("a refused post left files: %v", s)
	}
	// A body larger than any post is refused before it is read.
	req := httptest.NewRequest("POST", "/my/"+tok+"/photos", strings.NewReader("x"))
	req.ContentLength = r.h.maxPostBytes() + 1
	req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	if res := r.Serve(req); !strings.Contains(res.Header.Get("Location"), "files=size") {
		t.Errorf("huge body: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
}

// A link opens its own lead's files only: another lead's file id, an
// adjuster's token on the homeowner's routes, a homeowner's on the
// adjuster's, a malformed or revoked token are all the 404 screen. The
// adjuster's page sends nothing: it has no form and no post route.
func TestNoCrossLeadAccess(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		r := newRoom(t, store)
		a := r.lead(t, "LX", db.LinkHomeowner)
		adj := r.lead(t, "LX", db.LinkAdjuster)
		b := r.lead(t, "LY", db.LinkHomeowner)
		f, err := store.AddLeadDocument(context.Background(), db.LeadFile{LeadID: "LX", Kind: db.FileEstimate, Path: Folder + "e.pdf", MIME: PDFMIME, Name: "Estimate"}, db.Actor{Name: "Owner"}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(r.dir, Folder), 0o755)
		os.WriteFile(filepath.Join(r.dir, Folder, "e.pdf"), []byte("%PDF-1.4\n%%EOF"), 0o644)
		for path, want := range map[string]int{
			"/my/" + a + "/files/" + f.ID:      200,
			"/claim/" + adj + "/files/" + f.ID: 200,
			"/my/" + b + "/files/" + f.ID:      404, // another lead's link
			"/my/" + adj + "/files/" + f.ID:    404, // the adjuster's token on the homeowner's route
			"/claim/" + a + "/files/" + f.ID:   404, // the homeowner's on the adjuster's
			"/my/short/files/" + f.ID:          404,
			"/my/" + a + "/files/nope":         404,
		} {
			if res := r.get(path); res.StatusCode != want {
				t.Errorf("%s: %d; want %d", path, res.StatusCode, want)
			}
		}
		// The adjuster sends nothing: no form, no route, and the
		// homeowner's routes refuse its token.
		v, _ := r.h.View(context.Background(), "LX", "/claim/"+adj, false, "sent")
		if v.Send != nil || len(v.Documents) != 1 || !strings.HasPrefix(v.Documents[0].Href, "/claim/"+adj+"/files/") {
			t.Errorf("adjuster's view: %+v", v)
		}
		if res := r.Serve(form("/claim/"+adj+"/messages", url.Values{"message": {"hi"}})); res.StatusCode != 404 && res.StatusCode != 405 {
			t.Errorf("adjuster's post: %d", res.StatusCode)
		}
		if res := r.Serve(form("/my/"+adj+"/messages", url.Values{"message": {"hi"}})); res.StatusCode != 404 {
			t.Errorf("adjuster's token on the homeowner's post: %d", res.StatusCode)
		}
		if res := r.post(t, "/my/"+adj+"/photos", "", part{"message", "", []byte("hi")}); res.StatusCode != 404 {
			t.Errorf("adjuster's token posting photos: %d", res.StatusCode)
		}
		// Revoked: dead everywhere.
		now := time.Now()
		r.links.mu.Lock()
		k := r.links.m[hashToken(a)]
		k.RevokedAt = &now
		r.links.m[hashToken(a)] = k
		r.links.mu.Unlock()
		if res := r.get("/my/" + a + "/files/" + f.ID); res.StatusCode != 404 {
			t.Errorf("revoked: %d", res.StatusCode)
		}
		if tl, _ := store.LeadTimeline(context.Background(), "LX"); tl[len(tl)-1].Kind == db.EventHomeowner {
			t.Error("a refused post reached the timeline")
		}
	})
}

// A PDF carrying JavaScript is stored as sent but only ever downloaded:
// attachment, nosniff, a sandbox with nothing allowed.
func TestPDFWithScriptIsOnlyDownloaded(t *testing.T) {
	t.Parallel()
	store := db.NewTestSQLite(t)
	r := newRoom(t, store)
	tok := r.lead(t, "LP", db.LinkHomeowner)
	r.Account(t, store, "admin", db.User{ID: "u-admin", Email: "owner@example.com", Name: "Owner", Roles: []string{"admin"}})
	pdf := []byte("%PDF-1.4\n1 0 obj<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n%%EOF")
	res := r.post(t, "/api/admin/leads/LP/files", "admin", part{"kind", "", []byte("estimate")}, part{"file", `C:\\scans\\Estimate <final>` + "\u202e.html", pdf})
	var it LeadFileItem
	if res.StatusCode != 201 || json.Unmarshal([]byte(res.Body), &it) != nil || it.Kind != "estimate" || it.Photo || it.Name != "Estimate <final>" {
		t.Fatalf("upload: %d %s", res.StatusCode, res.Body)
	}
	res = r.get("/my/" + tok + "/files/" + it.ID)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != PDFMIME || res.Header.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment;") || !strings.Contains(res.Header.Get("Content-Security-Policy"), "sandbox") ||
		res.Body != string(pdf) {
		t.Errorf("download: %d %v", res.StatusCode, res.Header)
	}
	if cd := res.Header.Get("Content-Disposition"); !strings.HasSuffix(cd, `.pdf"`) && !strings.HasSuffix(cd, ".pdf") {
		t.Errorf("saved as %s", cd)
	}
	tl, _ := store.LeadTimeline(context.Background(), "LP")
	if e := tl[len(tl)-1]; e.Kind != db.EventDocument || e.To != "estimate" || e.Actor != "Owner" {
		t.Errorf("timeline: %+v", e)
	}
}

// The owner's side: admins on every lead; staff on the leads assigned
// to them; an editor and the PIN never. Unknown kinds, hostile files and
// another lead's job photo are refused.
func TestOwnerFilesByRole(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		r := newRoom(t, store)
		r.lead(t, "LO", db.LinkHomeowner)
		r.lead(t, "LQ", db.LinkHomeowner)
		ctx := context.Background()
		r.Account(t, store, "admin", db.User{ID: "u-admin", Email: "owner@example.com", Name: "Owner", Roles: []string{"admin"}})
		crew := r.Account(t, store, "staff", db.User{ID: "u-staff", Email: "crew@example.com", Name: "Crew", Roles: []string{"staff"}})
		r.Account(t, store, "editor", db.User{ID: "u-editor", Email: "ed@example.com", Name: "Ed", Roles: []string{"editor"}})
		for tok, want := range map[string]int{"admin": 200, "staff": 403, "editor": 403, authtest.PIN: 403} {
			if res := r.Call(t, "GET", "/api/admin/leads/LO/files", tok, nil); res.StatusCode != want {
				t.Errorf("%s: %d; want %d", tok, res.StatusCode, want)
			}
		}
		if _, err := store.AssignLead(ctx, "LO", crew.ID, db.Actor{Name: "Owner"}, time.Now()); err != nil {
			t.Fatal(err)
		}
		if res := r.Call(t, "GET", "/api/admin/leads/LO/files", "staff", nil); res.StatusCode != 200 {
			t.Errorf("assigned staff: %d %s", res.StatusCode, res.Body)
		}
		if res := r.Call(t, "GET", "/api/admin/leads/nope/files", "admin", nil); res.StatusCode != 404 {
			t.Errorf("no lead: %d", res.StatusCode)
		}
		jpg := exiftest.JPEG(16, 16, exiftest.EXIF{NoGPS: true})
		for _, c := range []struct {
			kind string
			file []byte
			want int
		}{
			{"invoice", jpg, 400},
			{"homeowner_photo", jpg, 400},
			{"estimate", []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"), 415},
			{"estimate", []byte("<html><body>x</body></html>"), 415},
			{"estimate", append([]byte("%PDF-1.4\n"), make([]byte, 513<<10)...), 413},
			{"moisture_log", pngOf(t, 20, 10), 201},
		} {
			if res := r.post(t, "/api/admin/leads/LO/files", "staff", part{"kind", "", []byte(c.kind)}, part{"file", "f.pdf", c.file}); res.StatusCode != c.want {
				t.Errorf("%s: %d %s; want %d", c.kind, res.StatusCode, res.Body, c.want)
			}
		}
		if s := r.stored(t); len(s) != 1 {
			t.Errorf("stored: %v; want the one photo", s)
		}
		// Job photos: this lead's job may be shared, another lead's not.
		mine := jobPhoto(t, store, "LO", "mine")
		theirs := jobPhoto(t, store, "LQ", "theirs")
		if res := r.Call(t, "PUT", "/api/admin/leads/LO/files/shared/"+theirs, "admin", nil); res.StatusCode != 400 {
			t.Errorf("another lead's photo: %d", res.StatusCode)
		}
		if res := r.Call(t, "PUT", "/api/admin/leads/LO/files/shared/"+mine, "admin", nil); res.StatusCode != 200 {
			t.Errorf("share: %d %s", res.StatusCode, res.Body)
		}
		// The shared photo on the homeowner's page, through the link only.
		tok := r.lead(t, "LO", db.LinkHomeowner)
		os.MkdirAll(filepath.Join(r.dir, "projects/library"), 0o755)
		os.WriteFile(filepath.Join(r.dir, "projects/library/mine.jpg"), exiftest.JPEG(8, 8, exiftest.EXIF{NoGPS: true}), 0o644)
		v, err := r.h.View(ctx, "LO", "/my/"+tok, true, "")
		if err != nil || len(v.Photos) != 1 || !v.Photos[0].Photo {
			t.Fatalf("crew photos on the page: %+v %v", v.Photos, err)
		}
		if res := r.get(v.Photos[0].Href); res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/jpeg" {
			t.Errorf("shared photo: %d %v", res.StatusCode, res.Header)
		}
		if res := r.get(strings.Replace(v.Photos[0].Href, "/my/"+tok, "/my/"+r.lead(t, "LQ", db.LinkHomeowner), 1)); res.StatusCode != 404 {
			t.Errorf("shared photo through another lead's link: %d", res.StatusCode)
		}
		var list LeadFiles
		res := r.Call(t, "GET", "/api/admin/leads/LO/files", "admin", nil)
		if json.Unmarshal([]byte(res.Body), &list) != nil || len(list.Files) != 2 || len(list.JobPhotos) != 1 || !list.JobPhotos[0].Shared || len(list.Kinds) != 4 {
			t.Fatalf("list: %s", res.Body)
		}
		// Removing the photo document deletes its file; unsharing keeps the job photo.
		for _, f := range list.Files {
			if res := r.Call(t, "DELETE", "/api/admin/leads/LQ/files/"+f.ID, "admin", nil); res.StatusCode != 404 {
				t.Errorf("removed through another lead: %d", res.StatusCode)
			}
			if res := r.Call(t, "DELETE", "/api/admin/leads/LO/files/"+f.ID, "admin", nil); res.StatusCode != 200 {
				t.Errorf("remove: %d", res.StatusCode)
			}
		}
		if s := r.stored(t); len(s) != 1 || s[0] != "projects/library/mine.jpg" {
			t.Errorf("in storage: %v; want the job photo only", s)
		}
		if m, err := store.GetMedia(ctx, mine); err != nil || m.JobID == nil {
			t.Errorf("the job photo left its job: %v", err)
		}
	})
}

// jobPhoto stores a job of leadID with one photo and returns its id.
func jobPhoto(t *testing.T, store *db.Store, leadID, name string) string {
	t.Helper()
	ctx := context.Background()
	j, err := store.CreateJob(ctx, db.JobFields{Title: "Job " + name, LeadID: leadID})
	if err != nil {
		t.Fatal(err)
	}
	m := db.Media{ID: "m-" + name, Path: "projects/library/" + name + ".jpg", Name: name + ".jpg", Kind: "image", MIME: "image/jpeg", Variants: "[]", CreatedAt: time.Now().UTC()}
	if err := store.CreateMedia(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := store.AttachMedia(ctx, j.ID, m.ID, ""); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

// The homeowner's posts are limited per client.
func TestPostsAreLimited(t *testing.T) {
	t.Parallel()
	store := db.NewTestSQLite(t)
	r := newRoom(t, store)
	r.h.Posts = guard.NewLimiter(2, time.Minute)
	tok := r.lead(t, "LL", db.LinkHomeowner)
	var last int
	for range 3 {
		last = r.Serve(form("/my/"+tok+"/messages", url.Values{"message": {"hello"}})).StatusCode
	}
	if last != 429 {
		t.Errorf("third post: %d; want 429", last)
	}
}

// An erased lead's own files leave storage (web/leads calls StoredFiles
// before the rows go and DeleteStored after); a shared job photo stays.
func TestErasedLeadFilesLeaveStorage(t *testing.T) {
	t.Parallel()
	store := db.NewTestSQLite(t)
	r := newRoom(t, store)
	tok := r.lead(t, "LE", db.LinkHomeowner)
	jpg := exiftest.JPEG(16, 16, exiftest.EXIF{NoGPS: true})
	if res := r.post(t, "/my/"+tok+"/photos", "", part{"photos", "a.jpg", jpg}); !strings.Contains(res.Header.Get("Location"), "files=sent") {
		t.Fatalf("post: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	ctx := context.Background()
	shared := jobPhoto(t, store, "LE", "kept")
	if _, err := store.ShareCrewPhoto(ctx, "LE", shared, db.Actor{Name: "Owner"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	keys, err := r.h.StoredFiles(ctx, "LE")
	if err != nil || len(keys) != 1 || len(r.stored(t)) != 1 {
		t.Fatalf("keys %v %v, stored %v", keys, err, r.stored(t))
	}
	if err := store.DeleteLead(ctx, "LE", db.AuditEntry{At: time.Now(), Actor: "owner@example.com"}); err != nil {
		t.Fatal(err)
	}
	r.h.DeleteStored(ctx, keys)
	if s := r.stored(t); len(s) != 0 {
		t.Errorf("left in storage: %v", s)
	}
	if m, err := store.GetMedia(ctx, shared); err != nil || m.ID != shared {
		t.Errorf("the job photo went with the lead: %v", err)
	}
}
