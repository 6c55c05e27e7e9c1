package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/web/auth"
)

const testPIN = "482915"

func adminServer(t *testing.T, env map[string]string) (*Server, *db.Store) {
	t.Helper()
	e := map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir()}
	for k, v := range env {
		e[k] = v
	}
	return newTestServer(t, e)
}

func jsonReq(t *testing.T, h http.Handler, method, path, token string, body any) *response {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, path, r)
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "192.0.2.10:4000"
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, h, req)
}

func unlock(t *testing.T, h http.Handler) string {
	t.Helper()
	r := jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": testPIN})
	var out struct{ Token string }
	json.Unmarshal([]byte(r.Body), &out)
	if r.StatusCode != 200 || out.Token == "" {
		t.Fatalf("unlock: %d %s", r.StatusCode, r.Body)
	}
	return out.Token
}

func TestAdminAPIRequiresToken(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/admin/sessions"}, {"GET", "/api/admin/media"}, {"POST", "/api/admin/media?project=x"},
		{"DELETE", "/api/admin/media/abc"}, {"GET", "/api/admin/settings"}, {"PUT", "/api/admin/settings"},
		{"GET", "/api/admin/routes"}, {"GET", "/api/admin/no-such-endpoint"}, {"POST", "/api/admin/indexnow/submit"},
	} {
		for _, token := range []string{"", "forged-token"} {
			r := jsonReq(t, h, c.method, c.path, token, nil)
			if r.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s token=%q: %d, want 401", c.method, c.path, token, r.StatusCode)
			}
		}
	}
	tok := unlock(t, h)
	if r := jsonReq(t, h, "GET", "/api/admin/session", tok, nil); r.StatusCode != 200 {
		t.Errorf("valid token: %d", r.StatusCode)
	}
}

func TestAdminWrongPINLockout(t *testing.T) {
	srv, _ := adminServer(t, map[string]string{"ADMIN_MAX_ATTEMPTS": "3", "ADMIN_LOCKOUT": "15m"})
	h := srv.Handler()
	for i := 0; i < 3; i++ {
		r := jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": "000000"})
		if r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.Body, "Incorrect PIN entered.") {
			t.Fatalf("attempt %d: %d %s", i, r.StatusCode, r.Body)
		}
	}
	// Locked out: even the right PIN is refused until the window passes.
	r := jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": testPIN})
	if r.StatusCode != http.StatusTooManyRequests || !strings.Contains(r.Body, "Too many incorrect PINs. Try again in 15 minutes.") || r.Header.Get("Retry-After") == "" {
		t.Fatalf("lockout: %d %s retry-after %q", r.StatusCode, r.Body, r.Header.Get("Retry-After"))
	}
}

func TestAdminTokenExpires(t *testing.T) {
	srv, _ := adminServer(t, map[string]string{"ADMIN_TOKEN_TTL": "1s"})
	h := srv.Handler()
	tok := unlock(t, h)
	if r := jsonReq(t, h, "GET", "/api/admin/session", tok, nil); r.StatusCode != 200 {
		t.Fatalf("fresh token: %d", r.StatusCode)
	}
	time.Sleep(1100 * time.Millisecond)
	if r := jsonReq(t, h, "GET", "/api/admin/session", tok, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("expired token: %d, want 401", r.StatusCode)
	}
}

func TestGeneratedPINIsStoredHashedAndStable(t *testing.T) {
	srv, store := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir()})
	h, err := store.GetSetting(context.Background(), auth.PINHashKey)
	if err != nil || !strings.HasPrefix(h, "$2") {
		t.Fatalf("stored hash %q err %v", h, err)
	}
	// A second server on the same database keeps the same PIN.
	srv2, err := buildServer(t, testParts{Config: srv.cfg, Store: store, Warm: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv2.Close)
	if string(srv2.auth.PINHash()) != h {
		t.Error("second boot generated another PIN")
	}
}

