package media

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// bombPNG is a 16-bit RGBA PNG of one flat colour: ~300 KB on disk, w*h*8
// bytes decoded. It is streamed, never held as pixels.
func bombPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&out, binary.BigEndian, uint32(len(data)))
		c := append([]byte(typ), data...)
		out.Write(c)
		binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(c))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	chunk("IHDR", append(ihdr, 16, 6, 0, 0, 0))
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	row := make([]byte, 1+w*8)
	for y := 0; y < h; y++ {
		zw.Write(row)
	}
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// TestUploadPNGBombRejected: a 16-bit PNG within the 40 megapixel cap
// that decodes to 320 MB is refused with 413 from its header, without
// being decoded; an ordinary photo still goes through.
func TestUploadPNGBombRejected(t *testing.T) {
	// Not parallel: it measures the process's allocations.
	mr := newRoom(t)
	store := mr.store
	bomb := bombPNG(t, 8000, 5000)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := mr.upload(t, "Bomb", "flat.png", bomb)
	runtime.ReadMemStats(&after)
	if r.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(r.Body, "too large to process (8000×5000 pixels)") || !strings.Contains(r.Body, "megapixels are accepted") {
		t.Fatalf("bomb (%d KB): %d %s", len(bomb)>>10, r.StatusCode, r.Body)
	}
	grew := after.TotalAlloc - before.TotalAlloc
	t.Logf("bomb: %d KB file, 320 MB decoded; the request allocated %d MB in all", len(bomb)>>10, grew>>20)
	if grew > 64<<20 {
		t.Errorf("the rejected bomb allocated %d MB: it was decoded", grew>>20)
	}
	if rows, _ := store.ListMedia(context.Background()); len(rows) != 0 {
		t.Errorf("%d rows after the bomb", len(rows))
	}
	if r := mr.upload(t, "Bomb", "ordinary.jpg", testJPEG(t, 1600, 1200)); r.StatusCode != http.StatusCreated {
		t.Errorf("ordinary photo after the bomb: %d %s", r.StatusCode, r.Body)
	}
}

// TestUploadLongProjectName: a 10,000-character project name is a 400
// with a message, not a 500; 100 characters are accepted.
func TestUploadLongProjectName(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	r := mr.upload(t, strings.Repeat("a", 10_000), "a.jpg", testJPEG(t, 20, 20))
	if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "at most 100 characters") {
		t.Errorf("10,000 characters: %d %s", r.StatusCode, r.Body)
	}
	if r := mr.upload(t, "  "+strings.Repeat("é", 101)+"  ", "a.jpg", testJPEG(t, 20, 20)); r.StatusCode != http.StatusBadRequest {
		t.Errorf("101 characters: %d %s", r.StatusCode, r.Body)
	}
	if r := mr.upload(t, "  "+strings.Repeat("Kitchen ", 12)+"Job", "a.jpg", testJPEG(t, 20, 20)); r.StatusCode != http.StatusCreated {
		t.Errorf("99 characters: %d %s", r.StatusCode, r.Body)
	}
}

// A photo is stored, measured and given variants; a video is named by
// its content and served with Range; both are listed and re-render the
// pages that show media. A delete removes the record, the file and its
// variants; a second delete says it no longer exists. (What the public
// pages show of them is server/'s TestUploadsShownOnPublicPages.)
func TestUploadImageAndVideoThenDelete(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	r := mr.upload(t, "Kitchen Fire Repair", "IMG_0042.JPG", testJPEG(t, 1200, 900))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("image upload: %d %s", r.StatusCode, r.Body)
	}
	img := item(t, r)
	if img.Type != "image" || img.ProjectName != "Kitchen Fire Repair" || img.Width != 1200 || img.Height != 900 ||
		!strings.HasPrefix(img.Path, "projects/kitchen-fire-repair/") || !strings.HasSuffix(img.Path, ".jpg") || !strings.Contains(img.Srcset, "480w") {
		t.Errorf("image item %+v", img)
	}
	// Video, named only by its content: ".dat" but an MP4 inside.
	r = mr.upload(t, "Kitchen Fire Repair", "walkthrough.mp4", append(append([]byte{}, mp4Head...), make([]byte, 300_000)...))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("video upload: %d %s", r.StatusCode, r.Body)
	}
	vid := item(t, r)
	if vid.Type != "video" || !strings.HasSuffix(vid.Path, ".mp4") {
		t.Errorf("video item %+v", vid)
	}
	// The video is served with Range support.
	req := httptest.NewRequest("GET", vid.URL, nil)
	req.Header.Set("Range", "bytes=4-11")
	if rr := mr.serve(req); rr.StatusCode != http.StatusPartialContent || rr.Body != "ftypisom" {
		t.Errorf("range: %d %q", rr.StatusCode, rr.Body)
	}
	if n := mr.changed.Load(); n < 2 {
		t.Errorf("the pages were re-rendered %d times after two uploads", n)
	}
	list := mr.get("/api/admin/media")
	if !strings.Contains(list.Body, img.ID) || !strings.Contains(list.Body, vid.ID) {
		t.Errorf("admin list: %s", list.Body)
	}
	// Delete removes the record, the file and its variants.
	before := mr.changed.Load()
	if r := mr.json(t, "DELETE", "/api/admin/media/"+img.ID, nil); r.StatusCode != 200 {
		t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
	}
	if mr.changed.Load() == before {
		t.Error("the pages were not re-rendered after a delete")
	}
	if r := mr.get(img.URL); r.StatusCode != 404 {
		t.Errorf("deleted file still served: %d", r.StatusCode)
	}
	if r := mr.json(t, "DELETE", "/api/admin/media/"+img.ID, nil); r.StatusCode != 404 || !strings.Contains(r.Body, "no longer exists") {
		t.Errorf("second delete: %d %s", r.StatusCode, r.Body)
	}
	rows, _ := mr.store.ListMedia(context.Background())
	if len(rows) != 1 {
		t.Errorf("%d rows after delete", len(rows))
	}
	walk(filepath.Join(mr.dir, "media"), func(p string) {
		if strings.HasPrefix(strings.TrimPrefix(p, mr.dir+"/media/"), strings.TrimSuffix(img.Path, ".jpg")) {
			t.Errorf("file of the deleted photo left: %s", p)
		}
	})
}

