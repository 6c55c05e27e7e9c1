package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/media"
)

// checkMediaHeaders fails unless a /media/ response carries the stored
// type and the headers that keep a browser from treating it as anything
// else.
func checkMediaHeaders(t *testing.T, r *response, wantType string) {
	t.Helper()
	h := r.Header
	if ct := h.Get("Content-Type"); ct != wantType {
		t.Errorf("Content-Type %q, want %q", ct, wantType)
	}
	if h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("X-Content-Type-Options %q", h.Get("X-Content-Type-Options"))
	}
	csp := h.Get("Content-Security-Policy")
	want := "sandbox; default-src 'none'; img-src 'self'"
	if strings.HasPrefix(wantType, "video/") {
		want = "sandbox; default-src 'none'; media-src 'self'"
	}
	if csp != want {
		t.Errorf("Content-Security-Policy %q, want %q", csp, want)
	}
	if !strings.Contains(h.Get("Cache-Control"), "immutable") {
		t.Errorf("Cache-Control %q", h.Get("Cache-Control"))
	}
}

func testGIF(t *testing.T) []byte {
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

// TestUploadPolyglotsNeverServedAsScript: files that pass for a photo or
// video by their first bytes but carry HTML or script, named .html, .js or
// .svg, are refused or stored under the sniffed type's extension and
// served as that type, sandboxed; never as HTML, JavaScript or SVG from
// the site's own origin.
func TestUploadPolyglotsNeverServedAsScript(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	script := []byte("<html><body><script>alert(document.domain)</script></body></html>")
	gifPolyglot := append(testGIF(t), script...)
	ftypHTML := append(append([]byte{0, 0, 0, 0x18}, "ftypisom\x00\x00\x02\x00isomiso2"...), script...)
	ftypJS := append(append([]byte{0, 0, 0, 0x18}, "ftypmp42\x00\x00\x00\x00mp42isom"...), "alert(document.domain)//"...)
	ftypJS = append(ftypJS, bytes.Repeat([]byte("/* padding */"), 10000)...) // longer than the peeked prefix
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.domain)</script></svg>`)
	cases := []struct {
		file    string
		content []byte
		stored  string // the sniffed type it may be stored and served as; "" if it must be refused
	}{
		{"x.html", gifPolyglot, "image/gif"},
		{"x.js", gifPolyglot, "image/gif"},
		{"x.svg", gifPolyglot, "image/gif"},
		{"x.html", ftypHTML, ""},
		{"x.js", ftypJS, ""},
		{"x.svg", svg, ""},
		{"x.gif", svg, ""},
		{"x.html", append([]byte("GIF89a"), script...), ""}, // a GIF header only: nonsense dimensions, no image
	}
	for _, c := range cases {
		r := upload(t, h, tok, "Polyglot", c.file, c.content)
		if c.stored == "" {
			switch r.StatusCode {
			case http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity, http.StatusRequestEntityTooLarge:
			default:
				t.Errorf("%s (%.12q...): %d %s, want 415, 422 or 413", c.file, c.content, r.StatusCode, r.Body)
			}
			continue
		}
		if r.StatusCode != http.StatusCreated {
			t.Errorf("%s: %d %s", c.file, r.StatusCode, r.Body)
			continue
		}
		var it media.GalleryItem
		json.Unmarshal([]byte(r.Body), &it)
		if filepath.Ext(it.Path) != ".gif" {
			t.Errorf("%s stored as %s: the extension is not the sniffed type's", c.file, it.Path)
		}
		for _, method := range []string{"GET", "HEAD"} {
			got := do(t, h, httptest.NewRequest(method, media.URL(it.Path), nil)) // it.URL is a variant
			if got.StatusCode != http.StatusOK {
				t.Errorf("%s %s: %d", method, it.Path, got.StatusCode)
			}
			checkMediaHeaders(t, got, c.stored)
		}
	}
	// Nothing with a script-capable extension reached the media folder.
	walk(filepath.Join(srv.cfg.DataDir, "media"), func(p string) {
		switch filepath.Ext(p) {
		case ".gif", ".webp":
		default:
			t.Errorf("stored %s", p)
		}
	})
}

// TestMediaServedAsStoredType: the served type is the sniffed one in the
// media table, whatever the client's name said; variants are image/webp;
// video keeps Range support; a file with no row, or whose row's type is
// not a photo or video, is a 404.
func TestMediaServedAsStoredType(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	r := upload(t, h, tok, "Stored Types", "photo.png", testJPEG(t, 1000, 600)) // a JPEG named .png
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	var img media.GalleryItem
	json.Unmarshal([]byte(r.Body), &img)
	if !strings.HasSuffix(img.Path, ".jpg") {
		t.Errorf("JPEG named photo.png stored as %s", img.Path)
	}
	original := media.URL(img.Path) // img.URL is the smallest variant
	checkMediaHeaders(t, get(t, h, original), "image/jpeg")
	var vs []media.StoredVariant
	rows, _ := store.ListMedia(context.Background())
	json.Unmarshal([]byte(rows[0].Variants), &vs)
	if len(vs) == 0 {
		t.Fatal("no variants")
	}
	for _, v := range vs {
		vr := get(t, h, media.URL(v.Path))
		if vr.StatusCode != http.StatusOK || !strings.HasPrefix(vr.Body, "RIFF") {
			t.Errorf("variant %s: %d", v.Path, vr.StatusCode)
		}
		checkMediaHeaders(t, vr, "image/webp")
	}
	// A video named .mov with MP4 content is an .mp4, served with Range.
	r = upload(t, h, tok, "Stored Types", "clip.mov", append(append([]byte{}, mp4Head...), make([]byte, 100_000)...))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("video upload: %d %s", r.StatusCode, r.Body)
	}
	var vid media.GalleryItem
	json.Unmarshal([]byte(r.Body), &vid)
	if !strings.HasSuffix(vid.Path, ".mp4") {
		t.Errorf("MP4 named clip.mov stored as %s", vid.Path)
	}
	req := httptest.NewRequest("GET", vid.URL, nil)
	req.Header.Set("Range", "bytes=4-11")
	vr := do(t, h, req)
	if vr.StatusCode != http.StatusPartialContent || vr.Body != "ftypisom" {
		t.Errorf("range: %d %q", vr.StatusCode, vr.Body)
	}
	checkMediaHeaders(t, vr, "video/mp4")

	// Files in the media folder that no row lists are not served, whatever
	// their name: a variant-looking name included.
	dir := filepath.Join(srv.cfg.DataDir, "media", "projects", "stored-types")
	for _, name := range []string{"evil.html", "evil.js", "1700000000000-abcdefgh.jpg", strings.TrimSuffix(filepath.Base(img.Path), ".jpg") + "-999.webp"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("<script>alert(1)</script>"), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := get(t, h, "/media/projects/stored-types/"+name); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s without a media row: %d %q", name, r.StatusCode, r.Header.Get("Content-Type"))
		}
	}
	// A row whose type is not a photo or video (an old or tampered row)
	// is not served either.
	if _, err := store.SQL().Exec(`UPDATE media SET mime = 'text/html' WHERE id = ?`, img.ID); err != nil {
		t.Fatal(err)
	}
	if r := get(t, h, original); r.StatusCode != http.StatusNotFound {
		t.Errorf("row typed text/html: %d %q", r.StatusCode, r.Header.Get("Content-Type"))
	}
}

// lockedBuffer is a log sink the handler's goroutine and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// cutBody is a multipart upload whose body ends after head and pad bytes
// of the file: with err (the connection failed) or a plain EOF (the
// multipart data is cut short).
func cutBody(filename string, head []byte, pad int, err error) (io.Reader, string) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, _ := mw.CreateFormFile("file", filename)
		part.Write(head)
		part.Write(make([]byte, pad))
		if err != nil {
			pw.CloseWithError(err)
		} else {
			pw.Close()
		}
	}()
	return pr, mw.FormDataContentType()
}

// TestUploadInterrupted: an upload cut off mid-body is a 400 logged at
// info, not a 500 logged as an error, and leaves no partial file, no row
// and no empty project folder, for videos and photos alike; and over a
// real connection the client hanging up is handled the same way.
func TestUploadInterrupted(t *testing.T) {
	srv, store := adminServer(t, map[string]string{"ACCESS_LOG": "true"})
	logged := &lockedBuffer{}
	srv.log = NewLogger(logged, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	cases := []struct {
		name, project, file string
		head                []byte
		err                 error
	}{
		{"video, connection reset", "Cut Video", "walk.mp4", mp4Head, io.ErrUnexpectedEOF},
		{"video, multipart cut short", "Cut Video Two", "walk.mp4", mp4Head, nil},
		{"photo, connection reset", "Cut Photo", "p.jpg", testJPEG(t, 800, 600)[:2000], io.ErrUnexpectedEOF},
	}
	for _, c := range cases {
		body, ct := cutBody(c.file, c.head, 300_000, c.err)
		req := httptest.NewRequest("POST", "/api/admin/media?project="+urlQuery(c.project), body)
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer "+tok)
		r := do(t, h, req)
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "interrupted") {
			t.Errorf("%s: %d %s", c.name, r.StatusCode, r.Body)
		}
	}

	// A real connection: the client declares 1 MB, sends part of it and
	// hangs up.
	ts := httptest.NewServer(h)
	defer ts.Close()
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	part, _ := mw.CreateFormFile("file", "walk.mp4")
	part.Write(mp4Head)
	part.Write(make([]byte, 200_000))
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST /api/admin/media?project=Hung+Up HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
		tok, mw.FormDataContentType(), 1<<20)
	conn.Write(mp.Bytes())
	time.Sleep(100 * time.Millisecond)
	conn.Close()
	uploadLines := func() (lines []string) {
		for _, l := range strings.Split(logged.String(), "\n") {
			if strings.Contains(l, "/api/admin/media") && strings.Contains(l, "method=POST") {
				lines = append(lines, l)
			}
		}
		return lines
	}
	for deadline := time.Now().Add(10 * time.Second); len(uploadLines()) < 4 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}

	out, lines := logged.String(), uploadLines()
	if len(lines) != 4 {
		t.Errorf("%d upload log lines, want 4:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if !strings.Contains(l, "level=INFO") || !strings.Contains(l, "status=400") {
			t.Errorf("interrupted upload logged as %s", l)
		}
	}
	if strings.Contains(out, "level=ERROR") {
		t.Errorf("an interrupted upload logged an error:\n%s", out)
	}
	if rows, _ := store.ListMedia(context.Background()); len(rows) != 0 {
		t.Errorf("%d rows after interrupted uploads", len(rows))
	}
	// No partial file, no empty project folder, no spooled temp file.
	walk(srv.cfg.DataDir, func(p string) { t.Errorf("file left behind: %s", p) })
	entries, _ := os.ReadDir(filepath.Join(srv.cfg.DataDir, "media", "projects"))
	for _, e := range entries {
		t.Errorf("project folder left behind: %s", e.Name())
	}
}

// endlessBody is a request body of max bytes that counts what the server
// read of it.
type endlessBody struct{ read, max int64 }

func (b *endlessBody) Read(p []byte) (int, error) {
	left := b.max - atomic.LoadInt64(&b.read)
	if left <= 0 {
		return 0, io.EOF
	}
	n := int64(len(p))
	if n > left {
		n = left
	}
	for i := range p[:n] {
		p[i] = 'a'
	}
	atomic.AddInt64(&b.read, n)
	return int(n), nil
}

// A stranger's body to an upload path is not read before the session is
// checked: the body limit does not apply to uploads (they stream), so a
// middleware that read such a body whole would hold gigabytes in memory
// for anyone who asked. Every content type, both upload routes; and a
// session's non-multipart body is refused without being read either.
func TestAttackUploadPathBodyIsNotReadBeforeTheSession(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	const size = 64 << 20
	pin := unlock(t, h)
	for _, who := range []string{"", pin} {
		for _, c := range []struct{ method, path, ct string }{
			{"PUT", "/api/admin/media/x/poster", "application/json"},
			{"PUT", "/api/admin/media/anything/poster", "application/x-www-form-urlencoded"},
			{"PUT", "/api/admin/media/x/poster", "text/plain"},
			{"POST", "/api/admin/media", "application/json"},
			{"POST", "/api/admin/media", "application/octet-stream"},
			{"POST", "/api/admin/media", ""},
			{"POST", "/api/admin/media?project=x", "application/xml"},
		} {
			body := &endlessBody{max: size}
			req := httptest.NewRequest(c.method, c.path, body)
			if c.ct != "" {
				req.Header.Set("Content-Type", c.ct)
			}
			if who != "" {
				req.Header.Set("Authorization", "Bearer "+who)
			}
			r := do(t, h, req)
			if r.StatusCode < 400 {
				t.Errorf("%s %s (%s, session %v): %d", c.method, c.path, c.ct, who != "", r.StatusCode)
			}
			if who == "" && r.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s (%s) without a session: %d, want 401", c.method, c.path, c.ct, r.StatusCode)
			}
			if n := atomic.LoadInt64(&body.read); n > srv.bodyLimit+64<<10 {
				t.Errorf("%s %s (%s, session %v): the server read %d MB of the body before answering %d", c.method, c.path, c.ct, who != "", n>>20, r.StatusCode)
			}
		}
	}
}

// A hundred uploads at once from one session: each is stored once with
// its row, or refused cleanly; none is lost half-written, none answers
// 500, and the store and the list agree.
func TestAttackParallelUploads(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	pin := unlock(t, h)
	img := testJPEG(t, 64, 48)
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := upload(t, h, pin, fmt.Sprintf("Parallel %d", i%5), fmt.Sprintf("p%d.jpg", i), img)
			mu.Lock()
			codes[r.StatusCode]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	rows, err := store.ListMedia(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if codes[http.StatusCreated] != len(rows) || codes[http.StatusInternalServerError] > 0 || codes[http.StatusCreated] == 0 {
		t.Errorf("100 parallel uploads: %v, %d rows", codes, len(rows))
	}
	for _, m := range rows {
		if r := get(t, h, "/media/"+m.Path); r.StatusCode != 200 {
			t.Errorf("%s: %d", m.Path, r.StatusCode)
		}
	}
}