func TestAdminPagesAreNoindexAndLocked(t *testing.T) {
	srv, _ := adminServer(t, nil)
	for _, p := range []string{"/admin", "/admin/upload", "/admin/indexnow", "/admin/leads", "/admin/settings"} {
		r := get(t, srv.Handler(), p)
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d", p, r.StatusCode)
		}
		if !strings.Contains(metaContent(headOf(r.Doc), "name", "robots"), "noindex") {
			t.Errorf("%s is indexable", p)
		}
		txt := text(bodyOf(r.Doc))
		if !strings.Contains(txt, "Admin Access Required") || !strings.Contains(txt, "Enter your PIN to access the admin panel") {
			t.Errorf("%s: gate texts missing", p)
		}
	}
	if r := get(t, srv.Handler(), "/admin/indexnow"); !strings.Contains(r.Body, "<title data-rh=\"true\">SEO &amp; IndexNow | Admin</title>") {
		t.Error("IndexNow tab title missing")
	}
	if r := get(t, srv.Handler(), "/admin/nope"); r.StatusCode != 404 {
		t.Errorf("/admin/nope: %d", r.StatusCode)
	}
	// Admin JavaScript is not loaded by public pages.
	home := get(t, srv.Handler(), "/")
	adm := get(t, srv.Handler(), "/admin")
	homeScript := attr(find(home.Doc, func(n *html.Node) bool { return n.Data == "script" && attr(n, "data-src") != "" })[0], "data-src")
	admScript := attr(find(adm.Doc, func(n *html.Node) bool { return n.Data == "script" && attr(n, "type") == "module" })[0], "src")
	if homeScript == admScript || strings.Contains(home.Body, admScript) {
		t.Error("public page loads the admin bundle")
	}
	for _, l := range find(home.Doc, func(n *html.Node) bool {
		return n.Data == "link" && (attr(n, "rel") == "modulepreload" || attr(n, "rel") == "prefetch")
	}) {
		body := get(t, srv.Handler(), attr(l, "href")).Body
		if strings.Contains(body, "Admin Access Required") {
			t.Errorf("public page preloads admin code %s", attr(l, "href"))
		}
	}
}

// multipartBody streams a multipart body with one file part of size bytes
// whose content starts with head and continues with filler.
func multipartBody(filename string, head []byte, size int64) (io.Reader, string) {
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
			n := int64(len(buf))
			if left < n {
				n = left
			}
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

func upload(t *testing.T, h http.Handler, token, project, filename string, content []byte) *response {
	t.Helper()
	body, ct := multipartBody(filename, content, int64(len(content)))
	req := httptest.NewRequest("POST", "/api/admin/media?project="+urlQuery(project), body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+token)
	return do(t, h, req)
}

func urlQuery(s string) string {
	r := strings.NewReplacer(" ", "+", "/", "%2F", "&", "%26", "'", "%27", "#", "%23", "?", "%3F", "\\", "%5C")
	return r.Replace(s)
}

func testJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 120, 255})
		}
	}
	var b bytes.Buffer
	jpeg.Encode(&b, img, nil)
	return b.Bytes()
}

// mp4Head is an ftyp box, then the header of an mdat box that runs to the
// end of the file (size 0): the container check accepts what follows.
var mp4Head = append([]byte{0, 0, 0, 0x18}, []byte("ftypisom\x00\x00\x02\x00isomiso2\x00\x00\x00\x00mdat")...)