// Refused uploads (no project, a script or markup named as a photo, an
// SVG, past MAX_UPLOAD_BYTES, a damaged photo) answer with the reason,
// and leave no row and no file.
func TestUploadRejections(t *testing.T) {
	t.Parallel()
	mr := newRoom(t, func(h *Handler) { h.MaxUpload = 1000000 })
	cases := []struct {
		name, project, file string
		content             []byte
		status              int
		msg                 string
	}{
		{"no project", "   ", "a.jpg", testJPEG(t, 10, 10), 400, "Please enter a project name before uploading."},
		{"spoofed jpg", "Roof", "photo.jpg", []byte("#!/bin/sh\nrm -rf /\n" + strings.Repeat("x", 600)), 415, "photo.jpg: this file is not a photo or video we accept"},
		{"html as png", "Roof", "x.png", []byte("<!doctype html><script>alert(1)</script>"), 415, "not a photo or video"},
		{"svg", "Roof", "logo.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), 415, "SVG"},
		{"oversized video", "Roof", "big.mp4", append(append([]byte{}, mp4Head...), make([]byte, 1_200_000)...), 413, "larger than the 976 KB upload limit"},
		{"oversized photo", "Roof", "big.jpg", append(testJPEG(t, 10, 10), make([]byte, 1_200_000)...), 413, "upload limit"},
		{"damaged photo", "Roof", "broken.jpg", testJPEG(t, 50, 50)[:300], 422, "could not be read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mr.upload(t, c.project, c.file, c.content)
			if r.StatusCode != c.status || !strings.Contains(r.Body, c.msg) {
				t.Errorf("%d %s, want %d %q", r.StatusCode, r.Body, c.status, c.msg)
			}
		})
	}
	rows, _ := mr.store.ListMedia(context.Background())
	if len(rows) != 0 {
		t.Errorf("%d rejected uploads stored", len(rows))
	}
	// Nothing partial was left in storage either.
	filepathCount := 0
	walk(mr.dir, func(string) { filepathCount++ })
	if filepathCount > 1 { // the data folder holds only the media folder and the spool's
		t.Errorf("%d files left in the data folder after rejected uploads", filepathCount)
	}
}

// Project and file names that climb out of the media folder are refused
// or made safe: a file is stored only under media/projects/<project>/;
// serving refuses traversal too.
func TestUploadTraversalNames(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	for _, c := range []struct{ project, file string }{
		{"../../etc", "passwd.jpg"}, {"..", "x.jpg"}, {"a/../../b", "../../../evil.jpg"}, {"ok", "..\\..\\win.ini.jpg"}, {"ok", "/abs/path.jpg"},
	} {
		r := mr.upload(t, c.project, c.file, testJPEG(t, 20, 20))
		if r.StatusCode == http.StatusCreated {
			it := item(t, r)
			if strings.Contains(it.Path, "..") || !strings.HasPrefix(it.Path, "projects/") || strings.Count(it.Path, "/") != 2 {
				t.Errorf("%q/%q stored at %q", c.project, c.file, it.Path)
			}
		} else if r.StatusCode != http.StatusBadRequest {
			t.Errorf("%q/%q: %d %s", c.project, c.file, r.StatusCode, r.Body)
		}
	}
	// Nothing was written outside the media folder.
	walk(mr.dir, func(p string) {
		if !strings.HasPrefix(p, mr.dir+"/media/projects/") {
			t.Errorf("file outside media/projects: %s", p)
		}
	})
	// Serving refuses traversal too (server/'s TestAttackMediaPathsAndRanges
	// tries every path trick through the whole server).
	for _, p := range []string{"/media/../site.db", "/media/projects/../../x", "/media/%2e%2e/x"} {
		if r := mr.get(p); r.StatusCode != 404 && r.StatusCode != 301 {
			t.Errorf("%s: %d", p, r.StatusCode)
		}
	}
}

// A hundred uploads at once: each is stored once with its row, or
// refused cleanly; none is lost half-written, none answers 500, and the
// store and the list agree.
func TestAttackParallelUploads(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	img := testJPEG(t, 64, 48)
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := mr.upload(t, fmt.Sprintf("Parallel %d", i%5), fmt.Sprintf("p%d.jpg", i), img)
			mu.Lock()
			codes[r.StatusCode]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	rows, err := mr.store.ListMedia(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if codes[http.StatusCreated] != len(rows) || codes[http.StatusInternalServerError] > 0 || codes[http.StatusCreated] == 0 {
		t.Errorf("100 parallel uploads: %v, %d rows", codes, len(rows))
	}
	for _, m := range rows {
		if r := mr.get("/media/" + m.Path); r.StatusCode != 200 {
			t.Errorf("%s: %d", m.Path, r.StatusCode)
		}
	}
}
