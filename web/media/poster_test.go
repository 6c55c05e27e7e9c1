package media

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/storage"
)

var mp4Head = append([]byte{0, 0, 0, 0x18}, []byte("ftypisom\x00\x00\x02\x00isomiso2\x00\x00\x00\x00mdat")...)

func testPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 13)
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

func testGIF(t testing.TB) []byte {
	t.Helper()
	m := image.NewPaletted(image.Rect(0, 0, 40, 30), color.Palette{color.Black, color.White})
	for i := range m.Pix {
		m.Pix[i] = uint8(i % 2)
	}
	var b bytes.Buffer
	if err := gif.Encode(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// item decodes an answer's gallery item.
func item(t testing.TB, r *response) media.GalleryItem {
	t.Helper()
	var it media.GalleryItem
	if err := json.Unmarshal([]byte(r.Body), &it); err != nil {
		t.Fatalf("%d %s: %v", r.StatusCode, r.Body, err)
	}
	return it
}

func (r *room) uploadVideo(t testing.TB, project string) media.GalleryItem {
	t.Helper()
	res := r.upload(t, project, "walkthrough.mp4", append(append([]byte{}, mp4Head...), make([]byte, 100_000)...))
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("video upload: %d %s", res.StatusCode, res.Body)
	}
	return item(t, res)
}

func (r *room) putPoster(id, filename string, content []byte) *response {
	return r.form("PUT", "/api/admin/media/"+id+"/poster", nil, filename, content)
}

// walk calls f with every file under dir.
func walk(dir string, f func(string)) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		p := dir + "/" + e.Name()
		if e.IsDir() {
			walk(p, f)
		} else {
			f(p)
		}
	}
}

// TestPosterStoredBesideVideo: a poster sent as a JPEG is stored as a
// WebP beside the video, at most 960 wide, served as an image, and the
// pages are re-rendered. Replacing it (a PNG the owner picked) gives a
// new URL and removes the old file; deleting the video removes the
// poster. (How /portfolio shows it, and the headers /media/* answers
// with, are tested in server/.)
func TestPosterStoredBesideVideo(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	vid := mr.uploadVideo(t, "Kitchen Fire Repair")

	before := mr.changed.Load()
	r := mr.putPoster(vid.ID, "frame.jpg", testJPEG(t, 1280, 720))
	if r.StatusCode != http.StatusOK {
		t.Fatalf("poster: %d %s", r.StatusCode, r.Body)
	}
	it := item(t, r)
	dir := strings.TrimSuffix(vid.Path, filepath.Ext(vid.Path))
	if !strings.HasPrefix(it.Poster, "/media/"+dir+"-poster-") || !strings.HasSuffix(it.Poster, ".webp") || it.Width != 960 || it.Height != 540 {
		t.Errorf("item after poster: %+v", it)
	}
	if mr.changed.Load() == before {
		t.Error("the pages were not re-rendered after the poster was saved")
	}
	if pr := mr.get(it.Poster); pr.StatusCode != http.StatusOK || !strings.HasPrefix(pr.Body, "RIFF") {
		t.Fatalf("poster not served: %d", pr.StatusCode)
	}

	oldKey := strings.TrimPrefix(it.Poster, "/media/")
	r = mr.putPoster(vid.ID, "cover.png", testPNG(t, 400, 300))
	it2 := item(t, r)
	if r.StatusCode != http.StatusOK || it2.Poster == it.Poster || it2.Width != 400 || it2.Height != 300 {
		t.Fatalf("replace poster: %d %s", r.StatusCode, r.Body)
	}
	if r := mr.get(it.Poster); r.StatusCode != http.StatusNotFound {
		t.Errorf("replaced poster still served: %d", r.StatusCode)
	}
	if _, err := os.Stat(filepath.Join(mr.dir, "media", oldKey)); !os.IsNotExist(err) {
		t.Errorf("replaced poster file left behind: %v", err)
	}
	if r := mr.get(it2.Poster); r.StatusCode != http.StatusOK {
		t.Errorf("new poster: %d", r.StatusCode)
	}

	if r := mr.json(t, "DELETE", "/api/admin/media/"+vid.ID, nil); r.StatusCode != http.StatusOK {
		t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
	}
	if r := mr.get(it2.Poster); r.StatusCode != http.StatusNotFound {
		t.Errorf("deleted video's poster still served: %d", r.StatusCode)
	}
	walk(filepath.Join(mr.dir, "media"), func(p string) {
		if strings.Contains(p, "-poster-") {
			t.Errorf("poster file left after the video was deleted: %s", p)
		}
	})
}

// streamedForm is a multipart body of one file of size bytes starting
// with head, written as it is read (never held).
func streamedForm(filename string, head []byte, size int64) (io.Reader, string) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, err := mw.CreateFormFile("file", filename)
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		part.Write(head)
		buf := make([]byte, 1<<20)
		for left := size - int64(len(head)); left > 0; {
			n := min(int64(len(buf)), left)
			if _, err := part.Write(buf[:n]); err != nil {
				pw.CloseWithError(err)
				return
			}
			left -= n
		}
		mw.Close()
		pw.Close()
	}()
	return pr, mw.FormDataContentType()
}