func TestUploadImageAndVideoThenDelete(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	// Image: stored, measured, variants made, shown on the public pages.
	r := upload(t, h, tok, "Kitchen Fire Repair", "IMG_0042.JPG", testJPEG(t, 1200, 900))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("image upload: %d %s", r.StatusCode, r.Body)
	}
	var img media.GalleryItem
	json.Unmarshal([]byte(r.Body), &img)
	if img.Type != "image" || img.ProjectName != "Kitchen Fire Repair" || img.Width != 1200 || img.Height != 900 ||
		!strings.HasPrefix(img.Path, "projects/kitchen-fire-repair/") || !strings.HasSuffix(img.Path, ".jpg") || !strings.Contains(img.Srcset, "480w") {
		t.Errorf("image item %+v", img)
	}
	// Video, named only by its content: ".dat" but an MP4 inside.
	r = upload(t, h, tok, "Kitchen Fire Repair", "walkthrough.mp4", append(append([]byte{}, mp4Head...), make([]byte, 300_000)...))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("video upload: %d %s", r.StatusCode, r.Body)
	}
	var vid media.GalleryItem
	json.Unmarshal([]byte(r.Body), &vid)
	if vid.Type != "video" || !strings.HasSuffix(vid.Path, ".mp4") {
		t.Errorf("video item %+v", vid)
	}
	// The video is served with Range support.
	req := httptest.NewRequest("GET", vid.URL, nil)
	req.Header.Set("Range", "bytes=4-11")
	if rr := do(t, h, req); rr.StatusCode != http.StatusPartialContent || rr.Body != "ftypisom" {
		t.Errorf("range: %d %q", rr.StatusCode, rr.Body)
	}
	// Public pages re-render with the new items.
	for _, p := range []string{"/", "/portfolio"} {
		pg := get(t, h, p)
		if !strings.Contains(text(bodyOf(pg.Doc)), "1 photo and 1 video from 1 project") {
			t.Errorf("%s does not show the uploads", p)
		}
	}
	list := jsonReq(t, h, "GET", "/api/admin/media", tok, nil)
	if !strings.Contains(list.Body, img.ID) || !strings.Contains(list.Body, vid.ID) {
		t.Errorf("admin list: %s", list.Body)
	}
	// Delete removes the record, the file and its variants.
	if r := jsonReq(t, h, "DELETE", "/api/admin/media/"+img.ID, tok, nil); r.StatusCode != 200 {
		t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
	}
	if r := get(t, h, img.URL); r.StatusCode != 404 {
		t.Errorf("deleted file still served: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/media/"+img.ID, tok, nil); r.StatusCode != 404 || !strings.Contains(r.Body, "no longer exists") {
		t.Errorf("second delete: %d %s", r.StatusCode, r.Body)
	}
	rows, _ := store.ListMedia(context.Background())
	if len(rows) != 1 {
		t.Errorf("%d rows after delete", len(rows))
	}
	if pg := get(t, h, "/portfolio"); !strings.Contains(text(bodyOf(pg.Doc)), "1 video from 1 project") {
		t.Error("portfolio not re-rendered after delete")
	}
}

func TestUploadRejections(t *testing.T) {
	srv, store := adminServer(t, map[string]string{"MAX_UPLOAD_BYTES": "1000000"})
	h := srv.Handler()
	tok := unlock(t, h)
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
			r := upload(t, h, tok, c.project, c.file, c.content)
			if r.StatusCode != c.status || !strings.Contains(r.Body, c.msg) {
				t.Errorf("%d %s, want %d %q", r.StatusCode, r.Body, c.status, c.msg)
			}
		})
	}
	rows, _ := store.ListMedia(context.Background())
	if len(rows) != 0 {
		t.Errorf("%d rejected uploads stored", len(rows))
	}
	// Nothing partial was left in storage either.
	filepathCount := 0
	walk(srv.cfg.DataDir, func(string) { filepathCount++ })
	if filepathCount > 1 { // the SQLite-free data dir holds only the media folder
		t.Errorf("%d files left in the data folder after rejected uploads", filepathCount)
	}
}

func TestUploadTraversalNames(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	for _, c := range []struct{ project, file string }{
		{"../../etc", "passwd.jpg"}, {"..", "x.jpg"}, {"a/../../b", "../../../evil.jpg"}, {"ok", "..\\..\\win.ini.jpg"}, {"ok", "/abs/path.jpg"},
	} {
		r := upload(t, h, tok, c.project, c.file, testJPEG(t, 20, 20))
		if r.StatusCode == http.StatusCreated {
			var it media.GalleryItem
			json.Unmarshal([]byte(r.Body), &it)
			if strings.Contains(it.Path, "..") || !strings.HasPrefix(it.Path, "projects/") || strings.Count(it.Path, "/") != 2 {
				t.Errorf("%q/%q stored at %q", c.project, c.file, it.Path)
			}
		} else if r.StatusCode != http.StatusBadRequest {
			t.Errorf("%q/%q: %d %s", c.project, c.file, r.StatusCode, r.Body)
		}
	}
	// Nothing was written outside the media folder.
	walk(srv.cfg.DataDir, func(p string) {
		if !strings.HasPrefix(p, srv.cfg.DataDir+"/media/projects/") {
			t.Errorf("file outside media/projects: %s", p)
		}
	})
	// Serving refuses traversal too.
	for _, p := range []string{"/media/../site.db", "/media/projects/../../x", "/media/%2e%2e/x"} {
		if r := get(t, h, p); r.StatusCode != 404 && r.StatusCode != 301 {
			t.Errorf("%s: %d", p, r.StatusCode)
		}
	}
}

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

// TestUploadStreamsLargeFile sends a 1 GB video through the handler and
// checks the process did not hold it: resident memory grows far less
// than the file.
func TestUploadStreamsLargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 1 GB")
	}
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	runtime.GC()
	base := rss()
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				if r := rss(); r > peak.Load() {
					peak.Store(r)
				}
			}
		}
	}()
	const size = 1 << 30
	body, ct := multipartBody("site-walkthrough.mp4", mp4Head, size)
	req := httptest.NewRequest("POST", "/api/admin/media?project=Large+Video", body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+tok)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	close(done)
	if w.Code != http.StatusCreated {
		t.Fatalf("status %d %s", w.Code, w.Body.String())
	}
	var it media.GalleryItem
	json.Unmarshal(w.Body.Bytes(), &it)
	info, err := os.Stat(srv.cfg.DataDir + "/media/" + it.Path)
	if err != nil || info.Size() != size {
		t.Fatalf("stored file: %v %v", info, err)
	}
	grew := peak.Load() - base
	t.Logf("RSS before %d MB, peak %d MB (+%d MB) for a %d MB upload", base>>20, peak.Load()>>20, grew>>20, size>>20)
	if grew > 64<<20 {
		t.Errorf("RSS grew by %d MB, want < 64 MB", grew>>20)
	}
}

func rss() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "VmRSS:")), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

func TestSettingsSaveRerendersPublicPages(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	tok := settingsAdmin(t, srv, store)
	get(t, h, "/") // cached with the configured name
	bad := map[string]any{"businessName": "", "phone": "123", "address": "somewhere", "website": "nope", "officePhone": "(404) 555-0100"}
	r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, bad)
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "Enter the address as: street, city, state ZIP") || !strings.Contains(r.Body, "10-digit") {
		t.Fatalf("invalid settings: %d %s", r.StatusCode, r.Body)
	}
	good := map[string]any{"businessName": "Peach State Restoration", "phone": "(404) 555-0177", "address": "100 Main St, Marietta, GA 30060",
		"website": "https://www.peachstate.example", "officePhone": "(404) 555-0177", "autoIndexNow": false, "seoMonitoring": true, "autoSchema": true, "emergencyMode": true}
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, good); r.StatusCode != 200 {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	got := jsonReq(t, h, "GET", "/api/admin/settings", tok, nil)
	if !strings.Contains(got.Body, `"autoIndexNow":false`) || !strings.Contains(got.Body, "Peach State Restoration") {
		t.Errorf("settings read back: %s", got.Body)
	}
	home := get(t, h, "/")
	txt := text(bodyOf(home.Doc))
	for _, want := range []string{"Peach State Restoration", "(404) 555-0177", "100 Main St, Marietta, GA 30060"} {
		if !strings.Contains(txt, want) {
			t.Errorf("home does not show %q after saving", want)
		}
	}
	if !strings.Contains(home.Body, `href="tel:+14045550177"`) {
		t.Error("tel link not updated")
	}
	if !strings.Contains(home.Body, `"url":"https://www.peachstate.example/"`) {
		t.Error("structured data url does not use the saved website")
	}
}

// Saves from several admins at once all succeed, and the site ends up
// showing one of them whole (name and phone from the same save).
func TestParallelSettingsSaves(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	tok := settingsAdmin(t, srv, store)
	const n = 50
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			body := map[string]any{"businessName": fmt.Sprintf("Save %02d Restoration", i), "phone": fmt.Sprintf("(404) 555-01%02d", i),
				"address": "100 Main St, Marietta, GA 30060", "website": "https://www.peachstate.example", "officePhone": "(404) 555-0177"}
			codes[i] = jsonReq(t, h, "PUT", "/api/admin/settings", tok, body).StatusCode
		}(i)
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusOK {
			t.Errorf("save %d: %d", i, c)
		}
	}
	var got struct{ BusinessName, Phone string }
	json.Unmarshal([]byte(jsonReq(t, h, "GET", "/api/admin/settings", tok, nil).Body), &got)
	var k int
	if _, err := fmt.Sscanf(got.BusinessName, "Save %02d Restoration", &k); err != nil || got.Phone != fmt.Sprintf("(404) 555-01%02d", k) {
		t.Errorf("after parallel saves: %+v, want one save's name and phone", got)
	}
}