// TestPosterRefusals tries the poster endpoint as an attacker would:
// markup and script dressed as a JPEG, a GIF, a video, an oversized
// body, a pixel bomb, a photo's id, ids that are not ids. Nothing refused
// is stored, and the video keeps no poster. (The refusals of callers
// without a live session, for the poster and the text, are in the
// every-route walk: server/routes_test.go.)
func TestPosterRefusals(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	vid := mr.uploadVideo(t, "Roof Leak")
	photo := item(t, mr.upload(t, "Roof Leak", "a.jpg", testJPEG(t, 40, 30)))

	html := []byte("<!doctype html><html><body><script>alert(document.domain)</script></body></html>")
	cases := []struct {
		name, file string
		content    []byte
		status     int
		msg        string
	}{
		{"html as jpg", "frame.jpg", html, 415, "this file is text/html"},
		{"svg as jpg", "frame.jpg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>`), 415, "image/svg+xml"},
		{"php as jpg", "frame.jpg", []byte("<?php system($_GET['c']); ?>"), 415, "JPEG, PNG or WebP"},
		{"gif", "frame.gif", testGIF(t), 415, "this file is image/gif"},
		{"video", "frame.mp4", append(append([]byte{}, mp4Head...), make([]byte, 1000)...), 415, "this file is video/mp4"},
		{"jpeg header then html", "frame.jpg", append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, html...), 422, "could not be read"},
		{"pixel bomb", "frame.png", bombPNG(t, 8000, 5000), 413, "too large to process (8000×5000 pixels)"},
		{"empty", "frame.jpg", nil, 415, "JPEG, PNG or WebP"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mr.putPoster(vid.ID, c.file, c.content)
			if r.StatusCode != c.status || !strings.Contains(r.Body, c.msg) {
				t.Errorf("%d %s, want %d %q", r.StatusCode, r.Body, c.status, c.msg)
			}
		})
	}
	// Oversized: past media.MaxPosterBytes, streamed (never held).
	body, ct := streamedForm("frame.jpg", testJPEG(t, 64, 36), media.MaxPosterBytes+1<<20)
	req := httptest.NewRequest("PUT", "/api/admin/media/"+vid.ID+"/poster", body)
	req.Header.Set("Content-Type", ct)
	if r := mr.serve(req); r.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(r.Body, "larger than the 20 MB limit for posters") {
		t.Errorf("oversized poster: %d %s", r.StatusCode, r.Body)
	}

	// Not a video, or no such item: 404 before the body is read.
	for _, id := range []string{photo.ID, "00000000-0000-0000-0000-000000000000", "..", "..%2F..%2Fsite.db", "%2e%2e", "projects%2Froof-leak%2F" + filepath.Base(vid.Path), "'%20OR%201=1--"} {
		if r := mr.putPoster(id, "f.jpg", testJPEG(t, 64, 36)); r.StatusCode != http.StatusNotFound {
			t.Errorf("poster for %q: %d %s", id, r.StatusCode, r.Body)
		}
	}

	m, _ := mr.store.GetMedia(t.Context(), vid.ID)
	if m.Poster != "" {
		t.Errorf("a refused poster was recorded: %q", m.Poster)
	}
	// Nothing but the two uploads (the photo's original and variants)
	// reached storage, and no spooled file was left.
	walk(mr.dir, func(p string) {
		if strings.Contains(p, "-poster-") || !strings.HasPrefix(p, mr.dir+"/media/projects/roof-leak/") {
			t.Errorf("file left by a refused poster: %s", p)
		}
	})
}

// TestVideoPosterOnS3: with the media in an S3 bucket (gofakes3 in
// process), a poster is stored beside its video in the bucket, served
// from it, and removed from it when replaced and when the video is
// deleted.
func TestVideoPosterOnS3(t *testing.T) {
	t.Parallel()
	backend := s3mem.New()
	fake := httptest.NewServer(gofakes3.New(backend).Server())
	defer fake.Close()
	bucket := storage.NewS3(storage.S3Options{Endpoint: fake.URL, Region: "us-east-1", Bucket: "project-photos", AccessKey: "k", SecretKey: "s"})
	if err := bucket.EnsureBucket(t.Context()); err != nil {
		t.Fatal(err)
	}
	mr := newRoom(t, func(h *Handler) { h.Files = bucket })
	vid := mr.uploadVideo(t, "Bucket Job")
	keys := func() []string {
		objs, err := backend.ListBucket("project-photos", nil, gofakes3.ListBucketPage{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range objs.Contents {
			out = append(out, o.Key)
		}
		return out
	}
	var posters []string
	for _, f := range []struct {
		name string
		data []byte
	}{{"frame.jpg", testJPEG(t, 1280, 720)}, {"cover.png", testPNG(t, 300, 200)}} {
		r := mr.putPoster(vid.ID, f.name, f.data)
		it := item(t, r)
		if r.StatusCode != http.StatusOK || it.Poster == "" {
			t.Fatalf("poster %s: %d %s", f.name, r.StatusCode, r.Body)
		}
		if pr := mr.get(it.Poster); pr.StatusCode != http.StatusOK || !strings.HasPrefix(pr.Body, "RIFF") {
			t.Errorf("poster %s not served from the bucket: %d", f.name, pr.StatusCode)
		}
		posters = append(posters, strings.TrimPrefix(it.Poster, "/media/"))
	}
	if diff := cmp.Diff([]string{vid.Path, posters[1]}, keys(), cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("bucket after a replaced poster (-want, +got):\n%s", diff)
	}
	if r := mr.json(t, "DELETE", "/api/admin/media/"+vid.ID, nil); r.StatusCode != http.StatusOK {
		t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
	}
	if left := keys(); len(left) != 0 {
		t.Errorf("bucket after the video was deleted: %v", left)
	}
}
